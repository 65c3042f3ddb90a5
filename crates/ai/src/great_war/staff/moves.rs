//! Each piece to its post or as a reserve (into a contact, behind the line, plugging gaps), army
//! moves within their frontage (S-ARMY-4), army reserves (S-ARMY-6, S-ARMY-8) and fortification
//! (S-FORT-1).

use super::pieces::{artillery_spot, held_now, movers, off_front_line, reserve_spot, toward, toward_far};
use super::state::{CONTACT_WORK, Contact, ContactDraft, Item, Mover, Staff};
use crate::great_war::front::Front;
use crate::great_war::judge::advantage;
use crate::great_war::{enemy_hexes, legal};
use rules::strategic::query::tired;
use rules::strategic::state::{ForceId, FormationId, FormationKind, Place};
use rules::strategic::{Ctx, HexAt, Order, Piece};
use std::collections::{BTreeMap, BTreeSet};

impl Staff {
    pub(super) fn move_piece(&mut self, ctx: &Ctx, m: Mover) {
        let p = self.power;
        let Some(front) = self.front.clone() else { return };
        let Some(at) = ctx.piece_hex(m.piece) else { return };
        let own_post = self.posts.get(&m.piece).copied();
        let free_for = |h: HexAt| own_post == Some(h) || !self.taken(h);
        // A post on the line (or a gap a kept reserve plugs) may lie in a harsh climate; other
        // moves keep out of one (S-SUP-5).
        let plugs = self.kept.contains(&m.piece);
        let fit = |h: HexAt| {
            crate::great_war::neutral_free(ctx, p, h)
                && (own_post.is_some()
                    || plugs
                    || ctx.piece_units(m.piece).is_ok_and(|(_, u)| crate::great_war::climate_free(ctx, p, &u, h)))
        };
        let dests: Vec<(HexAt, u32, Vec<HexAt>)> = match m.army {
            // An army moves at its slowest division's allowance (S-ARMY-1), and only where it
            // stands within its frontage and depth after (S-ARMY-4, asked of the engine).
            Some(a) => {
                let mp = ctx.group_mp(&ctx.formation_units(a));
                let within = |h: HexAt| self.army_fits(ctx, a, m.piece, h);
                ctx.destinations(m.piece)
                    .into_iter()
                    .filter(|(h, c, _)| *c <= mp && free_for(*h) && fit(*h) && within(*h))
                    .collect()
            }
            None => ctx.destinations(m.piece).into_iter().filter(|(h, _, _)| free_for(*h) && fit(*h)).collect(),
        };
        let grab = self.grabs.get(&m.piece).copied().and_then(|hex| {
            let (h, _, path) = dests.iter().find(|(h, _, _)| *h == hex)?;
            let hold = self.contact_bar(ctx, *h);
            let safe = !ctx.next_to_enemy(p, *h)
                || hold == i64::MIN
                || advantage(ctx, p, &Order::Move { piece: m.piece, path: path.clone() }).is_none_or(|a| a >= hold);
            safe.then(|| (*h, path.clone()))
        });
        let strike = self.strikes.get(&m.piece).cloned();
        let choice = if strike.is_some() {
            strike
        } else if grab.is_some() {
            grab
        } else if m.artillery {
            artillery_spot(ctx, p, &front, at, &dests, self.doctrine.batteries)
        } else if let Some(post) = self.posts.get(&m.piece).copied() {
            if post == at {
                None
            } else {
                // A post in contact is taken only if the preview does not see the piece dispersed
                // or worse there (facing an intact fortress: short of the attack's superiority);
                // else it stands next to it, out of contact.
                let safe = |h: HexAt, path: &[HexAt]| {
                    let hold = self.contact_bar(ctx, h);
                    !ctx.next_to_enemy(p, h)
                        || hold == i64::MIN
                        || advantage(ctx, p, &Order::Move { piece: m.piece, path: path.to_vec() })
                            .is_none_or(|a| a >= hold)
                };
                let post_ok = dests.iter().find(|(h, _, _)| *h == post).is_none_or(|(h, _, path)| safe(*h, path));
                toward(&dests, post, |h| front.ours(h) && ((h == post && post_ok) || !ctx.next_to_enemy(p, h)))
            }
        } else {
            match self.reserve_contact(ctx, m, &dests) {
                Contact::Pending => {
                    self.items.push_front(Item::Move(m));
                    return;
                }
                Contact::Found(h, path) => Some((h, path)),
                Contact::None => self.reserve(ctx, &front, m, at, &dests),
            }
        };
        let Some((to, path)) = choice else { return };
        // A strike's path was found before the army's other moves (S-ARMY-4): where the army would
        // not stand within its frontage there, the corps goes as near as it may.
        let (to, path) = match m.army {
            Some(a) if !self.army_fits(ctx, a, m.piece, to) => {
                let Some(near) = toward(&dests, to, |h| front.ours(h) && !ctx.next_to_enemy(p, h)) else { return };
                near
            }
            _ => (to, path),
        };
        self.claimed.insert(to);
        match m.army {
            Some(a) => {
                if let Piece::Corps(c) = m.piece {
                    self.army_moves.entry(a).or_default().push((c, path));
                }
            }
            None => self.queue.push_back(Order::Move { piece: m.piece, path }),
        }
    }

    /// S-ARMY-4: whether army `a` would stand within its frontage and depth (the engine's check
    /// [`Ctx::check_army_frontage`]) with corps `piece` on `h`, the corps whose moves are planned on
    /// the ends of their moves and those with a post yet to move on their posts.
    pub(super) fn army_fits(&self, ctx: &Ctx, a: FormationId, piece: Piece, h: HexAt) -> bool {
        let Piece::Corps(corps) = piece else { return true };
        let Some(fm) = ctx.formation(a) else { return true };
        let planned = self.army_moves.get(&a);
        let mut placed: Vec<(FormationId, HexAt)> = vec![(corps, h)];
        for c in fm.corps.iter().copied().filter(|c| *c != corps) {
            let end = planned.and_then(|v| v.iter().find(|(x, _)| *x == c)).and_then(|(_, path)| path.last().copied());
            if let Some(at) = end.or_else(|| self.posts.get(&Piece::Corps(c)).copied()) {
                placed.push((c, at));
            }
        }
        ctx.check_army_frontage(a, &placed).is_ok()
    }

    /// This phase's front (drawn by the `Front` work items before the plan; at once for a retreat).
    pub(super) fn front_now(&mut self, ctx: &Ctx) -> std::sync::Arc<Front> {
        self.front.get_or_insert_with(|| std::sync::Arc::new(Front::of(ctx, self.power))).clone()
    }

    pub(super) fn taken(&self, h: HexAt) -> bool {
        self.claimed.contains(&h)
    }

    /// A reserve: into the contact the preview favours most (local superiority), else tired ones
    /// to the rear, else on to an enemy city when the way is open, else two hexes behind the line.
    /// A reserve goes into the contact within its reach where the preview gives the best margin,
    /// at the doctrine's superiority at least: the doctrine's `width` of them, the best defended
    /// ground first, then the cheapest, [`CONTACT_WORK`] previews a work item.
    pub(super) fn reserve_contact(&mut self, ctx: &Ctx, m: Mover, dests: &[(HexAt, u32, Vec<HexAt>)]) -> Contact {
        let p = self.power;
        let d = self.doctrine;
        if m.army.is_some() || self.relieved.contains(&m.piece) || self.kept.contains(&m.piece) {
            return Contact::None;
        }
        let draft = match self.contact_draft.take() {
            Some(draft) if draft.piece == m.piece => draft,
            _ => {
                let mut contacts: Vec<&(HexAt, u32, Vec<HexAt>)> =
                    dests.iter().filter(|(h, _, _)| ctx.next_to_enemy(p, *h)).collect();
                contacts
                    .sort_by_key(|(h, c, _)| (std::cmp::Reverse(crate::great_war::front::defence(ctx, p, *h)), *c, *h));
                let list = contacts.into_iter().take(d.width).map(|(h, _, path)| (*h, path.clone())).collect();
                ContactDraft { piece: m.piece, list, next: 0, best: None }
            }
        };
        let mut draft = draft;
        for _ in 0..CONTACT_WORK {
            let Some((h, path)) = draft.list.get(draft.next).cloned() else { break };
            draft.next += 1;
            let o = Order::Move { piece: m.piece, path: path.clone() };
            if let Some(a) = advantage(ctx, p, &o).filter(|a| *a >= d.superiority)
                && draft.best.as_ref().is_none_or(|(b, bh, _)| (a, std::cmp::Reverse(h)) > (*b, std::cmp::Reverse(*bh)))
            {
                draft.best = Some((a, h, path));
            }
        }
        if draft.next < draft.list.len() {
            self.contact_draft = Some(draft);
            return Contact::Pending;
        }
        match draft.best {
            Some((_, h, path)) => Contact::Found(h, path),
            None => Contact::None,
        }
    }

    pub(super) fn reserve(
        &self,
        ctx: &Ctx,
        front: &Front,
        m: Mover,
        at: HexAt,
        dests: &[(HexAt, u32, Vec<HexAt>)],
    ) -> Option<(HexAt, Vec<HexAt>)> {
        let p = self.power;
        let d = self.doctrine;
        if self.relieved.contains(&m.piece) {
            // S-SUP-6: off the front line (more than 3 hexes from every enemy), the nearest spot.
            let enemies = enemy_hexes(ctx, p);
            let back = dests
                .iter()
                .filter(|(h, _, _)| front.ours(*h) && off_front_line(&enemies, *h) && !self.taken(*h))
                .min_by_key(|(h, c, _)| (*c, *h))
                .map(|(h, _, path)| (*h, path.clone()));
            return back.or_else(|| toward_far(dests, front, 4));
        }
        if self.kept.contains(&m.piece) {
            let unharmed: Vec<(HexAt, u32, Vec<HexAt>)> = match ctx.piece_units(m.piece) {
                Ok((_, units)) => dests
                    .iter()
                    .filter(|(h, _, _)| crate::great_war::climate_free(ctx, p, &units, *h))
                    .cloned()
                    .collect(),
                Err(_) => Vec::new(),
            };
            return self.plug(ctx, front, m, dests).or_else(|| reserve_spot(ctx, p, front, at, &unharmed));
        }
        if d.rotate && tired(ctx, m.piece) {
            return toward_far(dests, front, 4);
        }
        if let Some(city) =
            self.objectives.iter().copied().filter(|h| !held_now(ctx, p, *h)).min_by_key(|h| (h.distance(at), *h))
        {
            let step = toward(dests, city, |h| !ctx.next_to_enemy(p, h) || h == city);
            if step.is_some() {
                return step;
            }
        }
        if front.enemy_steps(at) > 3 || front.enemy_steps(at) < 2 {
            let spot = dests
                .iter()
                .filter(|(h, _, _)| front.ours(*h) && front.enemy_steps(*h) == 3)
                .min_by_key(|(h, c, _)| (h.distance(at), *c, *h));
            return spot.map(|(h, _, path)| (*h, path.clone()));
        }
        None
    }

    /// A kept reserve plugs the first gap the line has after the other moves (a line hex no piece
    /// holds or stands next to): onto it or next to it on our side, where the preview does not
    /// see it dispersed or worse if it is in contact.
    pub(super) fn plug(
        &self,
        ctx: &Ctx,
        front: &Front,
        m: Mover,
        dests: &[(HexAt, u32, Vec<HexAt>)],
    ) -> Option<(HexAt, Vec<HexAt>)> {
        let p = self.power;
        let safe = |h: HexAt, path: &[HexAt]| {
            let hold = self.contact_bar(ctx, h);
            !ctx.next_to_enemy(p, h)
                || advantage(ctx, p, &Order::Move { piece: m.piece, path: path.to_vec() }).is_none_or(|a| a >= hold)
        };
        front.gaps(ctx, p).into_iter().find_map(|gap| {
            dests
                .iter()
                .filter(|(h, _, _)| (*h == gap || h.is_adjacent(gap)) && front.ours(*h) && !self.taken(*h))
                .filter(|(h, _, path)| safe(*h, path))
                .min_by_key(|(h, c, _)| (*c, *h))
                .map(|(h, _, path)| (*h, path.clone()))
        })
    }

    /// The least margin (S-COMBAT-8 D) at which a piece goes into contact on `h`: the doctrine's
    /// hold, or next to an enemy-held intact fortress (level 2 from every side, S-FORT-6) the
    /// superiority of a deliberate attack, so that no division is spent on one at bad odds; the
    /// line then stands off it, out of contact.
    pub(super) fn contact_bar(&self, ctx: &Ctx, h: HexAt) -> i64 {
        if self.doctrine.siege && crate::great_war::guns::faces_fortress(ctx, self.power, h) {
            self.doctrine.superiority.max(self.doctrine.hold)
        } else {
            self.doctrine.hold
        }
    }

    /// S-ARMY-6: each of our armies without a division in its off-map reserve takes the spare
    /// division (fresh, independent, not needed on the line or at a capital) that reaches a hex
    /// next to it most cheaply this turn, out of `left`. Returns how many armies hold a reserve.
    pub(super) fn army_reserves(
        &mut self,
        ctx: &Ctx,
        left: &mut Vec<Mover>,
        reach: &BTreeMap<Piece, BTreeMap<HexAt, u32>>,
    ) -> usize {
        if !self.doctrine.army_reserves {
            return 0;
        }
        let p = self.power;
        let mut held = 0;
        for a in ctx.formations.iter().filter(|f| f.power == p && f.kind == FormationKind::Army) {
            let hexes = ctx.formation_hexes(a.id);
            if hexes.is_empty() {
                continue;
            }
            if ctx.forces.iter().any(|f| f.place == Place::Reserve(a.id)) {
                held += 1;
                continue;
            }
            let around: BTreeSet<HexAt> = hexes.iter().flat_map(|h| h.neighbours().into_iter().chain([*h])).collect();
            let next_to = |h: &HexAt| around.contains(h);
            let best = left
                .iter()
                .enumerate()
                .filter(|(_, m)| matches!(m.piece, Piece::Unit(_)) && m.army.is_none())
                .filter(|(_, m)| !self.grabs.contains_key(&m.piece) && !self.relieved.contains(&m.piece))
                .filter(|(_, m)| !tired(ctx, m.piece))
                .filter_map(|(j, m)| {
                    let cost = reach.get(&m.piece)?.iter().filter(|(h, _)| next_to(h)).map(|(_, c)| *c).min()?;
                    Some((cost, m.piece, j))
                })
                .min();
            if let Some((_, piece, j)) = best {
                left.remove(j);
                self.army_reserve.insert(piece, a.id);
                held += 1;
            }
        }
        held
    }

    /// S-ARMY-6: a spare division goes next to its army (out of contact, the cheapest hex) and
    /// into the army's off-map reserve, where it stays fresh (off the S-SUP-6 front line) and out
    /// of harm until a contact needs it; where the army's moves took it out of reach, it stays a
    /// reserve behind the line.
    pub(super) fn army_reserve(&mut self, ctx: &Ctx, m: Mover, army: FormationId) {
        let p = self.power;
        let Piece::Unit(unit) = m.piece else { return };
        let Some(at) = ctx.piece_hex(m.piece) else { return };
        let hexes = ctx.formation_hexes(army);
        let next_to = |h: HexAt| hexes.iter().any(|x| x.distance(h) <= 1);
        let assign = Order::AssignReserve { unit, army };
        if next_to(at) {
            self.queue.push_back(assign);
            return;
        }
        let Ok((_, units)) = ctx.piece_units(m.piece) else { return };
        let spot = ctx
            .destinations(m.piece)
            .into_iter()
            .filter(|(h, _, _)| next_to(*h) && !ctx.next_to_enemy(p, *h) && !self.taken(*h))
            .filter(|(h, _, _)| crate::great_war::fit_to_stand(ctx, p, &units, *h))
            .min_by_key(|(h, c, _)| (*c, *h));
        match spot {
            Some((h, _, path)) => {
                self.claimed.insert(h);
                self.queue.push_back(Order::Move { piece: m.piece, path });
                self.queue.push_back(assign);
            }
            // The army moved out of its reach: it stays a reserve behind the line this turn.
            None => {
                self.kept.insert(m.piece);
                self.move_piece(ctx, m);
            }
        }
    }

    /// S-ARMY-8: a division in an army's reserve comes onto a free hex next to its army where a
    /// contact needs it, after the other moves: onto a gap of the line (or next to one, on our
    /// side) where the preview does not see it beaten there; else into the contact where the
    /// preview sees it strike with the doctrine's superiority (it joins the combat at once and
    /// counts Attack, S-ARMY-9). Otherwise it stays in reserve.
    pub(super) fn commit(&mut self, ctx: &Ctx, unit: ForceId) {
        let p = self.power;
        let Some(Place::Reserve(army)) = ctx.force(unit).map(|f| f.place) else { return };
        let Some(front) = self.front.clone() else { return };
        let mut spots: Vec<HexAt> = ctx
            .formation_hexes(army)
            .into_iter()
            .flat_map(|h| h.neighbours())
            .filter(|h| ctx.map().is_land(*h) && ctx.at(*h).is_empty() && !self.taken(*h))
            .filter(|h| crate::great_war::fit_to_stand(ctx, p, &[unit], *h))
            .collect();
        spots.sort();
        spots.dedup();
        let order = |to: HexAt| Order::CommitReserve { unit, to };
        let beaten = |h: HexAt| {
            ctx.next_to_enemy(p, h) && advantage(ctx, p, &order(h)).is_none_or(|a| a < self.contact_bar(ctx, h))
        };
        let gap = front.gaps(ctx, p).into_iter().find_map(|g| {
            spots.iter().copied().filter(|h| (*h == g || h.is_adjacent(g)) && front.ours(*h)).find(|h| !beaten(*h))
        });
        let strike = || {
            spots
                .iter()
                .copied()
                .filter(|h| ctx.next_to_enemy(p, *h))
                .take(COMMIT_WORK)
                .filter_map(|h| advantage(ctx, p, &order(h)).map(|a| (a, h)))
                .filter(|(a, h)| *a >= self.doctrine.superiority.max(self.contact_bar(ctx, *h)))
                .max_by_key(|(a, h)| (*a, std::cmp::Reverse(*h)))
                .map(|(_, h)| h)
        };
        if let Some(to) = gap.or_else(strike) {
            self.claimed.insert(to);
            self.queue.push_back(order(to));
        }
    }

    /// S-FORT-1: pieces that stand still where they defend dig in, while the treasury keeps a
    /// turn's upkeep.
    pub(super) fn fortify(&mut self, ctx: &Ctx) {
        let p = self.power;
        let e = &ctx.scenario().rules.economy;
        let mut money = self.money;
        let Some(front) = self.front.clone() else { return };
        for m in movers(ctx, p) {
            if m.artillery {
                continue;
            }
            let Ok((_, units)) = ctx.piece_units(m.piece) else { continue };
            if units.iter().any(|u| ctx.force(*u).is_some_and(|f| f.activity.moved || f.activity.fortified)) {
                continue;
            }
            // Only on the line or in contact: a fortification behind the front is money lost.
            if !(front.on_line(m.at) || ctx.next_to_enemy(p, m.at)) {
                continue;
            }
            let hs = ctx.hex_state(m.at);
            let ours = hs.fort_alliance == ctx.alliance(p);
            let level = if hs.fort == 0 || !ours { 0 } else { usize::from(hs.fort) };
            if level >= 2 || (level == 1 && !self.doctrine.fort_level2) {
                continue;
            }
            let price = i64::from(e.fortification[level]);
            let order = Order::Fortify { piece: m.piece };
            if money >= price && legal(ctx, &order) {
                money -= price;
                self.queue.push_back(order);
            }
        }
    }
}

/// Contacts next to its army an army reserve's work item previews for a strike (S-ARMY-8).
pub(super) const COMMIT_WORK: usize = 8;
