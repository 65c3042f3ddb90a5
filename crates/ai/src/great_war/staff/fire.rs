//! The Fire and Preparation phases: each gun's or battery's shot (S-ART-2, S-CHEM-3), coastal
//! guns and bombers at ships (S-AIR-2), gas cylinders set and released (S-CHEM-1).

use super::pieces::held_now;
use super::state::{Item, ShotDraft, Staff};
use crate::great_war::judge::{expected_gain, preparation_gain, ship_worth};
use crate::great_war::{enemy_combat_hexes, enemy_hexes, legal};
use rules::strategic::query;
use rules::strategic::state::ForceId;
use rules::strategic::{Ctx, HexAt, Order, PowerId};
use rules::view::Viewer;
use std::collections::BTreeSet;

impl Staff {
    /// S-ART-2, S-CHEM-3: a gun (or battery) fires where it does most. A staff that prepares its
    /// attacks looks first at the enemy hexes its troops fight in the coming Combat phase
    /// ([`preparation_gain`]: the harm plus what the shot adds to the engagement's margin), a few
    /// targets a work item; with no useful shot there, or at the Recruit level, at the hex where
    /// the expected harm is greatest.
    pub(super) fn gun(&mut self, ctx: &Ctx, g: ForceId) {
        let p = self.power;
        // S-NAVAL-14: a coastal gun with an enemy ship in range sinks it before anything else
        // it could do on land (a ship is worth 2 to 10 in the war score, a shot on land about 1).
        if self.shot_draft.is_none()
            && let Some((worth, o)) = coastal_shot(ctx, p, g)
            && worth >= 1.0
        {
            self.queue.push_back(o);
            return;
        }
        let gas = self.doctrine.gas && ctx.powers[usize::from(p.0)].chem_shells > 0;
        let from = ctx.gun_hexes(g);
        let in_range = |t: &HexAt| from.iter().any(|h| h.distance(*t) <= 12);
        let mut draft = match self.shot_draft.take() {
            Some(d) if d.gun == g => d,
            _ if self.doctrine.prepare => {
                ShotDraft { gun: g, targets: engaged_enemy_hexes(ctx, p), next: 0, best: None, harm: false }
            }
            _ => ShotDraft {
                gun: g,
                targets: enemy_hexes(ctx, p).into_iter().filter(in_range).collect(),
                next: 0,
                best: None,
                harm: true,
            },
        };
        let probe = crate::great_war::blind(ctx);
        let mut looked = 0;
        while draft.next < draft.targets.len() && looked < SHOT_WORK {
            let target = draft.targets[draft.next];
            draft.next += 1;
            if !in_range(&target) {
                continue;
            }
            looked += 1;
            for with_gas in [false, true] {
                if (with_gas && !gas) || probe.check_fire(g, target, with_gas).is_err() {
                    continue;
                }
                let o = Order::Fire { unit: g, target, gas: with_gas };
                let v = if draft.harm { expected_gain(ctx, p, &o) } else { preparation_gain(ctx, p, &o, target) };
                if let Some(v) = v
                    && v > 0.0
                    && draft.best.as_ref().is_none_or(|(b, _)| v > *b)
                {
                    draft.best = Some((v, o));
                }
            }
        }
        if draft.next < draft.targets.len() {
            self.shot_draft = Some(draft);
            self.items.push_front(Item::Gun(g));
            return;
        }
        match draft.best {
            Some((_, o)) => self.queue.push_back(o),
            // No useful shot at an engaged hex: the hex in range where it harms most, a few
            // targets a work item (as `best_shot` would choose, in the same order).
            None if !draft.harm => {
                let targets = enemy_hexes(ctx, p).into_iter().filter(in_range).collect();
                self.shot_draft = Some(ShotDraft { gun: g, targets, next: 0, best: None, harm: true });
                self.items.push_front(Item::Gun(g));
            }
            None => {}
        }
    }

    /// S-CHEM-1: cylinders go onto the hexes of our troops that face the most enemy hexes (in the
    /// Preparation phase, before the releases at the hex the attack goes in), while the store lasts.
    pub(super) fn cylinders(&mut self, ctx: &Ctx) {
        let p = self.power;
        let mut left = ctx.powers[usize::from(p.0)].cylinders;
        if left == 0 {
            return;
        }
        let enemies: BTreeSet<HexAt> = enemy_combat_hexes(ctx, p).into_iter().collect();
        let mut spots: Vec<(usize, HexAt)> = ctx
            .occupancy
            .keys()
            .copied()
            .filter(|h| ctx.holder(*h) == Some(p) && held_now(ctx, p, *h) && ctx.hex_state(*h).cylinder.is_none())
            .map(|h| (h.neighbours().iter().filter(|n| enemies.contains(n)).count(), h))
            .filter(|(n, _)| *n > 0)
            .collect();
        spots.sort_by_key(|(n, h)| (std::cmp::Reverse(*n), *h));
        for (_, at) in spots {
            if left == 0 {
                break;
            }
            let o = Order::PlaceCylinder { at };
            if legal(ctx, &o) {
                self.queue.push_back(o);
                left -= 1;
            }
        }
    }

    /// S-CHEM-1: release the cylinder on `from` at the hex where the expected harm is greatest,
    /// if any.
    pub(super) fn release(&mut self, ctx: &Ctx, from: HexAt) {
        let p = self.power;
        if ctx.hex_state(from).cylinder != Some(p) {
            return;
        }
        let best = enemy_hexes(ctx, p)
            .into_iter()
            .filter(|e| e.distance(from) <= 3)
            .map(|e| (e, Order::ReleaseGas { from, target: e }))
            .filter_map(|(e, o)| {
                // A cylinder released at a hex our troops fight counts what it adds to the
                // engagement's margin too (the preparation of an attack).
                let prepared = preparation_gain(ctx, p, &o, e);
                prepared.or_else(|| expected_gain(ctx, p, &o)).map(|v| (v, o))
            })
            .filter(|(v, _)| *v > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, o)) = best {
            self.queue.push_back(o);
        }
    }
}

/// Targets a gun's preparation work item looks at before it comes back.
pub(super) const SHOT_WORK: usize = 1;

/// Enemy hexes with combat units next to combat units of `p`'s alliance, sorted: those the coming
/// Combat phase's engagements are fought against.
pub(super) fn engaged_enemy_hexes(ctx: &Ctx, p: PowerId) -> Vec<HexAt> {
    enemy_combat_hexes(ctx, p).into_iter().filter(|h| h.neighbours().iter().any(|n| held_now(ctx, p, *n))).collect()
}

/// S-AIR-2: a squadron bombs the enemy ship where the hit is worth most (the chance of the hit
/// times the ship's worth in the war score), of the targets the engine gives it
/// (`query::bomb_targets`: in its radius, strong enough, in fleets it sees); `None` when it
/// reaches none.
pub(super) fn bombing(ctx: &Ctx, power: PowerId, squadron: u32) -> Option<Order> {
    let mut best: Option<(f64, u32)> = None;
    for ship in query::bomb_targets(ctx, Viewer::Player(power), &[squadron]) {
        let (Some(s), Ok(b)) = (ctx.navy.ship(ship), ctx.bomb_check(&[squadron], ship)) else { continue };
        let chance = b.table.map_or(1.0, |r| r.chance());
        let worth = chance * ship_worth(s.kind);
        if best.is_none_or(|(w, _)| worth > w) {
            best = Some((worth, ship));
        }
    }
    let (_, ship) = best?;
    let o = Order::Bomb { squadrons: vec![squadron], ship };
    legal(ctx, &o).then_some(o)
}

/// S-NAVAL-14: the enemy ship a coastal gun fires at where the shot is worth most (the chance
/// of destroying it times its worth in the war score), with that worth, of the targets the
/// engine gives it (`query::coastal_targets`); `None` when no enemy ship lies in range.
pub(super) fn coastal_shot(ctx: &Ctx, power: PowerId, gun: ForceId) -> Option<(f64, Order)> {
    use rules::strategic::naval::coastal_hit;
    let mut best: Option<(f64, u32)> = None;
    for ship in query::coastal_targets(ctx, Viewer::Player(power), gun) {
        let Some(s) = ctx.navy.ship(ship) else { continue };
        let worth = coastal_hit(s.kind).map_or(1.0, |r| r.chance()) * ship_worth(s.kind);
        if best.is_none_or(|(w, _)| worth > w) {
            best = Some((worth, ship));
        }
    }
    let (worth, ship) = best?;
    let o = Order::CoastalFire { unit: gun, ship };
    legal(ctx, &o).then_some((worth, o))
}
