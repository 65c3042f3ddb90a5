//! Movement on the hex map: costs (S-TERR), allowances (S-LAND-3, S-LAND-8, S-ARMY-1), stopping
//! next to the enemy (S-COMBAT-4), reachability with the `pathfinding` crate bounded by MP.

use super::event::{Event, EventKind};
use super::hexmap::{HexAt, Terrain};
use super::order::{OrderError, Piece};
use super::state::{Ctx, ForceId, ForceKind, FormationKind, Place, PowerId};
use crate::texts::Msg;
use pathfinding::directed::dijkstra::dijkstra_reach;
use std::collections::HashMap;

/// S-TERR-2: crossing a river other than by a bridge costs 2 MP in all («тратят на преодоление
/// реки … 2 очка движения», read as the source reads 3 MP for a mountain hex and 2 for a forest
/// hex: the whole cost of the step). Onto clear ground the step costs 2; onto dearer ground the
/// river adds what it costs over clear ground (house: forest across a river 3, mountains 4).
pub const RIVER_CROSSING_MP: u32 = 2;

/// A legal move, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub units: Vec<ForceId>,
    pub path: Vec<HexAt>,
    pub cost: u32,
}

impl Ctx {
    /// MP to step from `from` into the adjacent `to` for a unit of `kind`; `None` if impassable.
    pub fn step_cost(&self, kind: ForceKind, from: HexAt, to: HexAt) -> Option<u32> {
        let map = self.map();
        let cell = map.cell(to)?;
        let costs = &self.scenario().rules.terrain;
        let mountain_troops = matches!(kind, ForceKind::Infantry { mountain: true, .. });
        let base = match cell.terrain {
            Terrain::Sea | Terrain::Lake => return None,
            Terrain::Clear => costs.clear,
            // S-TERR-3; a forest destroyed by artillery (S-TERR-3 resolution) is open ground.
            Terrain::Forest if self.hex_state(to).forest_destroyed => costs.clear,
            Terrain::Forest => costs.forest,
            // S-TERR-1: mountain infantry, and anyone along a road, pay as on clear ground.
            Terrain::Mountains if mountain_troops || map.road_between(from, to) => costs.clear,
            Terrain::Mountains => costs.mountains,
            Terrain::Desert => costs.desert,
            Terrain::Northern => costs.northern,
            Terrain::Marsh => costs.marsh,
        };
        let river = map.river_between(from, to) && !map.bridge_between(from, to);
        Some(base + if river { RIVER_CROSSING_MP.saturating_sub(costs.clear) } else { 0 })
    }

    /// The units that move with a piece, and its owner.
    pub fn piece_units(&self, piece: Piece) -> Result<(PowerId, Vec<ForceId>), OrderError> {
        match piece {
            Piece::Unit(id) => {
                let f = self.force(id).ok_or(OrderError::NoUnit(id))?;
                // S-ART-5: a battery's three divisions stay on one hex and move together.
                let units = match f.member.battery {
                    Some(b) => {
                        self.forces.iter().filter(|g| g.member.battery == Some(b) && g.on_map()).map(|g| g.id).collect()
                    }
                    None => vec![id],
                };
                Ok((f.power, units))
            }
            Piece::Corps(id) => {
                let fm = self.formation(id).ok_or(OrderError::NoFormation(id))?;
                if fm.kind != FormationKind::Corps {
                    return Err(OrderError::Organization(
                        Msg::new("gwe.land.err.army_not_corps").arg("name", &fm.name),
                    ));
                }
                let units: Vec<ForceId> =
                    fm.units.iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.on_map())).collect();
                Ok((fm.power, units))
            }
        }
    }

    /// The hex of a piece.
    pub fn piece_hex(&self, piece: Piece) -> Option<HexAt> {
        let (_, units) = self.piece_units(piece).ok()?;
        units.first().and_then(|u| self.force(*u)).and_then(|f| f.hex())
    }

    /// Movement left to a group of units: the slowest one's (S-ARMY-1).
    pub fn group_mp(&self, units: &[ForceId]) -> u32 {
        units.iter().filter_map(|u| self.force(*u)).map(|f| f.activity.mp_left).min().unwrap_or(0)
    }

    /// The kind that decides costs for a group: mountain infantry pays less only if every unit is one.
    fn group_kind(&self, units: &[ForceId]) -> ForceKind {
        let kinds: Vec<ForceKind> = units.iter().filter_map(|u| self.force(*u)).map(|f| f.kind).collect();
        kinds
            .iter()
            .copied()
            .find(|k| !matches!(k, ForceKind::Infantry { mountain: true, .. }))
            .or_else(|| kinds.first().copied())
            .unwrap_or(ForceKind::Artillery { gun: 0 })
    }

    /// Every hex a group can reach this phase with its cost, cheapest first (ties in discovery
    /// order). Hexes next to an enemy end the move (S-COMBAT-4); enemy hexes and water are closed.
    pub fn reachable(
        &self,
        power: PowerId,
        units: &[ForceId],
        from: HexAt,
        mp: u32,
    ) -> Vec<(HexAt, u32, Option<HexAt>)> {
        let kind = self.group_kind(units);
        // Closed neutral land (issue 12) is looked at only while some power is neutral.
        let neutrals = self.powers.iter().any(|p| p.neutral);
        dijkstra_reach(&from, |&h: &HexAt| {
            let stop = h != from && self.next_to_enemy(power, h);
            let mut next: Vec<(HexAt, u32)> = Vec::with_capacity(6);
            if !stop {
                for n in h.neighbours() {
                    if self.enemy_on(power, n) || (neutrals && self.check_neutral_land(power, n).is_err()) {
                        continue;
                    }
                    if let Some(c) = self.step_cost(kind, h, n) {
                        next.push((n, c));
                    }
                }
            }
            next
        })
        .take_while(|item| item.total_cost <= mp)
        .map(|item| (item.node, item.total_cost, item.parent))
        .collect()
    }

    /// Hexes a piece may end its move on, with the cheapest path to each.
    pub fn destinations(&self, piece: Piece) -> Vec<(HexAt, u32, Vec<HexAt>)> {
        let Ok((power, units)) = self.piece_units(piece) else { return Vec::new() };
        let Some(from) = self.piece_hex(piece) else { return Vec::new() };
        let mp = self.group_mp(&units);
        let reach = self.reachable(power, &units, from, mp);
        let parents: HashMap<HexAt, Option<HexAt>> = reach.iter().map(|(h, _, p)| (*h, *p)).collect();
        reach
            .iter()
            .filter(|(h, _, _)| *h != from && self.at(*h).is_empty())
            .map(|(h, c, _)| {
                let mut path = vec![*h];
                let mut at = *h;
                while let Some(Some(p)) = parents.get(&at) {
                    if *p == from {
                        break;
                    }
                    path.push(*p);
                    at = *p;
                }
                path.reverse();
                (*h, *c, path)
            })
            .collect()
    }

    /// Checks a path for a group (ownership and organisation are checked by the caller).
    pub fn check_path(&self, power: PowerId, units: &[ForceId], path: &[HexAt]) -> Result<MovePlan, OrderError> {
        let from = units.first().and_then(|u| self.force(*u)).and_then(|f| f.hex()).ok_or(OrderError::EmptyPath)?;
        if path.is_empty() {
            return Err(OrderError::EmptyPath);
        }
        if units.iter().any(|u| self.force(*u).is_some_and(|f| f.activity.fortified)) {
            return Err(OrderError::Fortification(Msg::new("gwe.land.err.fortified")));
        }
        let kind = self.group_kind(units);
        let left = self.group_mp(units);
        let mut cost = 0;
        let mut prev = from;
        for (i, &h) in path.iter().enumerate() {
            if !self.map().contains(h) {
                return Err(OrderError::OutsideMap(h));
            }
            if !prev.is_adjacent(h) {
                return Err(OrderError::NotAdjacent { from: prev, to: h });
            }
            if self.enemy_on(power, h) {
                return Err(OrderError::EnemyHex(h));
            }
            self.check_neutral_land(power, h)?;
            let step = self.step_cost(kind, prev, h).ok_or(OrderError::Water(h))?;
            cost += step;
            if cost > left {
                return Err(OrderError::NoMovement { need: cost, left });
            }
            if i + 1 < path.len() && self.next_to_enemy(power, h) {
                return Err(OrderError::MustStop(h));
            }
            prev = h;
        }
        let end = *path.last().unwrap_or(&from);
        if self.at(end).iter().any(|u| !units.contains(u)) {
            return Err(OrderError::Occupied(end));
        }
        Ok(MovePlan { units: units.to_vec(), path: path.to_vec(), cost })
    }

    /// Applies a checked move: members move together, pay MP, count as having moved (S-COMBAT-2);
    /// fronts and flank attacks are recorded (S-COMBAT-7, S-COMBAT-6).
    pub fn do_move(&mut self, plan: &MovePlan) {
        let Some(&end) = plan.path.last() else { return };
        for u in &plan.units {
            if let Some(f) = self.force_mut(*u) {
                f.place = Place::Map(end);
                f.activity.mp_left = f.activity.mp_left.saturating_sub(plan.cost);
                f.activity.moved = true;
            }
            let name = self.name_msg(*u);
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Moved { unit: *u, to: end, cost: plan.cost },
                line: Msg::new("gwe.land.moved").msg("unit", name).hex("to", end).arg("mp", plan.cost),
            });
        }
        self.rebuild_occupancy();
        self.arrive(end, &plan.units);
        self.engage_from(end, &plan.units);
    }

    /// S-ARMY-9: units arriving in the area of a fighting army of their power (other than their
    /// own) may only attack there while it fights; leaving its area ends that.
    pub fn arrive(&mut self, at: HexAt, units: &[ForceId]) {
        for u in units {
            let Some(f) = self.force(*u) else { continue };
            let (power, own, before) = (f.power, f.member.army, f.front.attack_only);
            let still = before.filter(|a| self.formation_hexes(*a).iter().any(|h| h.distance(at) <= 1));
            let now = still.or_else(|| self.fighting_army_at(power, at, own));
            if let Some(f) = self.force_mut(*u) {
                f.front.attack_only = now;
            }
        }
    }

    /// Records who engaged whom when units arrive at `at` (S-COMBAT-7) and flank attacks (S-COMBAT-6).
    /// An enemy is already engaged when its front is recorded or when units of the movers' side
    /// that did not move this turn stand next to it (a standing contact, from the start or for
    /// turns: its front is then the hexsides towards all of them). A mover arriving outside that front strikes
    /// the enemy's flank or rear; the bonus belongs to that pair (bit of the side in `flanks`).
    /// An enemy engaged by nobody before takes the movers' hexside as its front.
    pub fn engage_from(&mut self, at: HexAt, movers: &[ForceId]) {
        let Some(power) = movers.first().and_then(|u| self.force(*u)).map(|f| f.power) else { return };
        // Enemies next to `at`, by the hexside from `at` (never by ID, S-COMBAT-8).
        let mut enemies: Vec<(u8, ForceId)> = Vec::new();
        for (side, n) in at.neighbours().into_iter().enumerate() {
            for e in self.at(n) {
                if self.force(*e).is_some_and(|f| self.hostile(power, f.power) && f.kind.is_combatant()) {
                    enemies.push((side as u8, *e));
                }
            }
        }
        let mut flanks = 0u8;
        for (mover_side, e) in &enemies {
            let Some(ef) = self.force(*e) else { continue };
            let Some(eh) = ef.hex() else { continue };
            let side = eh.side_to(at).unwrap_or(0);
            let engaged: Vec<u8> = match ef.front.front {
                Some(front) => vec![front],
                None => eh
                    .neighbours()
                    .into_iter()
                    .enumerate()
                    .filter(|(_, n)| {
                        self.at(*n).iter().any(|o| {
                            !movers.contains(o)
                                && self.force(*o).is_some_and(|g| {
                                    g.kind.is_combatant() && !g.activity.moved && self.hostile(g.power, ef.power)
                                })
                        })
                    })
                    .map(|(s, _)| s as u8)
                    .collect(),
            };
            if engaged.is_empty() {
                if let Some(f) = self.force_mut(*e) {
                    f.front.front = Some(side);
                }
                continue;
            }
            // Front: each engaged hexside and the two beside it; the rest is flank or rear.
            let on_front =
                engaged.iter().any(|front| matches!((i32::from(side) - i32::from(*front)).rem_euclid(6), 0 | 1 | 5));
            if !on_front {
                flanks |= 1 << mover_side;
            }
        }
        // The movers face the enemy they met; meeting several hexes of them, their front is every
        // hexside in contact (left unrecorded), and they fight all of them unless they name one.
        let first = enemies.first().map(|(side, _)| *side).filter(|s| enemies.iter().all(|(o, _)| o == s));
        for u in movers {
            if let Some(f) = self.force_mut(*u) {
                if f.front.front.is_none() {
                    f.front.front = first;
                }
                f.activity.flanks |= flanks;
                // S-ARMY-15: an attacker may go back to where it began the turn of its attack.
                if !enemies.is_empty() && f.front.attack_from.is_none() && f.activity.start != f.hex() {
                    f.front.attack_from = f.activity.start;
                }
            }
        }
    }
}
