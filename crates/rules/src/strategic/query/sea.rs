//! Reach at sea: where a fleet may sail (S-NAVAL-4: one hex per MP over sea, lake and ports;
//! S-CITY-2: only ports its alliance holds), through the one walk ([`super::walk`]), as the
//! fleet's move order is checked ([`Ctx::move_fleet`]).

use super::walk::{Walk, walk};
use crate::strategic::hexmap::HexAt;
use crate::strategic::state::{Ctx, PowerId};
use crate::view::Viewer;

/// Whether a fleet of `power` may enter `at` (S-NAVAL-4, S-CITY-2): a navigable hex whose port,
/// if any, its alliance holds.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::fleet_may_enter;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
///
/// let mut map = HexMap::filled("coast", 6, 3, Terrain::Sea);
/// map.cell_mut(hex(0, 1)).unwrap().terrain = Terrain::Clear;
/// let ctx = testkit::ctx(&testkit::scenario(map, Vec::new()), Phase::Movement, 0);
/// let germany = ctx.active_power();
/// assert!(fleet_may_enter(&ctx, germany, hex(1, 1)), "the sea");
/// assert!(!fleet_may_enter(&ctx, germany, hex(0, 1)), "the land");
/// assert!(!fleet_may_enter(&ctx, germany, hex(9, 9)), "off the map");
/// ```
pub fn fleet_may_enter(ctx: &Ctx, power: PowerId, at: HexAt) -> bool {
    ctx.navigable(at) && ctx.check_port(power, at).is_ok()
}

/// Where fleet `fleet` reaches with the movement it has left, with the cheapest path to each hex
/// (the order [`Order::MoveFleet`](crate::strategic::Order::MoveFleet) takes); a fleet with
/// nothing afloat stays where it is. Asked by `viewer`: the umpire or a power, which asks
/// only of its own fleets (another's comes back empty).
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::fleet_reach;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut s = testkit::scenario(HexMap::filled("sea", 12, 12, Terrain::Sea), Vec::new());
/// s.fleets = vec![testkit::fleet(1, "germany", (2, 2), &[(ShipType::Destroyer, 4)])];
/// let mut ctx = testkit::ctx(&s, Phase::Movement, 0);
/// ctx.navy.fleets[0].mp_left = 3;
/// let germany = ctx.active_power();
/// let reach = fleet_reach(&ctx, Viewer::Player(germany), 1);
/// assert!(reach.ends().all(|(h, c)| c <= 3 && c == h.distance(hex(2, 2))));
/// assert_eq!(reach.cost(hex(6, 2)), None, "four hexes away, three MP left");
/// assert_eq!(reach.path(hex(4, 2)).map(|p| p.len()), Some(2));
/// // France asks nothing of a German fleet.
/// let france = ctx.scenario().power_index("france").map(|i| rules::strategic::PowerId(i as u8)).unwrap();
/// assert_eq!(fleet_reach(&ctx, Viewer::Player(france), 1).ends().count(), 0);
/// ```
pub fn fleet_reach(ctx: &Ctx, viewer: Viewer<PowerId>, fleet: u32) -> Walk {
    let Some(f) = ctx.navy.fleet(fleet) else { return Walk::none() };
    if matches!(viewer, Viewer::Player(v) if v != f.power) {
        return Walk::none();
    }
    if ctx.navy.afloat(fleet).is_empty() {
        return Walk::only(f.at);
    }
    sea_reach(ctx, f.power, f.at, f.mp_left, |_| true)
}

/// Where a fleet of `power` at `from` would reach in `steps` moves over hexes it may enter
/// ([`fleet_may_enter`]) that `open` also lets it through (a planner's own caution: hexes out of
/// an enemy's reach, unmined areas); the fleet's rule is never widened.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::sea_reach;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
///
/// let s = testkit::scenario(HexMap::filled("sea", 12, 12, Terrain::Sea), Vec::new());
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// let all = sea_reach(&ctx, ctx.active_power(), hex(5, 5), 2, |_| true);
/// let west = sea_reach(&ctx, ctx.active_power(), hex(5, 5), 2, |h| h.col <= 5);
/// assert_eq!(all.ends().count(), 18);
/// assert!(west.ends().count() < 18 && west.ends().all(|(h, _)| h.col <= 5));
/// ```
pub fn sea_reach(ctx: &Ctx, power: PowerId, from: HexAt, steps: u32, open: impl Fn(HexAt) -> bool) -> Walk {
    walk(from, steps, |_, n| (fleet_may_enter(ctx, power, n) && open(n)).then_some(1))
}
