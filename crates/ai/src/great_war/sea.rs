//! The staff at sea beyond battle: it ships land units cut off by sea from the front to it
//! (S-NAVAL-11), and hunts the enemy U-boats it knows of with ASW ships and reconnaissance
//! (S-AIR-1, S-SUB-2, S-SUB-6).
//!
//! What it knows of enemy U-boats is public: the efficiency of its alliance's sea lanes, which
//! every player reads on the map's lane layer (each boat on a lane cuts it by
//! [`LANE_CUT_PERCENT`], S-NAVAL-15), and the flotillas its side has detected (S-SUB-5,
//! [`Ctx::detects`]). It never reads where an undetected flotilla is, so no decision of this
//! module is checked on a blind copy where the boats would show: a blind copy holds the real
//! flotillas, and a reconnaissance flight applied to it would find them.

use super::front::Front;
use super::judge::{ship_worth, torpedo_worth};
use super::{blind, fit_to_stand, visible_enemy_fleets};
use rules::strategic::naval::{FLEET_LIMIT, LANE_CUT_PERCENT, ShipType, TORPEDO_HIT, stealth};
use rules::strategic::query::{fleet_reach, sea_reach};
use rules::strategic::state::{ForceId, Place};
use rules::strategic::{Ctx, HexAt, Order, PowerId};
use rules::view::Viewer;
use std::collections::BTreeMap;

/// Pickup hexes (the ones next to the most cut-off units first) a crossing's search tries for one
/// fleet: each costs a walk over the sea the fleet still reaches from there.
const PICKUPS_TRIED: usize = 3;

/// S-SUB-2: with this many more ASW ships than boats (s = −3) the stealth test passes on a 6
/// alone; a hunt sends ASW ships up to that edge (more would not lower the chance until s = −5).
const STEALTH_EDGE: u32 = 3;

/// S-NAVAL-11: the power's land units cut off by sea from the front, by ID: independent units
/// (a transport carries one division, MD-S5; no corps, army or battery member) standing where no
/// land path leads to an enemy land unit. None while the alliance has no front on land.
pub fn cut_off(ctx: &Ctx, power: PowerId, front: &Front) -> Vec<(ForceId, HexAt)> {
    if front.line.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<(ForceId, HexAt)> = ctx
        .forces
        .iter()
        .filter(|f| f.power == power && (f.kind.is_combatant() || f.kind.is_artillery()))
        .filter(|f| f.member.corps.is_none() && f.member.army.is_none() && f.member.battery.is_none())
        .filter_map(|f| match f.place {
            Place::Map(h) => Some((f.id, h)),
            _ => None,
        })
        .filter(|(_, h)| front.enemy.get(*h).is_none())
        .collect();
    out.sort();
    out
}

/// A crossing planned for one fleet this Movement phase: its orders (sail to the pickup, embark,
/// sail to the landing, land), the units it carries and what the transports cost.
#[derive(Clone, Debug)]
pub struct Crossing {
    pub orders: Vec<Order>,
    pub units: Vec<ForceId>,
    pub cost: i64,
}

/// A crossing's plan: where the units embark, which, the way from there and the landing hexes.
struct Landing {
    pickup: HexAt,
    units: Vec<ForceId>,
    path: Vec<HexAt>,
    lands: Vec<HexAt>,
}

/// How a crossing ranks: the units it lands (more first), their steps from the enemy summed, its
/// length in hexes.
type LandingRank = (std::cmp::Reverse<usize>, u32, u32);

/// Whether a fleet of `power` that sails through `h` this phase may meet an enemy surface fleet in
/// sight: one lying on it, or one with the intercept stance that reaches it with the movement it
/// has left (S-NAVAL-12; not into a port closed to it, S-CITY-2). Transports sail only where none
/// can (S-NAVAL-11: unescorted ones are lost, escorted ones may be picked out).
fn intercepted(ctx: &Ctx, enemies: &[(HexAt, bool, u32, PowerId)], h: HexAt) -> bool {
    enemies.iter().any(|(at, intercept, mp, power)| {
        *at == h || (*intercept && at.distance(h) <= *mp && ctx.check_port(*power, h).is_ok())
    })
}

/// The enemy surface fleets in sight of `power`: where, whether they intercept, their movement left
/// and their power.
fn enemy_surface(ctx: &Ctx, power: PowerId) -> Vec<(HexAt, bool, u32, PowerId)> {
    visible_enemy_fleets(ctx, power)
        .into_iter()
        .filter_map(|e| ctx.navy.fleet(e))
        .map(|f| (f.at, f.intercept, f.mp_left, f.power))
        .collect()
}

/// Whether fleet `id` would test enemy mines entering the sea area of `h` (S-MINE-2): a fleet
/// with a minesweeper takes no test (S-MINE-4); the area it lies in now it does not enter.
fn mined(ctx: &Ctx, id: u32, start_area: u16, h: HexAt) -> bool {
    let Some(power) = ctx.navy.fleet(id).map(|f| f.power) else { return true };
    let area = ctx.map().cell(h).map_or(0, |c| c.sea_area);
    area != 0
        && area != start_area
        && ctx.navy.count(id, ShipType::Minesweeper) == 0
        && ctx.navy.enemy_mines(area - 1, |q| ctx.hostile(power, q)) > 0
}

/// Where a unit from the cut-off land may land: a free land hex of the alliance's side of the
/// front on land that leads to the enemy, out of contact (S-ARMY-7), on no neutral's land and in
/// no climate that would cost the units Health (S-SUP-5).
fn landing_hex(ctx: &Ctx, power: PowerId, front: &Front, units: &[ForceId], h: HexAt) -> bool {
    ctx.map().is_land(h)
        && ctx.at(h).is_empty()
        && front.ours(h)
        && front.enemy.get(h).is_some()
        && !ctx.next_to_enemy(power, h)
        && fit_to_stand(ctx, power, units, h)
}

/// S-NAVAL-11: the shortest safe crossing fleet `fleet` can make this phase with the units cut off
/// by sea (`units`): it sails to a hex next to some of them, they embark (a transport each, at
/// `price`, while `money` lasts and the fleet has room, S-NAVAL-2), it sails to a sea hex next to
/// free landing hexes (`landing_hex`) and they land, all within its movement, so no transport
/// lies at sea when the enemy moves. The way keeps out of the reach of every enemy surface fleet in
/// sight (S-NAVAL-12) and out of enemy mines (S-MINE-2). Among the crossings, the one that lands the
/// most units, then nearest the enemy (the front needs them there), then the shortest. Checked on a
/// blind copy: the orders are legal and every unit stands on land at the end.
pub fn crossing(
    ctx: &Ctx,
    power: PowerId,
    fleet: u32,
    front: &Front,
    units: &[(ForceId, HexAt)],
    money: i64,
) -> Option<Crossing> {
    let f = ctx.navy.fleet(fleet).filter(|f| f.power == power)?;
    let afloat = ctx.navy.afloat(fleet).len();
    let price = i64::from(ctx.scenario().rules.economy.transport).max(1);
    let room = FLEET_LIMIT.saturating_sub(afloat).min(usize::try_from(money / price).unwrap_or(0));
    if afloat == 0 || ctx.navy.is_flotilla(fleet) || f.mp_left == 0 || room == 0 {
        return None;
    }
    let mp = f.mp_left;
    if !units.iter().any(|(_, h)| h.distance(f.at) <= mp + 1) {
        return None;
    }
    let enemies = enemy_surface(ctx, power);
    let start_area = ctx.map().cell(f.at).map_or(0, |c| c.sea_area);
    let open = |h: HexAt| !intercepted(ctx, &enemies, h) && !mined(ctx, fleet, start_area, h);
    if !open(f.at) {
        return None;
    }
    let out = sea_reach(ctx, power, f.at, mp, open);
    // Pickup hexes: reached hexes on or next to cut-off units, with the units there.
    let mut pickups: BTreeMap<HexAt, Vec<ForceId>> = BTreeMap::new();
    for (u, at) in units {
        for h in std::iter::once(*at).chain(at.neighbours()) {
            if out.cost(h).is_some() {
                pickups.entry(h).or_default().push(*u);
            }
        }
    }
    let mut order: Vec<(HexAt, Vec<ForceId>)> = pickups.into_iter().collect();
    order.sort_by_key(|(h, us)| (std::cmp::Reverse(us.len()), out.cost(*h), *h));
    // The most units landed, then the fewest steps from the enemy summed, then the shortest.
    let mut best: Option<(LandingRank, Landing)> = None;
    for (pickup, group) in order.into_iter().take(PICKUPS_TRIED) {
        let d1 = out.cost(pickup)?;
        let across = sea_reach(ctx, power, pickup, mp - d1, open);
        // Row by row (the start, at 0, among them): a tie keeps the first.
        let mut reached: Vec<(HexAt, u32)> = across.start().map(|s| (s, 0)).into_iter().chain(across.ends()).collect();
        reached.sort_by_key(|(h, _)| (h.row, h.col));
        for (sea, d2) in reached {
            let mut lands: Vec<HexAt> = std::iter::once(sea)
                .chain(sea.neighbours())
                .filter(|h| landing_hex(ctx, power, front, &group, *h))
                .collect();
            lands.sort_by_key(|h| (front.enemy_steps(*h), *h));
            let k = group.len().min(lands.len()).min(room);
            if k == 0 {
                continue;
            }
            lands.truncate(k);
            let steps: u32 = lands.iter().map(|h| front.enemy_steps(*h)).sum();
            let key = (std::cmp::Reverse(k), steps, d1 + d2);
            if best.as_ref().is_none_or(|(b, _)| key < *b) {
                let units = group[..k].to_vec();
                best = Some((key, Landing { pickup, units, path: across.path(sea).unwrap_or_default(), lands }));
            }
        }
    }
    let (_, Landing { pickup, units: carried, path: path2, lands }) = best?;
    let mut orders = Vec::new();
    let path1 = out.path(pickup).unwrap_or_default();
    if !path1.is_empty() {
        orders.push(Order::MoveFleet { fleet, path: path1 });
    }
    orders.extend(carried.iter().map(|u| Order::Embark { unit: *u, fleet }));
    if !path2.is_empty() {
        orders.push(Order::MoveFleet { fleet, path: path2 });
    }
    orders.extend(carried.iter().zip(&lands).map(|(u, to)| Order::Disembark { unit: *u, to: *to }));
    let mut probe = blind(ctx);
    if !orders.iter().all(|o| probe.apply(o).is_ok()) {
        return None;
    }
    let landed = carried.iter().all(|u| probe.force(*u).is_some_and(|f| matches!(f.place, Place::Map(_))));
    landed.then(|| Crossing { cost: price * carried.len() as i64, units: carried, orders })
}

/// Where the staff's lift fleet waits when no crossing fits in this phase: the fleet with warships
/// (an escort, S-NAVAL-11) nearest the cut-off unit nearest the front line sails toward that unit,
/// to the hex of its reach nearest it that no enemy fleet stronger than it reaches next
/// (S-NAVAL-12); `None` when none comes nearer. The fleet and its path.
pub fn lift_station(
    ctx: &Ctx,
    power: PowerId,
    front: &Front,
    units: &[(ForceId, HexAt)],
    busy: &[u32],
) -> Option<(u32, Vec<HexAt>)> {
    let near_line = |h: HexAt| front.line.iter().map(|l| l.distance(h)).min().unwrap_or(u32::MAX);
    let (_, goal) = units.iter().map(|(_, h)| (near_line(*h), *h)).min()?;
    let mut fleets: Vec<(u32, u32)> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| f.power == power && f.mp_left > 0 && !busy.contains(&f.id))
        .filter(|f| ctx.navy.has_warships(f.id) && ctx.navy.afloat(f.id).len() < FLEET_LIMIT)
        .map(|f| (f.at.distance(goal), f.id))
        .collect();
    fleets.sort_unstable();
    let (here, id) = fleets.first().copied()?;
    if here <= 1 {
        return None;
    }
    let threats = super::judge::threats(ctx, id);
    let reach = fleet_reach(ctx, Viewer::Player(power), id);
    let (end, _) = reach
        .ends()
        .filter(|(h, _)| h.distance(goal) < here && !super::judge::exposed(ctx, &threats, *h))
        .min_by_key(|(h, d)| (h.distance(goal), *d, *h))?;
    Some((id, reach.path(end)?))
}

/// What the staff knows of enemy U-boats in one place: the hexes they may be on (a lane's sea
/// area, or a detected flotilla's hex) and how many boats.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownBoats {
    pub hexes: Vec<HexAt>,
    pub boats: u32,
}

/// S-NAVAL-15, S-SUB-5: the enemy boats `power` knows of: on each sea lane of its alliance, the
/// efficiency lost over [`LANE_CUT_PERCENT`] (the lane's whole sea area, as no one sees where in it
/// they lie); and each enemy flotilla its side has detected, on its hex. Lanes first, by index.
pub fn known_boats(ctx: &Ctx, power: PowerId) -> Vec<KnownBoats> {
    let mut out = Vec::new();
    for (i, lane) in ctx.navy.lanes.iter().enumerate() {
        if ctx.hostile(power, lane.owner) {
            continue;
        }
        let boats = lane.efficiency.saturating_sub(ctx.lane_efficiency(i)) / LANE_CUT_PERCENT;
        let hexes = ctx.map().sea_areas.get(usize::from(lane.area)).map(|a| a.hexes.clone()).unwrap_or_default();
        if boats > 0 && !hexes.is_empty() {
            out.push(KnownBoats { hexes, boats });
        }
    }
    let mut detected: Vec<u32> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| ctx.navy.is_flotilla(f.id) && ctx.detects(power, f.id))
        .map(|f| f.id)
        .collect();
    detected.sort_unstable();
    for id in detected {
        if let Some(f) = ctx.navy.fleet(id) {
            out.push(KnownBoats { hexes: vec![f.at], boats: ctx.navy.afloat(id).len() as u32 });
        }
    }
    out
}

/// The share of `known`'s hexes within `radius` of `base`: the chance, as far as anyone can tell,
/// that its boats lie within a reconnaissance flight's radius (S-AIR-1).
pub fn coverage(known: &KnownBoats, base: HexAt, radius: u32) -> f64 {
    let inside = known.hexes.iter().filter(|h| h.distance(base) <= radius).count();
    inside as f64 / known.hexes.len().max(1) as f64
}

/// S-AIR-1 with S-SUB-2, S-SUB-3 and S-SUB-4: what a reconnaissance flight that finds `boats`
/// boats with `asw` ASW ships of its side in its radius is worth, in the war score's ship classes:
/// when the stealth test (s = boats − ASW ships) fails, half the boats on average are lost
/// (S-SUB-3); when it passes, each boat attacks an ASW ship and sinks it on 3–6 (S-SUB-4). With no
/// ASW ship nothing happens (0).
pub fn hunt_worth(boats: u32, asw: u32) -> f64 {
    if asw == 0 || boats == 0 {
        return 0.0;
    }
    let pass = match stealth(boats as i32 - asw as i32) {
        Ok(true) => 1.0,
        Ok(false) => 0.0,
        Err(r) => r.chance(),
    };
    let found = (1.0 - pass) * 0.5 * f64::from(boats) * ship_worth(ShipType::Submarine);
    let lost = pass * f64::from(boats.min(asw)) * TORPEDO_HIT.chance() * ship_worth(ShipType::Asw);
    found - lost
}

/// The own (and allied) ASW ships within `radius` of `base`, as the engine counts them (S-AIR-1).
fn asw_within(ctx: &Ctx, power: PowerId, base: HexAt, radius: u32) -> u32 {
    ctx.navy
        .fleets
        .iter()
        .filter(|f| !ctx.hostile(power, f.power) && f.at.distance(base) <= radius)
        .map(|f| ctx.navy.count(f.id, ShipType::Asw))
        .sum()
}

/// The reconnaissance squadrons of `power` that may fly: (ID, base, radius).
fn recon_squadrons(ctx: &Ctx, power: PowerId) -> Vec<(u32, HexAt, u32)> {
    let mut out: Vec<(u32, HexAt, u32)> = ctx
        .navy
        .squadrons
        .iter()
        .filter(|s| s.power == power && s.recon && s.aircraft > 0 && s.aboard.is_none())
        .map(|s| (s.id, s.base, s.radius))
        .collect();
    out.sort_unstable();
    out
}

/// What a flight of the squadron based on `base` with `radius` is expected to be worth with `asw`
/// ASW ships in its radius, over the boats `power` knows of ([`hunt_worth`] times [`coverage`]).
fn flight_worth(known: &[KnownBoats], base: HexAt, radius: u32, asw: u32) -> f64 {
    known.iter().map(|k| coverage(k, base, radius) * hunt_worth(k.boats, asw)).sum()
}

/// S-AIR-1, S-SUB-6: the reconnaissance flight `squadron` makes this Fire phase, if the boats its
/// side knows of within its radius are worth hunting with the ASW ships there (`flight_worth`
/// above zero: more ASW ships than boats).
pub fn reconnaissance(ctx: &Ctx, power: PowerId, squadron: u32) -> Option<Order> {
    let (_, base, radius) = recon_squadrons(ctx, power).into_iter().find(|s| s.0 == squadron)?;
    let known = known_boats(ctx, power);
    let asw = asw_within(ctx, power, base, radius);
    let o = Order::Reconnaissance { squadron };
    (flight_worth(&known, base, radius, asw) > 0.0 && super::legal(ctx, &o)).then_some(o)
}

/// S-SUB-2, S-SUB-6: ASW ships sent where a reconnaissance squadron's radius covers boats the
/// staff knows of, so that the next Fire phase's flight hunts them: the own fleet with ASW ships
/// that gains most sends enough of them (up to `STEALTH_EDGE` more than the boats, and more than
/// the boats in any case) to a hex in the radius that no enemy warship reaches next (S-NAVAL-12),
/// split off first unless the fleet is all ASW ships. The gain is the flight's worth with them
/// less without, less what the giver then lies open to a U-boat flotilla of `guard_boats`
/// ([`torpedo_worth`]). Fleets in `skip` give none. The orders and the group's fleet ID.
pub fn hunt(ctx: &Ctx, power: PowerId, guard_boats: usize, skip: &[u32]) -> Option<(Vec<Order>, u32)> {
    let known = known_boats(ctx, power);
    if known.is_empty() {
        return None;
    }
    let squadrons = recon_squadrons(ctx, power);
    let mut givers: Vec<u32> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| {
            f.power == power && f.mp_left > 0 && !skip.contains(&f.id) && ctx.navy.count(f.id, ShipType::Asw) > 0
        })
        .map(|f| f.id)
        .collect();
    givers.sort_unstable();
    // Any enemy warship fleet in sight beats a group of ASW ships alone.
    let enemies: Vec<(HexAt, u32, PowerId)> = visible_enemy_fleets(ctx, power)
        .into_iter()
        .filter(|e| ctx.navy.has_warships(*e))
        .filter_map(|e| ctx.navy.fleet(e).map(|f| (f.at, ctx.navy.speed(e), f.power)))
        .collect();
    let mut best: Option<(f64, Vec<Order>, u32)> = None;
    for (_, base, radius) in &squadrons {
        let have = asw_within(ctx, power, *base, *radius);
        let worth_now = flight_worth(&known, *base, *radius, have).max(0.0);
        let most = known.iter().filter(|k| coverage(k, *base, *radius) > 0.0).map(|k| k.boats).max();
        let Some(boats) = most else { continue };
        for &g in &givers {
            let Some(f) = ctx.navy.fleet(g) else { continue };
            if f.at.distance(*base) <= *radius {
                continue;
            }
            let ships: Vec<(u32, ShipType)> =
                ctx.navy.afloat(g).iter().filter_map(|s| ctx.navy.ship(*s)).map(|s| (s.id, s.kind)).collect();
            let asw: Vec<u32> = ships.iter().filter(|s| s.1 == ShipType::Asw).map(|s| s.0).collect();
            let want = (boats + STEALTH_EDGE).saturating_sub(have).min(asw.len() as u32);
            if have + want <= boats {
                continue;
            }
            let k = want as usize;
            let worths: Vec<f64> = ships.iter().map(|s| ship_worth(s.1)).collect();
            let left: Vec<f64> =
                ships.iter().filter(|s| !asw[asw.len() - k..].contains(&s.0)).map(|s| ship_worth(s.1)).collect();
            let all = left.is_empty();
            let exposure = |w: &[f64], a: usize| if w.is_empty() { 0.0 } else { torpedo_worth(guard_boats, a, w) };
            let opened = exposure(&left, asw.len() - k) - exposure(&worths, asw.len());
            let gain = flight_worth(&known, *base, *radius, have + want) - worth_now - opened.max(0.0);
            if gain <= 0.0 || best.as_ref().is_some_and(|(b, _, _)| gain <= *b) {
                continue;
            }
            let reach = fleet_reach(ctx, Viewer::Player(power), g);
            let safe =
                |h: HexAt| !enemies.iter().any(|(at, mp, q)| at.distance(h) <= mp + 1 && ctx.check_port(*q, h).is_ok());
            let Some((spot, _)) =
                reach.ends().filter(|(h, _)| h.distance(*base) <= *radius && safe(*h)).min_by_key(|(h, d)| (*d, *h))
            else {
                continue;
            };
            let Some(path) = reach.path(spot) else { continue };
            let (group, mut orders) = if all {
                (g, Vec::new())
            } else {
                let name = format!("{} hunters", f.name);
                (ctx.navy.next_fleet, vec![Order::SplitFleet { fleet: g, ships: asw[asw.len() - k..].to_vec(), name }])
            };
            orders.push(Order::MoveFleet { fleet: group, path });
            best = Some((gain, orders, group));
        }
    }
    let (_, orders, group) = best?;
    let mut probe = blind(ctx);
    orders.iter().all(|o| probe.apply(o).is_ok()).then_some((orders, group))
}

/// The own fleets of ASW ships alone that lie within the radius of an own reconnaissance squadron
/// covering boats the staff knows of: hunters, kept there (no escort takes them away).
pub fn hunters(ctx: &Ctx, power: PowerId) -> Vec<u32> {
    let known = known_boats(ctx, power);
    let squadrons = recon_squadrons(ctx, power);
    let mut out: Vec<u32> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| f.power == power && !ctx.navy.afloat(f.id).is_empty())
        .filter(|f| ctx.navy.count(f.id, ShipType::Asw) as usize == ctx.navy.afloat(f.id).len())
        .filter(|f| {
            squadrons.iter().any(|(_, base, radius)| {
                f.at.distance(*base) <= *radius && known.iter().any(|k| coverage(k, *base, *radius) > 0.0)
            })
        })
        .map(|f| f.id)
        .collect();
    out.sort_unstable();
    out
}
