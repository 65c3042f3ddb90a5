//! How good a battle looks for one side: material (what each unit is worth at its Health) plus
//! positional judgement. Odds never come from here: they come from the engine's forecasts.

use rules::tactical::Ctx;
use rules::tactical::components::{Side, Status};
use rules::tactical::grid::{Cell, Terrain};
use rules::tactical::melee::melee_damage;
use rules::tactical::state::UnitState;
use rules::tactical::units::{Ability, Arm, Range, UnitType};

/// Weights of the positional terms (material is in "unit worth" points, about 10 a regiment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Enemy fire that can reach a unit next turn, in worth.
    pub exposure: f64,
    /// Own fire that can reach enemies next turn, in worth.
    pub opportunity: f64,
    /// Per cell nearer the enemy (attacker; defender a fifth of it), grows with the rounds.
    pub advance: f64,
    /// A friend within one cell.
    pub cohesion: f64,
    /// Good ground: redoubt, building, hill; forest for light infantry.
    pub terrain: f64,
    /// Artillery with (or without) a unit directly behind it when the enemy can close.
    pub artillery: f64,
    /// Facing the nearest enemy.
    pub facing: f64,
    /// Out of the HQ's reach without a general.
    pub command: f64,
    /// The coming melee exchanges, in worth.
    pub melee: f64,
    /// Enemy cavalry that can charge a unit next turn.
    pub charge_threat: f64,
    /// A lost HQ (T-CMD-5: its army may only fire or withdraw, −2 morale), in worth.
    pub hq: f64,
    /// A lost general (T-CMD-4), in worth.
    pub general: f64,
    /// A unit more than the HQ distance from its HQ (it could not act if its general fell).
    pub hq_reach: f64,
    /// Extra weight of the fire the HQ unit is exposed to.
    pub hq_exposure: f64,
    /// Per cell the HQ unit stands nearer the enemy than `hq_safe_distance`.
    pub hq_safety: f64,
    pub hq_safe_distance: i32,
}

impl Weights {
    pub const STANDARD: Weights = Weights {
        exposure: 0.9,
        opportunity: 0.45,
        advance: 0.35,
        cohesion: 0.25,
        terrain: 0.5,
        artillery: 1.5,
        facing: 0.4,
        command: 2.5,
        melee: 0.8,
        charge_threat: 0.0,
        hq: 25.0,
        general: 4.0,
        hq_reach: 0.3,
        hq_exposure: 1.0,
        hq_safety: 2.0,
        hq_safe_distance: 6,
    };
}

/// The worth of the battle itself, beyond any position.
pub const VICTORY: f64 = 1000.0;

/// What a unit type is worth at full Health.
pub fn type_worth(t: &UnitType) -> f64 {
    let ranged = match t.fires() {
        Some((v, Range::WholeMap)) => 1.6 * f64::from(v),
        Some((v, Range::Cells(n))) => f64::from(v) * (0.8 + 0.1 * f64::from(n)),
        None => 0.0,
    };
    let charge = if t.arm == Arm::Cavalry { 1.5 } else { 0.0 };
    f64::from(t.melee) + ranged + f64::from(t.health) / 2.0 + f64::from(t.speed) * 0.3 + charge
}

/// What one unit is worth now.
pub fn worth(ctx: &Ctx, u: &UnitState) -> f64 {
    let tv = type_worth(ctx.ty(u));
    match u.status {
        Status::Active | Status::Undeployed => {
            let share = f64::from(u.health.current.max(0)) / f64::from(u.health.max.max(1));
            tv * (0.4 + 0.6 * share)
        }
        Status::Retreated => tv * 0.5,
        _ => 0.0,
    }
}

/// Worth of one Health point of a unit.
fn per_health(ctx: &Ctx, u: &UnitState) -> f64 {
    type_worth(ctx.ty(u)) * 0.6 / f64::from(u.health.max.max(1))
}

/// Material balance: own worth minus the enemy's (as far as `side` can see).
pub fn material(ctx: &Ctx, side: Side) -> f64 {
    ctx.units.iter().map(|u| if u.side == side { worth(ctx, u) } else { -worth(ctx, u) }).sum()
}

/// Fire a unit could bring on a cell next turn, if it can reach it (a rough reach: move, then fire).
fn threat(ctx: &Ctx, e: &UnitState, target: Cell) -> f64 {
    let Some((ranged, range)) = ctx.ty(e).fires() else {
        return 0.0;
    };
    let d = e.cell.distance(target);
    let speed = ctx.ty(e).speed;
    let reach = |n: i32| d <= n + speed;
    let rules = ctx.rules();
    let v = f64::from(ranged);
    match (ctx.arm(e), range) {
        (Arm::Artillery, _) if d <= rules.canister_range => v,
        (Arm::Artillery, _) => v * 0.5,
        (_, Range::Cells(n)) if reach(n) => v,
        _ => 0.0,
    }
}

/// The whole judgement of a position for `side`.
pub fn evaluate(ctx: &Ctx, side: Side, w: &Weights) -> f64 {
    let mut score = material(ctx, side);
    if let Some(o) = ctx.outcome {
        return score + if o.winner == side { VICTORY } else { -VICTORY };
    }
    let on: Vec<&UnitState> = ctx.units.iter().filter(|u| u.status.on_field()).collect();
    let mine: Vec<&UnitState> = on.iter().copied().filter(|u| u.side == side).collect();
    let theirs: Vec<&UnitState> = on.iter().copied().filter(|u| u.side != side).collect();
    if mine.is_empty() || theirs.is_empty() {
        return score;
    }
    let free = |u: &UnitState| !ctx.in_contact(u);
    let attacker = ctx.statics.attacker() == side;
    // The attacker must win before the round limit (T-TURN-4): it grows bolder as time runs out.
    let round = f64::from(ctx.clock.round);
    let boldness = if attacker { (1.0 - round / 40.0).max(0.4) } else { 1.0 };
    let hqs = ctx.command.hq;
    let hq_weight = |t: &UnitState| {
        if hqs[t.side.index()] == Some(t.id) { 1.0 + w.hq_exposure } else { 1.0 }
    };
    score -= boldness * w.exposure * fire_pressure(ctx, &theirs, &mine, &free, &hq_weight);
    score += w.opportunity * fire_pressure(ctx, &mine, &theirs, &free, &hq_weight);
    score += command_balance(ctx, side, w);
    score -= w.hq * hq_risk(ctx, side, &theirs);
    score += 0.5 * w.hq * hq_risk(ctx, side.other(), &mine);
    let own_hq = hqs[side.index()].and_then(|h| ctx.unit(h)).filter(|h| h.status.on_field()).map(|h| h.cell);
    score += w.melee * melee_outlook(ctx, side);
    let pressure = 1.0 + round / 5.0;
    let advance = if attacker { w.advance * pressure } else { w.advance * 0.2 };
    let retreating = ctx.sides.retreating[side.index()];
    for u in &mine {
        let ty = ctx.ty(u);
        let nearest = theirs.iter().min_by_key(|e| (e.cell.distance(u.cell), e.id)).copied();
        let dist = nearest.map_or(0, |e| e.cell.distance(u.cell));
        if retreating {
            score -= 0.5 * f64::from(edge_distance(ctx, u.cell));
            continue;
        }
        let is_hq = hqs[side.index()] == Some(u.id);
        if is_hq {
            score -= w.hq_safety * f64::from((w.hq_safe_distance - dist).max(0));
        } else if ty.arm != Arm::Artillery {
            score -= advance * f64::from(dist);
        }
        if mine.iter().any(|f| f.id != u.id && f.cell.distance(u.cell) == 1) {
            score += w.cohesion;
        }
        let terrain = ctx.terrain(u.cell);
        score += w.terrain
            * match (ty.arm, terrain) {
                (Arm::Infantry, Some(Terrain::Redoubt | Terrain::Building | Terrain::Hill | Terrain::Wall)) => 1.0,
                (Arm::Infantry, Some(Terrain::SparseForest | Terrain::DenseForest)) if ty.has(Ability::Ambush) => 1.5,
                (Arm::Artillery, Some(Terrain::Redoubt | Terrain::Hill)) => 1.0,
                (Arm::Cavalry, Some(Terrain::SparseForest | Terrain::DenseForest)) => -1.0,
                _ => 0.0,
            };
        if ty.arm == Arm::Artillery {
            let danger = theirs.iter().any(|e| e.cell.distance(u.cell) <= ctx.ty(e).speed + 1);
            if danger {
                score += if ctx.supported(u) { w.artillery } else { -w.artillery };
            }
        }
        // Guns fire all round, but an enemy closing on a gun's flank or rear gains the flank bonus
        // (T-MELEE-5) and gets no counter-volley from it (T-FIRE-9): among facings that keep the
        // same T-ART-3 cover, a gun faces the nearest enemy, else at least some enemy.
        if let Some(e) = nearest
            && free(u)
        {
            let ahead = |c: Cell| {
                let (forward, lateral) = u.facing.project(u.cell, c);
                forward > 0 && forward >= lateral.abs()
            };
            score += if ahead(e.cell) {
                w.facing
            } else if theirs.iter().any(|t| ahead(t.cell)) {
                0.0
            } else {
                -0.5 * w.facing
            };
        }
        if !ty.has(Ability::IgnoresCommandDistance)
            && let Some(hq) = own_hq
            && hq.distance(u.cell) > ctx.rules().hq_distance
        {
            score -= if ctx.general_lost(u) { w.command } else { w.hq_reach };
        }
        if w.charge_threat > 0.0 && free(u) {
            let charge = theirs
                .iter()
                .filter(|c| ctx.arm(c) == Arm::Cavalry && free(c) && c.cell.distance(u.cell) <= ctx.ty(c).speed)
                .map(|c| f64::from(ctx.ty(c).melee + 1))
                .fold(0.0, f64::max);
            score -= w.charge_threat * charge * per_health(ctx, u);
        }
    }
    score
}

/// Worth the `shooters` could take off the `targets` next turn, each shooter's fire shared
/// among the targets it can reach; capped at each target's Health.
fn fire_pressure(
    ctx: &Ctx,
    shooters: &[&UnitState],
    targets: &[&UnitState],
    free: &dyn Fn(&UnitState) -> bool,
    weight: &dyn Fn(&UnitState) -> f64,
) -> f64 {
    let mut incoming = vec![0.0f64; targets.len()];
    for s in shooters.iter().filter(|s| free(s) && !ctx.sides.retreating[s.side.index()]) {
        let reach: Vec<(usize, f64)> =
            targets.iter().enumerate().map(|(i, t)| (i, threat(ctx, s, t.cell))).filter(|(_, v)| *v > 0.0).collect();
        let n = reach.len() as f64;
        for (i, v) in reach {
            let t = targets[i];
            let hit = if t.skirmish.is_some() { 1.0 / 3.0 } else { 1.0 };
            let forest = if ctx.grid.is_forest(t.cell) { 1.0 } else { 0.0 };
            incoming[i] += (v - forest).max(0.0) * hit / n;
        }
    }
    targets
        .iter()
        .zip(incoming)
        .map(|(t, dmg)| {
            let h = f64::from(t.health.current);
            let lost = dmg.min(h) * per_health(ctx, t);
            let threshold = f64::from(ctx.rules().threshold(ctx.arm(t)));
            let broken = if h - dmg <= threshold { 0.3 * type_worth(ctx.ty(t)) } else { 0.0 };
            (lost + broken) * weight(t)
        })
        .sum()
}

/// Chance-like measure that `side` loses its HQ unit to the fire of `enemies` next turn: every
/// enemy that can reach it is assumed to fire at it, guns only along an open line (T-FIRE-6).
fn hq_risk(ctx: &Ctx, side: Side, enemies: &[&UnitState]) -> f64 {
    let Some(h) = ctx.command.hq[side.index()].and_then(|h| ctx.unit(h)).filter(|h| h.status.on_field()) else {
        return 0.0;
    };
    let incoming: f64 = enemies
        .iter()
        .filter(|e| !ctx.in_contact(e) && !ctx.sides.retreating[e.side.index()])
        .filter(|e| ctx.arm(e) != Arm::Artillery || ctx.line_clear(e, e.cell, h.cell).is_ok())
        .map(|e| threat(ctx, e, h.cell))
        .sum::<f64>()
        * if h.skirmish.is_some() { 1.0 / 3.0 } else { 1.0 };
    let health = f64::from(h.health.current);
    let threshold = f64::from(ctx.rules().threshold(ctx.arm(h)));
    let contact = if ctx.in_contact(h) { 0.3 } else { 0.0 };
    let fire = if incoming >= health {
        0.9
    } else if health - incoming <= threshold {
        0.5
    } else if incoming > 0.0 {
        0.05 + 0.5 * incoming / health
    } else {
        0.0
    };
    (fire + contact).min(1.0)
}

/// Lost HQs and generals of both sides (T-CMD-4, T-CMD-5).
fn command_balance(ctx: &Ctx, side: Side, w: &Weights) -> f64 {
    let mut score = 0.0;
    for s in Side::BOTH {
        let sign = if s == side { -1.0 } else { 1.0 };
        if ctx.command.hq_captured[s.index()] {
            score += sign * w.hq;
        }
        let generals = ctx.command.formations.iter().filter(|f| f.side == s && f.general_lost()).count();
        score += sign * w.general * generals as f64;
    }
    score
}

/// The coming melee exchanges, by the engine's own sums: worth taken minus worth lost.
fn melee_outlook(ctx: &Ctx, side: Side) -> f64 {
    let base = ctx.rules().melee_base_damage;
    ctx.melee_groups()
        .iter()
        .map(|g| {
            let (own, other) = (ctx.melee_sum(g, side), ctx.melee_sum(g, side.other()));
            let (own_dmg, other_dmg) = melee_damage(own.total, other.total, base);
            let hurt = |s: Side, dmg: i32| {
                ctx.primary(g, s)
                    .and_then(|p| ctx.unit(p))
                    .map_or(0.0, |p| f64::from(dmg.min(p.health.current + 1)) * per_health(ctx, p))
            };
            hurt(side.other(), other_dmg) - hurt(side, own_dmg)
        })
        .sum()
}

/// Cells to the nearest map edge.
pub fn edge_distance(ctx: &Ctx, cell: Cell) -> i32 {
    let g = &ctx.grid;
    cell.x.min(cell.y).min(g.width - 1 - cell.x).min(g.height - 1 - cell.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::tactical::units::UnitTable;

    #[test]
    fn worth_ranks_units_sensibly() {
        let t = UnitTable::builtin();
        let w = |id: &str| type_worth(t.get(id).expect("type"));
        assert!(w("grenadiers") > w("line_infantry"));
        assert!(w("line_infantry") > w("militia"));
        assert!(w("lg_semyonovsky") > w("line_infantry"));
    }
}
