//! The general staff's heavy artillery work beyond a single shot: batteries (S-ART-5) and sieges
//! (S-FORT-6), decided on the engine's public state and checked on blind copies.

use super::{blind, enemy_hexes, legal};
use rules::strategic::fire::FORTRESS_STRENGTH;
use rules::strategic::hexmap::flag;
use rules::strategic::state::{ForceId, ForceKind, Place};
use rules::strategic::{Ctx, HexAt, Order, PowerId};
use std::collections::BTreeSet;

/// A gun's range (S-ART-1), 0 for anything else.
fn range(ctx: &Ctx, kind: ForceKind) -> u32 {
    match kind {
        ForceKind::Artillery { gun } => ctx.scenario().units.guns.get(usize::from(gun)).map_or(0, |g| g.range),
        _ => 0,
    }
}

/// S-ART-5: the batteries worth forming now, as orders. Three free guns of `p` on or next to the
/// first one's hex (the lowest ID first) form one where the battery's range from that hex reaches
/// an enemy and an enemy gun can reach one of the three within its move and range. A battery's
/// shot does what the three shots would (the Attacks summed, S-ART-5; fortress and fortification
/// damage adds up over the Fire phase either way, S-FORT-5/6) but takes 1 Morale where three
/// take 3 (S-ART-3), so out of the enemy's reach the guns stay single; within it, a lone gun
/// (Health 2) falls to one shot of Attack 2, while a battery takes a shot on its summed Health and
/// all three fire at full Attack as long as the sum stays above 0 (S-ART-5): it keeps the fire
/// that single guns would lose.
pub fn batteries(ctx: &Ctx, p: PowerId) -> Vec<Order> {
    let guns: Vec<(ForceId, HexAt)> = ctx
        .forces
        .iter()
        .filter(|f| f.power == p && f.kind.is_artillery() && f.member.battery.is_none())
        .filter_map(|f| match f.place {
            Place::Map(h) => Some((f.id, h)),
            _ => None,
        })
        .collect();
    if guns.len() < 3 {
        return Vec::new();
    }
    let threats: Vec<(HexAt, u32)> = ctx
        .forces
        .iter()
        .filter(|f| f.kind.is_artillery() && f.present() && ctx.hostile(p, f.power))
        .flat_map(|f| {
            let reach = range(ctx, f.kind) + ctx.speed(f.kind);
            ctx.gun_hexes(f.id).into_iter().map(move |h| (h, reach))
        })
        .collect();
    let enemies = enemy_hexes(ctx, p);
    let mut used: BTreeSet<ForceId> = BTreeSet::new();
    let mut out = Vec::new();
    for &(first, at) in &guns {
        if used.contains(&first) {
            continue;
        }
        let mates: Vec<(ForceId, HexAt)> = guns
            .iter()
            .copied()
            .filter(|(g, h)| *g != first && !used.contains(g) && h.distance(at) <= 1)
            .take(2)
            .collect();
        let [(b, hb), (c, hc)] = mates[..] else { continue };
        let units = [first, b, c];
        let reach = units.iter().filter_map(|g| ctx.force(*g)).map(|f| range(ctx, f.kind)).min().unwrap_or(0);
        let target = enemies.iter().any(|e| e.distance(at) <= reach);
        let under_fire = [at, hb, hc].iter().any(|h| threats.iter().any(|(e, r)| e.distance(*h) <= *r));
        let o = Order::FormBattery { units };
        if target && under_fire && legal(ctx, &o) {
            used.extend(units);
            out.push(o);
        }
    }
    out
}

/// Whether an intact fortress hex (S-FORT-6) holds land units hostile to `p`.
pub fn enemy_fortress(ctx: &Ctx, p: PowerId, h: HexAt) -> bool {
    ctx.map().cell(h).is_some_and(|c| c.has(flag::FORTRESS))
        && !ctx.hex_state(h).fortress_destroyed
        && ctx.enemy_on(p, h)
}

/// Whether a hex lies next to an enemy-held intact fortress: a piece there fights it.
pub fn faces_fortress(ctx: &Ctx, p: PowerId, h: HexAt) -> bool {
    h.neighbours().into_iter().any(|n| enemy_fortress(ctx, p, n))
}

/// S-FORT-6, S-TURN-3: a siege's shots this Fire phase. Each enemy-held intact fortress hex in the
/// range of our guns (those our troops fight first, then by hex) gets the fewest guns, strongest
/// first, that break it together whatever the dice (a blind copy's dice show 1, so every shot into
/// stubborn fighting loses half its damage to our own troops, S-ART-7): the hex is broken for good
/// and no longer gives its defenders fortification level 2 (S-FORT-4). Guns that together may
/// fall short do not fire at it: damage that destroys nothing is restored at the end of the phase
/// (S-TURN-3), and the fortress takes all of it before its troops.
pub fn siege(ctx: &Ctx, p: PowerId) -> Vec<Order> {
    let mut forts: Vec<HexAt> = enemy_hexes(ctx, p).into_iter().filter(|h| enemy_fortress(ctx, p, *h)).collect();
    if forts.is_empty() {
        return Vec::new();
    }
    let ours = |h: HexAt| {
        ctx.at(h).iter().filter_map(|u| ctx.force(*u)).any(|f| f.kind.is_combatant() && !ctx.hostile(p, f.power))
    };
    forts.sort_by_key(|h| (!h.neighbours().into_iter().any(ours), *h));
    let guns: Vec<ForceId> = ctx
        .forces
        .iter()
        .filter(|f| f.power == p && f.kind.is_artillery() && f.present() && !f.activity.fired)
        .filter(|f| f.member.battery.is_none_or(|b| b == f.id))
        .map(|f| f.id)
        .collect();
    let mut probe = blind(ctx);
    let mut out = Vec::new();
    for fort in forts {
        let mut able: Vec<(i32, ForceId)> =
            guns.iter().filter_map(|g| probe.check_fire(*g, fort, false).ok().map(|shot| (shot.attack, *g))).collect();
        let total: i32 = able.iter().map(|(attack, _)| attack).sum();
        if total < FORTRESS_STRENGTH - probe.hex_state(fort).damage {
            continue;
        }
        able.sort_by_key(|(attack, g)| (std::cmp::Reverse(*attack), *g));
        let mut trial = probe.clone();
        let mut shots = Vec::new();
        for (_, unit) in able {
            let o = Order::Fire { unit, target: fort, gas: false };
            if trial.apply(&o).is_ok() {
                shots.push(o);
            }
            if trial.hex_state(fort).fortress_destroyed {
                break;
            }
        }
        if trial.hex_state(fort).fortress_destroyed {
            probe = trial;
            out.extend(shots);
        }
    }
    out
}
