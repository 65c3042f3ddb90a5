//! The Upkeep phase: income and occupation (S-CITY), money supply (S-SUP-1, -2, -4), climate
//! attrition (S-SUP-5), rotation (S-SUP-6), encirclement (S-COMBAT-11).

use super::event::{Event, EventKind};
use super::hexmap::{Climate, HexAt};
use super::state::{Ctx, Force, ForceId, ForceKind, FormationId, Place, PowerId};
use crate::texts::Msg;
use std::collections::{BTreeMap, BTreeSet};

/// S-SUP-4: upkeep +10 % in a corps but not an army, +25 % outside corps.
pub const CORPS_SURCHARGE_PERCENT: i64 = 10;
pub const INDEPENDENT_SURCHARGE_PERCENT: i64 = 25;
/// S-SUP-6: Morale loss after this many turns in a row on the front line: independent, corps, army.
pub const ROTATION_TURNS: [u16; 3] = [2, 3, 4];
/// S-COMBAT-1: units 1–3 hexes apart are on the front line.
pub const FRONT_LINE_HEXES: u32 = 3;
/// S-COMBAT-11: Morale lost in the first encircled turn and in each later one.
pub const ENCIRCLED_MORALE: [i32; 2] = [2, 1];

/// One unit's count of turns on the front line (S-SUP-6), as [`Ctx::rotation_status`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rotation {
    pub unit: ForceId,
    /// Upkeeps in a row it has ended on the front line.
    pub turns: u16,
    /// Turns it may stay before it loses Morale: 2 independent, 3 in a corps, 4 in an army.
    pub period: u16,
    /// Within 3 hexes of an enemy land unit now (S-COMBAT-1).
    pub on_front: bool,
}

impl Rotation {
    /// The count after the next Upkeep: one more on the front line, 0 off it.
    pub fn turns_after_upkeep(&self) -> u16 {
        if self.on_front { self.turns.saturating_add(1) } else { 0 }
    }

    /// Whether the next Upkeep costs it 1 Morale (beyond its period).
    pub fn loses_morale(&self) -> bool {
        self.turns_after_upkeep() > self.period
    }
}

/// S-SUP-6: the turns a unit may stay on the front line before each further Upkeep there costs
/// it 1 Morale: 2 independent, 3 in a corps, 4 in an army ([`ROTATION_TURNS`]).
pub fn rotation_period(f: &Force) -> u16 {
    if f.member.army.is_some() {
        ROTATION_TURNS[2]
    } else if f.member.corps.is_some() {
        ROTATION_TURNS[1]
    } else {
        ROTATION_TURNS[0]
    }
}

/// `a ÷ b` rounded up, for `a ≥ 0`, `b > 0`.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1).div_euclid(b)
}

/// Who pays for a group of units.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Payer {
    Independent(ForceId),
    Corps(FormationId),
    Army(FormationId),
}

impl Ctx {
    /// S-CITY-2, S-CITY-3: income and manpower of provinces.
    pub fn income(&mut self) {
        let pct = i64::from(self.scenario().rules.economy.occupation_penalty_percent);
        let provinces = self.map().provinces.clone();
        for (i, p) in provinces.iter().enumerate() {
            // The sovereign: the map's owner, or the power a peace treaty ceded it to (S-CITY-4).
            let Some(owner) = self.province_owner(i).map(|o| usize::from(o.0)) else { continue };
            let st = self.provinces[i];
            let gdp = i64::from(p.gdp);
            match st.occupier {
                // A surrendered power has no income.
                None if self.powers[owner].out => {}
                None => {
                    let pw = &mut self.powers[owner];
                    pw.money += gdp;
                    pw.manpower[0] += p.manpower[0];
                    pw.manpower[1] += p.manpower[1];
                }
                Some(occ) => {
                    // Half the income, none if devastated, less the public-order penalty (S-CITY-4);
                    // no manpower for the occupier.
                    let half = if st.devastated { 0 } else { gdp / 2 };
                    self.powers[usize::from(occ.0)].money += (half - gdp * pct / 100).max(0);
                }
            }
        }
    }

    /// Money upkeep of one unit before surcharges.
    fn unit_upkeep(&self, kind: ForceKind) -> i64 {
        let e = &self.scenario().rules.economy;
        i64::from(match kind {
            ForceKind::Infantry { .. } | ForceKind::Cavalry { .. } => e.upkeep_division,
            ForceKind::Tank { .. } => e.upkeep_tank,
            ForceKind::Artillery { .. } => e.upkeep_artillery,
        })
    }

    /// Who pays for each of `power`'s units (S-SUP-4): its army, its corps, or itself.
    fn payers(&self, power: PowerId) -> BTreeMap<Payer, Vec<ForceId>> {
        let mut groups: BTreeMap<Payer, Vec<ForceId>> = BTreeMap::new();
        for f in self.forces.iter().filter(|f| f.power == power && f.present()) {
            let payer = match (f.member.army, f.member.corps, f.place) {
                (Some(a), _, _) => Payer::Army(a),
                (None, Some(c), _) | (None, None, Place::Attached(c)) => Payer::Corps(c),
                _ => Payer::Independent(f.id),
            };
            groups.entry(payer).or_default().push(f.id);
        }
        groups
    }

    /// What a group owes with its surcharge (S-SUP-4), in hundredths.
    fn owed_hundredths(&self, payer: &Payer, units: &[ForceId]) -> i64 {
        let base: i64 = units.iter().filter_map(|u| self.force(*u)).map(|f| self.unit_upkeep(f.kind)).sum();
        let pct = match payer {
            Payer::Army(_) => 0,
            Payer::Corps(_) => CORPS_SURCHARGE_PERCENT,
            Payer::Independent(_) => INDEPENDENT_SURCHARGE_PERCENT,
        };
        base.saturating_mul(100 + pct)
    }

    /// S-SUP-1, S-SUP-4: the money the coming Upkeep costs `power` when it pays every group, with
    /// the surcharges rounded up on the whole (read only: the AI's treasury plans with it).
    pub fn upkeep_due(&self, power: PowerId) -> i64 {
        let owed = self.payers(power).iter().map(|(payer, units)| self.owed_hundredths(payer, units)).sum();
        ceil_div(owed, 100)
    }

    /// S-SUP-1, S-SUP-2, S-SUP-4: every power pays its troops; armies it cannot pay go without.
    pub fn pay_upkeep(&mut self) {
        for p in 0..self.powers.len() {
            let power = PowerId(p as u8);
            let groups = self.payers(power);
            // Independents and corps first; then armies by ID, those the player listed last in reverse
            // listing order; by default the highest army IDs go without first.
            let last = self.powers[p].supply_last.clone();
            let mut order: Vec<Payer> = groups.keys().filter(|k| !matches!(k, Payer::Army(_))).cloned().collect();
            let mut armies: Vec<FormationId> =
                groups.keys().filter_map(|k| if let Payer::Army(a) = k { Some(*a) } else { None }).collect();
            armies.sort_by_key(|a| (last.iter().position(|x| x == a).map_or(0, |i| usize::MAX - i), *a));
            order.extend(armies.into_iter().map(Payer::Army));
            let mut paid_total = 0;
            // S-SUP-4: what the paid groups owe, in hundredths: the power pays that sum rounded up,
            // so a surcharge is never lost to rounding (a division's 2 × 1.25 = 2.5 would round
            // down to 2), and each group pays the step it adds to the rounded total.
            let mut owed_hundredths: i64 = 0;
            let mut short = false;
            for payer in order {
                let units = &groups[&payer];
                let owed = owed_hundredths.saturating_add(self.owed_hundredths(&payer, units));
                let cost = ceil_div(owed, 100) - ceil_div(owed_hundredths, 100);
                let ok = self.powers[p].money >= cost;
                if ok {
                    self.powers[p].money -= cost;
                    paid_total += cost;
                    owed_hundredths = owed;
                } else {
                    short = true;
                }
                for u in units.clone() {
                    if let Some(f) = self.force_mut(u) {
                        f.supply.money = ok;
                    }
                }
            }
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Supply { power, paid: paid_total, short },
                line: Msg::new(if short { "gwe.econ.upkeep_paid_short" } else { "gwe.econ.upkeep_paid" })
                    .name("power", self.power_key(power), self.power_name(power))
                    .arg("paid", paid_total),
            });
        }
        // S-SUP-2: without money −1 Morale (units without Morale −1 Health). House rule: troops of
        // a power not at war (neutral, issue 12) lose nothing while it is at peace; it pays what
        // it can all the same.
        let unpaid: Vec<ForceId> = self
            .forces
            .iter()
            .filter(|f| f.present() && !f.supply.money && !self.idle(f.power))
            .map(|f| f.id)
            .collect();
        for u in unpaid {
            if self.force(u).is_some_and(|f| f.vitals.morale.is_some()) {
                self.change_morale(u, -1);
            } else {
                self.change_health(u, -1);
            }
        }
        self.check_losses(false);
    }

    /// S-SUP-5: harsh climate costs 1 Health a turn, except for local, colonial or mountain troops.
    pub fn climate_attrition(&mut self) {
        for u in self.climate_casualties() {
            self.change_health(u, -1);
        }
        self.check_losses(false);
    }

    /// S-SUP-5: the units on the map that the next Upkeep's harsh climate costs 1 Health (read
    /// only: the board's climate overlay shows them), by ID.
    pub fn climate_casualties(&self) -> Vec<ForceId> {
        let mut hit = Vec::new();
        // House rule: troops of a power not at war (neutral, issue 12) stand in their peacetime
        // quarters and take no climate attrition until their power enters the war.
        for f in self.forces.iter().filter(|f| f.on_map() && !self.idle(f.power)) {
            let Some(at) = f.hex() else { continue };
            let climate = self.map().cell(at).map_or(Climate::Temperate, |c| c.climate);
            if !climate.is_harsh() {
                continue;
            }
            let local = self.scenario().powers[usize::from(f.power.0)].local_climates.contains(&climate);
            let colonial = matches!(f.kind, ForceKind::Infantry { colonial: true, .. });
            let mountain = matches!(f.kind, ForceKind::Infantry { mountain: true, .. });
            let exempt = match climate {
                Climate::Desert => local || colonial,
                Climate::North => local,
                Climate::Mountain => mountain,
                Climate::Temperate => true,
            };
            if !exempt {
                hit.push(f.id);
            }
        }
        hit
    }

    /// Whether a hex is within 3 hexes of an enemy land unit (S-COMBAT-1).
    fn on_front_line(at: HexAt, enemies: &[HexAt]) -> bool {
        enemies.iter().any(|e| e.distance(at) <= FRONT_LINE_HEXES)
    }

    /// S-SUP-6: −1 Morale a turn from the 3rd turn in a row on the front line (4th in a corps, 5th
    /// in an army); a turn off resets.
    pub fn rotation(&mut self) {
        let mut losers = Vec::new();
        for r in self.rotation_status() {
            let turns = r.turns_after_upkeep();
            if let Some(f) = self.force_mut(r.unit) {
                f.front.turns = turns;
            }
            if r.loses_morale() {
                losers.push(r.unit);
            }
        }
        for u in losers {
            self.change_morale(u, -1);
        }
        self.check_losses(false);
    }

    /// S-SUP-6 as the next Upkeep will count it, for every combatant on the map, by ID: its turns
    /// in a row on the front line so far, its period, and whether it stands on the front line now
    /// (read only: the board's front-line overlay shows it).
    pub fn rotation_status(&self) -> Vec<Rotation> {
        let hexes = self.front_hexes();
        self.forces.iter().filter_map(|f| self.rotation_among(f, &hexes)).collect()
    }

    /// S-SUP-6 for one unit as it stands in `f` (its hex, membership and count), against the
    /// land units on the map now; `None` for a unit the rotation does not count (off the map, or
    /// a gun).
    pub fn rotation_of(&self, f: &Force) -> Option<Rotation> {
        self.rotation_among(f, &self.front_hexes())
    }

    /// The hexes of each alliance's land units of powers at war, sorted.
    fn front_hexes(&self) -> [Vec<HexAt>; 2] {
        let mut hexes_by_alliance: [Vec<HexAt>; 2] = [Vec::new(), Vec::new()];
        // A power not at war (neutral, issue 12) is nobody's enemy on the front line.
        for f in self.forces.iter().filter(|f| f.on_map() && !self.idle(f.power)) {
            if let Some(h) = f.hex() {
                hexes_by_alliance[usize::from(self.alliance(f.power).min(1))].push(h);
            }
        }
        for v in &mut hexes_by_alliance {
            v.sort();
            v.dedup();
        }
        hexes_by_alliance
    }

    fn rotation_among(&self, f: &Force, hexes_by_alliance: &[Vec<HexAt>; 2]) -> Option<Rotation> {
        if !f.on_map() || !f.kind.is_combatant() {
            return None;
        }
        let at = f.hex()?;
        let enemy = &hexes_by_alliance[usize::from(1 - self.alliance(f.power).min(1))];
        let on_front = !self.idle(f.power) && Self::on_front_line(at, enemy);
        Some(Rotation { unit: f.id, turns: f.front.turns, period: rotation_period(f), on_front })
    }

    /// The alliance (0 or 1) holding each hex with land units of a power at war on it: a neutral's
    /// units (issue 12) neither bar the encirclement walk nor are encircled.
    fn holdings(&self) -> BTreeMap<HexAt, u8> {
        let mut held: BTreeMap<HexAt, u8> = BTreeMap::new();
        for f in self.forces.iter().filter(|f| f.on_map() && !self.idle(f.power)) {
            if let Some(h) = f.hex() {
                held.insert(h, self.alliance(f.power).min(1));
            }
        }
        held
    }

    /// S-COMBAT-11: whether each land hex (by map index) lies open to a city of `power`'s
    /// alliance as the encirclement test walks: a path of passable hexes leads from it to such a
    /// city without entering a hex held by the enemy or an empty hex next to an enemy land unit.
    /// A group of the alliance's hexes none of which is open is encircled (when the enemy, not the
    /// sea, cut it off: [`Ctx::encircled_groups`]); a unit that reaches an open hex escapes.
    /// With `blocked` false only water and the map's edge stop the path: a group open so but not
    /// with the enemy counted is the enemy's pocket, not the sea's.
    pub fn open_to_own_cities(&self, power: PowerId, blocked: bool) -> Vec<bool> {
        self.open_to_cities(self.alliance(power).min(1), blocked)
    }

    fn open_to_cities(&self, alliance: u8, blocked: bool) -> Vec<bool> {
        let mut walk = CityWalk::new(self, alliance, blocked);
        loop {
            if let Some(open) = walk.step(self, usize::MAX) {
                return open;
            }
        }
    }

    /// S-COMBAT-11 resolution [house]: a connected group of hexes held by one alliance is encircled
    /// when no path of passable hexes leads from it to a friendly-held city of its alliance without
    /// entering an enemy-held hex or a hex next to an enemy land unit that no friendly unit holds,
    /// while such a path would exist without the enemy (the enemy, not the sea, cut it off).
    pub fn encircled_groups(&self) -> Vec<Vec<HexAt>> {
        let held = self.holdings();
        let open: [[Vec<bool>; 2]; 2] = [0u8, 1].map(|a| [false, true].map(|b| self.open_to_cities(a, b)));
        let reached = |v: &Vec<bool>, h: HexAt| self.map().index(h).is_some_and(|i| v[i]);
        let mut seen: BTreeSet<HexAt> = BTreeSet::new();
        let mut out = Vec::new();
        for (&start, &side) in &held {
            if seen.contains(&start) {
                continue;
            }
            let mut group = vec![start];
            seen.insert(start);
            let mut i = 0;
            while i < group.len() {
                for n in group[i].neighbours() {
                    if held.get(&n) == Some(&side) && seen.insert(n) {
                        group.push(n);
                    }
                }
                i += 1;
            }
            let [free, blocked] = &open[usize::from(side)];
            let cut = group.iter().all(|h| !reached(blocked, *h));
            let could = group.iter().any(|h| reached(free, *h));
            if cut && could {
                group.sort();
                out.push(group);
            }
        }
        out
    }

    /// S-COMBAT-11, S-LAND-7: encircled units lose Morale (elite none) and 25 % a turn; run at the
    /// start of the Combat phase, so a group cut off by this turn's movement fights encircled.
    pub fn encirclement(&mut self) {
        let groups = self.encircled_groups();
        let inside: BTreeSet<HexAt> = groups.into_iter().flatten().collect();
        let ids: Vec<ForceId> = self.forces.iter().filter(|f| f.present()).map(|f| f.id).collect();
        for u in ids {
            let Some(f) = self.force(u) else { continue };
            let enc = f.hex().is_some_and(|h| inside.contains(&h));
            let elite = f.kind.is_elite();
            let before = f.front.encircled;
            if let Some(f) = self.force_mut(u) {
                f.front.encircled = if enc { before + 1 } else { 0 };
            }
            if enc {
                let turns = before + 1;
                let name = self.name_msg(u);
                self.push(Event {
                    turn: self.clock.turn,
                    kind: EventKind::Encircled { unit: u, turns },
                    line: Msg::new("gwe.econ.encircled")
                        .msg("unit", name)
                        .arg("turns", turns)
                        .arg("percent", (25 * turns).min(100)),
                });
                if !elite {
                    self.change_morale(u, -ENCIRCLED_MORALE[usize::from(before > 0)]);
                }
            }
        }
        self.check_losses(false);
    }

    /// S-CITY-1, S-CITY-3: provinces change hands with their capital.
    pub fn occupation(&mut self) {
        let provinces = self.map().provinces.clone();
        // S-CITY-3: the powers with land units anywhere in each province.
        let mut present: Vec<BTreeSet<PowerId>> = vec![BTreeSet::new(); provinces.len()];
        for f in self.forces.iter().filter(|f| f.on_map()) {
            if let Some(pi) = f.hex().and_then(|h| self.province_at(h))
                && let Some(set) = present.get_mut(pi)
            {
                set.insert(f.power);
            }
        }
        for (i, p) in provinces.iter().enumerate() {
            let Some(owner) = self.province_owner(i) else { continue };
            let Some(city) = self.map().city_index(&p.capital).map(|c| self.map().cities[c].clone()) else { continue };
            let holders: Vec<Option<PowerId>> = city.hexes.iter().map(|h| self.holder(*h)).collect();
            let current = self.provinces[i].occupier;
            let taker = holders.first().copied().flatten().filter(|q| self.hostile(owner, *q));
            let all_taken = taker.is_some()
                && holders.iter().all(|h| h.is_some_and(|q| taker.is_some_and(|t| !self.hostile(t, q))));
            let new = match current {
                None if all_taken => taker,
                None => None,
                // S-CITY-3: the occupier's troops left the province («покидают провинцию»: no land
                // unit of its side anywhere in it, not only in the capital): the sovereign returns.
                Some(occ) => {
                    let stays = present[i].iter().any(|q| !self.hostile(occ, *q) && *q != owner);
                    if stays { Some(occ) } else { None }
                }
            };
            if new != current {
                self.provinces[i].occupier = new;
                let (key, by) = match new {
                    Some(q) => ("gwe.econ.occupies", q),
                    None => ("gwe.econ.regains", owner),
                };
                let text = Msg::new(key)
                    .name("power", self.power_key(by), self.power_name(by))
                    .local("province", &p.name, &p.name_ru);
                self.push(Event {
                    turn: self.clock.turn,
                    kind: EventKind::Occupied { province: p.id.clone(), by: new },
                    line: text,
                });
            }
        }
    }

    /// Clears fronts of units no longer in contact (S-COMBAT-7) and the army lull flags' basis.
    pub fn clear_fronts(&mut self) {
        let ids: Vec<(ForceId, PowerId, Option<HexAt>)> =
            self.forces.iter().map(|f| (f.id, f.power, f.hex())).collect();
        for (u, p, h) in ids {
            let contact = h.is_some_and(|h| self.next_to_enemy(p, h));
            if !contact && let Some(f) = self.force_mut(u) {
                f.front.front = None;
                f.front.attack_from = None;
            }
        }
    }
}

/// S-COMBAT-11: the walk of the encirclement test from the cities of one alliance, a part at a
/// time (the AI slices it; [`Ctx::open_to_own_cities`] runs it whole): the hexes from which a path
/// of passable hexes leads to a city of the alliance (a city of a province it controls) without
/// entering a hex held by the enemy or an empty hex next to an enemy land unit; with `blocked`
/// false, only water and the map's edge stop the path.
#[derive(Clone, Debug)]
pub struct CityWalk {
    blocked: bool,
    /// By map index: held by the alliance; held by the enemy or next to an enemy land unit.
    own: Vec<bool>,
    barred: Vec<bool>,
    seen: Vec<bool>,
    queue: Vec<HexAt>,
    next: usize,
}

impl CityWalk {
    /// The walk from the cities of `alliance` (0 or 1) on the game as it stands.
    pub fn new(ctx: &Ctx, alliance: u8, blocked: bool) -> CityWalk {
        let map = ctx.map();
        let mut own = vec![false; map.len()];
        let mut barred = vec![false; map.len()];
        for (h, side) in ctx.holdings() {
            if side == alliance {
                if let Some(i) = map.index(h) {
                    own[i] = true;
                }
                continue;
            }
            for x in std::iter::once(h).chain(h.neighbours()) {
                if let Some(i) = map.index(x) {
                    barred[i] = true;
                }
            }
        }
        let mut walk = CityWalk { blocked, own, barred, seen: vec![false; map.len()], queue: Vec::new(), next: 0 };
        for city in &map.cities {
            let Some(pi) = map.province_index(&city.province) else { continue };
            let controller = match ctx.provinces.get(pi).and_then(|p| p.occupier) {
                Some(o) => Some(o),
                None => ctx.scenario().power_index(&map.provinces[pi].owner).map(|i| PowerId(i as u8)),
            };
            if controller.is_none_or(|c| ctx.alliance(c).min(1) != alliance) {
                continue;
            }
            for h in &city.hexes {
                walk.visit(ctx, *h);
            }
        }
        walk
    }

    fn visit(&mut self, ctx: &Ctx, h: HexAt) {
        let map = ctx.map();
        if let Some(i) = map.index(h)
            && !self.seen[i]
            && map.is_land(h)
            && (!self.blocked || self.own[i] || !self.barred[i])
        {
            self.seen[i] = true;
            self.queue.push(h);
        }
    }

    /// Walks on from up to `work` more hexes; the open hexes by map index once it is done.
    pub fn step(&mut self, ctx: &Ctx, work: usize) -> Option<Vec<bool>> {
        let mut done = 0;
        while self.next < self.queue.len() {
            if done == work {
                return None;
            }
            done += 1;
            let h = self.queue[self.next];
            self.next += 1;
            for n in h.neighbours() {
                self.visit(ctx, n);
            }
        }
        Some(std::mem::take(&mut self.seen))
    }
}
