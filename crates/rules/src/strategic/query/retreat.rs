//! Reach of a retreat (S-ARMY-15): at most [`RETREAT_HEXES`] steps over land hexes held by no
//! enemy and open to the power (neutral land closed, issue 12), as [`Ctx::retreat`] checks them.

use super::walk::{Walk, walk};
use crate::strategic::army::RETREAT_HEXES;
use crate::strategic::hexmap::HexAt;
use crate::strategic::state::{Ctx, PowerId};

/// Whether a retreat of `power` may pass `at` (S-ARMY-15): land, no enemy on it, not closed
/// neutral land.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::retreat_may_pass;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
///
/// let mut map = HexMap::filled("land", 6, 3, Terrain::Clear);
/// map.cell_mut(hex(5, 1)).unwrap().terrain = Terrain::Sea;
/// let forces = vec![testkit::infantry(1, "germany", (1, 1)), testkit::infantry(2, "france", (3, 1))];
/// let ctx = testkit::ctx(&testkit::scenario(map, forces), Phase::Combat, 0);
/// let germany = ctx.active_power();
/// assert!(retreat_may_pass(&ctx, germany, hex(2, 1)), "open land");
/// assert!(!retreat_may_pass(&ctx, germany, hex(3, 1)), "the French stand there");
/// assert!(!retreat_may_pass(&ctx, germany, hex(5, 1)), "the sea");
/// ```
pub fn retreat_may_pass(ctx: &Ctx, power: PowerId, at: HexAt) -> bool {
    ctx.map().contains(at)
        && ctx.map().is_land(at)
        && !ctx.enemy_on(power, at)
        && ctx.check_neutral_land(power, at).is_ok()
}

/// Where a retreat of `power` from `from` may go, each hex with its shortest way (a defender's
/// [`RETREAT_HEXES`]; the engine lets an attacker that goes back where its attack began go as far
/// as its speed), over the hexes [`retreat_may_pass`] and `open` both let it through.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::retreat_reach;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
///
/// let map = HexMap::filled("test", 30, 30, Terrain::Clear);
/// let forces = vec![testkit::infantry(1, "germany", (5, 5)), testkit::infantry(2, "france", (6, 5))];
/// let ctx = testkit::ctx(&testkit::scenario(map, forces), Phase::Movement, 0);
/// let reach = retreat_reach(&ctx, ctx.active_power(), hex(5, 5), |_| true);
/// assert_eq!(reach.cost(hex(6, 5)), None, "the enemy's hex is closed");
/// assert!(reach.ends().all(|(_, steps)| steps <= 10));
/// assert_eq!(reach.path(hex(0, 5)).map(|p| p.len()), Some(5));
/// ```
pub fn retreat_reach(ctx: &Ctx, power: PowerId, from: HexAt, open: impl Fn(HexAt) -> bool) -> Walk {
    let bound = u32::try_from(RETREAT_HEXES).unwrap_or(u32::MAX);
    walk(from, bound, |_, n| (retreat_may_pass(ctx, power, n) && open(n)).then_some(1))
}
