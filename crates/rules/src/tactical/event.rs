//! What happened, with every die and the table row it hit; the event log and previews read these.

use super::components::{Reactions, Side, UnitId};
use super::config::{GeneralFate, SkirmisherFate};
use super::grid::{Cell, Dir};
use super::state::EndReason;
use crate::dice::{PipRange, Pips};
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

/// One term of a sum: a value and what it is ("2 (Line infantry)", "+1 flank").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub value: i32,
    pub what: String,
}

impl Term {
    pub fn new(value: i32, what: impl Into<String>) -> Term {
        Term { value, what: what.into() }
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

    pub fn text(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                s.push_str(if t.value < 0 { " − " } else { " + " });
            } else if t.value < 0 {
                s.push('−');
            }
            let _ = write!(s, "{}", t.value.abs());
            if !t.what.is_empty() {
                let _ = write!(s, " {}", t.what);
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
    Fire { by: UnitId, skirmisher: bool },
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
}

impl Removal {
    fn text(self) -> &'static str {
        match self {
            Removal::HealthZero => "Health 0: dispersed (T-MELEE-8)",
            Removal::Destroyed => "Health below 0: destroyed (T-MELEE-8)",
            Removal::MoraleFailed => "dispersed (T-MELEE-8)",
            Removal::Overrun => "overrun (T-ART-3)",
            Removal::Routed => "routs off the field (T-SKIRM-4)",
            Removal::CaughtRetreating => "caught while retreating: captured (T-END-3)",
            Removal::TakenAtTheEnd => "dispersed, taken prisoner at the end (T-END-4)",
            Removal::Capitulated => "captured in the capitulation (T-FORT-7)",
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
    /// The event in plain English; `name` gives a unit's name.
    pub fn describe(&self, name: &dyn Fn(UnitId) -> String) -> String {
        match self {
            Event::RedoubtPlaced { side, cell } => {
                format!("{} builds a redoubt at {cell}", side.name())
            }
            Event::Deployed { unit, cell, facing, automatic } => {
                format!(
                    "{} {}deployed at {cell} facing {}",
                    name(*unit),
                    if *automatic { "auto-" } else { "" },
                    facing.name()
                )
            }
            Event::HqNamed { side, unit } => format!("{} HQ is with {}", side.name(), name(*unit)),
            Event::FormationFormed { name: f, units, general, division, .. } => format!(
                "{} {f} of {} units, general with {}",
                if *division { "division" } else { "brigade" },
                units.len(),
                name(*general)
            ),
            Event::SetupDone { side } => format!("{} has finished setting up", side.name()),
            Event::BattleBegins => "The battle begins".to_string(),
            Event::TurnBegins { turn, round, side } => {
                format!("Turn {turn} (round {round}): {} moves", side.name())
            }
            Event::Moved { unit, path, mp } => {
                format!(
                    "{} moves to {} ({mp} MP)",
                    name(*unit),
                    path.last().map_or("the edge".to_string(), |c| c.to_string())
                )
            }
            Event::Turned { unit, facing, mp } => {
                format!("{} turns {} ({mp} MP)", name(*unit), facing.name())
            }
            Event::Ambushed { unit, by, at } => {
                format!("{} runs into {} hidden in the forest and stops at {at} (T-TERR-2)", name(*unit), name(*by))
            }
            Event::Revealed { unit } => format!("{} is revealed (T-TERR-2)", name(*unit)),
            Event::Contact { unit, enemy, flank, charging } => format!(
                "{} closes with {}{}{}",
                name(*unit),
                name(*enemy),
                if *flank { " on its flank" } else { "" },
                if *charging { ", charging" } else { "" }
            ),
            Event::CounterCharge { unit } => format!("{} counter-charges (T-MELEE-6)", name(*unit)),
            Event::Fired { firer, target, kind, occasion, roll, damage } => {
                let what = match occasion {
                    FireOccasion::Ordered => "fires",
                    FireOccasion::CounterVolley => "counter-volleys",
                    FireOccasion::FlankCounterVolley => "counter-volleys at half strength",
                    FireOccasion::Intercept => "fires while intercepting",
                };
                let shot = match kind {
                    FireKind::Volley => "",
                    FireKind::Canister => " (canister)",
                    FireKind::Roundshot => " (roundshot)",
                };
                let dice = match roll {
                    Some(r) => {
                        format!(": d6={} needs {} – {}", r.pips, r.needed, if r.success() { "hit" } else { "miss" })
                    }
                    None => String::new(),
                };
                let hit = roll.is_none_or(|r| r.success());
                let dmg = if hit { format!(", damage {}", damage.text()) } else { String::new() };
                format!("{} {what} at {}{shot}{dice}{dmg}", name(*firer), name(*target))
            }
            Event::Damaged { unit, amount, health } => format!("{} loses {amount}: Health {health}", name(*unit)),
            Event::MoraleTest { unit, roll, modifiers, total, needed, passed } => {
                let mut mods = String::new();
                for m in modifiers {
                    let _ = write!(mods, " {}{} {}", if m.value < 0 { "−" } else { "+" }, m.value.abs(), m.what);
                }
                format!(
                    "Morale test for {}: d6={roll}{mods} = {total} {} {needed}: {}",
                    name(*unit),
                    if *passed { "≥" } else { "<" },
                    if *passed { "holds" } else { "fails" }
                )
            }
            Event::Removed { unit, how } => format!("{}: {}", name(*unit), how.text()),
            Event::Intercept { unit, target, .. } => {
                format!("{} intercepts {} (T-MELEE-2)", name(*unit), name(*target))
            }
            Event::SkirmishersCharged { unit, cavalry, roll, fate } => format!(
                "{} charged by {}: d6={roll}: {} (T-SKIRM-4)",
                name(*unit),
                name(*cavalry),
                match fate {
                    SkirmisherFate::Routs => "routs off the field",
                    SkirmisherFate::FallsBack => "falls back behind its infantry, disorganized",
                    SkirmisherFate::Stands => "stands, disorganized, and fights",
                }
            ),
            Event::FellBack { unit, to } => format!("{} falls back to {to}", name(*unit)),
            Event::SkirmishOrder { unit, on } => {
                format!("{} {} skirmish order (T-SKIRM-1)", name(*unit), if *on { "takes" } else { "leaves" })
            }
            Event::Reformed { unit } => format!("{} reforms (T-SKIRM-5)", name(*unit)),
            Event::ReactionsSet { unit, reactions } => format!(
                "{}: counter-volley {}, counter-charge {}, intercept {}",
                name(*unit),
                onoff(reactions.counter_volley),
                onoff(reactions.counter_charge),
                onoff(reactions.intercept)
            ),
            Event::MeleeExchange { red, blue, red_damage, blue_damage, .. } => format!(
                "Melee: red {} vs blue {}: red −{red_damage}, blue −{blue_damage} (T-MELEE-4)",
                red.text(),
                blue.text()
            ),
            Event::GeneralTest { side, formation, losses, roll, fate } => {
                format!(
                    "General of {} {formation} (losses {losses}): d6={roll}: {} (T-CMD-2)",
                    side.name(),
                    fate.text()
                )
            }
            Event::GeneralMoved { formation, to } => {
                format!("The general of {formation} moves to {}", name(*to))
            }
            Event::HqCaptured { side } => {
                format!("{} HQ is lost: its units may only fire or withdraw, −2 morale (T-CMD-5)", side.name())
            }
            Event::RetreatOrdered { side } => {
                format!("{} orders the retreat (T-END-2)", side.name())
            }
            Event::Retreated { unit } => {
                format!("{} leaves the field in good order (T-END-2)", name(*unit))
            }
            Event::GunsTaken { unit, by } => {
                format!("{} passes to {} as a full battery (T-END-4)", name(*unit), by.name())
            }
            Event::Capitulation { side } => format!("{} capitulates (T-FORT-7)", side.name()),
            Event::TurnEnded { turn, side } => format!("{} ends turn {turn}", side.name()),
            Event::BattleEnded { winner, reason } => format!(
                "The battle is over: {} wins ({})",
                winner.name(),
                match reason {
                    EndReason::FieldHeld => "the field is held, T-END-1",
                    EndReason::BothGone => "both armies gone, the defender holds, T-END-1",
                    EndReason::FortressTaken => "the fortress is taken, T-FORT-6",
                    EndReason::Capitulation => "capitulation, T-FORT-7",
                    EndReason::RoundLimit => "round limit, the defender holds, T-TURN-4",
                }
            ),
        }
    }
}

fn onoff(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_read_like_the_rulebook() {
        let s = Sum::of(vec![Term::new(2, "(C)"), Term::new(1, "charge"), Term::new(1, "flank"), Term::new(2, "(P)")]);
        assert_eq!(s.text(), "2 (C) + 1 charge + 1 flank + 2 (P) = 6");
        let f = Sum::of(vec![Term::new(3, "ranged"), Term::new(-1, "forest")]);
        assert_eq!(f.text(), "3 ranged − 1 forest = 2");
    }
}
