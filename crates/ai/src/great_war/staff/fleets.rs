//! The staff at sea: sea lift (S-NAVAL-11), each fleet's battle, port, patrol or raid, mines off
//! the own coast, U-boat hunts (S-SUB-1/2) and escorts of battle fleets.

use super::state::{Item, Staff};
use crate::great_war::judge::{battle_value, exposed, ship_worth, submarine_attack_worth, threats, torpedo_worth};
use crate::great_war::sea;
use crate::great_war::{legal, visible_enemy_fleets};
use rules::strategic::naval::ShipType;
use rules::strategic::query::{Walk, fleet_reach};
use rules::strategic::{Ctx, HexAt, Order, PowerId};
use rules::view::Viewer;

impl Staff {
    /// S-NAVAL-11: the fleets that may carry the units cut off by sea from the front, those with
    /// warships (escorts) first, each a [`Item::Crossing`]; then a fleet sails toward the units
    /// left ([`Item::LiftStation`]).
    pub(super) fn sea_lift(&mut self, ctx: &Ctx) {
        let front = self.front_now(ctx);
        if sea::cut_off(ctx, self.power, &front).is_empty() {
            return;
        }
        let mut fleets: Vec<(bool, u32)> = ctx
            .navy
            .fleets
            .iter()
            .filter(|f| f.power == self.power && f.mp_left > 0 && !ctx.navy.is_flotilla(f.id))
            .filter(|f| !ctx.navy.afloat(f.id).is_empty())
            .map(|f| (!ctx.navy.has_warships(f.id), f.id))
            .collect();
        fleets.sort_unstable();
        self.items.push_front(Item::LiftStation);
        for (_, id) in fleets.into_iter().rev() {
            self.items.push_front(Item::Crossing(id));
        }
    }

    /// Fleets seek battle when the engine's odds favour them and lie in port otherwise;
    /// minelayers lay, minesweepers sweep where the enemy laid; submarines raid enemy sea lanes.
    pub(super) fn fleet(&mut self, ctx: &Ctx, id: u32) {
        let p = self.power;
        let enemies = visible_enemy_fleets(ctx, p);
        if let Some(f) = ctx.navy.fleet(id).filter(|f| f.power == p) {
            if ctx.navy.afloat(f.id).is_empty() {
                return;
            }
            for o in [Order::LayMine { fleet: f.id }, Order::Sweep { fleet: f.id }] {
                let useful = match o {
                    Order::Sweep { .. } => {
                        let area = ctx.map().cell(f.at).map_or(0, |c| c.sea_area);
                        area > 0 && ctx.navy.enemy_mines(area - 1, |q| ctx.hostile(p, q)) > 0
                    }
                    // Mines guard our own coast (S-MINE-1): laid in a sea area that touches it.
                    _ => ctx.navy.count(f.id, ShipType::Minelayer) > 0 && own_coast(ctx, p, f.at),
                };
                if useful && legal(ctx, &o) {
                    self.queue.push_back(o);
                }
            }
            let paths = fleet_reach(ctx, Viewer::Player(self.power), f.id);
            if ctx.navy.is_flotilla(f.id) {
                let hunt = if self.doctrine.hunt { hunt(ctx, f.id, f.at, &paths) } else { None };
                match hunt {
                    Some(orders) => self.queue.extend(orders),
                    None => self.queue.extend(self.raid(ctx, f.id, f.at, &paths)),
                }
                return;
            }
            if !ctx.navy.has_warships(f.id) {
                return;
            }
            // S-NAVAL-12, S-NAVAL-10: a fleet stronger than every enemy fleet in sight intercepts
            // and stands its ground; a weaker one keeps out of battle (a fleet in being) and
            // withdraws after a round when it must fight.
            let weakest = enemies.iter().map(|e| battle_value(ctx, f.id, *e)).min_by(f64::total_cmp);
            let stronger = weakest.is_some_and(|v| v >= self.doctrine.sea_odds);
            let stance = Order::FleetStance {
                fleet: f.id,
                intercept: stronger,
                withdraw: !stronger,
                transports_first: f.transports_first,
                targets: ctx.ship_targets(f.id),
            };
            if (f.intercept, f.withdraw) != (stronger, !stronger) && legal(ctx, &stance) {
                self.queue.push_back(stance);
            }
            // A fleet that carried or fetches cut-off units this phase has spent its move on it.
            if self.lifting.contains(&f.id) {
                return;
            }
            // A staff that looks ahead gives battle only where no stronger enemy fleet reaches the
            // battle's hex next (the battle spends the fleet's movement, S-NAVAL-12).
            let threats = if self.doctrine.hunt { threats(ctx, f.id) } else { Vec::new() };
            let safe = |h: HexAt| !exposed(ctx, &threats, h);
            let battle = enemies
                .iter()
                .filter_map(|e| {
                    let at = ctx.navy.fleet(*e)?.at;
                    Some((battle_value(ctx, f.id, *e), paths.path(at)?))
                })
                .filter(|(v, path)| *v >= self.doctrine.sea_odds && path.last().is_some_and(|h| safe(*h)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, path)) = battle {
                self.queue.push_back(Order::MoveFleet { fleet: f.id, path });
                return;
            }
            if self.doctrine.hunt {
                if let Some(path) = self.station(ctx, f, stronger, &enemies, &threats, &paths) {
                    self.queue.push_back(Order::MoveFleet { fleet: f.id, path });
                }
                return;
            }
            let in_port = |h: HexAt| ctx.map().cell(h).is_some_and(|c| c.has(rules::strategic::hexmap::flag::PORT));
            if !in_port(f.at)
                && let Some(path) =
                    paths.ends().filter(|(h, _)| in_port(*h)).min_by_key(|(_, d)| *d).and_then(|(h, _)| paths.path(h))
            {
                self.queue.push_back(Order::MoveFleet { fleet: f.id, path });
            }
        }
    }

    /// Where a fleet that looks ahead goes when it has no battle to give now: one stronger than
    /// every enemy fleet in sight closes on the weakest enemy fleet it would beat (to strike or
    /// intercept next turn); any other stays where no stronger enemy fleet reaches it, in an own
    /// port if one is in reach, else as far from the stronger enemies as it can sail.
    pub(super) fn station(
        &self,
        ctx: &Ctx,
        fleet: &rules::strategic::naval::Fleet,
        stronger: bool,
        enemies: &[u32],
        threats: &[(HexAt, u32, PowerId)],
        paths: &Walk,
    ) -> Option<Vec<HexAt>> {
        let (id, at) = (fleet.id, fleet.at);
        let in_port = |h: HexAt| ctx.map().cell(h).is_some_and(|c| c.has(rules::strategic::hexmap::flag::PORT));
        if stronger {
            let prey = enemies
                .iter()
                .filter(|e| battle_value(ctx, id, **e) >= self.doctrine.sea_odds)
                .filter_map(|e| ctx.navy.fleet(*e).map(|f| f.at))
                .min_by_key(|h| (h.distance(at), *h))?;
            let here = prey.distance(at);
            return paths
                .ends()
                .filter(|(h, _)| h.distance(prey) < here)
                .min_by_key(|(h, d)| (h.distance(prey), *d, *h))
                .and_then(|(h, _)| paths.path(h));
        }
        if in_port(at) || !exposed(ctx, threats, at) {
            return None;
        }
        let threat = |h: HexAt| threats.iter().map(|(t, _, _)| t.distance(h)).min().unwrap_or(u32::MAX);
        paths
            .ends()
            .min_by_key(|(h, d)| (exposed(ctx, threats, *h), !in_port(*h), std::cmp::Reverse(threat(*h)), *d, *h))
            .and_then(|(h, _)| paths.path(h))
    }

    /// A submarine flotilla: attack a visible enemy fleet within reach that has no more ASW ships
    /// than it has boats (S-SUB-1, S-SUB-2), else patrol the nearest enemy sea lane (S-NAVAL-15).
    pub(super) fn raid(&self, ctx: &Ctx, id: u32, at: HexAt, paths: &Walk) -> Option<Order> {
        let p = self.power;
        let boats = ctx.navy.count(id, ShipType::Submarine);
        for e in visible_enemy_fleets(ctx, p) {
            let asw = ctx.navy.count(e, ShipType::Asw);
            let o = Order::SubmarineAttack { flotilla: id, target: e };
            if asw < boats && legal(ctx, &o) {
                return Some(o);
            }
        }
        let area_of = |h: HexAt| ctx.map().cell(h).map_or(0, |c| c.sea_area);
        let lanes: Vec<(usize, u16)> = ctx
            .navy
            .lanes
            .iter()
            .enumerate()
            .filter(|(_, l)| ctx.hostile(p, l.owner))
            .map(|(i, l)| (i, l.area + 1))
            .collect();
        if let Some((lane, _)) = lanes.iter().find(|(_, a)| *a == area_of(at)) {
            let o = Order::Patrol { flotilla: id, lane: *lane as u32 };
            let patrolling = ctx.navy.fleet(id).is_some_and(|f| f.patrol == Some(*lane));
            return (!patrolling && legal(ctx, &o)).then_some(o);
        }
        // The shortest way into an enemy lane's sea area, else toward the first lane's listed hexes.
        if let Some(path) = paths
            .ends()
            .filter(|(h, _)| lanes.iter().any(|(_, a)| *a == area_of(*h)))
            .min_by_key(|(h, d)| (*d, *h))
            .and_then(|(h, _)| paths.path(h))
        {
            return Some(Order::MoveFleet { fleet: id, path });
        }
        let (_, area) = lanes.first()?;
        let target =
            ctx.map().sea_areas.get(usize::from(*area - 1))?.hexes.iter().min_by_key(|h| h.distance(at)).copied()?;
        let (end, _) = paths.ends().min_by_key(|(h, d)| (h.distance(target), *d, *h))?;
        Some(Order::MoveFleet { fleet: id, path: paths.path(end)? })
    }
}

/// Whether the sea area the fleet at `at` stands in washes a city of one of `p`'s own provinces:
/// the mines guard its own coast (S-MINE-1).
pub(super) fn own_coast(ctx: &Ctx, p: PowerId, at: HexAt) -> bool {
    let map = ctx.map();
    let Some(area) = map.cell(at).map(|c| c.sea_area).filter(|a| *a > 0) else { return false };
    let in_area = |h: HexAt| map.cell(h).is_some_and(|c| c.sea_area == area);
    map.cities.iter().any(|c| {
        map.province_index(&c.province).and_then(|i| ctx.province_owner(i)) == Some(p)
            && c.hexes.iter().any(|h| in_area(*h) || h.neighbours().into_iter().any(in_area))
    })
}

/// S-SUB-1, S-SUB-2: a flotilla sails next to the enemy surface fleet where its attack is worth
/// most ([`submarine_attack_worth`]) and attacks it; `None` when no attack is worth anything or
/// the engine would refuse it (no ammunition).
pub(super) fn hunt(ctx: &Ctx, id: u32, at: HexAt, paths: &Walk) -> Option<Vec<Order>> {
    let power = ctx.navy.fleet(id)?.power;
    let mut best: Option<(f64, Vec<Order>)> = None;
    for e in visible_enemy_fleets(ctx, power) {
        let Some(target) = ctx.navy.fleet(e).map(|f| f.at) else { continue };
        let worth = submarine_attack_worth(ctx, id, e);
        if worth <= 0.0 || best.as_ref().is_some_and(|(b, _)| worth <= *b) {
            continue;
        }
        let attack = Order::SubmarineAttack { flotilla: id, target: e };
        let orders = if at.distance(target) <= 1 {
            vec![attack]
        } else {
            let Some(path) = paths
                .ends()
                .filter(|(h, _)| h.distance(target) <= 1)
                .min_by_key(|(h, d)| (*d, *h))
                .and_then(|(h, _)| paths.path(h))
            else {
                continue;
            };
            vec![Order::MoveFleet { fleet: id, path }, attack]
        };
        best = Some((worth, orders));
    }
    let (_, orders) = best?;
    let mut probe = crate::great_war::blind(ctx);
    orders.iter().all(|o| probe.apply(o).is_ok()).then_some(orders)
}

/// The U-boat flotilla a staff guards its fleets against: 4 boats (16 scaled by S-NAVAL-1). A
/// staff sees no enemy submarine, so it plans for one flotilla of the size the war began with.
pub(super) const GUARD_BOATS: usize = 4;

/// Escorts (S-SUB-1, S-SUB-2): the ASW ships one fleet of `power` sends to another this turn, as
/// orders (split them off, sail, merge), where that lowers what the worst-guarded of the two would
/// lose to a flotilla of [`GUARD_BOATS`] ([`torpedo_worth`]): a battle fleet without ASW ships loses
/// a ship to each boat, so it takes some from a fleet that has several. The sailing group keeps
/// out of the reach of enemy interceptors (S-NAVAL-12); the fleets in `keep` send none.
/// `None`: no escort worth sending.
pub(super) fn escort(ctx: &Ctx, power: PowerId, keep: &[u32]) -> Option<Vec<Order>> {
    use rules::strategic::naval::{FLEET_LIMIT, ShipType};
    let worths = |id: u32| -> Vec<(u32, ShipType, f64)> {
        ctx.navy
            .afloat(id)
            .iter()
            .filter_map(|s| ctx.navy.ship(*s))
            .map(|s| (s.id, s.kind, ship_worth(s.kind)))
            .collect()
    };
    let exposure = |ships: &[(u32, ShipType, f64)]| {
        let asw = ships.iter().filter(|s| s.1 == ShipType::Asw).count();
        let w: Vec<f64> = ships.iter().map(|s| s.2).collect();
        torpedo_worth(GUARD_BOATS, asw, &w)
    };
    let mut fleets: Vec<u32> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| f.power == power && !ctx.navy.is_flotilla(f.id) && !ctx.navy.afloat(f.id).is_empty())
        .map(|f| f.id)
        .collect();
    fleets.sort_unstable();
    let interceptors: Vec<(HexAt, u32)> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| f.intercept && ctx.hostile(power, f.power) && ctx.navy.has_warships(f.id))
        .map(|f| (f.at, f.mp_left))
        .collect();
    let mut best: Option<(f64, Vec<Order>)> = None;
    for &to in &fleets {
        let guarded = worths(to);
        if !ctx.navy.has_warships(to) || guarded.len() >= FLEET_LIMIT {
            continue;
        }
        let Some(at) = ctx.navy.fleet(to).map(|f| f.at) else { continue };
        for &from in &fleets {
            let giver = worths(from);
            let asw: Vec<u32> = giver.iter().filter(|s| s.1 == ShipType::Asw).map(|s| s.0).collect();
            if from == to || asw.is_empty() || keep.contains(&from) {
                continue;
            }
            let Some(from_at) = ctx.navy.fleet(from).map(|f| f.at) else { continue };
            let reach = fleet_reach(ctx, Viewer::Player(power), from);
            let path = if from_at == at { Some(Vec::new()) } else { reach.path(at) };
            let Some(path) = path else { continue };
            if path.iter().any(|h| interceptors.iter().any(|(i, mp)| i.distance(*h) <= *mp)) {
                continue;
            }
            let now = exposure(&guarded).max(exposure(&giver));
            for k in 1..=asw.len().min(FLEET_LIMIT - guarded.len()) {
                let sent: Vec<u32> = asw[asw.len() - k..].to_vec();
                let mut a = guarded.clone();
                a.extend(giver.iter().filter(|s| sent.contains(&s.0)).copied());
                let b: Vec<_> = giver.iter().filter(|s| !sent.contains(&s.0)).copied().collect();
                let after = exposure(&a).max(if b.is_empty() { 0.0 } else { exposure(&b) });
                let gain = now - after;
                if gain <= 1.0 || best.as_ref().is_some_and(|(g, _)| gain <= *g) {
                    continue;
                }
                // The whole fleet sails when it is all ASW ships; otherwise they split off first.
                let (group, mut orders) = if b.is_empty() {
                    (from, Vec::new())
                } else {
                    let name = format!("{} escort", ctx.navy.fleet(from).map_or("", |f| f.name.as_str()));
                    (ctx.navy.next_fleet, vec![Order::SplitFleet { fleet: from, ships: sent.clone(), name }])
                };
                if !path.is_empty() {
                    orders.push(Order::MoveFleet { fleet: group, path: path.clone() });
                }
                orders.push(Order::MergeFleet { fleet: group, into: to });
                best = Some((gain, orders));
            }
        }
    }
    let (_, orders) = best?;
    let mut probe = crate::great_war::blind(ctx);
    orders.iter().all(|o| probe.apply(o).is_ok()).then_some(orders)
}
