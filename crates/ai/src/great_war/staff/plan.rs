//! The land plan: what each piece reaches, the matching of pieces to the front's posts, the relief
//! of tired divisions (S-SUP-6), and strikes massed on one enemy hex.

use super::contact::withdrawal;
use super::pieces::{can_move, capital_hexes, movers, objectives, off_front_line};
use super::state::{Item, Mover, PlanDraft, Staff, StrikeDraft};
use crate::great_war::front::{held_by_alliance, posts};
use crate::great_war::{enemy_combat_hexes, enemy_hexes};
use rules::strategic::army::{ARMY_DEPTH_HEXES, fits_block};
use rules::strategic::query::tired;
use rules::strategic::state::{ForceId, FormationId, Place};
use rules::strategic::upkeep::FRONT_LINE_HEXES;
use rules::strategic::{Ctx, HexAt, Order, Piece, PowerId};
use std::collections::{BTreeMap, BTreeSet};

impl Staff {
    /// The front: posts on the line, divided between the alliance's powers, and who takes each.
    pub(super) fn plan(&mut self, ctx: &Ctx) {
        let p = self.power;
        let front = self.front_now(ctx);
        let all = movers(ctx, p);
        // S-COMBAT-11: a free piece in a pocket makes for the open hexes first.
        let escaping: Vec<Mover> = all
            .iter()
            .copied()
            .filter(|m| {
                m.army.is_none() && self.pocket.contains(&m.at) && !ctx.next_to_enemy(p, m.at) && can_move(ctx, m)
            })
            .collect();
        for m in escaping.iter().rev() {
            self.items.push_front(Item::Escape(*m));
        }
        let free: Vec<Mover> = all
            .iter()
            .copied()
            .filter(|m| !m.artillery && !ctx.next_to_enemy(p, m.at) && can_move(ctx, m) && !escaping.contains(m))
            .collect();
        // S-SUP-6, S-ARMY-15: tired pieces in contact that may be relieved: they leave contact
        // only by the retreat order, which costs a defender 1 Morale once (and its guns: pieces
        // with artillery stay), where staying costs 1 Morale every turn. An army retreats whole
        // (S-ARMY-7), and a piece that attacks this turn stays in its fight.
        let withdraw: Vec<Mover> = if self.doctrine.rotate {
            all.iter()
                .copied()
                .filter(|m| m.army.is_none() && !m.artillery && ctx.next_to_enemy(p, m.at))
                .filter(|m| !self.attacking.contains(&m.piece) && tired(ctx, m.piece))
                .filter(|m| {
                    ctx.piece_units(m.piece).is_ok_and(|(_, units)| {
                        units.iter().filter_map(|u| ctx.force(*u)).all(|f| !f.kind.is_artillery())
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        // Everything that will stay where it stands covers the line already.
        let mut fixed = held_by_alliance(ctx, p);
        for m in free.iter().chain(&withdraw) {
            fixed.remove(&m.at);
        }
        let wanted = posts(ctx, p, &front, &fixed);
        let wanted_all: BTreeSet<HexAt> = wanted.iter().copied().collect();
        self.objectives = objectives(ctx, p);
        // Allies that move after us fill the posts nearest to their own free pieces.
        let allies: Vec<(PowerId, HexAt)> = ctx
            .forces
            .iter()
            .filter(|f| f.power > p && !ctx.hostile(p, f.power) && f.kind.is_combatant())
            .filter_map(|f| f.hex().map(|h| (f.power, h)))
            .filter(|(_, h)| !ctx.next_to_enemy(p, *h))
            .collect();
        let mine: Vec<HexAt> = wanted
            .into_iter()
            .filter(|post| {
                let own = free.iter().map(|m| m.at.distance(*post)).min().unwrap_or(u32::MAX);
                let ally = allies.iter().map(|(_, h)| h.distance(*post)).min().unwrap_or(u32::MAX);
                own <= ally
            })
            .collect();
        for m in &free {
            self.items.push_back(Item::Reach(*m));
        }
        self.items.push_back(Item::Strikes);
        if self.doctrine.rings {
            self.items.push_back(Item::Rings);
        }
        self.items.push_back(Item::Assign);
        let tired_at: BTreeSet<HexAt> = if self.doctrine.rotate {
            free.iter().filter(|m| tired(ctx, m.piece)).chain(&withdraw).map(|m| m.at).collect()
        } else {
            BTreeSet::new()
        };
        self.plan_draft = Some(PlanDraft {
            all,
            free,
            posts: mine,
            reach: BTreeMap::new(),
            contacts: BTreeMap::new(),
            matching: None,
            tired_at,
            relief: BTreeMap::new(),
            withdraw,
            wanted: wanted_all,
        });
    }

    /// What a piece reaches this turn (an army's corps at the army's allowance, S-ARMY-1).
    pub(super) fn reach(&mut self, ctx: &Ctx, m: Mover) {
        let p = self.power;
        let Ok((_, units)) = ctx.piece_units(m.piece) else { return };
        // An army's corps at the army's allowance (S-ARMY-1), else the piece's own.
        let mp = match m.army {
            Some(a) => ctx.group_mp(&ctx.formation_units(a)).min(ctx.group_mp(&units)),
            None => ctx.group_mp(&units),
        };
        // The engine's reach (as `Ctx::destinations`, whose paths are built only where a strike
        // may need them: next to an enemy).
        let found = ctx.reachable(p, &units, m.at, mp);
        let parents: BTreeMap<HexAt, Option<HexAt>> = found.iter().map(|(h, _, par)| (*h, *par)).collect();
        let ends: Vec<(HexAt, u32)> = found
            .iter()
            .filter(|(h, _, _)| *h != m.at && ctx.at(*h).is_empty() && crate::great_war::neutral_free(ctx, p, *h))
            .map(|(h, c, _)| (*h, *c))
            .collect();
        // A post on the line may lie in a harsh climate (holding the line is worth the Health);
        // a strike keeps out of one.
        let contacts: Vec<(HexAt, Vec<HexAt>)> = if self.doctrine.strike > 0 {
            ends.iter()
                .filter(|(h, _)| ctx.next_to_enemy(p, *h) && crate::great_war::climate_free(ctx, p, &units, *h))
                .map(|(h, _)| {
                    let mut path = vec![*h];
                    let mut at = *h;
                    while let Some(Some(prev)) = parents.get(&at) {
                        if *prev == m.at {
                            break;
                        }
                        path.push(*prev);
                        at = *prev;
                    }
                    path.reverse();
                    (*h, path)
                })
                .collect()
        } else {
            Vec::new()
        };
        let r = ends.into_iter().chain(std::iter::once((m.at, 0))).collect();
        if let Some(d) = self.plan_draft.as_mut() {
            // S-SUP-6: the hexes of tired pieces it could take over once they leave.
            let relief: Vec<(HexAt, u32)> = found
                .iter()
                .filter(|(h, _, _)| *h != m.at && d.tired_at.contains(h))
                .map(|(h, c, _)| (*h, *c))
                .collect();
            d.reach.insert(m.piece, r);
            d.contacts.insert(m.piece, contacts);
            d.relief.insert(m.piece, relief);
        }
    }

    /// Who takes which capital hex and which post; then the moves in order.
    pub(super) fn assign(&mut self, ctx: &Ctx) {
        let p = self.power;
        let Some(mut draft) = self.plan_draft.take() else { return };
        if draft.matching.is_none() {
            // Pieces striking or closing a ring are spoken for.
            let left: Vec<Mover> = draft
                .free
                .iter()
                .copied()
                .filter(|m| !self.strikes.contains_key(&m.piece) && !self.grabs.contains_key(&m.piece))
                .collect();
            // Posts a strike stands by are held by it.
            let striking: Vec<HexAt> = self.strikes.values().map(|(h, _)| *h).collect();
            let open: Vec<HexAt> = std::mem::take(&mut draft.posts)
                .into_iter()
                .filter(|post| !striking.iter().any(|h| h.distance(*post) <= 1))
                .collect();
            draft.matching = Some((open, left));
            self.relief(ctx, &mut draft);
            // The matching in work items of its own.
            self.plan_draft = Some(draft);
            self.items.push_front(Item::Assign);
            return;
        }
        let relieved = &self.relieved;
        let relieving = |m: &Mover| relieved.contains(&m.piece);
        let army_of: BTreeMap<Piece, FormationId> =
            draft.free.iter().filter_map(|m| m.army.map(|a| (m.piece, a))).collect();
        let reach = &draft.reach;
        let reaches = |m: &Mover, post: HexAt| reach.get(&m.piece).and_then(|r| r.get(&post)).copied();
        let Some((open, left)) = draft.matching.as_mut() else { return };
        // The post fewest pieces can reach this turn first, taken by the piece that reaches the
        // fewest other posts (then the fresher, then the cheaper; one beyond reach by distance):
        // the matching leaves no post open that some piece could have held. A few posts a work
        // item: each looks at every piece left for every post open, twice.
        let mut matched = 0;
        let mut work = 0;
        while !open.is_empty() && !left.is_empty() {
            if work >= ASSIGN_WORK {
                self.plan_draft = Some(draft);
                self.items.push_front(Item::Assign);
                return;
            }
            matched += 1;
            work += 2 * open.len() * left.len();
            let (i, post) = open
                .iter()
                .copied()
                .enumerate()
                .min_by_key(|(_, post)| {
                    let n = left.iter().filter(|m| reaches(m, *post).is_some()).count();
                    (n == 0, n, *post)
                })
                .expect("open posts");
            // S-ARMY-4: an army's corps takes a post only where the army, with the posts its other
            // corps hold, still stands within its frontage and depth (the engine's block).
            let fits = |m: &Mover| match (m.army, m.piece) {
                (Some(a), Piece::Corps(_)) => {
                    let mut hexes: Vec<HexAt> = self
                        .posts
                        .iter()
                        .filter(|(q, _)| **q != m.piece && army_of.get(*q) == Some(&a))
                        .map(|(_, h)| *h)
                        .collect();
                    hexes.push(post);
                    fits_block(&hexes, ctx.army_frontage(a), ARMY_DEPTH_HEXES)
                }
                _ => true,
            };
            let Some(j) = (0..left.len()).filter(|j| fits(&left[*j])).min_by_key(|j| {
                let m = &left[*j];
                let flexible = open.iter().filter(|q| **q != post && reaches(m, **q).is_some()).count();
                match reaches(m, post) {
                    Some(c) => (0, u32::from(relieving(m)), flexible, c),
                    None => (1, u32::from(relieving(m)), 0, m.at.distance(post)),
                }
            }) else {
                // No piece left may take it: it stays open (a kept reserve may plug it).
                open.remove(i);
                continue;
            };
            open.remove(i);
            let m = left.remove(j);
            self.posts.insert(m.piece, post);
            self.claimed.insert(post);
        }
        // What follows the matching in a work item of its own.
        if matched > 0 {
            self.plan_draft = Some(draft);
            self.items.push_front(Item::Assign);
            return;
        }
        // A tired piece that took a post after all stays on the line (no fresh piece reached it);
        // so does one in contact whose hex the line needs and no fresh piece took.
        let posts = &self.posts;
        self.relieved.retain(|piece| !posts.contains_key(piece));
        for m in &draft.withdraw {
            if draft.wanted.contains(&m.at) && !self.claimed.contains(&m.at) {
                self.relieved.remove(&m.piece);
            }
        }
        let Some((_, mut left)) = draft.matching.take() else { return };
        let PlanDraft { all, free, reach, withdraw, .. } = draft;
        let reaches = |m: &Mover, post: HexAt| reach.get(&m.piece).and_then(|r| r.get(&post)).copied();
        // S-CITY-1: a province changes hands when our troops hold every hex of its capital at
        // Upkeep; each capital hex within this turn's reach gets the piece that reaches it most
        // cheaply among the pieces the line does not need (the front stays closed first).
        let capitals: Vec<HexAt> = capital_hexes(ctx, p).into_iter().filter(|h| !self.claimed.contains(h)).collect();
        for hex in capitals {
            let best = (0..left.len()).filter_map(|j| reaches(&left[j], hex).map(|c| (c, left[j].piece, j))).min();
            if let Some((_, piece, j)) = best {
                left.remove(j);
                self.grabs.insert(piece, hex);
                self.claimed.insert(hex);
            }
        }
        // S-ARMY-6: each army keeps a spare division in its off-map reserve; those count against
        // the reserve the doctrine keeps behind the line.
        let held = self.army_reserves(ctx, &mut left, &reach);
        // A reserve behind the line (the doctrine's count, the pieces nearest the line first, fresh
        // ones only): it relieves, plugs gaps and strikes next turn instead of marching off.
        if let Some(front) = self.front.clone() {
            let mut spare: Vec<Mover> = left
                .iter()
                .copied()
                .filter(|m| !self.grabs.contains_key(&m.piece) && !self.relieved.contains(&m.piece) && m.army.is_none())
                .filter(|m| !tired(ctx, m.piece))
                .collect();
            spare.sort_by_key(|m| (front.enemy_steps(m.at), m.piece));
            self.kept.extend(spare.into_iter().take(self.doctrine.keep.saturating_sub(held)).map(|m| m.piece));
        }
        // Relieved pieces first (they leave the hexes their relief takes), then posts (the line
        // before the reserves), then reserves, artillery, armies, the rest.
        // The kept reserves last: they plug what gaps the line still has.
        for m in withdraw.iter().filter(|m| self.relieved.contains(&m.piece)) {
            self.items.push_back(Item::Withdraw(*m));
        }
        let mut order: Vec<Mover> = free.iter().copied().filter(|m| self.relieved.contains(&m.piece)).collect();
        order.extend(free.iter().copied().filter(|m| self.posts.contains_key(&m.piece)));
        order.extend(free.iter().copied().filter(|m| {
            !self.posts.contains_key(&m.piece)
                && !self.relieved.contains(&m.piece)
                && !self.kept.contains(&m.piece)
                && !self.army_reserve.contains_key(&m.piece)
        }));
        order.extend(all.iter().copied().filter(|m| m.artillery && can_move(ctx, m) && m.army.is_none()));
        order.extend(free.iter().copied().filter(|m| self.kept.contains(&m.piece)));
        for m in order {
            self.items.push_back(Item::Move(m));
        }
        let armies: BTreeSet<FormationId> = all.iter().filter_map(|m| m.army).collect();
        for a in armies {
            self.items.push_back(Item::Army(a));
        }
        // S-ARMY-8: the reserves already off the map come in where the line needs them after the
        // moves; then the spare divisions join their armies' reserves.
        if self.doctrine.army_reserves {
            for f in ctx.forces.iter().filter(|f| f.power == p && matches!(f.place, Place::Reserve(_))) {
                self.items.push_back(Item::Commit(f.id));
            }
            let joining: Vec<(Mover, FormationId)> =
                free.iter().filter_map(|m| self.army_reserve.get(&m.piece).map(|a| (*m, *a))).collect();
            self.items.extend(joining.into_iter().map(|(m, a)| Item::ArmyReserve(m, a)));
        }
        self.items.push_back(Item::Fortify);
        if self.doctrine.asw_hunt {
            self.items.push_back(Item::Hunt);
        }
        self.items.push_back(Item::Fleets);
    }

    /// S-SUP-6: the free pieces the next Upkeep on the front line would cost Morale that can get
    /// off the front line this turn are to be relieved; the hexes they leave join the reach of
    /// the other pieces, so the matching gives their posts to fresh pieces first (a relieved
    /// piece that no fresh one replaces keeps its post: the line stays closed).
    pub(super) fn relief(&mut self, ctx: &Ctx, draft: &mut PlanDraft) {
        if !self.doctrine.rotate || draft.tired_at.is_empty() {
            return;
        }
        let p = self.power;
        let enemies = enemy_hexes(ctx, p);
        for m in draft.free.iter().filter(|m| draft.tired_at.contains(&m.at) && !self.strikes.contains_key(&m.piece)) {
            let away = draft.reach.get(&m.piece).is_some_and(|r| r.keys().any(|h| off_front_line(&enemies, *h)));
            if away {
                self.relieved.insert(m.piece);
            }
        }
        // A tired piece in contact is relieved where it can withdraw off the front line.
        let front = self.front_now(ctx);
        for m in &draft.withdraw {
            if withdrawal(ctx, m.piece, m.at, &front, &BTreeSet::new(), FRONT_LINE_HEXES + 1).is_some() {
                self.relieved.insert(m.piece);
            }
        }
        let freed: BTreeSet<HexAt> = draft
            .free
            .iter()
            .chain(&draft.withdraw)
            .filter(|m| self.relieved.contains(&m.piece))
            .map(|m| m.at)
            .collect();
        for (piece, hexes) in &draft.relief {
            if let Some(r) = draft.reach.get_mut(piece) {
                for (h, c) in hexes.iter().filter(|(h, _)| freed.contains(h)) {
                    r.entry(*h).or_insert(*c);
                }
            }
        }
    }

    /// The enemy hexes next to which some piece free to move this turn can stand, sorted: each
    /// gets a [`Self::strike`] before the line's posts are given out (a strike that scatters the
    /// enemy facing a sector does more than a post held against it).
    pub(super) fn strike_targets(&mut self, ctx: &Ctx) {
        let p = self.power;
        let Some(draft) = self.plan_draft.as_ref() else { return };
        if self.doctrine.strike == 0 {
            return;
        }
        // A piece the next Upkeep on the line would cost Morale is relieved, not thrown in (S-SUP-6).
        let rotate = self.doctrine.rotate;
        self.reserves =
            draft.free.iter().copied().filter(|m| !m.artillery && (!rotate || !tired(ctx, m.piece))).collect();
        let mut targets: Vec<HexAt> = enemy_combat_hexes(ctx, p)
            .into_iter()
            .filter(|t| {
                t.neighbours()
                    .iter()
                    .any(|n| self.reserves.iter().any(|m| draft.reach.get(&m.piece).is_some_and(|r| r.contains_key(n))))
            })
            .collect();
        targets.sort();
        for t in targets.into_iter().rev() {
            self.items.push_front(Item::Strike(t));
        }
    }

    /// A concentrated strike (S-COMBAT-8: D is the margin per division of the weaker side, and
    /// D ≥ 20 disperses its engaged units, D ≥ 30 destroys them, while stubborn fighting below
    /// costs every engaged unit of ours Health and Morale): the reserves that reach a free hex next
    /// to `target` join one at a time, each time the one the preview sees raising the margin most,
    /// on a blind copy that holds the moves chosen before; the strike is ordered only if its margin
    /// reaches the doctrine's superiority (and at least dispersal). Each call looks at a few
    /// reserves and comes back ([`StrikeDraft`]), so a strike fits in think slices.
    pub(super) fn strike(&mut self, ctx: &Ctx, target: HexAt) {
        let p = self.power;
        let mut draft = match self.strike_draft.take() {
            Some(d) if d.target == target => d,
            _ => StrikeDraft {
                target,
                probe: crate::great_war::blind(ctx),
                chosen: Vec::new(),
                margin: i64::MIN,
                next: 0,
                near: 0,
                best: None,
            },
        };
        // A few previews a work item: a reserve's contacts next to the target may be looked at
        // over several items (each preview applies its move to a copy of the game).
        let mut previews = 0;
        while draft.next < self.reserves.len() && previews < STRIKE_WORK {
            let m = self.reserves[draft.next];
            let near = self.strike_contacts(&draft, m);
            let Some((h, path)) = near.get(draft.near) else {
                draft.next += 1;
                draft.near = 0;
                continue;
            };
            draft.near += 1;
            previews += 1;
            let o = strike_order(m, path.clone());
            let Some(a) = margin_after(&draft.probe, p, &o) else { continue };
            if draft.best.as_ref().is_none_or(|b| a > b.0) {
                draft.best = Some((a, m, *h, path.clone()));
            }
        }
        if draft.next < self.reserves.len() {
            self.strike_draft = Some(draft);
            self.items.push_front(Item::Strike(target));
            return;
        }
        // A round is over: the best reserve joins if it raises the margin.
        let joins = draft.best.take().filter(|b| draft.margin == i64::MIN || b.0 > draft.margin);
        let done = match joins {
            Some((a, m, h, path)) if draft.probe.apply(&strike_order(m, path.clone())).is_ok() => {
                draft.margin = a;
                draft.chosen.push((m.piece, h, path, m.army));
                draft.margin >= rules::strategic::combat::D_DESTROYED || draft.chosen.len() >= self.doctrine.strike
            }
            _ => true,
        };
        if !done {
            draft.next = 0;
            draft.near = 0;
            self.strike_draft = Some(draft);
            self.items.push_front(Item::Strike(target));
            return;
        }
        let goal = self.doctrine.superiority.max(rules::strategic::combat::D_DISPERSED);
        if draft.margin < goal {
            return;
        }
        // The line first where it can be closed: a strike takes only pieces the posts it does not
        // stand by can spare. Where the power has fewer pieces than posts, the line has gaps
        // whatever it does, and the strikes go first.
        // Pieces due for relief (S-SUP-6) hold no post if fresh ones can: they count out.
        if let Some(plan) = self.plan_draft.as_ref()
            && plan.free.len() >= plan.posts.len()
        {
            let fresh = plan.free.len().saturating_sub(plan.tired_at.len());
            let striking: Vec<HexAt> =
                self.strikes.values().map(|(h, _)| *h).chain(draft.chosen.iter().map(|c| c.1)).collect();
            let needed = plan.posts.iter().filter(|post| !striking.iter().any(|h| h.distance(**post) <= 1)).count();
            let left = fresh.saturating_sub(self.strikes.len() + draft.chosen.len());
            if left < needed {
                return;
            }
        }
        for (piece, h, path, _) in draft.chosen {
            self.claimed.insert(h);
            self.strikes.insert(piece, (h, path));
        }
    }

    /// The hexes next to the strike's target that reserve `m` reaches, with their paths; none if
    /// it strikes elsewhere already, is chosen for this strike, or another corps of its army is
    /// (an army's corps move in one order).
    pub(super) fn strike_contacts(&self, draft: &StrikeDraft, m: Mover) -> Vec<(HexAt, Vec<HexAt>)> {
        let chosen = self.strikes.contains_key(&m.piece) || draft.chosen.iter().any(|c| c.0 == m.piece);
        if chosen || (m.army.is_some() && draft.chosen.iter().any(|c| c.3 == m.army)) {
            return Vec::new();
        }
        let Some(paths) = self.plan_draft.as_ref().and_then(|d| d.contacts.get(&m.piece)) else { return Vec::new() };
        paths
            .iter()
            .filter(|(h, _)| {
                h.distance(draft.target) == 1 && !self.taken(*h) && !draft.chosen.iter().any(|c| c.1 == *h)
            })
            .cloned()
            .collect()
    }
}

/// Reach lookups of the matching of posts and pieces in one work item (about 2 ms in a release
/// build; at least one post is matched an item).
pub(super) const ASSIGN_WORK: usize = 40_000;

/// Previews a strike work item makes before it comes back.
pub(super) const STRIKE_WORK: usize = 1;

/// The worst margin (S-COMBAT-8 D, negative when the enemy is the stronger) over the engagements
/// the units of `order` stand in once it is applied to a copy of `ctx`: what the preview's
/// engagements show (`Ctx::preview`), without its dice outcomes and text; `None` if illegal or no
/// engagement.
pub(super) fn margin_after(ctx: &Ctx, power: PowerId, order: &Order) -> Option<i64> {
    let mut c = ctx.clone();
    c.defer_battles = true;
    c.apply(order).ok()?;
    let units: Vec<ForceId> = match order {
        Order::Move { piece, .. } => c.piece_units(*piece).ok()?.1,
        Order::MoveArmy { moves, .. } => moves
            .iter()
            .filter_map(|(corps, _)| c.piece_units(Piece::Corps(*corps)).ok())
            .flat_map(|(_, u)| u)
            .collect(),
        _ => return None,
    };
    c.engagements()
        .into_iter()
        .filter(|g| g.iter().flatten().any(|u| units.contains(u)))
        .filter_map(|g| {
            let e = c.assess(&g);
            let ours =
                (0..2).find(|s| e.sides[*s].iter().any(|u| c.force(*u).is_some_and(|f| !c.hostile(power, f.power))))?;
            Some(if e.stronger == ours { e.d } else { -e.d })
        })
        .min()
}

/// The order that moves a reserve on a strike: its own move, or its army's with this corps alone.
pub(super) fn strike_order(m: Mover, path: Vec<HexAt>) -> Order {
    match (m.army, m.piece) {
        (Some(army), Piece::Corps(c)) => Order::MoveArmy { army, moves: vec![(c, path)] },
        _ => Order::Move { piece: m.piece, path },
    }
}
