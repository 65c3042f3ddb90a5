//! How the AIs judge an order: by the engine's preview of the engagements it leads to (S-COMBAT-8),
//! and by running the rules on blind copies over every face of the first die the order throws.

use super::blind;
use rules::strategic::state::Place;
use rules::strategic::{Ctx, Order, PowerId};

/// The worst margin over the engagements an order leads into, from `power`'s side: D when its
/// side is the stronger, −D when the enemy is (S-COMBAT-8); `None` when it leads to no engagement
/// or is illegal.
pub fn advantage(ctx: &Ctx, power: PowerId, order: &Order) -> Option<i64> {
    let preview = ctx.preview(order).ok()?;
    preview
        .engagements
        .iter()
        .filter_map(|e| {
            let ours = (0..2)
                .find(|s| e.sides[*s].iter().any(|u| ctx.force(*u).is_some_and(|f| !ctx.hostile(power, f.power))))?;
            Some(if e.stronger == ours { e.d } else { -e.d })
        })
        .min()
}

/// What the land war is worth to `power`'s alliance in a state: enemy Health and Morale lost minus
/// its own (a unit destroyed or dispersed counts its full Health twice).
pub fn material(ctx: &Ctx, power: PowerId) -> i64 {
    ctx.forces
        .iter()
        .map(|f| {
            let full = i64::from(f.vitals.max_health);
            let lost = match f.place {
                Place::Destroyed | Place::Dispersed => 2 * full + i64::from(f.vitals.max_morale.unwrap_or(0)),
                _ => {
                    i64::from(f.vitals.max_health - f.vitals.health)
                        + i64::from(f.vitals.max_morale.unwrap_or(0) - f.vitals.morale.unwrap_or(0))
                }
            };
            if ctx.hostile(power, f.power) { lost } else { -lost }
        })
        .sum()
}

/// The expected change of [`material`] an order brings, over the six faces of the first die it
/// throws (later dice, rare for the orders judged here, show 1); `None` if illegal.
pub fn expected_gain(ctx: &Ctx, power: PowerId, order: &Order) -> Option<f64> {
    let before = material(ctx, power);
    let mut probe = blind(ctx);
    probe.apply(order).ok()?;
    if probe.dice.scripted_used() == 0 {
        return Some((material(&probe, power) - before) as f64);
    }
    let mut sum = 0.0;
    for pips in 1..=6u8 {
        let mut c = ctx.clone();
        c.dice.script(vec![pips]);
        c.apply(order).ok()?;
        sum += (material(&c, power) - before) as f64 / 6.0;
    }
    Some(sum)
}

/// The balance of a surface battle between two fleets for the first one's side: the sum of the
/// squared classes of its warships (S-NAVAL-5, S-NAVAL-8: the class difference sets the hit
/// chance, S-NAVAL-9: a higher class sinks with one hit) minus the enemy's, in classes. The
/// engine's exact odds (`battle_odds`) grow too fast with fleet size to run within a slice.
pub fn battle_value(ctx: &Ctx, ours: u32, theirs: u32) -> f64 {
    let strength = |fleet: u32| -> f64 {
        ctx.navy
            .afloat(fleet)
            .iter()
            .filter_map(|s| ctx.navy.ship(*s))
            .filter_map(|s| s.kind.class())
            .map(|c| f64::from(c) * f64::from(c))
            .sum::<f64>()
    };
    (strength(ours) - strength(theirs)) / 5.0
}

/// The tournament's adjudication (the rules give no victory condition): each alliance scores the
/// enemy's land losses of [`material`] plus 10 for each enemy province it occupies plus 2 for each
/// class of enemy ship sunk. Returns the two alliances' scores.
pub fn war_score(ctx: &Ctx) -> [i64; 2] {
    let mut score = [0i64; 2];
    let alliance_of = |p: PowerId| usize::from(ctx.alliance(p).min(1));
    for f in &ctx.forces {
        let full = i64::from(f.vitals.max_health);
        let lost = match f.place {
            Place::Destroyed | Place::Dispersed => 2 * full + i64::from(f.vitals.max_morale.unwrap_or(0)),
            _ => {
                i64::from(f.vitals.max_health - f.vitals.health)
                    + i64::from(f.vitals.max_morale.unwrap_or(0) - f.vitals.morale.unwrap_or(0))
            }
        };
        score[1 - alliance_of(f.power)] += lost;
    }
    for (i, p) in ctx.provinces.iter().enumerate() {
        if let Some(occ) = p.occupier {
            let owner = ctx.map().provinces.get(i).and_then(|pr| ctx.scenario().power_index(&pr.owner));
            let hostile = owner.is_none_or(|o| u8::try_from(o).is_ok_and(|o| ctx.hostile(occ, PowerId(o))));
            if hostile {
                score[alliance_of(occ)] += 10;
            }
        }
    }
    for s in &ctx.navy.ships {
        if s.sunk {
            score[1 - alliance_of(s.power)] += 2 * i64::from(s.kind.class().unwrap_or(1));
        }
    }
    score
}
