//! Before the battle: where to build redoubts and where each unit stands (T-SETUP).

use rules::tactical::components::{Phase, Side, Status};
use rules::tactical::grid::{Cell, Terrain};
use rules::tactical::scenario::distance_from_edge;
use rules::tactical::units::{Ability, Arm};
use rules::tactical::{Ctx, Order};

/// How far into the zone a cell lies from the side's own edge (0 = at the edge).
fn depth(ctx: &Ctx, side: Side, cell: Cell) -> i32 {
    distance_from_edge(&ctx.statics.scenario.map, ctx.statics.scenario.side(side).edge, cell)
}

/// The next set-up order for `side`: a redoubt, the HQ, a unit's place, or the end of the step.
pub fn next_setup_order(ctx: &Ctx, side: Side) -> Order {
    match ctx.clock.phase {
        Phase::Redoubts => redoubt(ctx, side).unwrap_or(Order::EndSetup),
        Phase::Deployment => hq(ctx, side).or_else(|| placement(ctx, side)).unwrap_or(Order::EndSetup),
        _ => Order::EndSetup,
    }
}

/// T-CMD-1, T-CMD-5: the HQ goes with a sturdy foot regiment kept behind the line (its loss
/// would leave the army only able to fire or withdraw); the HQ unit deploys last, at the back.
fn hq(ctx: &Ctx, side: Side) -> Option<Order> {
    let current = ctx.command.hq[side.index()]?;
    if ctx.unit(current)?.status != Status::Undeployed {
        return None;
    }
    let best = ctx
        .units
        .iter()
        .filter(|u| {
            u.side == side
                && u.status == Status::Undeployed
                && ctx.arm(u) == Arm::Infantry
                && !ctx.has(u, Ability::Ambush)
        })
        .max_by_key(|u| (u.health.max, std::cmp::Reverse(u.id)))?;
    (best.id != current).then_some(Order::DesignateHq { unit: best.id })
}

/// Redoubts on the front of the zone, central, spread apart.
fn redoubt(ctx: &Ctx, side: Side) -> Option<Order> {
    let zone = ctx.statics.zone(side);
    let front = zone.iter().map(|c| depth(ctx, side, *c)).max()?;
    let centre = f64::from(ctx.grid.width - 1) / 2.0;
    let placed: Vec<Cell> = ctx.redoubts.iter().filter(|r| r.side == side).map(|r| r.cell).collect();
    zone.iter()
        .copied()
        .filter(|c| ctx.check_redoubt(*c).is_ok())
        .filter(|c| placed.iter().all(|p| p.distance(*c) >= 4))
        .map(|c| {
            let hill = if ctx.terrain(c) == Some(Terrain::Hill) { 1.0 } else { 0.0 };
            let score = -3.0 * f64::from(front - depth(ctx, side, c)) - (f64::from(c.x) - centre).abs() * 0.5 + hill;
            (score, c)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, cell)| Order::PlaceRedoubt { cell })
}

/// The best free cell of the zone for the first unit still to place.
fn placement(ctx: &Ctx, side: Side) -> Option<Order> {
    // Infantry first, then the guns, then the cavalry (which may then stand behind the guns).
    let rank = |arm: Arm| match arm {
        Arm::Infantry => 0,
        Arm::Artillery => 1,
        Arm::Cavalry => 2,
    };
    let headquarters = ctx.command.hq[side.index()];
    let list: Vec<_> = ctx.statics.scenario.units_of(side).map(|u| u.id).collect();
    let id = list
        .iter()
        .enumerate()
        .filter_map(|(i, id)| {
            let last = Some(*id) == headquarters;
            ctx.unit(*id).filter(|u| u.status == Status::Undeployed).map(|u| (last, rank(ctx.arm(u)), i, *id))
        })
        .min()?
        .3;
    let u = ctx.unit(id)?;
    let ty = ctx.ty(u);
    let zone = ctx.statics.zone(side);
    let front = zone.iter().map(|c| depth(ctx, side, *c)).max()?;
    let back = zone.iter().map(|c| depth(ctx, side, *c)).min()?;
    let centre = f64::from(ctx.grid.width - 1) / 2.0;
    let facing = ctx.statics.scenario.side(side).edge.opposite();
    let best = zone
        .iter()
        .copied()
        .filter(|c| ctx.check_deploy(id, *c).is_ok())
        .map(|c| {
            let d = depth(ctx, side, c);
            let off = (f64::from(c.x) - centre).abs();
            let t = ctx.terrain(c);
            let behind_gun = ctx.at(c.step(facing)).is_some_and(|f| f.side == side && ctx.arm(f) == Arm::Artillery);
            let score = if Some(id) == headquarters {
                // Behind the centre of the line.
                -4.0 * f64::from((d - back - 1).abs()) - off * 0.6
            } else {
                match ty.arm {
                    Arm::Infantry
                        if ty.has(Ability::Ambush)
                            && matches!(t, Some(Terrain::SparseForest | Terrain::DenseForest)) =>
                    {
                        20.0 - off * 0.2
                    }
                    Arm::Infantry if ty.has(Ability::Ambush) => -3.0 * f64::from(front - d) + off * 0.3,
                    Arm::Infantry => {
                        let good = if matches!(
                            t,
                            Some(
                                Terrain::Redoubt | Terrain::Building | Terrain::Hill | Terrain::Wall | Terrain::Breach
                            )
                        ) {
                            4.0
                        } else {
                            0.0
                        };
                        -3.0 * f64::from(front - d) - off * 0.6 + good
                    }
                    Arm::Artillery => {
                        let good = if matches!(t, Some(Terrain::Redoubt | Terrain::Hill)) { 5.0 } else { 0.0 };
                        -2.0 * f64::from((front - 1 - d).abs()) - off * 0.5 + good
                    }
                    Arm::Cavalry => {
                        let support = if behind_gun { 6.0 } else { 0.0 };
                        -2.0 * f64::from(d - back) + off * 0.3 + support
                    }
                }
            };
            (score, c)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))?;
    Some(Order::Deploy { unit: id, cell: best.1, facing })
}
