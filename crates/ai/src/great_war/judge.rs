//! How the AIs judge an order: by the engine's preview of the engagements it leads to (S-COMBAT-8),
//! and by running the rules on blind copies over every face of the first die the order throws.

use super::{blind, visible_enemy_fleets};
use rules::strategic::state::Place;
use rules::strategic::{Ctx, HexAt, Order, PowerId};

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
    expected(ctx, order, |c| (material(c, power) - before) as f64)
}

/// The expected `value` of the state an order leads to, over the six faces of the first die it
/// throws (later dice show 1), run by the engine's rules on copies; `None` if illegal.
pub fn expected(ctx: &Ctx, order: &Order, value: impl Fn(&Ctx) -> f64) -> Option<f64> {
    let mut probe = blind(ctx);
    probe.apply(order).ok()?;
    if probe.dice.scripted_used() == 0 {
        return Some(value(&probe));
    }
    let mut sum = 0.0;
    for pips in 1..=6u8 {
        let mut c = ctx.clone();
        c.dice.script(vec![pips]);
        c.apply(order).ok()?;
        sum += value(&c) / 6.0;
    }
    Some(sum)
}

/// The worst margin (S-COMBAT-8 D from `power`'s side, negative when the enemy is the stronger) of
/// the engagements the land units on `hex` fight in the coming Combat phase as things stand;
/// `None` when they fight none (or no longer stand there).
pub fn margin_at(ctx: &Ctx, power: PowerId, hex: HexAt) -> Option<i64> {
    let there = ctx.at(hex);
    if there.is_empty() {
        return None;
    }
    ctx.engagements()
        .into_iter()
        .filter(|g| g.iter().flatten().any(|u| there.contains(u)))
        .filter_map(|g| {
            let e = ctx.assess(&g);
            let ours = (0..2)
                .find(|s| e.sides[*s].iter().any(|u| ctx.force(*u).is_some_and(|f| !ctx.hostile(power, f.power))))?;
            Some(if e.stronger == ours { e.d } else { -e.d })
        })
        .min()
}

/// What a margin is worth to an attacker: D itself, plus a bonus for each threshold of S-COMBAT-8
/// it reaches (D ≥ 20 disperses the weaker side's engaged units, D ≥ 30 destroys them).
pub fn margin_worth(d: i64) -> f64 {
    use rules::strategic::combat::{D_DESTROYED, D_DISPERSED};
    let mut v = d as f64;
    if d >= D_DISPERSED {
        v += 20.0;
    }
    if d >= D_DESTROYED {
        v += 20.0;
    }
    v
}

/// The expected worth of a shot (artillery, gas shell or cylinder) at an enemy hex our troops fight
/// in the coming Combat phase: the material it takes ([`material`]) plus what it adds to the
/// margin of that engagement ([`margin_worth`]); a hex emptied by the shot counts as destroyed.
/// `None` if illegal or the hex is not engaged.
pub fn preparation_gain(ctx: &Ctx, power: PowerId, order: &Order, target: HexAt) -> Option<f64> {
    use rules::strategic::combat::D_DESTROYED;
    let margin = margin_at(ctx, power, target)?;
    let before = material(ctx, power);
    let worth = |c: &Ctx| {
        let after = if c.enemy_on(power, target) { margin_at(c, power, target).unwrap_or(margin) } else { D_DESTROYED };
        (material(c, power) - before) as f64 + margin_worth(after) - margin_worth(margin)
    };
    expected(ctx, order, worth)
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

/// What a ship sunk is worth in the war score: 2 for each class (non-combat ships count 1).
pub fn ship_worth(kind: rules::strategic::naval::ShipType) -> f64 {
    2.0 * f64::from(kind.class().unwrap_or(1))
}

/// The expected worth of a submarine attack by `flotilla` on the surface fleet `target`, in the
/// war score's ship classes: S-SUB-1 against a fleet with no ASW ship (each boat sinks one ship,
/// the fleet's ships in its list order, as the engine picks them); otherwise the S-SUB-2 stealth
/// test, then each boat sinking its ship on 3–6 (S-SUB-4) when passed, and the S-SUB-3 survival
/// roll (half the boats lost on average) when failed.
pub fn submarine_attack_worth(ctx: &Ctx, flotilla: u32, target: u32) -> f64 {
    use rules::strategic::naval::ShipType;
    let boats = ctx.navy.afloat(flotilla).len();
    let ships: Vec<f64> =
        ctx.navy.afloat(target).iter().filter_map(|s| ctx.navy.ship(*s)).map(|s| ship_worth(s.kind)).collect();
    torpedo_worth(boats, ctx.navy.count(target, ShipType::Asw) as usize, &ships)
}

/// [`submarine_attack_worth`] of `boats` boats against a fleet with `asw` ASW ships whose ships
/// are worth `ships` in its list order.
pub fn torpedo_worth(boats: usize, asw: usize, ships: &[f64]) -> f64 {
    use rules::strategic::naval::{ShipType, TORPEDO_HIT, stealth};
    let victims: f64 = ships.iter().take(boats).sum();
    if asw == 0 {
        return victims;
    }
    let pass = match stealth(boats as i32 - asw as i32) {
        Ok(true) => 1.0,
        Ok(false) => 0.0,
        Err(r) => r.chance(),
    };
    // S-SUB-3: over the six faces, all, ¾, ½, ½, ¼ or none of the boats are lost: ½ on average.
    let boat = ship_worth(ShipType::Submarine);
    pass * victims * TORPEDO_HIT.chance() - (1.0 - pass) * 0.5 * boats as f64 * boat
}

/// The enemy fleets in sight stronger than fleet `id` (S-NAVAL-5, [`battle_value`] below zero):
/// where each stands, how far it sails in a turn (S-NAVAL-4) and its power.
pub fn threats(ctx: &Ctx, id: u32) -> Vec<(HexAt, u32, PowerId)> {
    let Some(power) = ctx.navy.fleet(id).map(|f| f.power) else { return Vec::new() };
    visible_enemy_fleets(ctx, power)
        .into_iter()
        .filter(|e| battle_value(ctx, id, *e) < 0.0)
        .filter_map(|e| ctx.navy.fleet(e).map(|f| (f.at, ctx.navy.speed(e), f.power)))
        .collect()
}

/// Whether one of the `threats` can reach `h` with its full movement next turn (S-NAVAL-12); an
/// own port it may not enter (S-CITY-2) is out of its reach.
pub fn exposed(ctx: &Ctx, threats: &[(HexAt, u32, PowerId)], h: HexAt) -> bool {
    threats.iter().any(|(at, reach, power)| at.distance(h) <= reach + 1 && ctx.check_port(*power, h).is_ok())
}
