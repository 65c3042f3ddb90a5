//! Melee exchanges at the end of every turn (T-MELEE-3…7, T-TERR-4, T-FORT-5, T-SKIRM-3, T-ART-3).

use super::components::{Side, UnitId};
use super::event::{Cause, Event, Removal, Sum, Term};
use super::grid::Terrain;
use super::state::{Ctx, UnitState};
use super::units::{Ability, Arm};

/// T-MELEE-4: damage each side takes: equal sums 1 each; else the stronger 1, the weaker 1 + difference.
pub fn melee_damage(a: i32, b: i32, base: i32) -> (i32, i32) {
    match a.cmp(&b) {
        std::cmp::Ordering::Equal => (base, base),
        std::cmp::Ordering::Greater => (base, base + (a - b)),
        std::cmp::Ordering::Less => (base + (b - a), base),
    }
}

impl Ctx {
    /// Units of a melee group: enemies linked by adjacency, with the units backing artillery (T-MELEE-3, T-ART-3).
    pub fn melee_groups(&self) -> Vec<Vec<UnitId>> {
        let fighting = |u: &UnitState| u.status.on_field() && !self.sides.retreating[u.side.index()];
        let engaged: Vec<&UnitState> = self
            .units
            .iter()
            .filter(|u| {
                fighting(u)
                    && u.cell.neighbours().iter().any(|n| self.at(*n).is_some_and(|e| e.side != u.side && fighting(e)))
            })
            .collect();
        let mut groups: Vec<Vec<UnitId>> = Vec::new();
        let mut seen: Vec<UnitId> = Vec::new();
        for start in &engaged {
            if seen.contains(&start.id) {
                continue;
            }
            let mut group = vec![start.id];
            seen.push(start.id);
            let mut i = 0;
            while i < group.len() {
                let Some(u) = self.unit(group[i]).cloned() else {
                    break;
                };
                i += 1;
                let mut links: Vec<UnitId> =
                    engaged.iter().filter(|e| e.side != u.side && e.cell.is_adjacent(u.cell)).map(|e| e.id).collect();
                if self.arm(&u) == Arm::Artillery
                    && let Some(b) =
                        self.at(u.cell.step(u.facing.opposite())).filter(|b| b.side == u.side && fighting(b))
                {
                    links.push(b.id);
                }
                for l in links {
                    if !seen.contains(&l) {
                        seen.push(l);
                        group.push(l);
                    }
                }
            }
            group.sort();
            groups.push(group);
        }
        groups.sort_by_key(|g| g.first().copied());
        groups
    }

    /// A unit's part of its side's melee sum (T-MELEE-4/5, T-TERR-4, T-FORT-5, T-SKIRM-3); artillery adds nothing (T-ART-3).
    pub fn melee_terms(&self, u: &UnitState) -> Vec<Term> {
        let r = self.rules();
        let ty = self.ty(u);
        if ty.arm == Arm::Artillery {
            return Vec::new();
        }
        let enemies: Vec<&UnitState> = self.adjacent_enemies(u).into_iter().filter_map(|e| self.unit(e)).collect();
        let first = u.contact.is_some_and(|c| c.exchanges == 0);
        let mut base = ty.melee;
        // T-FORT-5: «5 при штурме укреплений» for grenadiers of either side storming a redoubt;
        // the wall and its breaches only for the attacker's («получает только атакующий»).
        let attacker = u.side == self.statics.attacker();
        let stormed = |e: &&UnitState| match self.terrain(e.cell) {
            Some(Terrain::Redoubt) => true,
            Some(Terrain::Wall | Terrain::Breach) => attacker,
            _ => false,
        };
        if let Some(storming) = ty.storming_melee
            && enemies.iter().any(stormed)
        {
            base = storming;
        }
        let mut terms = vec![Term::unit(base, u.id)];
        // T-SKIRM-3: "-3 к результатам боя против кавалерии", a flat −3 that may take the sum below 0.
        if u.skirmish.is_some() && enemies.iter().any(|e| self.arm(e) == Arm::Cavalry) {
            terms.push(Term::new(-r.skirmisher_vs_cavalry_penalty, "skirmishers_vs_cavalry"));
        }
        let charge_ok = ty.arm == Arm::Cavalry
            && !self.grid.is_forest(u.cell)
            && enemies.iter().all(|e| !self.grid.is_forest(e.cell));
        if first && charge_ok && u.contact.is_some_and(|c| c.charging) {
            terms.push(Term::new(r.charge_bonus, "charge"));
        }
        if enemies.iter().any(|e| e.facing.side_of(e.cell, u.cell).is_some_and(|a| a.is_flank_or_rear())) {
            terms.push(Term::new(r.flank_bonus, "flank"));
        }
        if first
            && ty.arm == Arm::Infantry
            && self.terrain(u.cell) == Some(Terrain::Redoubt)
            && u.contact.is_some_and(|c| c.attacked)
        {
            terms.push(Term::new(r.redoubt_defence_bonus, "redoubt"));
        }
        terms
    }

    /// A side's sum in a group.
    pub fn melee_sum(&self, group: &[UnitId], side: Side) -> Sum {
        Sum::of(
            group
                .iter()
                .filter_map(|id| self.unit(*id))
                .filter(|u| u.side == side)
                .flat_map(|u| self.melee_terms(u))
                .collect(),
        )
    }

    /// T-MELEE-7: damage goes to the unit longest in contact, then the attacked one, then the lowest ID;
    /// artillery only if nothing else of its side is in the group (T-ART-3).
    pub fn primary(&self, group: &[UnitId], side: Side) -> Option<UnitId> {
        let turn = self.clock.turn;
        let members: Vec<&UnitState> =
            group.iter().filter_map(|id| self.unit(*id)).filter(|u| u.side == side).collect();
        let fighters: Vec<&&UnitState> = members.iter().filter(|u| self.arm(u) != Arm::Artillery).collect();
        let pool: Vec<&UnitState> =
            if fighters.is_empty() { members.clone() } else { fighters.into_iter().copied().collect() };
        pool.into_iter()
            .min_by_key(|u| {
                let c = u.contact;
                (c.map_or(turn, |c| c.since_turn), !c.is_none_or(|c| c.attacked), u.id)
            })
            .map(|u| u.id)
    }

    /// One exchange of one group (T-MELEE-4).
    pub fn exchange(&mut self, group: &[UnitId]) {
        let red = self.melee_sum(group, Side::Red);
        let blue = self.melee_sum(group, Side::Blue);
        let has = |s: Side| group.iter().filter_map(|id| self.unit(*id)).any(|u| u.side == s);
        if !has(Side::Red) || !has(Side::Blue) {
            return;
        }
        let (red_damage, blue_damage) = melee_damage(red.total, blue.total, self.rules().melee_base_damage);
        let red_primary = self.primary(group, Side::Red);
        let blue_primary = self.primary(group, Side::Blue);
        self.push(Event::MeleeExchange {
            units: group.to_vec(),
            red,
            blue,
            red_damage,
            blue_damage,
            red_primary,
            blue_primary,
        });
        let mut hits: Vec<(UnitId, i32)> = [(red_primary, red_damage), (blue_primary, blue_damage)]
            .into_iter()
            .filter_map(|(p, d)| p.map(|p| (p, d)))
            .collect();
        hits.sort();
        for (unit, amount) in hits {
            self.damage(unit, amount, Cause::Melee);
        }
        // T-ART-3: artillery is lost if its side took more damage in the exchange.
        let loser = match red_damage.cmp(&blue_damage) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(loser) = loser {
            let guns: Vec<UnitId> = group
                .iter()
                .filter_map(|id| self.unit(*id))
                .filter(|u| {
                    u.side == loser && u.status.on_field() && self.arm(u) == Arm::Artillery && self.in_contact(u)
                })
                .map(|u| u.id)
                .collect();
            for g in guns {
                self.remove(g, Removal::Overrun);
            }
        }
        for id in group {
            if let Some(u) = self.unit_mut(*id)
                && let Some(c) = &mut u.contact
            {
                c.exchanges += 1;
            }
        }
    }

    /// End of turn, first step: unsupported artillery in contact is overrun, then every group fights once.
    pub fn melee_phase(&mut self) {
        let guns: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| {
                u.status.on_field() && self.arm(u) == Arm::Artillery && self.in_contact(u) && !self.supported(u)
            })
            .map(|u| u.id)
            .collect();
        for g in guns {
            self.remove(g, Removal::Overrun);
        }
        for group in self.melee_groups() {
            let alive: Vec<UnitId> =
                group.into_iter().filter(|id| self.unit(*id).is_some_and(|u| u.status.on_field())).collect();
            self.exchange(&alive);
        }
        self.refresh_contacts();
    }

    /// Whether any unit with the given ability stands in the group (for previews and the interface).
    pub fn group_has(&self, group: &[UnitId], ability: Ability) -> bool {
        group.iter().filter_map(|id| self.unit(*id)).any(|u| self.has(u, ability))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_melee_4_difference_rule() {
        assert_eq!(melee_damage(3, 1, 1), (1, 3)); // T-MELEE-4: 3 vs 1 → −1 and −3
        assert_eq!(melee_damage(2, 2, 1), (1, 1)); // equal: each side 1
        assert_eq!(melee_damage(3, 6, 1), (4, 1)); // T-EX B6: 3 vs 6 → red −4, blue −1
    }
}
