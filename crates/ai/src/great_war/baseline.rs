//! Baselines to measure the general staff against: random legal orders, and greedy pieces that
//! each take their single best previewed action with no plan.

use super::judge::{advantage, expected_gain};
use super::{blind, enemy_combat_hexes, enemy_hexes, legal, out_of_time};
use crate::Think;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rules::strategic::query::{fleet_reach, land_pieces};
use rules::strategic::state::ForceKind;
use rules::strategic::{Ctx, HexAt, Order, Phase, Piece, PowerId};
use rules::view::Viewer;
use web_time::{Duration, Instant};

/// Orders a baseline gives in one part of a phase before it passes.
const RANDOM_ORDERS_PER_PHASE: u32 = 12;

/// Candidate orders of a few kinds for the active power in this phase (not all legal).
pub fn candidates(ctx: &Ctx, power: PowerId) -> Vec<Vec<Order>> {
    let mut kinds: Vec<Vec<Order>> = Vec::new();
    let enemies = enemy_hexes(ctx, power);
    match ctx.clock.phase {
        Phase::Preparation => {
            let gas: Vec<Order> = ctx
                .hexes
                .iter()
                .filter(|(_, s)| s.cylinder == Some(power))
                .flat_map(|(from, _)| {
                    enemies
                        .iter()
                        .filter(|e| e.distance(*from) <= 3)
                        .map(|e| Order::ReleaseGas { from: *from, target: *e })
                })
                .collect();
            kinds.push(gas);
        }
        Phase::Movement => {
            for p in land_pieces(ctx, power) {
                let mut v: Vec<Order> = ctx
                    .destinations(p.piece)
                    .into_iter()
                    .map(|(_, _, path)| Order::Move { piece: p.piece, path })
                    .collect();
                v.extend(
                    p.at.neighbours()
                        .into_iter()
                        .filter(|n| enemies.contains(n))
                        .map(|target| Order::Attack { piece: p.piece, target }),
                );
                v.push(Order::Fortify { piece: p.piece });
                kinds.push(v);
            }
            for f in ctx.navy.fleets.iter().filter(|f| f.power == power) {
                let mut v: Vec<Order> = fleet_destinations(ctx, power, f.id)
                    .into_iter()
                    .map(|path| Order::MoveFleet { fleet: f.id, path })
                    .collect();
                v.push(Order::LayMine { fleet: f.id });
                v.push(Order::Sweep { fleet: f.id });
                kinds.push(v);
            }
            kinds.push(vec![Order::BuyAmmunition { amount: 5 }]);
        }
        Phase::Fire => {
            for f in ctx.forces.iter().filter(|f| f.power == power && matches!(f.kind, ForceKind::Artillery { .. })) {
                let from = ctx.gun_hexes(f.id);
                let v: Vec<Order> = enemies
                    .iter()
                    .filter(|e| from.iter().any(|h| h.distance(**e) <= 12))
                    .flat_map(|e| [false, true].map(|gas| Order::Fire { unit: f.id, target: *e, gas }))
                    .collect();
                kinds.push(v);
            }
        }
        _ => {}
    }
    kinds.retain(|k| !k.is_empty());
    kinds
}

/// Sea and port hexes a fleet can reach with the movement it has left, with a shortest path to
/// each (breadth first in hex order), its own hex excluded.
pub fn fleet_destinations(ctx: &Ctx, power: PowerId, fleet: u32) -> Vec<Vec<HexAt>> {
    let reach = fleet_reach(ctx, Viewer::Player(power), fleet);
    reach.ends().filter_map(|(h, _)| reach.path(h)).collect()
}

/// Random legal orders: a kind, then an order of it, both uniformly; after a dozen orders or ten
/// refused draws it passes.
pub struct RandomGw {
    power: PowerId,
    rng: ChaCha8Rng,
    key: Option<(u32, Phase)>,
    given: u32,
}

impl RandomGw {
    pub fn new(power: PowerId, seed: u64) -> RandomGw {
        RandomGw { power, rng: ChaCha8Rng::seed_from_u64(seed), key: None, given: 0 }
    }

    pub fn next(&mut self, ctx: &Ctx) -> Order {
        let key = (ctx.clock.turn, ctx.clock.phase);
        if self.key != Some(key) {
            self.key = Some(key);
            self.given = 0;
        }
        if self.given >= RANDOM_ORDERS_PER_PHASE {
            return Order::EndPhase;
        }
        let kinds = candidates(ctx, self.power);
        for _ in 0..10 {
            // One chance in the number of kinds + 1 to pass.
            let k = self.rng.next_u32() as usize % (kinds.len() + 1);
            let Some(kind) = kinds.get(k) else { break };
            let order = kind[self.rng.next_u32() as usize % kind.len()].clone();
            if legal(ctx, &order) {
                self.given += 1;
                return order;
            }
        }
        Order::EndPhase
    }
}

impl crate::Player<rules::strategic::GreatWar> for RandomGw {
    fn think(&mut self, ctx: &Ctx, _budget: Duration) -> Think<Order> {
        if ctx.clock.phase == Phase::Over || ctx.active_power() != self.power {
            Think::Idle
        } else {
            Think::Order(self.next(ctx))
        }
    }
}

/// Each piece in ID order takes its best previewed action: an attack on the adjacent enemy hex
/// with the best odds, else a move into the contact with the best odds if it is favourable, else
/// a step towards the nearest enemy; each gun fires at the hex where it does most harm.
pub struct GreedyGw {
    power: PowerId,
    key: Option<(u32, Phase)>,
    done: Vec<Piece>,
    guns: Vec<u32>,
}

impl GreedyGw {
    pub fn new(power: PowerId) -> GreedyGw {
        GreedyGw { power, key: None, done: Vec::new(), guns: Vec::new() }
    }

    pub fn think(&mut self, ctx: &Ctx, start: Instant, budget: Duration) -> Think<Order> {
        let key = (ctx.clock.turn, ctx.clock.phase);
        if self.key != Some(key) {
            self.key = Some(key);
            self.done.clear();
            self.guns.clear();
        }
        match ctx.clock.phase {
            Phase::Movement => {
                for p in land_pieces(ctx, self.power) {
                    if self.done.contains(&p.piece) {
                        continue;
                    }
                    if out_of_time(start, budget) {
                        return Think::Thinking;
                    }
                    self.done.push(p.piece);
                    if let Some(o) = self.best_move(ctx, p.piece, p.at, p.artillery) {
                        return Think::Order(o);
                    }
                }
                Think::Order(Order::EndPhase)
            }
            Phase::Fire => {
                let guns: Vec<u32> = ctx
                    .forces
                    .iter()
                    .filter(|f| f.power == self.power && f.kind.is_artillery() && !f.activity.fired)
                    .map(|f| f.id.0)
                    .collect();
                for g in guns {
                    if self.guns.contains(&g) {
                        continue;
                    }
                    if out_of_time(start, budget) {
                        return Think::Thinking;
                    }
                    self.guns.push(g);
                    if let Some(o) = best_shot(ctx, self.power, rules::strategic::state::ForceId(g), false) {
                        return Think::Order(o);
                    }
                }
                Think::Order(Order::EndPhase)
            }
            _ => Think::Order(Order::EndPhase),
        }
    }

    fn best_move(&self, ctx: &Ctx, piece: Piece, at: HexAt, artillery: bool) -> Option<Order> {
        let power = self.power;
        if artillery {
            return None;
        }
        let enemies = enemy_combat_hexes(ctx, power);
        if ctx.next_to_enemy(power, at) {
            return at
                .neighbours()
                .into_iter()
                .filter(|n| enemies.contains(n))
                .map(|target| Order::Attack { piece, target })
                .filter_map(|o| advantage(ctx, power, &o).map(|a| (a, o)))
                .filter(|(a, _)| *a > 0)
                .max_by_key(|(a, _)| *a)
                .map(|(_, o)| o);
        }
        let dests = ctx.destinations(piece);
        let attack = dests
            .iter()
            .filter(|(h, _, _)| ctx.next_to_enemy(power, *h))
            .map(|(_, _, path)| Order::Move { piece, path: path.clone() })
            .filter_map(|o| advantage(ctx, power, &o).map(|a| (a, o)))
            .filter(|(a, _)| *a > 0)
            .max_by_key(|(a, _)| *a)
            .map(|(_, o)| o);
        if attack.is_some() {
            return attack;
        }
        let near = |h: HexAt| enemies.iter().map(|e| e.distance(h)).min().unwrap_or(0);
        let here = near(at);
        dests
            .into_iter()
            .filter(|(h, _, _)| !ctx.next_to_enemy(power, *h) && near(*h) < here)
            .min_by_key(|(h, c, _)| (near(*h), *c, *h))
            .map(|(_, _, path)| Order::Move { piece, path })
    }
}

/// The shot (normal, or gas too when `gas`) at the enemy hex where it does most expected harm;
/// `None` when no shot gains anything.
pub fn best_shot(ctx: &Ctx, power: PowerId, gun: rules::strategic::state::ForceId, gas: bool) -> Option<Order> {
    let from = ctx.gun_hexes(gun);
    let probe = blind(ctx);
    let mut best: Option<(f64, Order)> = None;
    for target in enemy_hexes(ctx, power) {
        if !from.iter().any(|h| h.distance(target) <= 12) {
            continue;
        }
        for g in [false, true] {
            if g && !gas {
                continue;
            }
            let o = Order::Fire { unit: gun, target, gas: g };
            if probe.check_fire(gun, target, g).is_err() {
                continue;
            }
            if let Some(v) = expected_gain(ctx, power, &o)
                && v > 0.0
                && best.as_ref().is_none_or(|(b, _)| v > *b)
            {
                best = Some((v, o));
            }
        }
    }
    best.map(|(_, o)| o)
}

impl crate::Player<rules::strategic::GreatWar> for GreedyGw {
    fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think<Order> {
        if ctx.clock.phase == Phase::Over || ctx.active_power() != self.power {
            return Think::Idle;
        }
        GreedyGw::think(self, ctx, Instant::now(), budget)
    }
}
