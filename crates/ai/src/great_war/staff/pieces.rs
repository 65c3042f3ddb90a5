//! The pieces the staff moves (the engine's [`land_pieces`](rules::strategic::query::land_pieces)
//! and the armies' corps) and the small questions about them and their hexes (off the front line,
//! spots for reserves and guns, objectives), shared by the land work.

use super::state::Mover;
use crate::great_war::front::Front;
use crate::great_war::{enemy_combat_hexes, enemy_hexes, legal};
use rules::strategic::state::{FormationId, FormationKind};
use rules::strategic::upkeep::FRONT_LINE_HEXES;
use rules::strategic::{Ctx, HexAt, Order, Piece, PowerId};
use std::collections::BTreeSet;

/// The power's pieces: free units and corps, and the corps of its armies.
pub(super) fn movers(ctx: &Ctx, p: PowerId) -> Vec<Mover> {
    let mut out: Vec<Mover> = rules::strategic::query::land_pieces(ctx, p)
        .into_iter()
        .map(|l| Mover { piece: l.piece, army: None, at: l.at, artillery: l.artillery })
        .collect();
    for a in ctx.formations.iter().filter(|f| f.power == p && f.kind == FormationKind::Army) {
        for c in &a.corps {
            if let Some(at) = ctx.piece_hex(Piece::Corps(*c)) {
                out.push(Mover { piece: Piece::Corps(*c), army: Some(a.id), at, artillery: false });
            }
        }
    }
    out.sort();
    out
}

pub(super) fn can_move(ctx: &Ctx, m: &Mover) -> bool {
    ctx.piece_units(m.piece).is_ok_and(|(_, units)| {
        !units.is_empty()
            && units.iter().all(|u| ctx.force(*u).is_some_and(|f| f.activity.mp_left > 0 && !f.activity.fortified))
    })
}

/// Off the S-SUP-6 front line: more than 3 hexes from every enemy land unit (S-COMBAT-1).
pub(super) fn off_front_line(enemies: &[HexAt], h: HexAt) -> bool {
    enemies.iter().all(|e| e.distance(h) > FRONT_LINE_HEXES)
}

/// A reserve's spot: on our side, just off the S-SUP-6 front line (4 hexes from the nearest
/// enemy, one or two behind the line) so it stays fresh, where it stands if it is there already;
/// else 3 hexes from the enemy, out of contact.
pub(super) fn reserve_spot(
    ctx: &Ctx,
    p: PowerId,
    front: &Front,
    at: HexAt,
    dests: &[(HexAt, u32, Vec<HexAt>)],
) -> Option<(HexAt, Vec<HexAt>)> {
    let enemies = enemy_hexes(ctx, p);
    let spot = |h: HexAt| {
        let near = enemies.iter().map(|e| e.distance(h)).min().unwrap_or(u32::MAX);
        front.ours(h) && near == FRONT_LINE_HEXES + 1
    };
    if spot(at) {
        return None;
    }
    if let Some(best) = toward(dests, at, spot) {
        return Some(best);
    }
    let out_of_contact = |h: HexAt| front.enemy_steps(h) == 3 && !ctx.next_to_enemy(p, h);
    if out_of_contact(at) {
        return None;
    }
    toward(dests, at, |h| front.ours(h) && out_of_contact(h))
}

/// The destination that brings a piece nearest to `goal` among those `ok` allows, if it is nearer
/// than where it stands.
pub(super) fn toward(
    dests: &[(HexAt, u32, Vec<HexAt>)],
    goal: HexAt,
    ok: impl Fn(HexAt) -> bool,
) -> Option<(HexAt, Vec<HexAt>)> {
    dests
        .iter()
        .filter(|(h, _, _)| ok(*h))
        .min_by_key(|(h, c, _)| (h.distance(goal), *c, *h))
        .map(|(h, _, p)| (*h, p.clone()))
}

/// The army's move of these corps moves if the engine takes it; else (a corps' move would leave the
/// army outside its frontage and depth, S-ARMY-4) the most of them it takes, the earlier ones (the
/// posts on the line) first; none if it takes none.
pub(super) fn army_order(ctx: &Ctx, army: FormationId, moves: Vec<(FormationId, Vec<HexAt>)>) -> Option<Order> {
    let n = moves.len().min(8);
    let mut subsets: Vec<u32> = (1..(1u32 << n)).collect();
    // The most moves first, then those that keep the earlier moves.
    subsets.sort_by_key(|m| (std::cmp::Reverse(m.count_ones()), (0..n).map(|i| (m >> i) & 1 == 0).collect::<Vec<_>>()));
    subsets.into_iter().find_map(|mask| {
        let kept: Vec<_> =
            moves.iter().enumerate().filter(|(i, _)| (mask >> i) & 1 == 1).map(|(_, mv)| mv.clone()).collect();
        let o = Order::MoveArmy { army, moves: kept };
        legal(ctx, &o).then_some(o)
    })
}

/// The nearest destination at least `steps` from the enemy on our side (rotation to the rear).
pub(super) fn toward_far(dests: &[(HexAt, u32, Vec<HexAt>)], front: &Front, steps: u32) -> Option<(HexAt, Vec<HexAt>)> {
    dests
        .iter()
        .filter(|(h, _, _)| front.ours(*h) && front.enemy_steps(*h) >= steps)
        .min_by_key(|(h, c, _)| (*c, *h))
        .map(|(h, _, p)| (*h, p.clone()))
}

/// Heavy artillery keeps out of contact (S-COMBAT-10) but within reach of the enemy: two or three
/// hexes from the nearest enemy on our side, off the line; a gun three hexes off stays (unless
/// `gather`ing brings it next to more guns).
pub(super) fn artillery_spot(
    ctx: &Ctx,
    p: PowerId,
    front: &Front,
    at: HexAt,
    dests: &[(HexAt, u32, Vec<HexAt>)],
    gather: bool,
) -> Option<(HexAt, Vec<HexAt>)> {
    let fit = |h: HexAt| {
        front.ours(h) && (2..=3).contains(&front.enemy_steps(h)) && !ctx.next_to_enemy(p, h) && !front.on_line(h)
    };
    // S-ART-5: a staff that forms batteries gathers its guns by threes (a battery forms from guns
    // on or next to one hex): the spot next to the most other free guns, up to the two a battery
    // needs, then the cheapest.
    let mates = |h: HexAt| if gather { guns_near(ctx, p, h, at).min(2) } else { 0 };
    let here = front.enemy_steps(at) == 3 && !ctx.next_to_enemy(p, at);
    if here && (!gather || mates(at) == 2) {
        return None;
    }
    let (to, _, path) = dests
        .iter()
        .filter(|(h, _, _)| fit(*h))
        .max_by_key(|(h, c, _)| (mates(*h), std::cmp::Reverse(*c), std::cmp::Reverse(*h)))?;
    if here && mates(*to) <= mates(at) {
        return None;
    }
    Some((*to, path.clone()))
}

/// The guns of `p` not yet in a battery on the hexes next to `h` (S-ART-5), but for the one on `me`.
pub(super) fn guns_near(ctx: &Ctx, p: PowerId, h: HexAt, me: HexAt) -> usize {
    h.neighbours()
        .into_iter()
        .filter(|n| *n != me)
        .flat_map(|n| ctx.at(n).iter().copied())
        .filter_map(|u| ctx.force(u))
        .filter(|f| f.power == p && f.kind.is_artillery() && f.member.battery.is_none())
        .count()
}

/// Whether a combat unit of `p`'s alliance stands on a hex now.
pub(super) fn held_now(ctx: &Ctx, p: PowerId, h: HexAt) -> bool {
    ctx.at(h).iter().filter_map(|u| ctx.force(*u)).any(|f| f.kind.is_combatant() && !ctx.hostile(p, f.power))
}

/// Cities of enemy provinces (capitals take provinces, S-CITY-1) that no enemy combat unit
/// stands on or next to, sorted: the reserves' objectives, once those of ours that hold one now
/// are left out (the enemy does not move during our phase, so the list holds for all of it).
pub(super) fn objectives(ctx: &Ctx, p: PowerId) -> Vec<HexAt> {
    let enemies: BTreeSet<HexAt> = enemy_combat_hexes(ctx, p).into_iter().collect();
    let mut out: Vec<HexAt> = ctx
        .map()
        .cities
        .iter()
        .filter(|c| {
            let Some(pi) = ctx.map().province_index(&c.province) else { return false };
            ctx.province_controller(pi).is_some_and(|q| ctx.hostile(p, q))
        })
        .flat_map(|c| c.hexes.iter().copied())
        .filter(|h| !enemies.contains(h) && !h.neighbours().iter().any(|n| enemies.contains(n)))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Hexes of the capitals of provinces an enemy of `p` controls that no land unit stands on
/// (S-CITY-1: holding every hex of the capital at Upkeep takes the province), sorted.
pub(super) fn capital_hexes(ctx: &Ctx, p: PowerId) -> Vec<HexAt> {
    let map = ctx.map();
    let mut out: Vec<HexAt> = (0..map.provinces.len())
        .filter(|i| ctx.province_controller(*i).is_some_and(|c| ctx.hostile(p, c)))
        .filter_map(|i| map.city_index(&map.provinces[i].capital))
        .flat_map(|c| map.cities[c].hexes.iter().copied())
        .filter(|h| ctx.holder(*h).is_none())
        .collect();
    out.sort();
    out.dedup();
    out
}
