//! Seeking encirclements (S-COMBAT-11): the hex whose holding closes a ring round enemy troops.
//!
//! The engine's test walks from a unit to the cities of its alliance without entering a hex held
//! by the other side or an empty hex next to one of its land units. A whole-map walk per candidate
//! hex does not fit in a slice, so the staff walks locally: a way that gets [`RING_RADIUS`] hexes
//! from the enemy unit, or to a city of the enemy's alliance, counts as open.

use rules::strategic::{Ctx, HexAt, PowerId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// How far round an enemy unit the staff walks for its way out (a ring wider than this is not
/// seen; a way out this long counts as open).
pub const RING_RADIUS: u32 = 8;

/// The hexes a candidate closer is looked at on, nearest the enemy unit first, at most.
pub const RING_CANDIDATES: usize = 24;

/// What the walks round one enemy unit read of each hex within [`RING_RADIUS`] of it, read once.
struct Area {
    /// Land, held by `p`'s side, held by the enemy; hexes off the map or beyond are water.
    hexes: BTreeMap<HexAt, (bool, bool, bool)>,
    cities: BTreeSet<HexAt>,
}

impl Area {
    fn of(ctx: &Ctx, p: PowerId, centre: HexAt) -> Area {
        let mut hexes = BTreeMap::new();
        let mut queue = VecDeque::from([centre]);
        let mut seen = BTreeSet::from([centre]);
        while let Some(h) = queue.pop_front() {
            let land = ctx.map().is_land(h);
            // As the engine's test counts them: by alliance, neutrals with theirs.
            let side = |ours: bool| {
                ctx.at(h)
                    .iter()
                    .filter_map(|u| ctx.force(*u))
                    .any(|f| (ctx.alliance(f.power) == ctx.alliance(p)) == ours)
            };
            hexes.insert(h, (land, side(true), side(false)));
            for n in h.neighbours() {
                if n.distance(centre) <= RING_RADIUS + 1 && ctx.map().index(n).is_some() && seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        Area { hexes, cities: enemy_cities(ctx, p) }
    }

    /// The local walk of the enemy's way out from `from` (S-COMBAT-11 as the engine walks it for the
    /// enemy of `p`: hexes its alliance holds, or empty land hexes next to no land unit of `p`'s side),
    /// with `closer` held by `p`'s side as well. `Some(hexes walked)` when the way out is closed: the
    /// walk stays within [`RING_RADIUS`] and reaches no city of the enemy's alliance; `None` when open.
    fn enclosed(&self, from: HexAt, closer: Option<HexAt>) -> Option<Vec<HexAt>> {
        let read = |h: HexAt| self.hexes.get(&h).copied().unwrap_or((false, false, false));
        let ours = |h: HexAt| closer == Some(h) || read(h).1;
        let allowed = |h: HexAt| {
            let (land, _, theirs) = read(h);
            land && (theirs || (!ours(h) && !h.neighbours().into_iter().any(ours)))
        };
        let mut seen: BTreeSet<HexAt> = BTreeSet::from([from]);
        let mut queue = VecDeque::from([from]);
        while let Some(h) = queue.pop_front() {
            if h.distance(from) >= RING_RADIUS || self.cities.contains(&h) {
                return None;
            }
            for n in h.neighbours() {
                if !seen.contains(&n) && allowed(n) {
                    seen.insert(n);
                    queue.push_back(n);
                }
            }
        }
        Some(seen.into_iter().collect())
    }
}

/// The city hexes of the provinces the enemies of `p` control.
fn enemy_cities(ctx: &Ctx, p: PowerId) -> BTreeSet<HexAt> {
    let map = ctx.map();
    map.cities
        .iter()
        .filter(|c| {
            map.province_index(&c.province)
                .and_then(|pi| ctx.province_controller(pi))
                .is_some_and(|q| ctx.hostile(p, q))
        })
        .flat_map(|c| c.hexes.iter().copied())
        .collect()
}

/// The hex that closes a ring round the enemy unit on `target` and the piece that takes it:
/// among the empty hexes of the enemy's way out within [`RING_RADIUS`] (nearest the target first,
/// [`RING_CANDIDATES`] at most), the first whose holding leaves the way closed (the local walk) that
/// one of the `usable` pieces of `reach` reaches (the cheapest, then the lowest). `None` when the
/// target is already encircled, or no single hex closes its way out.
pub fn closer<K: Copy + Ord>(
    ctx: &Ctx,
    p: PowerId,
    target: HexAt,
    reach: &BTreeMap<K, BTreeMap<HexAt, u32>>,
    usable: impl Fn(&K) -> bool,
    taken: impl Fn(HexAt) -> bool,
) -> Option<(K, HexAt)> {
    let area = Area::of(ctx, p, target);
    if area.enclosed(target, None).is_some() {
        return None;
    }
    let mut around: Vec<HexAt> = area
        .hexes
        .iter()
        .filter(|(h, (land, ours, theirs))| {
            *land && !ours && !theirs && h.distance(target) < RING_RADIUS && !taken(**h)
        })
        .map(|(h, _)| *h)
        .collect();
    around.sort_by_key(|h| (h.distance(target), *h));
    for hex in around.into_iter().take(RING_CANDIDATES) {
        let by = reach.iter().filter(|(k, _)| usable(k)).filter_map(|(k, r)| r.get(&hex).map(|c| (*c, *k))).min();
        if let Some((_, piece)) = by
            && area.enclosed(target, Some(hex)).is_some()
        {
            return Some((piece, hex));
        }
    }
    None
}
