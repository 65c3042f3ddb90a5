//! Damage, morale tests (T-MELEE-8, T-MORALE), leaving the field, and the command losses that
//! follow from it (T-CMD-2, T-CMD-4, T-CMD-5).

use super::components::{MeleeContact, Status, UnitId};
use super::config::RulesConfig;
use super::event::{Cause, Event, Removal, Term};
use super::grid::Cell;
use super::state::{Ctx, UnitState};
use super::units::{Ability, Arm};
use crate::dice::Pips;

/// What a damage step leaves a unit facing (T-MELEE-8, T-MORALE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterDamage {
    Fine,
    MoraleTest,
    Dispersed,
    Destroyed,
}

/// T-MELEE-8: below 0 destroyed, 0 dispersed, 1…threshold a morale test (unless it fights to the end).
pub fn after_damage(health: i32, threshold: i32, fights_to_the_end: bool) -> AfterDamage {
    if health < 0 {
        AfterDamage::Destroyed
    } else if health == 0 {
        AfterDamage::Dispersed
    } else if health <= threshold && !fights_to_the_end {
        AfterDamage::MoraleTest
    } else {
        AfterDamage::Fine
    }
}

/// T-MORALE-1: d6 + modifiers, pass on `pass` or more.
pub fn morale_passes(pips: Pips, modifiers: i32, pass: i32) -> bool {
    i32::from(pips) + modifiers >= pass
}

/// Chance to pass a morale test with these modifiers.
pub fn morale_pass_chance(modifiers: i32, pass: i32) -> f64 {
    f64::from((1..=6u8).filter(|p| morale_passes(*p, modifiers, pass)).count() as u8) / 6.0
}

/// T-CMD-2: the limits crossed when losses go from `before` to `after` (each multiple once).
pub fn loss_limits_crossed(before: i32, after: i32, limit: i32) -> Vec<i32> {
    if limit <= 0 {
        return Vec::new();
    }
    (1..).map(|k| k * limit).take_while(|t| *t < after).filter(|t| *t >= before).collect()
}

impl Ctx {
    /// The modifiers of a morale test for a unit now (T-MORALE-1).
    pub fn morale_modifiers(&self, u: &UnitState, cause: Cause) -> Vec<Term> {
        let m = self.rules().morale_modifiers;
        let mut terms = Vec::new();
        if self.general_lost(u) {
            terms.push(Term::new(m.general_lost, "general_lost"));
        }
        if self.command.hq_captured[u.side.index()] {
            terms.push(Term::new(m.hq_captured, "hq_lost"));
        }
        let enemies: Vec<&UnitState> = self.adjacent_enemies(u).into_iter().filter_map(|e| self.unit(e)).collect();
        if enemies.iter().any(|e| self.has(e, Ability::Guard)) {
            terms.push(Term::new(m.guard_contact, "guard"));
        }
        // T-UNIT-2 "Уланы -1 к морали у защитников": only in a test caused by melee, for a
        // defender that a lancer unit attacked (closed on), not for every unit next to one.
        // T-SKIRM-3 "понижают мораль атакуемого подразделения": the unit skirmishers attack, in
        // melee (closed on) or by fire (their own fire, not a counter-volley answering an attack).
        let attackers: Vec<&UnitState> = if cause == Cause::Melee && u.contact.is_some_and(|c| c.attacked) {
            enemies.iter().copied().filter(|e| e.contact.is_some_and(|c| !c.attacked)).collect()
        } else {
            Vec::new()
        };
        if attackers.iter().any(|e| self.has(e, Ability::Lancers)) {
            terms.push(Term::new(m.lancers, "lancers"));
        }
        if attackers.iter().any(|e| e.skirmish.is_some()) || matches!(cause, Cause::Fire { skirmisher: true, .. }) {
            terms.push(Term::new(m.skirmishers, "skirmishers"));
        }
        if self.arm(u) == Arm::Artillery && u.losses.to_fire > 0 {
            terms.push(Term::new(m.artillery_per_fire_loss * u.losses.to_fire, "fire_losses"));
        }
        terms
    }

    pub fn general_lost(&self, u: &UnitState) -> bool {
        u.formation.and_then(|f| self.command.formations.iter().find(|x| x.id == f)).is_some_and(|f| f.general_lost())
    }

    /// Throws a morale test (T-MORALE-1) and records it; true if passed.
    pub fn morale_test(&mut self, id: UnitId, cause: Cause) -> bool {
        let Some(u) = self.unit(id) else { return true };
        let modifiers = self.morale_modifiers(u, cause);
        let sum: i32 = modifiers.iter().map(|t| t.value).sum();
        let needed = self.rules().morale_pass;
        let roll = self.dice.d6();
        let passed = morale_passes(roll, sum, needed);
        self.push(Event::MoraleTest { unit: id, roll, modifiers, total: i32::from(roll) + sum, needed, passed });
        passed
    }

    /// One damage step: Health, then morale (T-MELEE-8), then the general's test (T-CMD-2).
    pub fn damage(&mut self, id: UnitId, amount: i32, cause: Cause) {
        let rules: &RulesConfig = self.statics.rules();
        let threshold_of = |arm| rules.threshold(arm);
        let Some(u) = self.unit(id).filter(|u| u.status.on_field()) else {
            return;
        };
        let arm = self.arm(u);
        let threshold = threshold_of(arm);
        let stubborn = self.has(u, Ability::FightsToTheEnd);
        let (cell, formation) = (u.cell, u.formation);
        let health = {
            let Some(u) = self.unit_mut(id) else { return };
            u.health.current -= amount;
            u.losses.total += amount;
            if matches!(cause, Cause::Fire { .. }) && arm == Arm::Artillery {
                u.losses.to_fire += amount;
            }
            u.health.current
        };
        self.push(Event::Damaged { unit: id, amount, health });
        let removal = match after_damage(health, threshold, stubborn) {
            AfterDamage::Fine => None,
            AfterDamage::Destroyed => Some(Removal::Destroyed),
            AfterDamage::Dispersed => Some(Removal::HealthZero),
            AfterDamage::MoraleTest => (!self.morale_test(id, cause)).then_some(Removal::MoraleFailed),
        };
        if let Some(f) = formation {
            self.formation_losses(f, amount, cell);
        }
        if let Some(how) = removal {
            self.remove(id, how);
        }
    }

    /// Takes a unit off the field.
    pub fn remove(&mut self, id: UnitId, how: Removal) {
        let status = match how {
            Removal::Destroyed => Status::Destroyed,
            Removal::CaughtRetreating | Removal::TakenAtTheEnd | Removal::Capitulated => Status::Captured,
            _ => Status::Dispersed,
        };
        self.set_status(id, status);
        self.push(Event::Removed { unit: id, how });
        self.unit_left_field(id);
    }

    /// After a unit leaves the field: HQ lost (T-CMD-5), the general moves on (T-CMD-1), contacts end.
    pub fn unit_left_field(&mut self, id: UnitId) {
        let Some(u) = self.unit(id).cloned() else {
            return;
        };
        let side = u.side.index();
        if self.command.hq[side] == Some(id) && u.status != Status::Retreated && !self.command.hq_captured[side] {
            self.command.hq_captured[side] = true;
            self.push(Event::HqCaptured { side: u.side });
        }
        let on_field: Vec<UnitId> = self.field_ids();
        let mut moves = Vec::new();
        for f in self.command.formations.iter_mut().filter(|f| f.general_with == Some(id)) {
            f.general_with = f.units.iter().copied().find(|m| on_field.contains(m));
            if let Some(to) = f.general_with
                && !f.general_lost()
            {
                moves.push(Event::GeneralMoved { formation: f.name.clone(), to });
            }
        }
        for e in moves {
            self.push(e);
        }
        self.refresh_contacts();
    }

    /// Ends melee contact for units no longer next to an enemy, and records it for units that are
    /// (a unit that finds itself in contact without closing counts as the attacked one).
    pub fn refresh_contacts(&mut self) {
        let turn = self.clock.turn;
        let changes: Vec<(UnitId, bool)> = self
            .units
            .iter()
            .filter_map(|u| {
                let touching = self.in_contact(u);
                (u.contact.is_some() != touching).then_some((u.id, touching))
            })
            .collect();
        for (id, touching) in changes {
            if let Some(u) = self.unit_mut(id) {
                u.contact = touching.then_some(MeleeContact {
                    since_turn: turn,
                    attacked: true,
                    charging: false,
                    exchanges: 0,
                });
            }
        }
    }

    /// T-CMD-2: losses of a formation; past each limit its general tests if the unit is in his zone.
    fn formation_losses(&mut self, formation: u16, amount: i32, cell: Cell) {
        let zone = self.rules().command_zone;
        let (division_limit, brigade_limit) = (self.rules().division_loss_limit, self.rules().brigade_loss_limit);
        let Some(fi) = self.command.formations.iter().position(|f| f.id == formation) else {
            return;
        };
        let (before, limit) = {
            let f = &mut self.command.formations[fi];
            let before = f.losses;
            f.losses += amount;
            (before, if f.division { division_limit } else { brigade_limit })
        };
        for _ in loss_limits_crossed(before, before + amount, limit) {
            let f = &self.command.formations[fi];
            if f.general_lost() {
                return;
            }
            let Some(general_cell) =
                f.general_with.and_then(|g| self.unit(g)).filter(|g| g.status.on_field()).map(|g| g.cell)
            else {
                return;
            };
            if general_cell.distance(cell) > zone {
                continue;
            }
            let roll = self.dice.d6();
            let fate = self.rules().general_fate(roll);
            let f = &mut self.command.formations[fi];
            let (side, name, losses) = (f.side, f.name.clone(), f.losses);
            if fate.is_casualty() {
                f.general = fate;
            }
            self.push(Event::GeneralTest { side, formation: name, losses, roll, fate });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_melee_8_thresholds() {
        assert_eq!(after_damage(-1, 2, false), AfterDamage::Destroyed); // T-MELEE-8: below 0
        assert_eq!(after_damage(0, 2, false), AfterDamage::Dispersed); // T-MELEE-8: 0
        assert_eq!(after_damage(2, 2, false), AfterDamage::MoraleTest); // T-MELEE-8: infantry at 2
        assert_eq!(after_damage(1, 2, false), AfterDamage::MoraleTest); // T-MORALE-2: 1…threshold
        assert_eq!(after_damage(3, 2, false), AfterDamage::Fine);
        assert_eq!(after_damage(1, 1, false), AfterDamage::MoraleTest); // cavalry at 1
        assert_eq!(after_damage(2, 1, false), AfterDamage::Fine); // cavalry at 2 holds
        assert_eq!(after_damage(2, 2, true), AfterDamage::Fine); // T-RUS-1: fights to the end
        assert_eq!(after_damage(0, 2, true), AfterDamage::Dispersed); // ...but 0 still disperses
    }

    #[test]
    fn t_morale_1_pass_on_four() {
        assert!(morale_passes(4, 0, 4)); // T-MORALE-1: 4+
        assert!(!morale_passes(3, 0, 4));
        assert!(!morale_passes(4, -1, 4)); // lancers −1
        assert!(morale_passes(6, -2, 4)); // Guard −2
        assert_eq!(morale_pass_chance(0, 4), 0.5); // the source's coin
        assert_eq!(morale_pass_chance(-2, 4), 1.0 / 6.0);
        assert_eq!(morale_pass_chance(-3, 4), 0.0);
    }

    #[test]
    fn t_cmd_2_limits_and_multiples() {
        assert_eq!(loss_limits_crossed(9, 11, 10), vec![10]); // T-CMD-2: more than 10
        assert!(loss_limits_crossed(8, 10, 10).is_empty()); // exactly 10 is not "more than"
        assert_eq!(loss_limits_crossed(10, 11, 10), vec![10]);
        assert_eq!(loss_limits_crossed(5, 8, 7), vec![7]); // brigade: more than 7
        assert_eq!(loss_limits_crossed(6, 22, 7), vec![7, 14, 21]); // again at each multiple
    }
}
