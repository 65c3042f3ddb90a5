//! Land combat (S-COMBAT): combat values with their terms, engagements, the D table, and the
//! losses that follow. The preview calls the same functions.

use super::event::{CombatResult, Event, EventKind};
use super::hexmap::{HexAt, Terrain};
use super::state::{Ctx, DefenseColumn, ForceId, ForceKind, FormationId, Place};
use crate::texts::Msg;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// S-LAND-5: mountain infantry in mountains, +10.
pub const MOUNTAIN_BONUS: i32 = 10;
/// S-COMBAT-6, S-TERR-2: defending on a river bank, +5 Defense.
pub const RIVER_BANK_BONUS: i32 = 5;
/// S-COMBAT-6: flank or rear ×1.25.
pub const FLANK_FACTOR: (i64, i64) = (5, 4);
/// S-SUP-3: infantry and cavalry without ammunition ×0.5.
pub const NO_AMMO_FACTOR: (i64, i64) = (1, 2);
/// S-COMBAT-11: each encircled turn takes 25 % off.
pub const ENCIRCLEMENT_STEP_PERCENT: i64 = 25;
/// S-COMBAT-8 thresholds.
pub const D_DESTROYED: i64 = 30;
pub const D_DISPERSED: i64 = 20;
pub const D_STUBBORN_HEAVY: i64 = 5;

/// An exact fraction (values are floored only at the side sum, S-COMBAT-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    pub num: i64,
    pub den: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs().max(1) } else { gcd(b, a % b) }
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    pub fn new(num: i64, den: i64) -> Ratio {
        let g = gcd(num, den);
        Ratio { num: num / g, den: den / g }
    }

    pub fn times(self, (n, d): (i64, i64)) -> Ratio {
        Ratio::new(self.num * n, self.den * d)
    }

    pub fn plus(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }

    pub fn minus(self, o: Ratio) -> Ratio {
        self.plus(Ratio { num: -o.num, den: o.den })
    }

    pub fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Ratio {
    /// Denominators are positive (every constructor keeps them so).
    fn cmp(&self, o: &Ratio) -> std::cmp::Ordering {
        (i128::from(self.num) * i128::from(o.den)).cmp(&(i128::from(o.num) * i128::from(self.den)))
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 { write!(f, "{}", self.num) } else { write!(f, "{}/{}", self.num, self.den) }
    }
}

/// One unit's combat value with every term (S-COMBAT-5, S-COMBAT-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueTerms {
    pub unit: ForceId,
    /// The column fought with: Attack, Defense, F1 or F2 (`gwe.land.column.*`).
    pub column: Msg,
    pub base: i32,
    /// Flat bonuses, applied first.
    pub flat: Vec<(Msg, i32)>,
    /// Current and full Health.
    pub health: (i32, i32),
    /// Factors, applied after the health ratio.
    pub factors: Vec<(Msg, i64, i64)>,
    pub value: Ratio,
}

impl ValueTerms {
    /// "F1 40 + 5 river bank × 2/3 Health × 5/4 flank or rear = 75/2".
    pub fn text(&self) -> Msg {
        let mut steps: Vec<Msg> = self
            .flat
            .iter()
            .map(|(what, v)| Msg::new("gwe.land.term.flat").arg("v", v).msg("what", what.clone()))
            .collect();
        if self.health.0 != self.health.1 {
            steps.push(Msg::new("gwe.land.term.health").arg("cur", self.health.0).arg("max", self.health.1));
        }
        steps.extend(
            self.factors
                .iter()
                .map(|(what, n, d)| Msg::new("gwe.land.term.factor").arg("n", n).arg("d", d).msg("what", what.clone())),
        );
        Msg::new("gwe.land.value")
            .msg("column", self.column.clone())
            .arg("base", self.base)
            .list("steps", steps, "")
            .arg("value", self.value)
    }
}

/// One engagement: the units of both alliances in contact, and its assessment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engagement {
    /// Units of alliance 0 and 1, by ID.
    pub sides: [Vec<ForceId>; 2],
    pub terms: Vec<ValueTerms>,
    /// The side sums, exact: only D is rounded (S-COMBAT-8).
    pub totals: [Ratio; 2],
    /// Index of the stronger alliance (0 on equal totals).
    pub stronger: usize,
    /// What the difference is divided by ([`Ctx::divisor`]): the weaker side's divisions when an
    /// army fights ([003]), else its units, a corps counting one ([000]); at least 1.
    pub divisions: u32,
    pub d: i64,
    pub result: CombatResult,
}

impl Engagement {
    /// "Germany, Austria-Hungary 75 vs France 60: D = (75 − 60) ÷ 2 = 7: stubborn fighting ...",
    /// with the sides named by `names` ([`Ctx::engagement_names`]: the powers that fight).
    pub fn summary(&self, names: &[Msg; 2]) -> Msg {
        let (s, w) = (self.stronger, 1 - self.stronger);
        Msg::new("gwe.land.engagement")
            .msg("stronger", names[s].clone())
            .arg("stronger_total", self.totals[s])
            .msg("weaker", names[w].clone())
            .arg("weaker_total", self.totals[w])
            .arg("divisions", self.divisions)
            .arg("d", self.d)
            .msg("result", self.result.text())
    }
}

/// Units that fight as one: an army, or the units of one hex (a division or a corps).
struct Block {
    units: Vec<ForceId>,
    hexes: Vec<HexAt>,
    alliance: usize,
    army: Option<FormationId>,
    /// Moved this turn or named a target (S-COMBAT-2, `Attack` order).
    attacks: bool,
    named: Option<HexAt>,
    /// The hex its front faces (S-COMBAT-7).
    front: Option<HexAt>,
}

/// The root of a block's set of linked blocks (the engagements' union–find).
fn find_root(root: &mut [usize], mut i: usize) -> usize {
    while root[i] != i {
        root[i] = root[root[i]];
        i = root[i];
    }
    i
}

/// S-COMBAT-8: the result band of D.
pub fn result_of(d: i64) -> CombatResult {
    if d >= D_DESTROYED {
        CombatResult::Destroyed
    } else if d >= D_DISPERSED {
        CombatResult::Dispersed
    } else if d >= D_STUBBORN_HEAVY {
        CombatResult::StubbornHeavy
    } else {
        CombatResult::Stubborn
    }
}

/// S-COMBAT-8: D = (stronger − weaker) ÷ `divisor`, rounded down once, from the exact side sums
/// (52 against 45/2 is 59/2: D 29); equal totals 0.
pub fn d_value(stronger: Ratio, weaker: Ratio, divisor: u32) -> i64 {
    if stronger == weaker {
        return 0;
    }
    stronger.minus(weaker).times((1, i64::from(divisor.max(1)))).floor()
}

impl Ctx {
    /// A unit's combat value in contact with `enemies` (S-COMBAT-2, S-COMBAT-5, S-COMBAT-6, S-FORT-4,
    /// S-LAND-5, S-LAND-9, S-TERR-2, S-COMBAT-11, S-SUP-3).
    pub fn value_terms(&self, id: ForceId, enemies: &[ForceId]) -> Option<ValueTerms> {
        let f = self.force(id)?;
        let at = f.hex()?;
        let stats = self.stats(f.kind);
        // S-ARMY-9: a unit that arrived at a fighting army counts Attack while the army fights.
        let attacking = f.activity.moved || self.attack_only(f);
        let attack = "gwe.land.column.attack";
        let (column, base) = match f.kind {
            // S-LAND-9: a tank adds its Attack only in a turn it moved.
            ForceKind::Tank { .. } => (attack, if attacking { stats.attack } else { 0 }),
            ForceKind::Artillery { .. } => (attack, 0),
            _ if attacking => (attack, stats.attack),
            _ => match self.defense_column(f) {
                DefenseColumn::F2 => ("gwe.land.column.f2", stats.f2),
                DefenseColumn::F1 => ("gwe.land.column.f1", stats.f1),
                DefenseColumn::Open => ("gwe.land.column.defense", stats.defense),
            },
        };
        let mut flat = Vec::new();
        // S-LAND-5: the fight is in mountains when the unit stands in them or an enemy it fights
        // next to it does (attacking into mountains counts as much as defending there).
        let mountains = |h: HexAt| self.map().terrain(h).unwrap_or(Terrain::Clear) == Terrain::Mountains;
        let in_mountains = mountains(at)
            || enemies
                .iter()
                .filter_map(|e| self.force(*e))
                .filter_map(|e| e.hex())
                .any(|eh| eh.is_adjacent(at) && mountains(eh));
        if matches!(f.kind, ForceKind::Infantry { mountain: true, .. }) && in_mountains {
            flat.push((Msg::new("gwe.land.term.mountain"), MOUNTAIN_BONUS));
        }
        if !attacking && f.kind.is_division() {
            let across =
                enemies.iter().filter_map(|e| self.force(*e)).filter_map(|e| e.hex()).any(|eh| {
                    eh.is_adjacent(at) && self.map().river_between(at, eh) && !self.map().bridge_between(at, eh)
                });
            if across {
                flat.push((Msg::new("gwe.land.term.river_bank"), RIVER_BANK_BONUS));
            }
        }
        let sum = i64::from(base + flat.iter().map(|(_, v)| v).sum::<i32>());
        let (cur, max) = (f.vitals.health.max(0), f.vitals.max_health.max(1));
        let mut value = Ratio::new(sum * i64::from(cur), i64::from(max));
        let mut factors = Vec::new();
        // S-COMBAT-6: the flank bonus counts in the fight with the unit it was struck against.
        let flanked =
            at.neighbours().into_iter().enumerate().any(|(side, n)| {
                f.activity.flanks & (1 << side) != 0 && self.at(n).iter().any(|u| enemies.contains(u))
            });
        if flanked {
            factors.push((Msg::new("gwe.land.term.flank"), FLANK_FACTOR.0, FLANK_FACTOR.1));
        }
        if f.front.encircled > 0 {
            let left = (100 - ENCIRCLEMENT_STEP_PERCENT * i64::from(f.front.encircled)).max(0);
            factors.push((Msg::new("gwe.land.term.encircled").arg("turns", f.front.encircled), left, 100));
        }
        if !f.supply.ammo && f.kind.is_division() {
            factors.push((Msg::new("gwe.land.term.no_ammunition"), NO_AMMO_FACTOR.0, NO_AMMO_FACTOR.1));
        }
        for (_, n, d) in &factors {
            value = value.times((*n, *d));
        }
        Some(ValueTerms { unit: id, column: Msg::new(column), base, flat, health: (cur, max), factors, value })
    }

    /// The blocks that fight as one in land combat: every on-map army with all its combat units
    /// (S-ARMY-11), otherwise the combat units on one hex (a division or a corps). Ordered by their
    /// lowest unit ID.
    fn combat_blocks(&self) -> Vec<Block> {
        #[derive(PartialEq, Eq, PartialOrd, Ord)]
        enum Key {
            Army(FormationId),
            Hex(HexAt),
        }
        let mut map: BTreeMap<Key, Block> = BTreeMap::new();
        for f in self.forces.iter().filter(|f| f.kind.is_combatant()) {
            let Some(h) = f.hex() else { continue };
            let key = match f.member.army {
                Some(a) => Key::Army(a),
                None => Key::Hex(h),
            };
            let b = map.entry(key).or_insert_with(|| Block {
                units: Vec::new(),
                hexes: Vec::new(),
                alliance: usize::from(self.alliance(f.power).min(1)),
                army: f.member.army,
                attacks: false,
                named: None,
                front: None,
            });
            b.units.push(f.id);
            if !b.hexes.contains(&h) {
                b.hexes.push(h);
            }
            b.attacks |= f.activity.moved || f.activity.target.is_some();
            b.named = b.named.or(f.activity.target);
            if b.front.is_none() {
                b.front = f.front.front.map(|side| h.neighbour(side));
            }
        }
        let mut blocks: Vec<Block> = map.into_values().collect();
        for b in &mut blocks {
            b.units.sort();
            b.hexes.sort();
        }
        blocks.sort_by_key(|b| b.units.first().copied());
        blocks
    }

    /// The engagements of this Combat phase (S-COMBAT-1, S-COMBAT-3, S-COMBAT-8, S-ARMY-11), each
    /// side listed by ID, engagements ordered by their lowest unit ID. Contact is battle [000]:
    /// which blocks fight together depends only on the position (where the blocks stand, who
    /// moved, what they named), never on unit IDs or the order of hexes. Resolution [house]:
    /// blocks linked as below fight as one engagement, so no unit fights in two of them.
    /// 1. An army in contact fights as a whole with every enemy block next to it (two armies
    ///    next to one enemy fight it together).
    /// 2. An attacker (a block that moved this turn or was given an `Attack` order) fights its
    ///    target hex: the named one, else the hex its front faces, else every enemy next to it.
    /// 3. A standing block fights every standing enemy block next to it (a standing contact is
    ///    a battle on both sides); one whose only enemies are attackers fighting elsewhere takes
    ///    no part.
    pub fn engagements(&self) -> Vec<[Vec<ForceId>; 2]> {
        let blocks = self.combat_blocks();
        let mut block_at: BTreeMap<HexAt, usize> = BTreeMap::new();
        for (i, b) in blocks.iter().enumerate() {
            for h in &b.hexes {
                block_at.insert(*h, i);
            }
        }
        // Enemy blocks next to each block, and the enemy hexes next to it.
        let mut enemy_hexes: Vec<Vec<HexAt>> = vec![Vec::new(); blocks.len()];
        let mut enemy_blocks: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            for h in &b.hexes {
                for n in h.neighbours() {
                    if let Some(&j) = block_at.get(&n)
                        && blocks[j].alliance != b.alliance
                    {
                        if !enemy_hexes[i].contains(&n) {
                            enemy_hexes[i].push(n);
                        }
                        if !enemy_blocks[i].contains(&j) {
                            enemy_blocks[i].push(j);
                        }
                    }
                }
            }
        }
        // The links of rules 1–3; an engagement is a set of linked blocks.
        let mut root: Vec<usize> = (0..blocks.len()).collect();
        let mut fights = vec![false; blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            let targets: Vec<usize> = if b.army.is_some() {
                enemy_blocks[i].clone()
            } else if b.attacks {
                let pick =
                    b.named.filter(|h| enemy_hexes[i].contains(h)).or(b.front.filter(|h| enemy_hexes[i].contains(h)));
                match pick.and_then(|h| block_at.get(&h).copied()) {
                    Some(t) => vec![t],
                    None => enemy_blocks[i].clone(),
                }
            } else {
                enemy_blocks[i].iter().copied().filter(|&j| !blocks[j].attacks && blocks[j].army.is_none()).collect()
            };
            for t in targets {
                fights[i] = true;
                fights[t] = true;
                let (a, z) = (find_root(&mut root, i), find_root(&mut root, t));
                root[a.max(z)] = a.min(z);
            }
        }
        let mut by_root: BTreeMap<usize, [Vec<ForceId>; 2]> = BTreeMap::new();
        for (i, b) in blocks.iter().enumerate() {
            if fights[i] {
                let r = find_root(&mut root, i);
                by_root.entry(r).or_default()[b.alliance].extend(b.units.iter().copied());
            }
        }
        let mut out: Vec<[Vec<ForceId>; 2]> = by_root
            .into_values()
            .map(|mut sides| {
                sides[0].sort();
                sides[1].sort();
                sides
            })
            .collect();
        out.sort_by_key(|g| g.iter().flatten().min().copied());
        out
    }

    /// The engagements of this Combat phase by their blocks (S-COMBAT-3): per engagement and
    /// side, each block's units (an army, or the units on one hex), blocks by their lowest
    /// unit ID; engagements as [`Ctx::engagements`] orders them.
    pub fn engagement_blocks(&self) -> Vec<[Vec<Vec<ForceId>>; 2]> {
        let blocks = self.combat_blocks();
        self.engagements()
            .into_iter()
            .map(|sides| {
                sides.map(|units| {
                    let mut out: Vec<Vec<ForceId>> = blocks
                        .iter()
                        .filter(|b| b.units.first().is_some_and(|f| units.contains(f)))
                        .map(|b| b.units.clone())
                        .collect();
                    out.sort();
                    out
                })
            })
            .collect()
    }

    /// S-COMBAT-3 where the moderator decides: the engagements in which a side has a block to
    /// bring up beside another (one block a side has none); empty: nothing to ask.
    pub fn support_question(&self) -> Vec<[Vec<Vec<ForceId>>; 2]> {
        self.engagement_blocks().into_iter().filter(|sides| sides.iter().any(|s| s.len() > 1)).collect()
    }

    /// S-ARMY-9: whether an army is fighting: it fought in the last Combat phase (this one, during
    /// the Combat phase) or one of its units is next to an enemy land unit now.
    pub fn army_fights(&self, army: FormationId) -> bool {
        let Some(fm) = self.formation(army) else { return false };
        fm.engaged
            || self
                .formation_units(army)
                .iter()
                .filter_map(|u| self.force(*u))
                .any(|f| f.hex().is_some_and(|h| self.next_to_enemy(f.power, h)))
    }

    /// S-ARMY-9: the unit arrived at an army of its power that is still fighting, and is still
    /// next to (or on) one of its hexes.
    pub fn attack_only(&self, f: &super::state::Force) -> bool {
        let (Some(army), Some(at)) = (f.front.attack_only, f.hex()) else { return false };
        self.army_fights(army) && self.formation_hexes(army).iter().any(|h| h.distance(at) <= 1)
    }

    /// S-ARMY-9: the fighting army of `power` (lowest ID) whose area a unit arriving at `at`
    /// enters (a hex of the army or next to one), other than the unit's own army.
    pub fn fighting_army_at(
        &self,
        power: super::state::PowerId,
        at: HexAt,
        own: Option<FormationId>,
    ) -> Option<FormationId> {
        self.formations
            .iter()
            .filter(|fm| fm.power == power && fm.kind == super::state::FormationKind::Army && Some(fm.id) != own)
            .map(|fm| fm.id)
            .find(|a| self.formation_hexes(*a).iter().any(|h| h.distance(at) <= 1) && self.army_fights(*a))
    }

    /// Assesses one engagement (S-COMBAT-5, S-COMBAT-6, S-COMBAT-8).
    pub fn assess(&self, sides: &[Vec<ForceId>; 2]) -> Engagement {
        let mut terms = Vec::new();
        let mut totals = [Ratio::ZERO; 2];
        for s in 0..2 {
            for u in &sides[s] {
                if let Some(t) = self.value_terms(*u, &sides[1 - s]) {
                    totals[s] = totals[s].plus(t.value);
                    terms.push(t);
                }
            }
        }
        let stronger = if totals[1] > totals[0] { 1 } else { 0 };
        let weaker = 1 - stronger;
        let divisions = self.divisor(sides, weaker);
        let d = d_value(totals[stronger], totals[weaker], divisions);
        Engagement { sides: sides.clone(), terms, totals, stronger, divisions, d, result: result_of(d) }
    }

    /// S-COMBAT-8: what the difference of an engagement is divided by. Where an army fights (on
    /// either side), the army rule of [003]: the infantry and cavalry divisions of the weaker
    /// side. Otherwise [000] compares "the unit (division or corps)": no division; where several
    /// units stand on the weaker side (house rule), their number, a corps counting one. Tank
    /// battalions are not divisions and never count; the divisor is at least 1.
    pub fn divisor(&self, sides: &[Vec<ForceId>; 2], weaker: usize) -> u32 {
        let forces = |s: usize| sides[s].iter().filter_map(|u| self.force(*u)).collect::<Vec<_>>();
        let army = (0..2).any(|s| forces(s).iter().any(|f| f.member.army.is_some()));
        let weak = forces(weaker);
        let n = if army {
            weak.iter().filter(|f| f.kind.is_division()).count()
        } else {
            let mut corps: Vec<FormationId> = weak.iter().filter_map(|f| f.member.corps).collect();
            corps.sort();
            corps.dedup();
            corps.len() + weak.iter().filter(|f| f.member.corps.is_none() && f.kind.is_division()).count()
        };
        u32::try_from(n).unwrap_or(u32::MAX).max(1)
    }

    /// The Combat phase's engagements: ammunition, then every engagement resolved in order.
    pub fn combat_engagements(&mut self) {
        // S-ARMY-10: an army's lull is judged by this Combat phase from now on.
        for f in &mut self.formations {
            f.engaged = false;
        }
        let mut groups = self.engagements();
        // S-COMBAT-3: the blocks the moderator ruled not brought up stay out.
        for sides in &mut groups {
            for side in sides.iter_mut() {
                side.retain(|u| !self.withheld.contains(u));
            }
        }
        // S-ARMY-9, S-ARMY-10: the armies fighting in this Combat phase.
        for sides in &groups {
            for u in sides.iter().flatten() {
                let army = self.force(*u).and_then(|f| f.member.army);
                if let Some(a) = army.and_then(|a| self.formation_mut(a)) {
                    a.engaged = true;
                }
            }
        }
        for sides in &groups {
            self.draw_ammunition(sides.iter().flatten().copied().collect());
            // S-SUP-3: tanks without ammunition are destroyed when attacked, and so are the guns
            // standing on a hex that fights.
            let mut hexes: Vec<HexAt> = Vec::new();
            for u in sides.iter().flatten() {
                let Some(f) = self.force(*u) else { continue };
                hexes.extend(f.hex());
                if matches!(f.kind, ForceKind::Tank { .. }) && !f.supply.ammo {
                    self.destroy(*u, Msg::new("gwe.land.why.tank_without_ammunition"));
                }
            }
            hexes.sort();
            hexes.dedup();
            for at in hexes {
                self.guns_without_ammunition_attacked(at);
            }
            let sides = [
                sides[0].iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.on_map())).collect(),
                sides[1].iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.on_map())).collect(),
            ];
            // No fight without an opponent: a side whose units are all gone has nothing to fight.
            if sides.iter().any(|s: &Vec<ForceId>| s.is_empty()) {
                continue;
            }
            let e = self.assess(&sides);
            self.resolve(&e);
        }
        // S-ARMY-9: arrivals at an army that no longer fights (or that they left) may defend again.
        let ids: Vec<ForceId> = self.forces.iter().filter(|f| f.front.attack_only.is_some()).map(|f| f.id).collect();
        for u in ids {
            let keep = self.force(u).is_some_and(|f| f.on_map() && self.attack_only(f));
            if !keep && let Some(f) = self.force_mut(u) {
                f.front.attack_only = None;
            }
        }
    }

    /// Units draw ammunition for fighting from their power's stock, by ID (S-SUP-1, S-SUP-3).
    pub fn draw_ammunition(&mut self, mut units: Vec<ForceId>) {
        units.sort();
        let per = i64::from(self.scenario().rules.economy.ammo_per_action);
        for u in units {
            let Some(power) = self.force(u).map(|f| f.power) else { continue };
            let stock = &mut self.powers[usize::from(power.0)].ammo;
            let has = *stock >= per;
            if has {
                *stock -= per;
            }
            if let Some(f) = self.force_mut(u) {
                f.supply.ammo = has;
            }
        }
    }

    /// Applies an engagement's result (S-COMBAT-8, S-LAND-7).
    pub fn resolve(&mut self, e: &Engagement) {
        // The powers that fight, as the preview names them: not both whole alliances (neutrals
        // included) for one corps against one division.
        let names = self.engagement_names(e);
        let mut line = e.summary(&names);
        let terms: Vec<Msg> = e
            .terms
            .iter()
            .map(|t| Msg::new("gwe.land.unit_value").msg("unit", self.name_msg(t.unit)).msg("terms", t.text()))
            .collect();
        if !terms.is_empty() {
            line = Msg::new("gwe.land.engagement_terms").msg("summary", line).list("terms", terms, "; ");
        }
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Engagement {
                stronger_total: e.totals[e.stronger].floor(),
                weaker_total: e.totals[1 - e.stronger].floor(),
                divisions: e.divisions,
                d: e.d,
                result: e.result,
            },
            line,
        });
        let strong = &e.sides[e.stronger];
        let weak = &e.sides[1 - e.stronger];
        match e.result {
            CombatResult::Destroyed => {
                for u in weak {
                    self.destroy(*u, Msg::new("gwe.land.why.d_destroys"));
                }
            }
            CombatResult::Dispersed => {
                for u in weak {
                    self.disperse(*u, Msg::new("gwe.land.why.d_disperses"));
                }
            }
            CombatResult::StubbornHeavy | CombatResult::Stubborn => {
                let (ms, mw) = if e.result == CombatResult::StubbornHeavy { (1, 2) } else { (1, 1) };
                for (units, morale) in [(strong, ms), (weak, mw)] {
                    for account in self.loss_accounts(units) {
                        self.stubborn_loss(&account, morale);
                    }
                }
            }
        }
    }

    /// Who bears a stubborn fight's losses on one side (S-COMBAT-8, S-ARMY-11): each army as a
    /// whole (its units in the engagement), and each other division or tank battalion alone.
    fn loss_accounts(&self, units: &[ForceId]) -> Vec<Vec<ForceId>> {
        let mut armies: BTreeMap<FormationId, Vec<ForceId>> = BTreeMap::new();
        let mut out = Vec::new();
        for u in units {
            match self.force(*u).and_then(|f| f.member.army) {
                Some(a) => armies.entry(a).or_default().push(*u),
                None => out.push(vec![*u]),
            }
        }
        out.extend(armies.into_values());
        out
    }

    /// One account's stubborn-fighting loss: −1 Health and −`morale` Morale (S-COMBAT-8). An
    /// army's are dealt to the army and shared out (S-ARMY-11), a point at a time: Health to the
    /// unit with the most Health, Morale to the non-elite unit with the most Morale (S-LAND-7),
    /// ties to the one with more of the other, then to the lower ID (house rule). A lone unit
    /// takes it all; an elite one loses no Morale.
    fn stubborn_loss(&mut self, account: &[ForceId], morale: i32) {
        // (unit, Health, Morale) as the points are dealt; units without Morale or elite take none.
        let mut left: Vec<(ForceId, i32, Option<i32>)> = account
            .iter()
            .filter_map(|u| self.force(*u))
            .map(|f| (f.id, f.vitals.health, f.vitals.morale.filter(|_| !f.kind.is_elite())))
            .collect();
        let mut health_to = None;
        if let Some(x) = left.iter_mut().max_by_key(|(u, h, m)| (*h, *m, std::cmp::Reverse(*u))) {
            x.1 -= 1;
            health_to = Some(x.0);
        }
        let mut morale_to: BTreeMap<ForceId, i32> = BTreeMap::new();
        for _ in 0..morale {
            let most =
                left.iter_mut().filter(|x| x.2.is_some()).max_by_key(|(u, h, m)| (*m, *h, std::cmp::Reverse(*u)));
            if let Some(x) = most {
                x.2 = x.2.map(|m| m - 1);
                *morale_to.entry(x.0).or_default() += 1;
            }
        }
        if let Some(u) = health_to {
            self.change_health(u, -1);
        }
        for (u, n) in morale_to {
            self.change_morale(u, -n);
        }
    }

    pub fn change_health(&mut self, u: ForceId, delta: i32) {
        let turn = self.clock.turn;
        let name = self.name_msg(u);
        if let Some(f) = self.force_mut(u) {
            f.vitals.health = (f.vitals.health + delta).clamp(0, f.vitals.max_health);
            let now = f.vitals.health;
            self.push(Event {
                turn,
                kind: EventKind::Health { unit: u, delta, now },
                line: Msg::new("gwe.land.health").msg("unit", name).arg("delta", format!("{delta:+}")).arg("now", now),
            });
        }
    }

    /// Changes Morale; units without Morale lose Health instead when `or_health` (S-SUP-2).
    pub fn change_morale(&mut self, u: ForceId, delta: i32) {
        let turn = self.clock.turn;
        let name = self.name_msg(u);
        if let Some(f) = self.force_mut(u)
            && let Some(m) = f.vitals.morale
        {
            let now = (m + delta).clamp(0, f.vitals.max_morale.unwrap_or(m));
            f.vitals.morale = Some(now);
            self.push(Event {
                turn,
                kind: EventKind::Morale { unit: u, delta, now },
                line: Msg::new("gwe.land.morale").msg("unit", name).arg("delta", format!("{delta:+}")).arg("now", now),
            });
        }
    }

    /// Removes a unit as destroyed (captured, S-COMBAT-12).
    pub fn destroy(&mut self, u: ForceId, why: Msg) {
        self.remove(u, Place::Destroyed, why);
    }

    /// Removes a unit as dispersed (S-LOSS-1); units without Morale are destroyed instead (S-LOSS-3).
    pub fn disperse(&mut self, u: ForceId, why: Msg) {
        let no_morale = self.force(u).is_some_and(|f| f.vitals.morale.is_none());
        self.remove(u, if no_morale { Place::Destroyed } else { Place::Dispersed }, why);
    }

    fn remove(&mut self, u: ForceId, to: Place, why: Msg) {
        let turn = self.clock.turn;
        let name = self.name_msg(u);
        let Some(f) = self.force(u) else { return };
        if !f.present() {
            return;
        }
        let (corps, battery) = (f.member.corps, f.member.battery);
        if let Some(f) = self.force_mut(u) {
            f.place = to;
            f.member.corps = None;
            f.member.battery = None;
            if to == Place::Destroyed || to == Place::Dispersed {
                f.front = Default::default();
            }
        }
        // A unit leaving keeps its army only to let S-ARMY-12–14 judge the army.
        if let Some(c) = corps.and_then(|c| self.formation_mut(c)) {
            c.units.retain(|x| *x != u);
        }
        if let Some(b) = battery {
            for f in &mut self.forces {
                if f.member.battery == Some(b) {
                    f.member.battery = None;
                }
            }
        }
        let (kind, key) = match to {
            Place::Destroyed => (EventKind::Destroyed { unit: u }, "gwe.land.destroyed"),
            _ => (EventKind::Dispersed { unit: u }, "gwe.land.dispersed"),
        };
        self.push(Event { turn, kind, line: Msg::new(key).msg("unit", name).msg("why", why) });
        self.rebuild_occupancy();
    }

    /// S-COMBAT-9, S-LOSS-3: Morale 0 in the Combat phase or encircled destroys; any other Morale 0
    /// and any Health 0 disperse (units without Morale are destroyed at Health 0).
    pub fn check_losses(&mut self, morale_destroys: bool) {
        let ids: Vec<ForceId> = self.forces.iter().filter(|f| f.present()).map(|f| f.id).collect();
        for u in ids {
            let Some(f) = self.force(u) else { continue };
            let morale_zero = f.vitals.morale == Some(0);
            // S-ART-5: a battery member lives while its battery's summed Health is above 0.
            let battery_health: i32 = match f.member.battery {
                Some(b) => {
                    self.forces.iter().filter(|g| g.member.battery == Some(b)).map(|g| g.vitals.health.max(0)).sum()
                }
                None => f.vitals.health,
            };
            let health_zero = battery_health <= 0;
            let encircled = f.front.encircled > 0;
            if morale_zero && (morale_destroys || encircled) {
                self.destroy(u, Msg::new("gwe.land.why.capitulation"));
            } else if morale_zero {
                self.disperse(u, Msg::new("gwe.land.why.morale_zero"));
            } else if health_zero {
                self.disperse(u, Msg::new("gwe.land.why.health_zero"));
            }
        }
    }

    /// S-COMBAT-10: heavy artillery alone in contact with enemy land units is destroyed.
    pub fn artillery_contact(&mut self) {
        let guns: Vec<ForceId> =
            self.forces.iter().filter(|f| f.kind.is_artillery() && f.on_map()).map(|f| f.id).collect();
        for g in guns {
            let Some(f) = self.force(g) else { continue };
            let (Some(at), power) = (f.hex(), f.power) else { continue };
            let covered = self
                .at(at)
                .iter()
                .any(|u| self.force(*u).is_some_and(|o| o.kind.is_combatant() && !self.hostile(o.power, power)));
            let contact = at
                .neighbours()
                .into_iter()
                .any(|n| self.at(n).iter().any(|u| self.force(*u).is_some_and(|o| self.hostile(power, o.power))));
            if contact && !covered {
                self.destroy(g, Msg::new("gwe.land.why.artillery_contact"));
            }
        }
    }
}
