//! Engaged pieces (attack, retreat before destruction, S-ARMY-15, screening from a fortress,
//! S-FORT-6), pockets and escapes (S-COMBAT-11), and the retreat walks.

use super::state::{ESCAPE_RADIUS, FRONT_WORK, Item, Mover, PocketDraft, Staff};
use crate::great_war::front::Front;
use crate::great_war::judge::{advantage, margin_at};
use crate::great_war::{enemy_combat_hexes, enemy_hexes, legal};
use rules::strategic::query::{Walk, retreat_reach};
use rules::strategic::upkeep::CityWalk;
use rules::strategic::{Ctx, HexAt, Order, Piece};
use std::collections::{BTreeSet, VecDeque};

impl Staff {
    /// An engaged piece: attack the adjacent hex the preview favours most, or retreat before the
    /// engagement disperses or destroys it (S-COMBAT-8 D ≥ 20, S-ARMY-15).
    pub(super) fn engaged(&mut self, ctx: &Ctx, piece: Piece) {
        let p = self.power;
        let Some(at) = ctx.piece_hex(piece) else { return };
        let enemies = enemy_combat_hexes(ctx, p);
        let best = at
            .neighbours()
            .into_iter()
            .filter(|n| enemies.contains(n))
            .map(|target| Order::Attack { piece, target })
            .filter_map(|o| advantage(ctx, p, &o).map(|a| (a, o)))
            .max_by_key(|(a, _)| *a);
        match best {
            Some((a, _)) if self.doctrine.retreat && a <= -rules::strategic::combat::D_DISPERSED => {
                // Rare: the front is drawn (in work items) for it, and again for the plan.
                self.items.push_front(Item::Retreat(piece));
            }
            // Name a target only where the odds favour us; else the front's own hex is fought.
            Some((a, o)) if a > 0 => {
                self.attacking.insert(piece);
                self.queue.push_back(o);
            }
            _ if self.pocket.contains(&at) => {
                self.items.push_front(Item::Escape(Mover { piece, army: None, at, artillery: false }));
            }
            _ if self.doctrine.siege && self.screens(ctx, at) => self.items.push_front(Item::Screen(piece)),
            _ => {}
        }
    }

    /// S-COMBAT-11: a reserve (fresh, free, not striking) takes the hex that closes a ring round
    /// the enemy unit on `target`, where one hex does ([`crate::great_war::ring::closer`]); it moves there as
    /// to a capital hex (in contact only at the doctrine's hold). An encircled unit loses 2 Morale
    /// and a quarter of its value at the Upkeep, and more every turn after.
    pub(super) fn ring(&mut self, ctx: &Ctx, target: HexAt) {
        let Some(draft) = self.plan_draft.as_ref() else { return };
        let reserves: BTreeSet<Piece> = self.reserves.iter().map(|m| m.piece).collect();
        let usable = |piece: &Piece| {
            reserves.contains(piece) && !self.strikes.contains_key(piece) && !self.grabs.contains_key(piece)
        };
        let found = crate::great_war::ring::closer(ctx, self.power, target, &draft.reach, usable, |h| self.taken(h));
        if let Some((piece, hex)) = found {
            self.grabs.insert(piece, hex);
            self.claimed.insert(hex);
        }
    }

    /// S-COMBAT-11: the own hexes the enemy has encircled (the engine's test as the coming Upkeep
    /// will make it, were nobody to move: cut off from every city of the alliance by the enemy,
    /// not by the sea) and the hexes open to our cities within [`ESCAPE_RADIUS`] of them. The
    /// engine's walks from the cities run a part a work item.
    pub(super) fn pockets(&mut self, ctx: &Ctx) {
        let p = self.power;
        // The engine's test counts the units of an alliance's powers (its neutrals too) as its
        // side, and every other unit as the other side's.
        let alliance = ctx.alliance(p).min(1);
        let draft = self
            .pocket_draft
            .get_or_insert_with(|| PocketDraft { walk: CityWalk::new(ctx, alliance, true), open: None });
        let Some(done) = draft.walk.step(ctx, FRONT_WORK) else {
            self.items.push_front(Item::Pockets);
            return;
        };
        let index = |h: HexAt| ctx.map().index(h);
        let Some(open) = draft.open.take() else {
            // Walked with the enemy counted: our hexes it did not reach may be a pocket, unless
            // the sea, not the enemy, cuts them off (the walk without the enemy tells).
            let cut = ctx
                .forces
                .iter()
                .filter(|f| ctx.alliance(f.power) == ctx.alliance(p))
                .filter_map(|f| f.hex())
                .any(|h| index(h).is_some_and(|i| !done[i]));
            if cut {
                draft.open = Some(done);
                draft.walk = CityWalk::new(ctx, alliance, false);
                self.items.push_front(Item::Pockets);
            } else {
                self.pocket_draft = None;
            }
            return;
        };
        self.pocket_draft = None;
        let is_open = |h: HexAt| index(h).is_some_and(|i| open[i]);
        self.pocket = ctx
            .forces
            .iter()
            .filter(|f| ctx.alliance(f.power) == ctx.alliance(p))
            .filter_map(|f| f.hex())
            .filter(|h| !is_open(*h) && index(*h).is_some_and(|i| done[i]))
            .collect();
        if self.pocket.is_empty() {
            return;
        }
        // The open hexes that bound the pockets (the walk goes no further than them).
        let mut seen = vec![false; ctx.map().len()];
        let mut queue: VecDeque<(HexAt, u32)> = VecDeque::new();
        for h in &self.pocket {
            if let Some(i) = index(*h) {
                seen[i] = true;
                queue.push_back((*h, 0));
            }
        }
        while let Some((h, d)) = queue.pop_front() {
            if is_open(h) {
                self.exits.push(h);
                continue;
            }
            if d == ESCAPE_RADIUS {
                continue;
            }
            for n in h.neighbours() {
                if let Some(i) = index(n).filter(|i| !seen[*i] && ctx.map().is_land(n)) {
                    seen[i] = true;
                    queue.push_back((n, d + 1));
                }
            }
        }
        self.exits.sort_unstable();
    }

    /// How far a hex lies from the nearest open hex near the pocket (0: open), `u32::MAX` when
    /// none lies near.
    pub(super) fn exit_distance(&self, h: HexAt) -> u32 {
        self.exits.iter().map(|e| e.distance(h)).min().unwrap_or(u32::MAX)
    }

    /// S-COMBAT-11: an encircled piece loses 2 Morale and a quarter of its value at the coming
    /// Upkeep, and more every turn after; it goes to the reachable hex nearest the open hexes
    /// (an open one first), by a move or, engaged, by the retreat order (S-ARMY-15: 1 Morale
    /// once), where that brings it nearer.
    pub(super) fn escape(&mut self, ctx: &Ctx, m: Mover) {
        let p = self.power;
        let Some(at) = ctx.piece_hex(m.piece) else { return };
        let here = self.exit_distance(at);
        if here == u32::MAX {
            return;
        }
        let engaged = ctx.next_to_enemy(p, at);
        let order = if engaged {
            let walk = RetreatWalk::from(ctx, m.piece, at);
            let best = walk
                .ends
                .iter()
                .map(|(d, h)| (self.exit_distance(*h), *d, *h))
                .filter(|(exit, _, h)| *exit < here && !self.taken(*h))
                .min();
            let Some((_, _, end)) = best else { return };
            walk.order(end)
        } else {
            let best = ctx
                .destinations(m.piece)
                .into_iter()
                .filter(|(h, _, _)| !self.taken(*h) && crate::great_war::neutral_free(ctx, p, *h))
                .map(|(h, c, path)| (self.exit_distance(h), c, h, path))
                .filter(|(d, ..)| *d < here)
                .min_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
            let Some((_, _, to, path)) = best else { return };
            self.claimed.insert(to);
            Order::Move { piece: m.piece, path }
        };
        if legal(ctx, &order) {
            self.queue.push_back(order);
            // An engaged piece leaves the line before the plan: the plan draws the front again.
            self.redraw |= engaged;
        }
    }

    /// S-FORT-6, S-COMBAT-8: whether a piece on `at` should step back from the intact enemy
    /// fortress it stands against instead of fighting it by default: every enemy next to it holds
    /// an intact fortress, and the fight it stands in goes against it by [`D_STUBBORN_HEAVY`] or
    /// more (stubborn fighting then costs it 2 Morale a turn to the garrison's 1, while the
    /// fortress's level 2 stays until the guns break it). It then screens the fortress a hex off.
    pub(super) fn screens(&self, ctx: &Ctx, at: HexAt) -> bool {
        use rules::strategic::combat::D_STUBBORN_HEAVY;
        let p = self.power;
        let near: Vec<HexAt> = at.neighbours().into_iter().filter(|n| ctx.enemy_on(p, *n)).collect();
        !near.is_empty()
            && near.iter().all(|n| crate::great_war::guns::enemy_fortress(ctx, p, *n))
            && margin_at(ctx, p, at).is_some_and(|d| d <= -D_STUBBORN_HEAVY)
    }
}

/// S-ARMY-15: an engaged piece retreats up to 10 hexes to the free hex of our side farthest from
/// the enemy it can reach through free hexes.
pub(super) fn retreat(ctx: &Ctx, piece: Piece, at: HexAt, front: std::sync::Arc<Front>) -> Option<Order> {
    let walk = RetreatWalk::from(ctx, piece, at);
    let mut ends: Vec<HexAt> = walk.ends.iter().map(|(_, h)| *h).collect();
    ends.sort_by_key(|h| (std::cmp::Reverse(front.enemy_steps(*h).min(1000)), *h));
    walk.first_legal(ctx, ends)
}

/// A piece's retreat: where the engine's retreat walk takes it ([`retreat_reach`], S-ARMY-15)
/// through hexes no unit stands on (the staff's own caution: it does not retreat through its
/// own lines), with the ends it may stand on.
pub(super) struct RetreatWalk {
    pub(super) piece: Piece,
    /// (length, hex), by length then hex.
    pub(super) ends: Vec<(usize, HexAt)>,
    pub(super) walk: Walk,
}

impl RetreatWalk {
    fn from(ctx: &Ctx, piece: Piece, at: HexAt) -> RetreatWalk {
        let units = ctx.piece_units(piece).map(|(_, u)| u).unwrap_or_default();
        let power = ctx.active_power();
        let walk = retreat_reach(ctx, power, at, |n| ctx.at(n).is_empty());
        let mut ends: Vec<(usize, HexAt)> = walk
            .ends()
            .filter(|(h, _)| crate::great_war::fit_to_stand(ctx, power, &units, *h))
            .map(|(h, d)| (d as usize, h))
            .collect();
        ends.sort_unstable();
        RetreatWalk { piece, ends, walk }
    }

    /// The retreat order to `end`.
    fn order(&self, end: HexAt) -> Order {
        Order::Retreat { moves: vec![(self.piece, self.walk.path(end).unwrap_or_default())] }
    }

    /// The retreat to the first of `ends` (eight at most) the engine accepts.
    fn first_legal(&self, ctx: &Ctx, ends: Vec<HexAt>) -> Option<Order> {
        ends.into_iter().take(8).map(|end| self.order(end)).find(|o| legal(ctx, o))
    }
}

/// S-ARMY-15: the retreat order that takes an engaged piece back to the nearest free hex of our
/// side at least `away` hexes from every enemy land unit (`FRONT_LINE_HEXES + 1`: off the S-SUP-6
/// front line, to rest; 2: out of contact, screening), by a path of free land hexes within the
/// retreat's 10 hexes; `None` when there is none or the engine refuses it. Hexes in `claimed` are
/// left to the pieces that claimed them.
pub(super) fn withdrawal(
    ctx: &Ctx,
    piece: Piece,
    at: HexAt,
    front: &Front,
    claimed: &BTreeSet<HexAt>,
    away: u32,
) -> Option<Order> {
    let enemies = enemy_hexes(ctx, ctx.active_power());
    let walk = RetreatWalk::from(ctx, piece, at);
    let ends: Vec<HexAt> = walk
        .ends
        .iter()
        .map(|(_, h)| *h)
        .filter(|h| front.ours(*h) && !claimed.contains(h) && enemies.iter().all(|e| e.distance(*h) >= away))
        .collect();
    walk.first_legal(ctx, ends)
}
