//! Whether a naval or air order would be accepted, asked without changing anything: the checks
//! the orders themselves run first (`rules`), so that the query layer's candidates
//! ([`crate::strategic::query`]) are exactly what the orders accept.
//!
//! Each check runs the order's tests in the order's own sequence, so a refusal reads the same
//! whether it comes from the check or from the order.

use super::model::{BOMBARD_RANGE, FLEET_LIMIT, FleetId, ShipId, ShipType, SquadronId};
use super::tables::bomb_hit;
use crate::dice::PipRange;
use crate::strategic::hexmap::HexAt;
use crate::strategic::order::OrderError;
use crate::strategic::state::{Ctx, ForceId, ForceKind};
use crate::texts::Msg;

/// A bombing the rules allow (S-AIR-2): the bombers' summed bombing, the ship's class, their
/// difference D and the pips that hit on it (`None`: a hit without a die).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bombing {
    pub bombing: i32,
    pub class: i32,
    pub d: i32,
    pub table: Option<PipRange>,
}

impl Ctx {
    /// S-NAVAL-11, the unit's part of embarking: an independent unit of the fleet's power on or
    /// next to the fleet's hex, not in contact with the enemy (S-ARMY-7, S-ARMY-15: only the
    /// Retreat order leaves a contact). The transport's price and room are
    /// [`Ctx::transport_check`]'s.
    pub fn embark_unit_check(&self, unit: ForceId, fleet: FleetId) -> Result<(), OrderError> {
        let fl = self.own_fleet(fleet)?;
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?;
        if f.power != fl.power || f.member.corps.is_some() || f.member.army.is_some() {
            return Err(OrderError::Naval(Msg::new("gwe.naval.cannot_embark").arg("unit", self.name(unit))));
        }
        let at = f.hex().ok_or_else(|| OrderError::OffMap(self.name(unit)))?;
        if at.distance(fl.at) > 1 {
            return Err(OrderError::Naval(Msg::new("gwe.naval.not_at_fleet").arg("unit", self.name(unit))));
        }
        if self.next_to_enemy(f.power, at) {
            return Err(OrderError::Engaged(self.name(unit)));
        }
        Ok(())
    }

    /// S-NAVAL-11, the squadron's part of embarking: based on or next to the fleet's hex and not
    /// attached to a formation.
    pub fn embark_squadron_check(&self, squadron: SquadronId, fleet: FleetId) -> Result<(), OrderError> {
        let sq = self.own_squadron(squadron)?;
        let at = self.own_fleet(fleet)?.at;
        if sq.base.distance(at) > 1 || sq.attached.is_some() {
            return Err(OrderError::Naval(Msg::new("gwe.naval.squadron_not_at_fleet").arg("squadron", &sq.name)));
        }
        Ok(())
    }

    /// S-NAVAL-11, MD-S5: a transport for one unit joins the fleet if the fleet has room
    /// (S-NAVAL-2: at most [`FLEET_LIMIT`] ships) and its power pays `economy.transport`.
    /// Returns the price.
    pub fn transport_check(&self, fleet: FleetId) -> Result<i64, OrderError> {
        let power = self.own_fleet(fleet)?.power;
        if self.navy.afloat(fleet).len() >= FLEET_LIMIT {
            return Err(OrderError::Naval(Msg::new("gwe.naval.fleet_limit")));
        }
        let price = i64::from(self.scenario().rules.economy.transport);
        if self.powers.get(usize::from(power.0)).is_none_or(|p| p.money < price) {
            return Err(OrderError::Economy(Msg::new("gwe.naval.transport_cost").arg("price", price)));
        }
        Ok(price)
    }

    /// S-AIR-1, S-AIR-2: a squadron of the active power flies once a turn, with aircraft left,
    /// from a base (not from aboard a ship).
    pub fn may_fly(&self, squadron: SquadronId) -> Result<(), OrderError> {
        self.own_squadron(squadron).map(|_| ())
    }

    /// S-NAVAL-2: two own fleets on one hex join if together they hold at most [`FLEET_LIMIT`]
    /// ships.
    pub fn merge_check(&self, id: FleetId, into: FleetId) -> Result<(), OrderError> {
        let a = self.own_fleet(id)?;
        let b = self.own_fleet(into)?;
        if id == into || a.at != b.at {
            return Err(OrderError::Naval(Msg::new("gwe.naval.merge_one_hex")));
        }
        if self.navy.afloat(id).len() + self.navy.afloat(into).len() > FLEET_LIMIT {
            return Err(OrderError::Naval(Msg::new("gwe.naval.fleet_limit")));
        }
        Ok(())
    }

    /// S-NAVAL-14: a heavy gun of the active power on a coast hex that has not fired this turn
    /// may fire at an enemy surface ship within its range.
    pub fn coastal_fire_check(&self, unit: ForceId, ship: ShipId) -> Result<(), OrderError> {
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?;
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(self.name(unit)));
        }
        if !matches!(f.kind, ForceKind::Artillery { .. }) {
            return Err(OrderError::Naval(Msg::new("gwe.naval.coastal_needs_heavy")));
        }
        if f.activity.fired {
            return Err(OrderError::Naval(Msg::new("gwe.naval.coastal_once")));
        }
        let at = f.hex().ok_or_else(|| OrderError::OffMap(self.name(unit)))?;
        let coast = self.coastal_range(unit);
        let s = self.navy.ship(ship).ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_ship").arg("id", ship)))?;
        let fleet_at = self.navy.fleet(s.fleet).map_or(at, |x| x.at);
        if coast.is_none_or(|(_, range)| at.distance(fleet_at) > range)
            || s.sunk
            || !self.hostile(f.power, s.power)
            || s.kind == ShipType::Submarine
        {
            return Err(OrderError::Naval(
                Msg::new("gwe.naval.coastal_cannot").arg("unit", self.name(unit)).msg("ship", self.ship_label(ship)),
            ));
        }
        Ok(())
    }

    /// S-NAVAL-13: an own fleet with battleships that has not bombarded this phase may bombard a
    /// coastal hex within [`BOMBARD_RANGE`] of it (the ammunition aside, which the order spends).
    pub fn bombard_check(&self, id: FleetId, target: HexAt) -> Result<(), OrderError> {
        let f = self.own_fleet(id)?;
        if self.navy.count(id, ShipType::Battleship) == 0 || f.bombarded {
            return Err(OrderError::Naval(Msg::new("gwe.naval.bombard_needs")));
        }
        if !self.map().is_coast(target) || f.at.distance(target) > BOMBARD_RANGE {
            return Err(OrderError::Naval(
                Msg::new("gwe.naval.bombard_target").hex("target", target).arg("range", BOMBARD_RANGE).hex("at", f.at),
            ));
        }
        Ok(())
    }

    /// S-NAVAL-14: a heavy artillery unit on a coast hex, with its gun's range; `None` for any
    /// other unit.
    pub fn coastal_range(&self, unit: ForceId) -> Option<(HexAt, u32)> {
        let f = self.force(unit)?;
        let ForceKind::Artillery { gun } = f.kind else { return None };
        let at = f.hex()?;
        let coast = self.map().is_coast(at);
        let range = self.scenario().units.guns.get(usize::from(gun)).map_or(0, |g| g.range);
        coast.then_some((at, range))
    }

    /// S-AIR-2: bombers of the active power that have not flown this turn, each within its
    /// radius of the ship (from its base, or from its formation's hexes when attached), attack
    /// one enemy surface ship together, if their summed bombing is at least the ship's class.
    pub fn bomb_check(&self, squadrons: &[SquadronId], ship: ShipId) -> Result<Bombing, OrderError> {
        let s = self.navy.ship(ship).ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_ship").arg("id", ship)))?;
        let at = self.navy.fleet(s.fleet).map(|f| f.at).ok_or(OrderError::EmptyPath)?;
        let mut bombing = 0i32;
        for (i, id) in squadrons.iter().enumerate() {
            let sq = self.own_squadron(*id)?;
            if squadrons[..i].contains(id)
                || sq.recon
                || self.squadron_distance(&sq, at) > sq.radius
                || s.sunk
                || !self.hostile(sq.power, s.power)
                || s.kind == ShipType::Submarine
            {
                return Err(OrderError::Naval(
                    Msg::new("gwe.naval.cannot_bomb").arg("squadron", &sq.name).msg("ship", self.ship_label(ship)),
                ));
            }
            bombing += i32::from(sq.bombing);
        }
        if squadrons.is_empty() {
            return Err(OrderError::Naval(Msg::new("gwe.naval.no_squadron_named")));
        }
        let class = i32::from(s.kind.target_class());
        let d = bombing - class;
        let Some(table) = bomb_hit(d) else {
            return Err(OrderError::Naval(
                Msg::new("gwe.naval.bombing_too_weak").arg("bombing", bombing).arg("class", class),
            ));
        };
        Ok(Bombing { bombing, class, d, table })
    }

    /// S-SUB-1…5: an own flotilla attacks an enemy fleet afloat on or next to its hex; an enemy
    /// flotilla only once its side has found it (S-SUB-5, house rule).
    pub fn submarine_attack_check(&self, id: FleetId, target: FleetId) -> Result<(), OrderError> {
        let f = self.own_fleet(id)?;
        if !self.navy.is_flotilla(id) {
            return Err(OrderError::Naval(Msg::new("gwe.naval.flotilla_only")));
        }
        let t = self
            .navy
            .fleet(target)
            .ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_fleet").arg("id", target)))?;
        if !self.hostile(f.power, t.power) || t.at.distance(f.at) > 1 || self.navy.afloat(target).is_empty() {
            return Err(OrderError::Naval(Msg::new("gwe.naval.no_enemy_fleet").arg("fleet", &t.name).hex("at", f.at)));
        }
        if self.navy.is_flotilla(target) && !self.detects(f.power, target) {
            return Err(OrderError::Undetected { target: t.name.clone() });
        }
        Ok(())
    }
}
