//! Baselines to measure the AI against: uniformly random legal orders, and greedy units that
//! each take their single best immediate fire or attack with no coordination.

use crate::Think;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rules::tactical::components::{Phase, Side, UnitId};
use rules::tactical::preview::ForecastLimits;
use rules::tactical::{Battle, Ctx, Order};
use web_time::Duration;

/// Uniformly random legal orders.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    pub fn next(&mut self, ctx: &Ctx) -> Order {
        let orders = ctx.legal_orders();
        let i = (self.rng.next_u32() as usize) % orders.len().max(1);
        orders.into_iter().nth(i).unwrap_or(Order::EndTurn)
    }
}

/// Plays whichever side is to move; idle once the battle is over.
impl crate::Player<Battle> for RandomPlayer {
    fn think(&mut self, ctx: &Ctx, _budget: Duration) -> Think {
        if ctx.clock.phase == Phase::Over { Think::Idle } else { Think::Order(self.next(ctx)) }
    }
}

/// Each unit in ID order: its best shot by expected damage; else its best attack if the forecast
/// says it gains; else a step towards the nearest enemy.
pub struct GreedyPlayer {
    side: Side,
    turn: Option<u32>,
    done: Vec<UnitId>,
}

const LIMITS: ForecastLimits = ForecastLimits { max_exact_runs: 216, samples: 24, project_melee: true };

impl GreedyPlayer {
    pub fn new(side: Side) -> GreedyPlayer {
        GreedyPlayer { side, turn: None, done: Vec::new() }
    }

    pub fn next(&mut self, ctx: &Ctx) -> Order {
        if ctx.clock.phase != Phase::Battle {
            return Order::EndSetup;
        }
        if self.turn != Some(ctx.clock.turn) {
            self.turn = Some(ctx.clock.turn);
            self.done.clear();
        }
        let units: Vec<UnitId> =
            ctx.units.iter().filter(|u| u.side == self.side && u.status.on_field()).map(|u| u.id).collect();
        for id in units {
            if self.done.contains(&id) {
                continue;
            }
            self.done.push(id);
            if let Some(order) = self.best_action(ctx, id) {
                return order;
            }
        }
        Order::EndTurn
    }

    fn best_action(&self, ctx: &Ctx, id: UnitId) -> Option<Order> {
        let side = self.side;
        // Health the enemy loses minus Health we lose, expected over the forecast.
        let gain = |order: &Order| -> f64 {
            let Ok(f) = ctx.forecast(order, LIMITS) else {
                return f64::NEG_INFINITY;
            };
            f.outcomes
                .iter()
                .map(|o| {
                    let delta: i32 = ctx
                        .units
                        .iter()
                        .map(|u| {
                            let after =
                                o.ctx.unit(u.id).map_or(0, |a| if a.status.on_field() { a.health.current } else { 0 });
                            let before = if u.status.on_field() { u.health.current } else { 0 };
                            let lost = before - after;
                            if u.side == side { -lost } else { lost }
                        })
                        .sum();
                    o.prob * f64::from(delta)
                })
                .sum()
        };
        let shots: Vec<Order> =
            ctx.fire_targets(id).into_iter().map(|s| Order::Fire { unit: id, target: s.target }).collect();
        if let Some(best) = pick(shots, &gain) {
            return Some(best);
        }
        let reach = ctx.reachable(id);
        let attacks: Vec<Order> = reach
            .iter()
            .filter(|r| ctx.next_to_visible_enemy(r.cell, side))
            .map(|r| Order::Move { unit: id, path: r.path.clone(), exit: false })
            .collect();
        if let Some(best) = pick(attacks, &gain).filter(|o| gain(o) > 0.0) {
            return Some(best);
        }
        let here = nearest(ctx, side, ctx.unit(id)?.cell);
        reach
            .into_iter()
            .filter(|r| !ctx.next_to_visible_enemy(r.cell, side))
            .map(|r| (nearest(ctx, side, r.cell), r))
            .filter(|(d, _)| *d < here)
            .min_by_key(|(d, r)| (*d, r.cost, r.cell.y, r.cell.x))
            .map(|(_, r)| Order::Move { unit: id, path: r.path, exit: false })
    }
}

/// Idle when it is not its side's turn, or the battle is over.
impl crate::Player<Battle> for GreedyPlayer {
    fn think(&mut self, ctx: &Ctx, _budget: Duration) -> Think {
        if ctx.clock.phase == Phase::Over || ctx.clock.active != self.side {
            Think::Idle
        } else {
            Think::Order(self.next(ctx))
        }
    }
}

fn pick(orders: Vec<Order>, gain: &dyn Fn(&Order) -> f64) -> Option<Order> {
    orders.into_iter().map(|o| (gain(&o), o)).max_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, o)| o)
}

/// Cells to the nearest enemy the side can see (the engine's measure, T-CMD-5).
fn nearest(ctx: &Ctx, side: Side, cell: rules::tactical::Cell) -> i32 {
    ctx.nearest_visible_enemy(cell, side).unwrap_or(0)
}
