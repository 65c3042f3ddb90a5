//! What happened, with every die and the table row it hit; the event log and previews read these.

use super::components::{EndReason, Reactions, Side, UnitId};
use super::config::{GeneralFate, SkirmisherFate};
use super::grid::{Cell, Dir};
use super::order::Ruling;
use crate::dice::{PipRange, Pips};
use crate::moderation::Asked;
use crate::texts::Texts;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// A die thrown against a range of pips that succeed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub pips: Pips,
    pub needed: PipRange,
}

impl Roll {
    pub fn success(self) -> bool {
        self.needed.contains(self.pips)
    }
}

/// One term of a sum: a value and what it is: a unit's own value ("2 (Line infantry)") or a
/// bonus named by a string-table key under `term.` ("+1 flank").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub value: i32,
    /// Key under `term.` in the string tables (empty for a unit's own value).
    pub what: String,
    /// The unit whose value this is.
    #[serde(default)]
    pub unit: Option<UnitId>,
}

impl Term {
    /// A named bonus or modifier (`what` is a `term.` key: "flank", "forest", ...).
    pub fn new(value: i32, what: impl Into<String>) -> Term {
        Term { value, what: what.into(), unit: None }
    }

    /// A unit's own value.
    pub fn unit(value: i32, unit: UnitId) -> Term {
        Term { value, what: String::new(), unit: Some(unit) }
    }

    /// The words after the number: "(name)" or the bonus.
    pub fn label(&self, texts: &Texts, name: &dyn Fn(UnitId) -> String) -> String {
        match self.unit {
            Some(u) => format!("({})", name(u)),
            None => texts.get(&format!("term.{}", self.what)).to_string(),
        }
    }
}

/// A sum and its terms, written as the rulebook does: "2 + 1 charge + 1 flank + 2 = 6".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sum {
    pub terms: Vec<Term>,
    pub total: i32,
}

impl Sum {
    pub fn of(terms: Vec<Term>) -> Sum {
        let total = terms.iter().map(|t| t.value).sum();
        Sum { terms, total }
    }

    /// In words from a string table, with unit names.
    pub fn text_with(&self, texts: &Texts, name: &dyn Fn(UnitId) -> String) -> String {
        let mut s = String::new();
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                s.push_str(if t.value < 0 { " − " } else { " + " });
            } else if t.value < 0 {
                s.push('−');
            }
            let _ = write!(s, "{}", t.value.abs());
            let label = t.label(texts, name);
            if !label.is_empty() {
                let _ = write!(s, " {label}");
            }
        }
        if self.terms.is_empty() {
            s.push('0');
        }
        let _ = write!(s, " = {}", self.total);
        s
    }
}

/// What a damage step came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// `skirmisher`: skirmishers attacking by fire (not answering an attack with a
    /// counter-volley), which lowers the target's Morale (T-SKIRM-3).
    Fire {
        by: UnitId,
        skirmisher: bool,
    },
    Melee,
}

/// Why a unit left the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Removal {
    /// Health 0 (T-MELEE-8).
    HealthZero,
    /// Health below 0 (T-MELEE-8).
    Destroyed,
    /// Failed a morale test (T-MELEE-8).
    MoraleFailed,
    /// Artillery closed on without support, or its side lost the exchange (T-ART-3).
    Overrun,
    /// Skirmishers overrun or routed by cavalry, or disorganized and attacked (T-SKIRM-4/5).
    Routed,
    /// A retreating unit caught by the enemy (T-END-3).
    CaughtRetreating,
    /// Dispersed units of the loser at the end (T-END-4, T-FORT-6).
    TakenAtTheEnd,
    /// The fortress capitulated (T-FORT-7).
    Capitulated,
    /// The fortress capitulated on terms that let its garrison march out (T-FORT-7).
    MarchedOut,
}

impl Removal {
    /// Its key in the string tables, under `event.removed.`.
    pub fn key(self) -> &'static str {
        match self {
            Removal::HealthZero => "health_zero",
            Removal::Destroyed => "destroyed",
            Removal::MoraleFailed => "morale_failed",
            Removal::Overrun => "overrun",
            Removal::Routed => "routed",
            Removal::CaughtRetreating => "caught_retreating",
            Removal::TakenAtTheEnd => "taken_at_the_end",
            Removal::Capitulated => "capitulated",
            Removal::MarchedOut => "marched_out",
        }
    }
}

/// How a shot was fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireKind {
    /// Infantry or cavalry fire: always hits (T-FIRE-1).
    Volley,
    /// Artillery up to 4 cells: always hits (T-FIRE-5).
    Canister,
    /// Artillery farther: hits on 4–6 (T-FIRE-5).
    Roundshot,
}

/// Why a shot was fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireOccasion {
    Ordered,
    /// T-FIRE-9.
    CounterVolley,
    /// T-FIRE-10: light infantry at a flank or rear attacker, half value.
    FlankCounterVolley,
    /// T-MELEE-2: an intercepting unit's shot before its last step.
    Intercept,
}

/// One thing that happened in the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    RedoubtPlaced {
        side: Side,
        cell: Cell,
    },
    Deployed {
        unit: UnitId,
        cell: Cell,
        facing: Dir,
        automatic: bool,
    },
    HqNamed {
        side: Side,
        unit: UnitId,
    },
    FormationFormed {
        side: Side,
        name: String,
        units: Vec<UnitId>,
        general: UnitId,
        division: bool,
    },
    SetupDone {
        side: Side,
    },
    BattleBegins,
    TurnBegins {
        turn: u32,
        round: u32,
        side: Side,
    },
    Moved {
        unit: UnitId,
        path: Vec<Cell>,
        mp: i32,
    },
    Turned {
        unit: UnitId,
        facing: Dir,
        mp: i32,
    },
    /// A mover stopped next to a light infantry ambush it could not see (T-TERR-2).
    Ambushed {
        unit: UnitId,
        by: UnitId,
        at: Cell,
    },
    Revealed {
        unit: UnitId,
    },
    Contact {
        unit: UnitId,
        enemy: UnitId,
        flank: bool,
        charging: bool,
    },
    CounterCharge {
        unit: UnitId,
    },
    Fired {
        firer: UnitId,
        target: UnitId,
        kind: FireKind,
        occasion: FireOccasion,
        roll: Option<Roll>,
        damage: Sum,
    },
    /// T-ART-1: horse artillery's shots test for a second shot this turn.
    ShotsTest {
        unit: UnitId,
        roll: Roll,
    },
    Damaged {
        unit: UnitId,
        amount: i32,
        health: i32,
    },
    MoraleTest {
        unit: UnitId,
        roll: Pips,
        modifiers: Vec<Term>,
        total: i32,
        needed: i32,
        passed: bool,
    },
    Removed {
        unit: UnitId,
        how: Removal,
    },
    Intercept {
        unit: UnitId,
        target: UnitId,
        path: Vec<Cell>,
    },
    SkirmishersCharged {
        unit: UnitId,
        cavalry: UnitId,
        roll: Pips,
        fate: SkirmisherFate,
    },
    FellBack {
        unit: UnitId,
        to: Cell,
    },
    SkirmishOrder {
        unit: UnitId,
        on: bool,
    },
    Reformed {
        unit: UnitId,
    },
    ReactionsSet {
        unit: UnitId,
        reactions: Reactions,
    },
    MeleeExchange {
        units: Vec<UnitId>,
        red: Sum,
        blue: Sum,
        red_damage: i32,
        blue_damage: i32,
        red_primary: Option<UnitId>,
        blue_primary: Option<UnitId>,
    },
    GeneralTest {
        side: Side,
        formation: String,
        losses: i32,
        roll: Pips,
        fate: GeneralFate,
    },
    GeneralMoved {
        formation: String,
        to: UnitId,
    },
    HqCaptured {
        side: Side,
    },
    RetreatOrdered {
        side: Side,
    },
    Retreated {
        unit: UnitId,
    },
    GunsTaken {
        unit: UnitId,
        by: Side,
    },
    Capitulation {
        side: Side,
    },
    /// T-FORT-7: the side capitulates; its terms wait for the moderator.
    TermsAsked {
        side: Side,
    },
    /// The decisions the moderator takes from now on ([`crate::moderation`]).
    Moderated {
        asks: Vec<Asked>,
    },
    /// The moderator ruled (or the engine's answer was taken: [`Ruling::Default`]).
    Ruled {
        rule: Asked,
        ruling: Ruling,
    },
    TurnEnded {
        turn: u32,
        side: Side,
    },
    BattleEnded {
        winner: Side,
        reason: EndReason,
    },
}

impl Event {
    /// The unit the event is about, if one (a shot's firer, a melee's first unit): what a log
    /// colours and places the line by.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Event::Deployed { unit, .. }
            | Event::Moved { unit, .. }
            | Event::Turned { unit, .. }
            | Event::Ambushed { unit, .. }
            | Event::Revealed { unit }
            | Event::Contact { unit, .. }
            | Event::CounterCharge { unit }
            | Event::ShotsTest { unit, .. }
            | Event::Damaged { unit, .. }
            | Event::MoraleTest { unit, .. }
            | Event::Removed { unit, .. }
            | Event::Intercept { unit, .. }
            | Event::SkirmishersCharged { unit, .. }
            | Event::FellBack { unit, .. }
            | Event::SkirmishOrder { unit, .. }
            | Event::Reformed { unit }
            | Event::ReactionsSet { unit, .. }
            | Event::Retreated { unit }
            | Event::GunsTaken { unit, .. } => Some(*unit),
            Event::Fired { firer, .. } => Some(*firer),
            Event::MeleeExchange { units, .. } => units.first().copied(),
            _ => None,
        }
    }

    /// The event in plain English; `name` gives a unit's name.
    pub fn describe(&self, name: &dyn Fn(UnitId) -> String) -> String {
        self.describe_with(&Texts::english(), name)
    }

    /// The event in the words of a string table.
    pub fn describe_with(&self, t: &Texts, name: &dyn Fn(UnitId) -> String) -> String {
        let side = |s: &Side| t.get(&format!("side.{}", s.name())).to_string();
        let facing = |d: &Dir| t.get(&format!("facing.{}", d.name())).to_string();
        let unit = |u: &UnitId| ("unit", name(*u));
        match self {
            Event::RedoubtPlaced { side: s, cell } => {
                t.fill("event.redoubt_placed", &[("side", side(s)), ("cell", cell.to_string())])
            }
            Event::Deployed { unit: u, cell, facing: f, automatic } => t.fill(
                if *automatic { "event.deployed_auto" } else { "event.deployed" },
                &[unit(u), ("cell", cell.to_string()), ("facing", facing(f))],
            ),
            Event::HqNamed { side: s, unit: u } => t.fill("event.hq_named", &[("side", side(s)), unit(u)]),
            Event::FormationFormed { name: f, units, general, division, .. } => t.fill(
                "event.formation",
                &[
                    ("kind", t.get(if *division { "word.division" } else { "word.brigade" }).to_string()),
                    ("name", f.clone()),
                    ("count", units.len().to_string()),
                    unit(general),
                ],
            ),
            Event::SetupDone { side: s } => t.fill("event.setup_done", &[("side", side(s))]),
            Event::BattleBegins => t.fill("event.battle_begins", &[]),
            Event::TurnBegins { turn, round, side: s } => t.fill(
                "event.turn_begins",
                &[("turn", turn.to_string()), ("round", round.to_string()), ("side", side(s))],
            ),
            Event::Moved { unit: u, path, mp } => {
                let to = path.last().map_or_else(|| t.get("word.the_edge").to_string(), Cell::to_string);
                t.fill("event.moved", &[unit(u), ("cell", to), ("mp", mp.to_string())])
            }
            Event::Turned { unit: u, facing: f, mp } => {
                t.fill("event.turned", &[unit(u), ("facing", facing(f)), ("mp", mp.to_string())])
            }
            Event::Ambushed { unit: u, by, at } => {
                t.fill("event.ambushed", &[unit(u), ("enemy", name(*by)), ("cell", at.to_string())])
            }
            Event::Revealed { unit: u } => t.fill("event.revealed", &[unit(u)]),
            Event::Contact { unit: u, enemy, flank, charging } => {
                let key = match (flank, charging) {
                    (false, false) => "event.contact",
                    (true, false) => "event.contact_flank",
                    (false, true) => "event.contact_charging",
                    (true, true) => "event.contact_flank_charging",
                };
                t.fill(key, &[unit(u), ("enemy", name(*enemy))])
            }
            Event::CounterCharge { unit: u } => t.fill("event.counter_charge", &[unit(u)]),
            Event::Fired { firer, target, kind, occasion, roll, damage } => {
                let occasion = match occasion {
                    FireOccasion::Ordered => "event.fired.ordered",
                    FireOccasion::CounterVolley => "event.fired.counter_volley",
                    FireOccasion::FlankCounterVolley => "event.fired.flank_counter_volley",
                    FireOccasion::Intercept => "event.fired.intercept",
                };
                let mut s = t.fill(occasion, &[unit(firer), ("target", name(*target))]);
                match kind {
                    FireKind::Volley => {}
                    FireKind::Canister => s.push_str(t.get("event.fired.canister")),
                    FireKind::Roundshot => s.push_str(t.get("event.fired.roundshot")),
                }
                if let Some(r) = roll {
                    let result = t.get(if r.success() { "word.hit" } else { "word.miss" }).to_string();
                    s.push_str(&t.fill(
                        "event.fired.roll",
                        &[("pips", r.pips.to_string()), ("needed", r.needed.to_string()), ("result", result)],
                    ));
                }
                if roll.is_none_or(|r| r.success()) {
                    s.push_str(&t.fill("event.fired.damage", &[("sum", damage.text_with(t, name))]));
                }
                s
            }
            Event::ShotsTest { unit: u, roll } => t.fill(
                if roll.success() { "event.shots_test.passed" } else { "event.shots_test.failed" },
                &[unit(u), ("pips", roll.pips.to_string()), ("needed", roll.needed.to_string())],
            ),
            Event::Damaged { unit: u, amount, health } => {
                t.fill("event.damaged", &[unit(u), ("amount", amount.to_string()), ("health", health.to_string())])
            }
            Event::MoraleTest { unit: u, roll, modifiers, total, needed, passed } => {
                let mut mods = String::new();
                for m in modifiers {
                    let _ =
                        write!(mods, " {}{} {}", if m.value < 0 { "−" } else { "+" }, m.value.abs(), m.label(t, name));
                }
                t.fill(
                    "event.morale",
                    &[
                        unit(u),
                        ("roll", roll.to_string()),
                        ("mods", mods),
                        ("total", total.to_string()),
                        ("cmp", if *passed { "≥" } else { "<" }.to_string()),
                        ("needed", needed.to_string()),
                        ("result", t.get(if *passed { "word.holds" } else { "word.fails" }).to_string()),
                    ],
                )
            }
            Event::Removed { unit: u, how } => t.fill(&format!("event.removed.{}", how.key()), &[unit(u)]),
            Event::Intercept { unit: u, target, .. } => {
                t.fill("event.intercept", &[unit(u), ("target", name(*target))])
            }
            Event::SkirmishersCharged { unit: u, cavalry, roll, fate } => {
                let key = match fate {
                    SkirmisherFate::Routs => "event.skirmishers_charged.routs",
                    SkirmisherFate::FallsBack => "event.skirmishers_charged.falls_back",
                    SkirmisherFate::Stands => "event.skirmishers_charged.stands",
                };
                t.fill(key, &[unit(u), ("enemy", name(*cavalry)), ("roll", roll.to_string())])
            }
            Event::FellBack { unit: u, to } => t.fill("event.fell_back", &[unit(u), ("cell", to.to_string())]),
            Event::SkirmishOrder { unit: u, on } => {
                t.fill(if *on { "event.skirmish_on" } else { "event.skirmish_off" }, &[unit(u)])
            }
            Event::Reformed { unit: u } => t.fill("event.reformed", &[unit(u)]),
            Event::ReactionsSet { unit: u, reactions } => {
                let onoff = |b: bool| t.get(if b { "word.on" } else { "word.off" }).to_string();
                t.fill(
                    "event.reactions",
                    &[
                        unit(u),
                        ("volley", onoff(reactions.counter_volley)),
                        ("charge", onoff(reactions.counter_charge)),
                        ("intercept", onoff(reactions.intercept)),
                    ],
                )
            }
            Event::MeleeExchange { red, blue, red_damage, blue_damage, .. } => t.fill(
                "event.melee",
                &[
                    ("red", red.text_with(t, name)),
                    ("blue", blue.text_with(t, name)),
                    ("red_damage", red_damage.to_string()),
                    ("blue_damage", blue_damage.to_string()),
                ],
            ),
            Event::GeneralTest { side: s, formation, losses, roll, fate } => t.fill(
                "event.general_test",
                &[
                    ("side", side(s)),
                    ("formation", formation.clone()),
                    ("losses", losses.to_string()),
                    ("roll", roll.to_string()),
                    ("fate", t.get(&format!("fate.{}", fate.key())).to_string()),
                ],
            ),
            Event::GeneralMoved { formation, to } => {
                t.fill("event.general_moved", &[("formation", formation.clone()), unit(to)])
            }
            Event::HqCaptured { side: s } => t.fill("event.hq_captured", &[("side", side(s))]),
            Event::RetreatOrdered { side: s } => t.fill("event.retreat_ordered", &[("side", side(s))]),
            Event::Retreated { unit: u } => t.fill("event.retreated", &[unit(u)]),
            Event::GunsTaken { unit: u, by } => t.fill("event.guns_taken", &[unit(u), ("side", side(by))]),
            Event::Capitulation { side: s } => t.fill("event.capitulation", &[("side", side(s))]),
            Event::TermsAsked { side: s } => t.fill("event.terms_asked", &[("side", side(s))]),
            Event::Moderated { asks } => {
                let rules: Vec<&str> = asks.iter().map(|a| a.rule()).collect();
                t.fill("event.moderated", &[("rules", rules.join(", "))])
            }
            Event::Ruled { rule, .. } => t.fill("event.ruled", &[("rule", rule.rule().to_string())]),
            Event::TurnEnded { turn, side: s } => {
                t.fill("event.turn_ended", &[("side", side(s)), ("turn", turn.to_string())])
            }
            Event::BattleEnded { winner, reason } => {
                t.fill(&format!("event.battle_ended.{}", reason.key()), &[("side", side(winner))])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_read_like_the_rulebook() {
        let names = |id: UnitId| if id == UnitId(3) { "C".to_string() } else { "P".to_string() };
        let s = Sum::of(vec![
            Term::unit(2, UnitId(3)),
            Term::new(1, "charge"),
            Term::new(1, "flank"),
            Term::unit(2, UnitId(2)),
        ]);
        assert_eq!(s.text_with(&Texts::english(), &names), "2 (C) + 1 charge + 1 flank + 2 (P) = 6");
        assert_eq!(s.text_with(&Texts::russian(), &names), "2 (C) + 1 натиск + 1 фланг + 2 (P) = 6");
        let f = Sum::of(vec![Term::new(3, "ranged"), Term::new(-1, "forest")]);
        assert_eq!(f.text_with(&Texts::english(), &names), "3 ranged − 1 forest = 2");
    }

    #[test]
    fn every_event_has_words_in_both_languages() {
        let en = Texts::english();
        let name = |id: UnitId| format!("unit {}", id.0);
        let e = Event::Removed { unit: UnitId(4), how: Removal::Overrun };
        assert_eq!(e.describe_with(&en, &name), "unit 4: overrun (T-ART-3)");
        assert_eq!(e.describe_with(&Texts::russian(), &name), "unit 4: смят (T-ART-3)");
    }
}
