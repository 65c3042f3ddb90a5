//! Recruit, Veteran and Marshal: a turn planner that judges each candidate order by the engine's
//! forecast of it (every fall of the dice) and the position it leaves.
//!
//! A turn runs in stages: the first orders of the turn (retreat, reaction orders), then fire
//! (the best shot anywhere, again and again while a shot is worth taking), then each unit in
//! turn manoeuvres (move, turn, skirmish order, fire after moving, attack), then the turn ends.

use crate::Level;
use crate::Think;
use crate::deploy::next_setup_order;
use crate::eval::{Weights, edge_distance, evaluate, material};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rules::StateHash;
use rules::tactical::components::{Phase, Reactions, Side, Status, UnitId};
use rules::tactical::preview::ForecastLimits;
use rules::tactical::scenario::BattleKind;
use rules::tactical::units::{Ability, Arm};
use rules::tactical::{Cell, Ctx, Dir, Order};
use web_time::{Duration, Instant};

/// How a level plays.
#[derive(Clone, Copy, Debug)]
struct Params {
    limits: ForecastLimits,
    /// Moves whose follow-up shot is looked at.
    fire_after: usize,
    /// Moves looked at per unit (`None`: all).
    max_moves: Option<usize>,
    /// Random error added to each candidate's score (a Recruit's mistakes).
    noise: f64,
    weights: Weights,
    /// Standing intercept order for cavalry.
    intercept: bool,
    /// Retreat when the own worth falls below this share of the enemy's.
    retreat_below: f64,
    /// A score must beat holding by this much.
    threshold: f64,
}

fn params(level: Level) -> Params {
    let base = Params {
        limits: ForecastLimits { max_exact_runs: 216, samples: 24, project_melee: true },
        fire_after: 8,
        max_moves: None,
        noise: 0.0,
        weights: Weights::STANDARD,
        intercept: true,
        retreat_below: 0.12,
        threshold: 0.05,
    };
    match level {
        Level::Recruit => Params {
            limits: ForecastLimits { max_exact_runs: 36, samples: 8, project_melee: true },
            fire_after: 0,
            max_moves: Some(6),
            noise: 2.0,
            intercept: false,
            retreat_below: 0.0,
            weights: Weights { cohesion: 0.0, facing: 0.0, artillery: 0.5, ..Weights::STANDARD },
            ..base
        },
        Level::Marshal => Params {
            limits: ForecastLimits { max_exact_runs: 1296, samples: 64, project_melee: true },
            fire_after: 40,
            weights: Weights { charge_threat: 0.35, ..Weights::STANDARD },
            ..base
        },
        _ => base,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Start,
    /// The HQ unit moves first when a general has fallen, so the units that now take orders
    /// only from it (T-CMD-4) are within its reach for the rest of the turn.
    Lead,
    Fire,
    Manoeuvre,
    /// Guns and horse look at their facing once more, now that the rest of the side has moved:
    /// a friend that has since come to stand behind a gun may let it face the enemy and keep its
    /// T-ART-3 cover. They turn free (T-MOVE-2), so one that turned while manoeuvring may turn
    /// once more here; since guns counter-volley only what they face (T-FIRE-9), facing counts.
    Face,
    Done,
}

/// One candidate under evaluation.
struct Candidate {
    order: Order,
    score: f64,
    /// The most likely outcome, kept for looking at a follow-up shot.
    after: Option<Ctx>,
}

/// The work for one decision, done a candidate at a time.
struct Job {
    key: StateHash,
    base: f64,
    candidates: Vec<Candidate>,
    next: usize,
    /// Indices of moves whose follow-up shot is to be looked at, and how far that has got.
    follow_ups: Option<(Vec<usize>, usize)>,
}

/// The Recruit, Veteran and Marshal player.
pub struct Planner {
    side: Side,
    level: Level,
    params: Params,
    rng: ChaCha8Rng,
    turn: Option<u32>,
    stage: Stage,
    queue: Vec<UnitId>,
    focus_orders: u32,
    /// Units that have turned this turn: a turn is never taken back and forth (cavalry turns free).
    turned: Vec<UnitId>,
    /// Units that turned in this turn's last look at facing (once each).
    faced: Vec<UnitId>,
    /// Cells each unit has left this turn: a unit never walks back onto one (issue 13: a move
    /// up, a shot, and the step back read as a unit walking to and fro).
    left: Vec<(UnitId, Cell)>,
    job: Option<Job>,
}

impl Planner {
    pub fn new(side: Side, level: Level, seed: u64) -> Planner {
        Planner {
            side,
            level,
            params: params(level),
            rng: ChaCha8Rng::seed_from_u64(seed),
            turn: None,
            stage: Stage::Start,
            queue: Vec::new(),
            focus_orders: 0,
            turned: Vec::new(),
            faced: Vec::new(),
            left: Vec::new(),
            job: None,
        }
    }

    pub fn set_weights(&mut self, weights: Weights) {
        self.params.weights = weights;
    }

    pub fn think(&mut self, ctx: &Ctx, start: Instant, budget: Duration) -> Think {
        if ctx.clock.phase != Phase::Battle {
            return Think::Order(next_setup_order(ctx, self.side));
        }
        if self.turn != Some(ctx.clock.turn) {
            self.turn = Some(ctx.clock.turn);
            self.stage = Stage::Start;
            self.queue.clear();
            self.focus_orders = 0;
            self.turned.clear();
            self.faced.clear();
            self.left.clear();
            self.job = None;
        }
        let key = ctx.state().hash();
        loop {
            if self.job.as_ref().is_none_or(|j| j.key != key) {
                match self.next_job(ctx, key) {
                    Ok(order) => return Think::Order(order),
                    Err(job) => self.job = Some(job),
                }
            }
            let Some(job) = self.job.as_mut() else { continue };
            // Evaluate candidates until the budget is spent.
            while job.next < job.candidates.len() {
                if start.elapsed() >= budget {
                    return Think::Thinking;
                }
                let i = job.next;
                job.next += 1;
                let (score, after) = score(ctx, self.side, &self.params, job.base, &job.candidates[i].order);
                let noise = if self.params.noise > 0.0 { noise(&mut self.rng) * self.params.noise } else { 0.0 };
                job.candidates[i].score = score + noise;
                job.candidates[i].after = after;
            }
            // Then the follow-up shots of the best moves.
            if job.follow_ups.is_none() {
                let mut moves: Vec<usize> = (0..job.candidates.len())
                    .filter(|i| {
                        matches!(job.candidates[*i].order, Order::Move { .. }) && job.candidates[*i].after.is_some()
                    })
                    .collect();
                moves.sort_by(|a, b| job.candidates[*b].score.total_cmp(&job.candidates[*a].score).then(a.cmp(b)));
                moves.truncate(self.params.fire_after);
                job.follow_ups = Some((moves, 0));
            }
            if let Some((moves, done)) = &mut job.follow_ups {
                while *done < moves.len() {
                    if start.elapsed() >= budget {
                        return Think::Thinking;
                    }
                    let i = moves[*done];
                    *done += 1;
                    if let Some(after) = job.candidates[i].after.take() {
                        job.candidates[i].score += best_shot(&after, self.side, &self.params);
                    }
                }
            }
            let best = job
                .candidates
                .iter()
                .enumerate()
                .max_by(|(i, a), (j, b)| a.score.total_cmp(&b.score).then(j.cmp(i)))
                .filter(|(_, c)| c.score > self.params.threshold)
                .map(|(_, c)| c.order.clone());
            match best {
                Some(order) => {
                    self.focus_orders += 1;
                    match &order {
                        Order::Turn { unit, .. } => {
                            if self.stage == Stage::Face {
                                self.faced.push(*unit);
                            }
                            self.turned.push(*unit);
                        }
                        Order::Move { unit, path, .. } => self.leaves(ctx, *unit, path),
                        _ => {}
                    }
                    return Think::Order(order);
                }
                None => {
                    self.advance(ctx);
                    self.job = None;
                    // Build the next job at once (same state, next stage or unit).
                    match self.next_job(ctx, key) {
                        Ok(order) => return Think::Order(order),
                        Err(job) => self.job = Some(job),
                    }
                }
            }
        }
    }

    /// Notes the cells a unit leaves by a move: where it stands and each step but the last.
    fn leaves(&mut self, ctx: &Ctx, unit: UnitId, path: &[Cell]) {
        let from = ctx.unit(unit).map(|u| u.cell);
        let passed = path.iter().take(path.len().saturating_sub(1)).copied();
        self.left.extend(from.into_iter().chain(passed).map(|c| (unit, c)));
    }

    /// Moves past the stage or unit that has nothing more worth doing.
    fn advance(&mut self, ctx: &Ctx) {
        match self.stage {
            Stage::Start => {
                self.stage = Stage::Lead;
                self.queue = self.lead(ctx);
                self.focus_orders = 0;
            }
            Stage::Lead => {
                if !self.queue.is_empty() {
                    self.queue.remove(0);
                }
                self.focus_orders = 0;
                if self.queue.is_empty() {
                    self.stage = Stage::Fire;
                }
            }
            Stage::Fire => {
                self.stage = Stage::Manoeuvre;
                self.queue = manoeuvre_order(ctx, self.side);
                self.focus_orders = 0;
            }
            Stage::Manoeuvre => {
                if !self.queue.is_empty() {
                    self.queue.remove(0);
                }
                self.focus_orders = 0;
                if self.queue.is_empty() {
                    self.stage = Stage::Face;
                    self.queue = face_order(ctx, self.side);
                }
            }
            Stage::Face => {
                if !self.queue.is_empty() {
                    self.queue.remove(0);
                }
                self.focus_orders = 0;
                if self.queue.is_empty() {
                    self.stage = Stage::Done;
                }
            }
            Stage::Done => {}
        }
    }

    /// Either an order decided at once, or the candidates to weigh.
    fn next_job(&mut self, ctx: &Ctx, key: StateHash) -> Result<Order, Job> {
        loop {
            match self.stage {
                Stage::Start => {
                    if let Some(order) = self.turn_start(ctx) {
                        return Ok(order);
                    }
                    self.advance(ctx);
                }
                Stage::Fire => {
                    if ctx.sides.retreating[self.side.index()] {
                        self.advance(ctx);
                        continue;
                    }
                    let orders = fire_orders(ctx, self.side, self.level);
                    if orders.is_empty() {
                        self.advance(ctx);
                        continue;
                    }
                    return Err(self.job(ctx, key, orders));
                }
                Stage::Lead | Stage::Manoeuvre => {
                    let Some(&unit) = self.queue.first() else {
                        self.advance(ctx);
                        continue;
                    };
                    let able = ctx.unit(unit).is_some_and(|u| u.status.on_field() && u.side == self.side);
                    if !able || self.focus_orders >= 4 {
                        self.advance(ctx);
                        continue;
                    }
                    if ctx.sides.retreating[self.side.index()] {
                        match retreat_order(ctx, unit) {
                            Some(order) => {
                                self.focus_orders += 1;
                                return Ok(order);
                            }
                            None => {
                                self.advance(ctx);
                                continue;
                            }
                        }
                    }
                    let orders = self.unit_orders(ctx, unit);
                    if orders.is_empty() {
                        self.advance(ctx);
                        continue;
                    }
                    return Err(self.job(ctx, key, orders));
                }
                Stage::Face => {
                    let Some(&unit) = self.queue.first() else {
                        self.advance(ctx);
                        continue;
                    };
                    let orders =
                        if ctx.sides.retreating[self.side.index()] { Vec::new() } else { self.turns(ctx, unit, true) };
                    if orders.is_empty() {
                        self.advance(ctx);
                        continue;
                    }
                    return Err(self.job(ctx, key, orders));
                }
                Stage::Done => return Ok(Order::EndTurn),
            }
        }
    }

    fn job(&self, ctx: &Ctx, key: StateHash, orders: Vec<Order>) -> Job {
        Job {
            key,
            base: holding(ctx, self.side, &self.params.weights),
            candidates: orders
                .into_iter()
                .map(|order| Candidate { order, score: f64::NEG_INFINITY, after: None })
                .collect(),
            next: 0,
            follow_ups: None,
        }
    }

    /// The HQ unit, if some formation has lost its general and the HQ can still move.
    fn lead(&self, ctx: &Ctx) -> Vec<UnitId> {
        let side = self.side;
        let lost = ctx.command.formations.iter().any(|f| f.side == side && f.general_lost());
        let hq = ctx.command.hq[side.index()].filter(|h| ctx.unit(*h).is_some_and(|u| u.status.on_field()));
        match hq {
            Some(h) if lost && !ctx.sides.retreating[side.index()] => vec![h],
            _ => Vec::new(),
        }
    }

    /// The first orders of a turn: give up a lost battle; set reaction orders.
    fn turn_start(&mut self, ctx: &Ctx) -> Option<Order> {
        let side = self.side;
        if ctx.clock.orders_this_turn == 0 && self.params.retreat_below > 0.0 && !ctx.sides.retreating[side.index()] {
            let (own, enemy) = strengths(ctx, side);
            if enemy > 0.0 && own < self.params.retreat_below * enemy && ctx.clock.round > 3 {
                let fortress = ctx.statics.scenario.kind == BattleKind::Fortress && side != ctx.statics.attacker();
                let cornered = ctx
                    .units
                    .iter()
                    .filter(|u| u.side == side && u.status.on_field())
                    .all(|u| edge_distance(ctx, u.cell) > 6);
                if fortress && cornered && ctx.check_capitulate().is_ok() {
                    return Some(Order::Capitulate);
                }
                if ctx.check_retreat().is_ok() {
                    return Some(Order::Retreat);
                }
            }
        }
        if ctx.sides.retreating[side.index()] {
            return None;
        }
        for u in ctx.units.iter().filter(|u| u.side == side && u.status.on_field()) {
            let want = Reactions {
                counter_volley: true,
                counter_charge: true,
                intercept: self.params.intercept && ctx.arm(u) == Arm::Cavalry,
            };
            if u.reactions != want && ctx.check_reactions(u.id).is_ok() {
                return Some(Order::SetReactions { unit: u.id, reactions: want });
            }
        }
        None
    }

    /// The turns a unit may make; `last_look`: the Face stage's, where a unit that turned while
    /// manoeuvring may turn once more (each unit comes to that stage once).
    fn turns(&self, ctx: &Ctx, id: UnitId, last_look: bool) -> Vec<Order> {
        let Some(u) = ctx.unit(id).filter(|u| u.status.on_field() && u.side == self.side) else {
            return Vec::new();
        };
        if (self.turned.contains(&id) && !last_look) || self.faced.contains(&id) {
            return Vec::new();
        }
        Dir::ALL
            .into_iter()
            .filter(|d| *d != u.facing && ctx.check_turn(id, *d).is_ok())
            .map(|facing| Order::Turn { unit: id, facing })
            .collect()
    }

    /// Candidate orders for one unit's manoeuvre.
    fn unit_orders(&mut self, ctx: &Ctx, id: UnitId) -> Vec<Order> {
        let mut orders: Vec<Order> =
            ctx.fire_targets(id).into_iter().map(|s| Order::Fire { unit: id, target: s.target }).collect();
        let mut moves: Vec<Order> = ctx
            .reachable(id)
            .into_iter()
            .filter(|r| !r.path.iter().any(|c| self.left.contains(&(id, *c))))
            .map(|r| Order::Move { unit: id, path: r.path, exit: false })
            .collect();
        if let Some(max) = self.params.max_moves
            && moves.len() > max
        {
            // A Recruit looks at the moves that close on the enemy most, and a few at random.
            let enemy_dist = |o: &Order| match o {
                Order::Move { path, .. } => path.last().map_or(i32::MAX, |c| nearest_enemy(ctx, self.side, *c)),
                _ => i32::MAX,
            };
            moves.sort_by_key(|o| enemy_dist(o));
            let mut picked: Vec<Order> = moves.drain(..max / 2).collect();
            while picked.len() < max && !moves.is_empty() {
                let i = (self.rng.next_u32() as usize) % moves.len();
                picked.push(moves.swap_remove(i));
            }
            moves = picked;
        }
        orders.extend(moves);
        orders.extend(self.turns(ctx, id, false));
        for on in [true, false] {
            if ctx.check_skirmish(id, on).is_ok() {
                orders.push(Order::Skirmish { unit: id, on });
            }
        }
        if ctx.check_reform(id).is_ok() {
            orders.push(Order::Reform { unit: id });
        }
        orders
    }
}

/// The worth of holding: the position as `side` knows it, the same view every forecast starts
/// from ([`Ctx::forecast`] plays orders on `as_seen_by` the side to move). Judged on the whole
/// field instead, the enemy's hidden units would count against holding but not against any
/// candidate, so every order, however pointless (a gun turned to the rear, a step back to where
/// the unit stood), would seem to beat holding by their worth.
fn holding(ctx: &Ctx, side: Side, w: &Weights) -> f64 {
    evaluate(&ctx.as_seen_by(side), side, w)
}

/// A candidate's worth: the expected change of the position over every outcome of its forecast,
/// and the most likely outcome (for a follow-up shot).
fn score(ctx: &Ctx, side: Side, p: &Params, base: f64, order: &Order) -> (f64, Option<Ctx>) {
    let Ok(forecast) = ctx.forecast(order, p.limits) else {
        return (f64::NEG_INFINITY, None);
    };
    let mut value = 0.0;
    let mut likely: Option<(f64, &Ctx)> = None;
    for o in &forecast.outcomes {
        value += o.prob * (evaluate(&o.ctx, side, &p.weights) - base);
        if likely.is_none_or(|(q, _)| o.prob > q) {
            likely = Some((o.prob, &o.ctx));
        }
    }
    let follow = match order {
        Order::Move { unit, .. } => likely
            .map(|(_, c)| c)
            .filter(|c| c.unit(*unit).is_some_and(|u| u.status.on_field() && !u.activity.fired && !c.in_contact(u)))
            .cloned(),
        _ => None,
    };
    (value, follow)
}

/// The best shot a unit that has just moved could take (0 if none is worth it).
fn best_shot(after: &Ctx, side: Side, p: &Params) -> f64 {
    let base = evaluate(after, side, &p.weights);
    after
        .units
        .iter()
        .filter(|u| u.side == side && u.activity.moved && !u.activity.fired && u.status.on_field())
        .flat_map(|u| after.fire_targets(u.id).into_iter().map(move |s| Order::Fire { unit: u.id, target: s.target }))
        .map(|o| score(after, side, p, base, &o).0)
        .fold(0.0, f64::max)
}

/// Every shot the side can fire now (a Recruit fires each unit at its nearest target only).
fn fire_orders(ctx: &Ctx, side: Side, level: Level) -> Vec<Order> {
    let mut out = Vec::new();
    for u in ctx.units.iter().filter(|u| u.side == side && u.status.on_field() && !u.activity.fired) {
        let mut shots = ctx.fire_targets(u.id);
        if level == Level::Recruit {
            shots.sort_by_key(|s| ctx.unit(s.target).map_or(i32::MAX, |t| t.cell.distance(u.cell)));
            shots.truncate(1);
        }
        out.extend(shots.into_iter().map(|s| Order::Fire { unit: u.id, target: s.target }));
    }
    out
}

/// Which units manoeuvre first: infantry and guns before cavalry, so the horse can exploit.
fn manoeuvre_order(ctx: &Ctx, side: Side) -> Vec<UnitId> {
    let mut units: Vec<(u8, i32, UnitId)> = ctx
        .units
        .iter()
        .filter(|u| u.side == side && u.status.on_field())
        .map(|u| {
            let rank = match ctx.arm(u) {
                Arm::Artillery => 0,
                Arm::Infantry if ctx.has(u, Ability::Ambush) => 1,
                Arm::Infantry => 2,
                Arm::Cavalry => 3,
            };
            (rank, nearest_enemy(ctx, side, u.cell), u.id)
        })
        .collect();
    units.sort();
    units.into_iter().map(|(_, _, id)| id).collect()
}

/// The guns and horse of `side`, for a last look at their facing, by unit ID.
fn face_order(ctx: &Ctx, side: Side) -> Vec<UnitId> {
    ctx.units
        .iter()
        .filter(|u| u.side == side && u.status.on_field() && matches!(ctx.arm(u), Arm::Artillery | Arm::Cavalry))
        .map(|u| u.id)
        .collect()
}

/// Cells to the nearest enemy the side can see (the engine's measure, T-CMD-5).
fn nearest_enemy(ctx: &Ctx, side: Side, cell: Cell) -> i32 {
    ctx.nearest_visible_enemy(cell, side).unwrap_or(0)
}

/// A retreating unit: off the edge if it stands on one, else towards the nearest edge.
fn retreat_order(ctx: &Ctx, id: UnitId) -> Option<Order> {
    let u = ctx.unit(id)?;
    if u.status != Status::Active {
        return None;
    }
    if ctx.grid.on_edge(u.cell) && ctx.check_move(id, &[], true).is_ok() {
        return Some(Order::Move { unit: id, path: Vec::new(), exit: true });
    }
    let here = edge_distance(ctx, u.cell);
    ctx.reachable(id)
        .into_iter()
        .map(|r| (edge_distance(ctx, r.cell), -nearest_enemy(ctx, u.side, r.cell), r))
        .filter(|(d, _, _)| *d < here)
        .min_by_key(|(d, e, r)| (*d, *e, r.cell.y, r.cell.x))
        .map(|(_, _, r)| Order::Move { unit: id, path: r.path, exit: false })
}

/// Worth on the field of each side, as `side` sees it.
fn strengths(ctx: &Ctx, side: Side) -> (f64, f64) {
    let own: f64 = ctx.units.iter().filter(|u| u.side == side).map(|u| crate::eval::worth(ctx, u)).sum();
    let balance = material(ctx, side);
    (own, own - balance)
}

/// A centred random number in [−1, 1].
fn noise(rng: &mut ChaCha8Rng) -> f64 {
    f64::from(rng.next_u32()) / f64::from(u32::MAX) * 2.0 - 1.0
}
