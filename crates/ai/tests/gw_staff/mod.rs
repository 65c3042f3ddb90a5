//! What the Great War staff tests share: a staff playing its power's part of a phase.

use ai::Level;
use ai::great_war::GwAi;
use rules::strategic::{Ctx, Order, PowerId};

/// Plays `power`'s part of the current phase with its staff at `level` on `ctx`; its orders.
pub fn staff_plays(ctx: &mut Ctx, power: PowerId, level: Level) -> Vec<Order> {
    let mut ai = GwAi::new(power, level, 3);
    let phase = ctx.clock.phase;
    let mut out = Vec::new();
    while ctx.clock.phase == phase && ctx.active_power() == power {
        let o = ai.decide(ctx).expect("its turn");
        ctx.apply(&o).unwrap_or_else(|e| panic!("{level}: {o:?}: {e}"));
        out.push(o);
    }
    out
}
