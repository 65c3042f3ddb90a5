//! Land combat (S-COMBAT): combat values with their terms, engagements, the D table, and the
//! losses that follow. The preview calls the same functions.

use super::event::{CombatResult, Event, EventKind};
use super::hexmap::{HexAt, Terrain};
use super::state::{Ctx, DefenseColumn, ForceId, ForceKind, Place};
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

    pub fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
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
    /// "Attack", "Defense", "F1" or "F2".
    pub column: String,
    pub base: i32,
    /// Flat bonuses, applied first.
    pub flat: Vec<(String, i32)>,
    /// Current and full Health.
    pub health: (i32, i32),
    /// Factors, applied after the health ratio.
    pub factors: Vec<(String, i64, i64)>,
    pub value: Ratio,
}

impl ValueTerms {
    /// "F1 40 + 5 river × 2/3 × 5/4 flank = 75/2".
    pub fn text(&self) -> String {
        let mut s = format!("{} {}", self.column, self.base);
        for (what, v) in &self.flat {
            s += &format!(" + {v} {what}");
        }
        if self.health.0 != self.health.1 {
            s += &format!(" × {}/{} Health", self.health.0, self.health.1);
        }
        for (what, n, d) in &self.factors {
            s += &format!(" × {n}/{d} {what}");
        }
        s + &format!(" = {}", self.value)
    }
}

/// One engagement: the units of both alliances in contact, and its assessment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engagement {
    /// Units of alliance 0 and 1, by ID.
    pub sides: [Vec<ForceId>; 2],
    pub terms: Vec<ValueTerms>,
    /// Floored side sums.
    pub totals: [i64; 2],
    /// Index of the stronger alliance (0 on equal totals).
    pub stronger: usize,
    /// Divisions and tank battalions of the weaker side.
    pub divisions: u32,
    pub d: i64,
    pub result: CombatResult,
}

impl Engagement {
    /// "Central Powers 75 vs Entente 60: D = (75 − 60) ÷ 2 = 7: stubborn fighting ...".
    pub fn summary(&self, names: [&str; 2]) -> String {
        let (s, w) = (self.stronger, 1 - self.stronger);
        format!(
            "{} {} vs {} {}: D = ({} − {}) ÷ {} = {}: {}",
            names[s],
            self.totals[s],
            names[w],
            self.totals[w],
            self.totals[s],
            self.totals[w],
            self.divisions,
            self.d,
            self.result.text()
        )
    }
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

/// S-COMBAT-8: D = (stronger − weaker) ÷ divisions on the weaker side, floored; equal totals 0.
pub fn d_value(stronger: i64, weaker: i64, divisions: u32) -> i64 {
    if stronger == weaker || divisions == 0 { 0 } else { (stronger - weaker).div_euclid(i64::from(divisions)) }
}

impl Ctx {
    /// A unit's combat value in contact with `enemies` (S-COMBAT-2, S-COMBAT-5, S-COMBAT-6, S-FORT-4,
    /// S-LAND-5, S-LAND-9, S-TERR-2, S-COMBAT-11, S-SUP-3).
    pub fn value_terms(&self, id: ForceId, enemies: &[ForceId]) -> Option<ValueTerms> {
        let f = self.force(id)?;
        let at = f.hex()?;
        let stats = self.stats(f.kind);
        let attacking = f.activity.moved;
        let (column, base) = match f.kind {
            // S-LAND-9: a tank adds its Attack only in a turn it moved.
            ForceKind::Tank { .. } => ("Attack", if attacking { stats.attack } else { 0 }),
            ForceKind::Artillery { .. } => ("Attack", 0),
            _ if attacking => ("Attack", stats.attack),
            _ => match self.defense_column(f) {
                DefenseColumn::F2 => ("F2", stats.f2),
                DefenseColumn::F1 => ("F1", stats.f1),
                DefenseColumn::Open => ("Defense", stats.defense),
            },
        };
        let mut flat = Vec::new();
        let terrain = self.map().terrain(at).unwrap_or(Terrain::Clear);
        if matches!(f.kind, ForceKind::Infantry { mountain: true, .. }) && terrain == Terrain::Mountains {
            flat.push(("mountain infantry in mountains".to_string(), MOUNTAIN_BONUS));
        }
        if !attacking && f.kind.is_division() {
            let across =
                enemies.iter().filter_map(|e| self.force(*e)).filter_map(|e| e.hex()).any(|eh| {
                    eh.is_adjacent(at) && self.map().river_between(at, eh) && !self.map().bridge_between(at, eh)
                });
            if across {
                flat.push(("river bank".to_string(), RIVER_BANK_BONUS));
            }
        }
        let sum = i64::from(base + flat.iter().map(|(_, v)| v).sum::<i32>());
        let (cur, max) = (f.vitals.health.max(0), f.vitals.max_health.max(1));
        let mut value = Ratio::new(sum * i64::from(cur), i64::from(max));
        let mut factors = Vec::new();
        if f.activity.flank {
            factors.push(("flank or rear".to_string(), FLANK_FACTOR.0, FLANK_FACTOR.1));
        }
        if f.front.encircled > 0 {
            let left = (100 - ENCIRCLEMENT_STEP_PERCENT * i64::from(f.front.encircled)).max(0);
            factors.push((format!("encircled {} turn(s)", f.front.encircled), left, 100));
        }
        if !f.supply.ammo && f.kind.is_division() {
            factors.push(("no ammunition".to_string(), NO_AMMO_FACTOR.0, NO_AMMO_FACTOR.1));
        }
        for (_, n, d) in &factors {
            value = value.times((*n, *d));
        }
        Some(ValueTerms { unit: id, column: column.to_string(), base, flat, health: (cur, max), factors, value })
    }

    /// The engagements on the map now: groups of hostile combat units linked by adjacency
    /// (S-COMBAT-1), each side listed by ID, groups ordered by their lowest unit ID.
    pub fn engagements(&self) -> Vec<[Vec<ForceId>; 2]> {
        let units: Vec<(ForceId, HexAt, u8)> = self
            .forces
            .iter()
            .filter(|f| f.kind.is_combatant())
            .filter_map(|f| f.hex().map(|h| (f.id, h, self.alliance(f.power))))
            .collect();
        let pos: BTreeMap<ForceId, usize> = units.iter().enumerate().map(|(i, u)| (u.0, i)).collect();
        let mut parent: Vec<usize> = (0..units.len()).collect();
        fn find(p: &mut [usize], x: usize) -> usize {
            let mut r = x;
            while p[r] != r {
                r = p[r];
            }
            let mut y = x;
            while p[y] != r {
                let n = p[y];
                p[y] = r;
                y = n;
            }
            r
        }
        let mut linked = vec![false; units.len()];
        for (i, (_, h, a)) in units.iter().enumerate() {
            for n in h.neighbours() {
                for other in self.at(n) {
                    let Some(&j) = pos.get(other) else { continue };
                    if units[j].2 != *a {
                        linked[i] = true;
                        let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                        parent[ri.max(rj)] = ri.min(rj);
                    }
                }
            }
            // Units sharing a hex (a corps) fight together.
            for other in self.at(*h) {
                if let Some(&j) = pos.get(other) {
                    let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                    parent[ri.max(rj)] = ri.min(rj);
                }
            }
        }
        let mut groups: BTreeMap<usize, [Vec<ForceId>; 2]> = BTreeMap::new();
        for (i, (id, _, alliance)) in units.iter().enumerate() {
            let r = find(&mut parent, i);
            groups.entry(r).or_default()[usize::from((*alliance).min(1))].push(*id);
        }
        let mut out: Vec<[Vec<ForceId>; 2]> = groups
            .into_values()
            .filter(|g| !g[0].is_empty() && !g[1].is_empty())
            .filter(|g| g.iter().flatten().any(|u| pos.get(u).is_some_and(|&i| linked[i])))
            .collect();
        for g in &mut out {
            g[0].sort();
            g[1].sort();
        }
        out.sort_by_key(|g| g.iter().flatten().min().copied());
        out
    }

    /// Assesses one engagement (S-COMBAT-5, S-COMBAT-6, S-COMBAT-8).
    pub fn assess(&self, sides: &[Vec<ForceId>; 2]) -> Engagement {
        let mut terms = Vec::new();
        let mut totals = [0i64; 2];
        for s in 0..2 {
            let mut sum = Ratio::ZERO;
            for u in &sides[s] {
                if let Some(t) = self.value_terms(*u, &sides[1 - s]) {
                    sum = sum.plus(t.value);
                    terms.push(t);
                }
            }
            totals[s] = sum.floor();
        }
        let stronger = if totals[1] > totals[0] { 1 } else { 0 };
        let weaker = 1 - stronger;
        let divisions =
            sides[weaker].iter().filter(|u| self.force(**u).is_some_and(|f| f.kind.is_combatant())).count() as u32;
        let d = d_value(totals[stronger], totals[weaker], divisions);
        Engagement { sides: sides.clone(), terms, totals, stronger, divisions, d, result: result_of(d) }
    }

    pub fn alliance_name(&self, a: usize) -> String {
        self.scenario()
            .powers
            .iter()
            .filter(|p| usize::from(p.alliance) == a)
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The Combat phase's engagements: ammunition, then every engagement resolved in order.
    pub fn combat_engagements(&mut self) {
        // S-ARMY-10: an army's lull is judged by this Combat phase from now on.
        for f in &mut self.formations {
            f.engaged = false;
        }
        let groups = self.engagements();
        for sides in &groups {
            self.draw_ammunition(sides.iter().flatten().copied().collect());
            // S-SUP-3: tanks without ammunition are destroyed when attacked.
            for u in sides.iter().flatten() {
                if self.force(*u).is_some_and(|f| matches!(f.kind, ForceKind::Tank { .. }) && !f.supply.ammo) {
                    self.destroy(*u, "a tank battalion without ammunition is attacked (S-SUP-3)");
                }
            }
            let sides = [
                sides[0].iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.on_map())).collect(),
                sides[1].iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.on_map())).collect(),
            ];
            let e = self.assess(&sides);
            self.resolve(&e);
            for s in &e.sides {
                for u in s {
                    let army = self.force(*u).and_then(|f| f.member.army);
                    if let Some(a) = army.and_then(|a| self.formation_mut(a)) {
                        a.engaged = true;
                    }
                }
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
        let names = [self.alliance_name(0), self.alliance_name(1)];
        let mut text = e.summary([&names[0], &names[1]]);
        let terms: Vec<String> = e.terms.iter().map(|t| format!("{}: {}", self.name(t.unit), t.text())).collect();
        if !terms.is_empty() {
            text += &format!(" [{}]", terms.join("; "));
        }
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Engagement {
                stronger_total: e.totals[e.stronger],
                weaker_total: e.totals[1 - e.stronger],
                divisions: e.divisions,
                d: e.d,
                result: e.result,
            },
            text,
        });
        let strong = &e.sides[e.stronger];
        let weak = &e.sides[1 - e.stronger];
        match e.result {
            CombatResult::Destroyed => {
                for u in weak {
                    self.destroy(*u, "D ≥ 30 (S-COMBAT-8)");
                }
            }
            CombatResult::Dispersed => {
                for u in weak {
                    self.disperse(*u, "D 20–29 (S-COMBAT-8)");
                }
            }
            CombatResult::StubbornHeavy | CombatResult::Stubborn => {
                let (ms, mw) = if e.result == CombatResult::StubbornHeavy { (1, 2) } else { (1, 1) };
                for u in strong {
                    self.stubborn_loss(*u, ms);
                }
                for u in weak {
                    self.stubborn_loss(*u, mw);
                }
            }
        }
    }

    /// One engaged division's stubborn-fighting loss: −1 Health, −`morale` Morale (none for elite, S-LAND-7).
    fn stubborn_loss(&mut self, u: ForceId, morale: i32) {
        self.change_health(u, -1);
        if self.force(u).is_some_and(|f| !f.kind.is_elite()) {
            self.change_morale(u, -morale);
        }
    }

    pub fn change_health(&mut self, u: ForceId, delta: i32) {
        let turn = self.clock.turn;
        let name = self.name(u);
        if let Some(f) = self.force_mut(u) {
            f.vitals.health = (f.vitals.health + delta).clamp(0, f.vitals.max_health);
            let now = f.vitals.health;
            self.push(Event {
                turn,
                kind: EventKind::Health { unit: u, delta, now },
                text: format!("{name}: Health {delta:+} → {now}"),
            });
        }
    }

    /// Changes Morale; units without Morale lose Health instead when `or_health` (S-SUP-2).
    pub fn change_morale(&mut self, u: ForceId, delta: i32) {
        let turn = self.clock.turn;
        let name = self.name(u);
        if let Some(f) = self.force_mut(u)
            && let Some(m) = f.vitals.morale
        {
            let now = (m + delta).clamp(0, f.vitals.max_morale.unwrap_or(m));
            f.vitals.morale = Some(now);
            self.push(Event {
                turn,
                kind: EventKind::Morale { unit: u, delta, now },
                text: format!("{name}: Morale {delta:+} → {now}"),
            });
        }
    }

    /// Removes a unit as destroyed (captured, S-COMBAT-12).
    pub fn destroy(&mut self, u: ForceId, why: &str) {
        self.remove(u, Place::Destroyed, why);
    }

    /// Removes a unit as dispersed (S-LOSS-1); units without Morale are destroyed instead (S-LOSS-3).
    pub fn disperse(&mut self, u: ForceId, why: &str) {
        let no_morale = self.force(u).is_some_and(|f| f.vitals.morale.is_none());
        self.remove(u, if no_morale { Place::Destroyed } else { Place::Dispersed }, why);
    }

    fn remove(&mut self, u: ForceId, to: Place, why: &str) {
        let turn = self.clock.turn;
        let name = self.name(u);
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
        let (kind, verb) = match to {
            Place::Destroyed => (EventKind::Destroyed { unit: u }, "destroyed"),
            _ => (EventKind::Dispersed { unit: u }, "dispersed"),
        };
        self.push(Event { turn, kind, text: format!("{name} {verb}: {why}") });
        self.rebuild_occupancy();
    }

    /// S-COMBAT-9, S-LOSS-3: Morale 0 in the Combat phase or encircled destroys; any other Morale 0
    /// and any Health 0 disperse (units without Morale are destroyed at Health 0).
    pub fn check_losses(&mut self, morale_destroys: bool) {
        let ids: Vec<ForceId> = self.forces.iter().filter(|f| f.present()).map(|f| f.id).collect();
        for u in ids {
            let Some(f) = self.force(u) else { continue };
            let morale_zero = f.vitals.morale == Some(0);
            let health_zero = f.vitals.health <= 0;
            let encircled = f.front.encircled > 0;
            if morale_zero && (morale_destroys || encircled) {
                self.destroy(u, "Morale 0: capitulation (S-COMBAT-9)");
            } else if morale_zero {
                self.disperse(u, "Morale 0 (S-COMBAT-9)");
            } else if health_zero {
                self.disperse(u, "Health 0 (S-COMBAT-9, S-LOSS-3)");
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
                self.destroy(g, "heavy artillery in contact with enemy land units (S-COMBAT-10)");
            }
        }
    }
}
