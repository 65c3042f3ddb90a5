//! Heavy artillery (S-ART), damage to fortifications, fortresses, forests and cities (S-FORT-5,
//! S-FORT-6, S-TERR-3, S-ART-4, S-TURN-3) and chemical weapons (S-CHEM).

use super::event::{Event, EventKind};
use super::hexmap::{HexAt, Terrain, flag};
use super::order::OrderError;
use super::state::{Ctx, ForceId, ForceKind, Phase, Place, PowerId, Tech};
use super::tables::Model;
pub use super::tech::{GAS_FROM_TURN, TANKS_FROM_TURN, UPGRADE_FROM_TURN};
use crate::dice::PipRange;
use crate::texts::Msg;

/// S-FORT-5: level 1 falls to 2 damage, level 2 to 4.
pub const FORT_STRENGTH: [i32; 2] = [2, 4];
/// S-FORT-6: each fortress hex withstands 8 damage.
pub const FORTRESS_STRENGTH: i32 = 8;
/// S-TERR-3: a forest is destroyed by 2 damage.
pub const FOREST_STRENGTH: i32 = 2;
/// S-ART-4: each full 5 damage in one Fire phase destroys one level of a city.
pub const CITY_DAMAGE_PER_LEVEL: i32 = 5;
/// S-ART-7: on 1–3 half the damage hits own engaged troops.
pub const FRIENDLY_FIRE: PipRange = PipRange(1, 3);
/// S-CHEM-1 table.
pub const GAS_BLOWN_BACK: PipRange = PipRange(1, 1);
pub const GAS_NO_EFFECT: PipRange = PipRange(2, 2);
/// S-CHEM-1: target within 3 hexes of the cylinder.
pub const GAS_RADIUS: u32 = 3;
/// S-CHEM-2: cylinder damage to 1914 and 1916 infantry/cavalry.
pub const CYLINDER_DAMAGE: [i32; 2] = [2, 1];
/// S-CHEM-3: gas-shell damage to 1914 and 1916 infantry/cavalry.
pub const SHELL_DAMAGE: [i32; 2] = [3, 2];
/// A checked artillery shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    pub guns: Vec<ForceId>,
    pub power: PowerId,
    pub target: HexAt,
    pub attack: i32,
    pub gas: bool,
}

impl Ctx {
    /// The hexes an artillery division fires from: its own, or for attached artillery every hex of
    /// its formation (S-ARMY-5: range from the formation's nearest hex).
    pub fn gun_hexes(&self, id: ForceId) -> Vec<HexAt> {
        let Some(f) = self.force(id) else { return Vec::new() };
        match f.place {
            Place::Map(h) => vec![h],
            Place::Attached(fm) => {
                let mut v: Vec<HexAt> =
                    self.formation_units(fm).iter().filter_map(|u| self.force(*u)).filter_map(|u| u.hex()).collect();
                v.sort();
                v.dedup();
                v
            }
            _ => Vec::new(),
        }
    }

    /// The members of the battery a gun belongs to, or the gun alone (S-ART-5).
    pub fn battery_of(&self, id: ForceId) -> Vec<ForceId> {
        match self.force(id).and_then(|f| f.member.battery) {
            Some(b) => self.forces.iter().filter(|f| f.member.battery == Some(b)).map(|f| f.id).collect(),
            None => vec![id],
        }
    }

    /// The heavy artillery a power may give a Fire order to this phase: its guns on the map and
    /// those attached to its corps and armies (S-ARMY-5), that have not fired, one per battery
    /// (its lowest ID), in ID order. Only in the power's own part of the Fire phase.
    ///
    /// ```
    /// use rules::strategic::hexmap::{HexMap, Terrain};
    /// use rules::strategic::scenario::KindSpec;
    /// use rules::strategic::testkit::{self, hex, id, unit};
    /// use rules::strategic::Phase;
    ///
    /// let gun = unit(1, "germany", (2, 2), KindSpec::Artillery("15 cm sFH 13".into()));
    /// let map = HexMap::filled("test", 8, 8, Terrain::Clear);
    /// let scenario = testkit::scenario(map, vec![gun, testkit::infantry(2, "france", (5, 2))]);
    /// let ctx = testkit::ctx(&scenario, Phase::Fire, 0);
    /// assert_eq!(ctx.guns_ready(ctx.active_power()), vec![id(1)]);
    /// assert_eq!(ctx.guns_ready_at(ctx.active_power(), hex(2, 2)), vec![id(1)]);
    /// let (range, reach) = ctx.check_fire_range(id(1)).expect("a gun on the map");
    /// assert!(reach.iter().all(|h| h.distance(hex(2, 2)) <= range));
    /// ```
    pub fn guns_ready(&self, power: PowerId) -> Vec<ForceId> {
        if self.clock.phase != Phase::Fire || self.active_power() != power {
            return Vec::new();
        }
        let mut guns: Vec<ForceId> = self
            .forces
            .iter()
            .filter(|f| f.power == power && matches!(f.kind, ForceKind::Artillery { .. }))
            .filter(|f| matches!(f.place, Place::Map(_) | Place::Attached(_)))
            .filter(|f| {
                let battery = self.battery_of(f.id);
                battery.iter().min() == Some(&f.id)
                    && !battery.iter().any(|g| self.force(*g).is_some_and(|g| g.activity.fired))
            })
            .filter(|f| !self.gun_hexes(f.id).is_empty())
            .map(|f| f.id)
            .collect();
        guns.sort();
        guns
    }

    /// The guns of [`Ctx::guns_ready`] that fire from `at`: standing there, or attached to a
    /// formation with a unit there.
    pub fn guns_ready_at(&self, power: PowerId, at: HexAt) -> Vec<ForceId> {
        self.guns_ready(power).into_iter().filter(|g| self.gun_hexes(*g).contains(&at)).collect()
    }

    /// A gun's (or its battery's) range in hexes and the hexes it reaches from where it fires
    /// (S-ART-2, S-ARMY-5), or `None` for a unit that is no heavy artillery or fires from nowhere.
    pub fn check_fire_range(&self, id: ForceId) -> Option<(u32, Vec<HexAt>)> {
        let range = self.battery_range(&self.battery_of(id))?;
        let from = self.gun_hexes(id);
        if from.is_empty() {
            return None;
        }
        let mut reach: Vec<HexAt> = from
            .iter()
            .flat_map(|h| h.hex().range(range).map(HexAt::from_hex).collect::<Vec<_>>())
            .filter(|h| self.map().contains(*h))
            .collect();
        reach.sort();
        reach.dedup();
        Some((range, reach))
    }

    /// The shortest range among a battery's guns (S-ART-5), `None` if none is heavy artillery.
    fn battery_range(&self, guns: &[ForceId]) -> Option<u32> {
        guns.iter()
            .filter_map(|g| self.force(*g))
            .filter_map(|g| match g.kind {
                ForceKind::Artillery { gun } => self.scenario().units.guns.get(usize::from(gun)).map(|t| t.range),
                _ => None,
            })
            .min()
    }

    /// Checks a Fire order (S-ART-2, S-ART-5, S-ART-8, S-CHEM-3, S-SUP-3).
    pub fn check_fire(&self, id: ForceId, target: HexAt, gas: bool) -> Result<Shot, OrderError> {
        let f = self.force(id).ok_or(OrderError::NoUnit(id))?;
        let power = self.active_power();
        if f.power != power {
            return Err(OrderError::NotYours(self.name(id)));
        }
        let ForceKind::Artillery { .. } = f.kind else {
            return Err(OrderError::Fire(Msg::new("gwe.land.err.not_artillery").arg("unit", self.name(id))));
        };
        let guns = self.battery_of(id);
        if guns.iter().any(|g| self.force(*g).is_some_and(|g| g.activity.fired)) {
            return Err(OrderError::Fire(Msg::new("gwe.land.err.one_shell")));
        }
        if !self.map().contains(target) {
            return Err(OrderError::OutsideMap(target));
        }
        let guns_data: Vec<_> = guns.iter().filter_map(|g| self.force(*g)).collect();
        let range = self.battery_range(&guns).unwrap_or(0);
        let from = self.gun_hexes(id);
        if from.is_empty() {
            return Err(OrderError::OffMap(self.name(id)));
        }
        let dist = from.iter().map(|h| h.distance(target)).min().unwrap_or(u32::MAX);
        if dist > range {
            return Err(OrderError::Fire(
                Msg::new("gwe.land.err.out_of_range").hex("target", target).arg("dist", dist).arg("range", range),
            ));
        }
        let attack: i32 = guns_data.iter().map(|g| self.stats(g.kind).attack).sum();
        let p = &self.powers[usize::from(power.0)];
        let per = i64::from(self.scenario().rules.economy.ammo_per_action);
        // S-CHEM-3: a gas shot spends chemical ammunition only ("расходует одну единицу химических
        // боеприпасов"); the stock of ordinary ammunition is for high explosive.
        if !gas && p.ammo < per * guns.len() as i64 {
            return Err(OrderError::NoAmmunition {
                what: Msg::new("gwe.land.what.heavy_artillery"),
                need: per * guns.len() as i64,
                left: p.ammo,
            });
        }
        if gas {
            if !p.techs.gas {
                return Err(OrderError::NoTech { what: Msg::new("gwe.land.what.gas_shell"), tech: Tech::Gas });
            }
            if self.clock.turn < GAS_FROM_TURN {
                return Err(OrderError::TooEarly { what: Msg::new("gwe.land.what.gas"), from: GAS_FROM_TURN });
            }
            if p.chem_shells < guns.len() as u32 {
                return Err(OrderError::Gas(
                    Msg::new("gwe.land.err.chemical_shells").arg("need", guns.len()).arg("left", p.chem_shells),
                ));
            }
        }
        Ok(Shot { guns, power, target, attack, gas })
    }

    /// Fires a checked shot.
    pub fn fire(&mut self, shot: &Shot) {
        let per = i64::from(self.scenario().rules.economy.ammo_per_action);
        let n = shot.guns.len();
        let p = &mut self.powers[usize::from(shot.power.0)];
        if shot.gas {
            p.chem_shells = p.chem_shells.saturating_sub(u32::try_from(n).unwrap_or(u32::MAX));
        } else {
            p.ammo -= per * n as i64;
        }
        for g in &shot.guns {
            if let Some(f) = self.force_mut(*g) {
                f.activity.fired = true;
            }
        }
        if shot.gas {
            // S-CHEM-3 resolution: each member division of a battery fires its shell and adds its
            // damage; the battery is one unit with one target (S-ART-5), so its shot is one attack
            // and takes 1 Morale once (S-ART-3, S-CHEM-6), as its high explosive does.
            let shells = i32::try_from(n).unwrap_or(i32::MAX);
            self.gas_attack(
                shot.target,
                SHELL_DAMAGE.map(|d| d.saturating_mul(shells)),
                Msg::new("gwe.land.gas.shell"),
            );
            return;
        }
        let mut damage = shot.attack;
        // S-ART-3: one attack takes 1 Morale from every unit hit; a battery is one unit with one
        // target (S-ART-5), so its shot is one attack.
        let morale = 1;
        // S-ART-7: firing at a hex in stubborn fighting.
        let own = self.own_engaged_next_to(shot.power, shot.target);
        if let Some(own) = own {
            let pips = self.dice.d6();
            let half = damage / 2;
            let hits_own = FRIENDLY_FIRE.contains(pips);
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Die { what: "friendly fire".into(), pips },
                line: if hits_own {
                    Msg::new("gwe.land.friendly_fire.own")
                        .hex("at", shot.target)
                        .arg("pips", pips)
                        .arg("half", half)
                        .arg("damage", damage)
                        .msg("unit", self.name_msg(own))
                } else {
                    Msg::new("gwe.land.friendly_fire.target").hex("at", shot.target).arg("pips", pips)
                },
            });
            if hits_own {
                self.damage_troops(&[own], half, morale);
                damage -= half;
            }
        }
        self.hex_damage(shot.target, damage, morale);
    }

    /// An own combat unit engaged with the units on `target` (stubborn fighting, S-ART-7): the one
    /// with most Health, then lowest ID.
    pub fn own_engaged_next_to(&self, power: PowerId, target: HexAt) -> Option<ForceId> {
        let enemy_there = self.at(target).iter().any(|u| self.force(*u).is_some_and(|f| self.hostile(power, f.power)));
        if !enemy_there {
            return None;
        }
        let mut own: Vec<(i32, ForceId)> = target
            .neighbours()
            .into_iter()
            .flat_map(|n| self.at(n).to_vec())
            .filter_map(|u| self.force(u))
            .filter(|f| !self.hostile(power, f.power) && f.kind.is_combatant())
            .map(|f| (-f.vitals.health, f.id))
            .collect();
        own.sort();
        own.first().map(|(_, id)| *id)
    }

    /// Damage from artillery (or bombardment) on a hex: fortress, fortification, forest and city
    /// first as their rules say, the rest to the troops (S-FORT-5, S-FORT-6, S-TERR-3, S-ART-2…4).
    /// `morale` is the Morale each unit hit loses (S-ART-3; bombardment loses none).
    pub fn hex_damage(&mut self, at: HexAt, damage: i32, morale: i32) {
        self.guns_without_ammunition_attacked(at);
        let turn = self.clock.turn;
        let cell = self.map().cell(at).copied().unwrap_or_default();
        let hs = self.hex_state(at);
        let mut to_troops = damage;
        let strength = if cell.has(flag::FORTRESS) && !hs.fortress_destroyed {
            Some(FORTRESS_STRENGTH)
        } else if hs.fort > 0 {
            Some(FORT_STRENGTH[usize::from(hs.fort - 1)])
        } else {
            None
        };
        if let Some(strength) = strength {
            let before = hs.damage;
            let after = before + damage;
            let absorbed = (strength - before).clamp(0, damage);
            to_troops = damage - absorbed;
            let destroyed = after >= strength;
            let s = self.hex_state_mut(at);
            s.damage = after;
            if destroyed {
                if cell.has(flag::FORTRESS) && !s.fortress_destroyed {
                    s.fortress_destroyed = true;
                } else {
                    s.fort = 0;
                }
                s.damage = 0;
            }
            self.push(Event {
                turn,
                kind: EventKind::FortDamage { at, damage, destroyed },
                line: Msg::new(match (cell.has(flag::FORTRESS), destroyed) {
                    (true, false) => "gwe.land.damage.fortress",
                    (true, true) => "gwe.land.damage.fortress_destroyed",
                    (false, false) => "gwe.land.damage.fortification",
                    (false, true) => "gwe.land.damage.fortification_destroyed",
                })
                .hex("at", at)
                .arg("damage", damage)
                .arg("after", after)
                .arg("strength", strength)
                .arg("to_troops", to_troops),
            });
        } else if cell.terrain == Terrain::Forest && !hs.forest_destroyed {
            // S-TERR-3: the forest counts the damage like a fortification but does not shield the troops.
            let s = self.hex_state_mut(at);
            s.damage += damage;
            if s.damage >= FOREST_STRENGTH {
                s.forest_destroyed = true;
                s.damage = 0;
                self.push(Event {
                    turn,
                    kind: EventKind::FortDamage { at, damage, destroyed: true },
                    line: Msg::new("gwe.land.damage.forest").hex("at", at),
                });
            }
        }
        if cell.has(flag::CITY) {
            let s = self.hex_state_mut(at);
            let before = s.city_damage / CITY_DAMAGE_PER_LEVEL;
            s.city_damage += damage;
            let levels = (s.city_damage / CITY_DAMAGE_PER_LEVEL - before) as u32;
            if levels > 0 {
                s.city_destruction += levels;
                let level = s.city_destruction;
                self.push(Event {
                    turn,
                    kind: EventKind::CityDestroyed { at, level },
                    line: Msg::new("gwe.land.damage.city").hex("at", at).arg("levels", levels).arg("level", level),
                });
            }
        }
        if to_troops > 0 {
            let troops = self.at(at).to_vec();
            self.damage_troops(&troops, to_troops, morale);
        }
    }

    /// S-SUP-3: heavy artillery without ammunition is destroyed when attacked ("будучи
    /// атакованными, уничтожаются"): every gun on the attacked hex whose power's stock holds less
    /// than one action's ammunition (`economy.ammo_per_action`). A hex is attacked when it is fired
    /// on or bombarded, or fights in a land engagement (house resolution).
    pub fn guns_without_ammunition_attacked(&mut self, at: HexAt) {
        let per = i64::from(self.scenario().rules.economy.ammo_per_action);
        let guns: Vec<ForceId> = self
            .at(at)
            .iter()
            .copied()
            .filter(|u| {
                self.force(*u).is_some_and(|f| {
                    matches!(f.kind, ForceKind::Artillery { .. })
                        && self.powers.get(usize::from(f.power.0)).is_some_and(|p| p.ammo < per)
                })
            })
            .collect();
        for g in guns {
            self.destroy(g, Msg::new("gwe.land.why.guns_without_ammunition"));
        }
    }

    /// Splits damage evenly among `troops`, the remainder one each to the most Health first, then
    /// lower ID (S-ART-2); −`morale` Morale to every unit if any damage reached them (S-ART-3).
    pub fn damage_troops(&mut self, troops: &[ForceId], damage: i32, morale: i32) {
        if troops.is_empty() || damage <= 0 {
            return;
        }
        // S-ART-5: a battery takes damage as one unit with its members' Health summed.
        let mut recipients: Vec<(i32, ForceId, Vec<ForceId>)> = Vec::new();
        for f in troops.iter().filter_map(|u| self.force(*u)) {
            match f.member.battery.and_then(|b| {
                recipients
                    .iter_mut()
                    .find(|r| r.2.first().and_then(|m| self.force(*m)).is_some_and(|m| m.member.battery == Some(b)))
            }) {
                Some(r) => {
                    r.0 -= f.vitals.health;
                    r.1 = r.1.min(f.id);
                    r.2.push(f.id);
                }
                None => recipients.push((-f.vitals.health, f.id, vec![f.id])),
            }
        }
        recipients.sort();
        let n = recipients.len() as i32;
        let (each, rest) = (damage / n, damage % n);
        for (i, (_, _, members)) in recipients.iter().enumerate() {
            let d = each + i32::from((i as i32) < rest);
            if d <= 0 {
                continue;
            }
            if members.len() == 1 {
                self.change_health(members[0], -d);
                continue;
            }
            // A battery's share goes point by point to the member with most Health, then lower ID.
            let mut per: Vec<(ForceId, i32)> = members.iter().map(|m| (*m, 0)).collect();
            for _ in 0..d {
                let pick = per
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (m, taken))| self.force(*m).map(|f| (f.vitals.health - taken, k)))
                    .filter(|(left, _)| *left > 0)
                    .max_by_key(|(left, k)| (*left, std::cmp::Reverse(*k)))
                    .map(|(_, k)| k);
                let Some(k) = pick else { break };
                per[k].1 += 1;
            }
            for (m, taken) in per {
                if taken > 0 {
                    self.change_health(m, -taken);
                }
            }
        }
        if morale > 0 {
            for u in troops {
                self.change_morale(*u, -morale);
            }
        }
        self.check_losses(false);
    }

    /// One gas attack on a hex: every infantry and cavalry division there takes the damage of its
    /// model and −1 Morale; tanks and artillery are unaffected (S-CHEM-2…6).
    pub fn gas_attack(&mut self, at: HexAt, damage: [i32; 2], what: Msg) {
        let victims: Vec<ForceId> =
            self.at(at).iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.kind.is_division())).collect();
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.land.gas.attack").msg("what", what).hex("at", at).arg("n", victims.len()),
        });
        for u in &victims {
            let model = self.force(*u).and_then(|f| f.kind.model()).unwrap_or(Model::M1914);
            let d = if model == Model::M1914 { damage[0] } else { damage[1] };
            self.change_health(*u, -d);
            self.change_morale(*u, -1);
        }
        self.check_losses(false);
    }

    /// Whether `power`, to act now, has an order of this phase's own the engine would take
    /// (S-TURN-2): in Preparation a cylinder to set or release (S-CHEM-1); in Movement always
    /// (troops, purchases); in Fire a ready gun with an enemy in reach (S-ART-2, S-ARMY-5), or an
    /// order for its fleets, squadrons or coastal guns (`has_fire_orders_at_sea`). In any phase, a peace offered to it
    /// and not yet answered (S-CITY-4: the offer waits for its answer). Other orders allowed in
    /// every phase (buying ammunition, offering peace) are not counted: a power is not kept for
    /// them. The shell passes for a person who has none, and does not hand the screen over to them.
    pub fn has_phase_orders(&self, power: PowerId) -> bool {
        if self.active_power() != power || self.idle(power) {
            return false;
        }
        let offered = self.powers.iter().enumerate().any(|(i, p)| {
            p.offer.as_ref().is_some_and(|o| o.to == power)
                && u8::try_from(i).is_ok_and(|i| self.hostile(power, PowerId(i)))
        });
        if offered && !matches!(self.clock.phase, Phase::Combat | Phase::Upkeep | Phase::Over) {
            return true;
        }
        let enemy_hexes: Vec<HexAt> = {
            let mut v: Vec<HexAt> = self
                .forces
                .iter()
                .filter(|f| f.on_map() && self.hostile(power, f.power))
                .filter_map(|f| f.hex())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        match self.clock.phase {
            Phase::Movement => true,
            Phase::Preparation => {
                let set: Vec<HexAt> =
                    self.hexes.iter().filter(|(_, s)| s.cylinder == Some(power)).map(|(at, _)| *at).collect();
                self.cylinder_place().is_ok()
                    || set.iter().any(|from| enemy_hexes.iter().any(|t| self.check_release(*from, *t).is_ok()))
            }
            Phase::Fire => {
                let guns = self.guns_ready(power).into_iter().any(|g| {
                    self.check_fire_range(g).is_some_and(|(_, reach)| {
                        enemy_hexes
                            .iter()
                            .any(|t| reach.binary_search(t).is_ok() && self.check_fire(g, *t, false).is_ok())
                    })
                });
                guns || self.has_fire_orders_at_sea(power, &enemy_hexes)
            }
            Phase::Combat | Phase::Upkeep | Phase::Over => false,
        }
    }

    /// The Fire phase's orders of `power`'s fleets, squadrons and coastal guns, as `power` knows
    /// the war (what it cannot see is never counted, so passing for it tells nobody anything):
    /// battleships that may bombard an enemy-held coast ([`Ctx::bombard_check`], S-NAVAL-13), a
    /// reconnaissance squadron
    /// that may fly (S-AIR-1), bombers that together may bomb a ship they see (S-AIR-2), a heavy
    /// gun on the coast with a ship it sees in range (S-NAVAL-14).
    fn has_fire_orders_at_sea(&self, power: PowerId, enemy_hexes: &[HexAt]) -> bool {
        use super::query;
        use crate::view::Viewer;
        let viewer = Viewer::Player(power);
        let bombard = self
            .navy
            .fleets
            .iter()
            .filter(|f| f.power == power)
            .any(|f| enemy_hexes.iter().any(|t| self.bombard_check(f.id, *t).is_ok()));
        let flyable: Vec<_> =
            self.navy.squadrons.iter().filter(|s| s.power == power && self.may_fly(s.id).is_ok()).collect();
        let recon = flyable.iter().any(|s| s.recon);
        // The bombers in range of a ship fly against it together (S-AIR-2: their bombing summed).
        let bombers: Vec<_> = flyable.iter().filter(|s| !s.recon).collect();
        let bomb = !bombers.is_empty()
            && self.navy.fleets.iter().filter(|f| self.hostile(power, f.power)).any(|f| {
                let near: Vec<_> =
                    bombers.iter().filter(|b| self.squadron_distance(b, f.at) <= b.radius).map(|b| b.id).collect();
                !near.is_empty() && {
                    let targets = query::bomb_targets(self, viewer, &near);
                    self.navy.afloat(f.id).iter().any(|ship| targets.contains(ship))
                }
            });
        let coastal = self
            .forces
            .iter()
            .filter(|f| f.power == power && !f.activity.fired)
            .any(|f| self.coastal_range(f.id).is_some() && !query::coastal_targets(self, viewer, f.id).is_empty());
        bombard || recon || bomb || coastal
    }

    /// Checks a cylinder release (S-CHEM-1).
    pub fn check_release(&self, from: HexAt, target: HexAt) -> Result<(), OrderError> {
        let power = self.active_power();
        if self.clock.turn < GAS_FROM_TURN {
            return Err(OrderError::TooEarly { what: Msg::new("gwe.land.what.gas"), from: GAS_FROM_TURN });
        }
        if !self.powers[usize::from(power.0)].techs.gas {
            return Err(OrderError::NoTech { what: Msg::new("gwe.land.what.gas_cylinder"), tech: Tech::Gas });
        }
        if self.hex_state(from).cylinder != Some(power) {
            return Err(OrderError::Gas(Msg::new("gwe.land.err.no_cylinder").hex("at", from)));
        }
        if self.holder(from) != Some(power) {
            return Err(OrderError::Gas(Msg::new("gwe.land.err.cylinder_unheld").hex("at", from)));
        }
        if from.distance(target) > GAS_RADIUS || !self.map().contains(target) {
            return Err(OrderError::Gas(
                Msg::new("gwe.land.err.cylinder_range")
                    .hex("target", target)
                    .arg("radius", GAS_RADIUS)
                    .hex("from", from),
            ));
        }
        Ok(())
    }

    /// Releases a cylinder: d6 — 1 blown back, 2 no effect, 3–6 the target is hit (S-CHEM-1).
    pub fn release_gas(&mut self, from: HexAt, target: HexAt) {
        self.hex_state_mut(from).cylinder = None;
        let pips = self.dice.d6();
        let (hit, key) = if GAS_BLOWN_BACK.contains(pips) {
            (Some(from), "gwe.land.cylinder.blown_back")
        } else if GAS_NO_EFFECT.contains(pips) {
            (None, "gwe.land.cylinder.no_effect")
        } else {
            (Some(target), "gwe.land.cylinder.hit")
        };
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Die { what: "gas cylinder".into(), pips },
            line: Msg::new("gwe.land.cylinder.released")
                .hex("from", from)
                .hex("target", target)
                .arg("pips", pips)
                .msg("result", Msg::new(key)),
        });
        if let Some(h) = hit {
            self.gas_attack(h, CYLINDER_DAMAGE, Msg::new("gwe.land.gas.cylinder"));
        }
    }

    /// S-TURN-3 at the end of the Fire phase: damage that destroyed nothing is restored.
    pub fn restore_damage(&mut self) {
        for s in self.hexes.values_mut() {
            s.damage = 0;
            s.city_damage = 0;
        }
    }
}
