//! Fire (T-FIRE), artillery (T-ART-1), skirmishers as targets (T-SKIRM-2).

use super::components::{Side, UnitId};
use super::config::RulesConfig;
use super::event::{Cause, Event, FireKind, FireOccasion, Roll, Sum, Term};
use super::grid::{Cell, Dir, Terrain, cells_between};
use super::order::OrderError;
use super::state::{Ctx, UnitState};
use super::units::{Ability, Arm, Range};
use crate::dice::PipRange;

/// A shot that can be fired: who, at whom, and what it will do if it hits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    pub firer: UnitId,
    pub target: UnitId,
    pub kind: FireKind,
    pub occasion: FireOccasion,
    /// Pips needed to hit; `None` = always hits (T-FIRE-1, T-FIRE-5).
    pub needed: Option<PipRange>,
    pub damage: Sum,
}

impl Shot {
    /// Chance that the shot hits.
    pub fn hit_chance(&self) -> f64 {
        self.needed.map_or(1.0, PipRange::chance)
    }
}

/// T-FIRE-1, T-FIRE-8, T-FIRE-10: damage of a hit with its terms, never below 0.
pub fn shot_damage(ranged: i32, half: bool, target_in_forest: bool, rules: &RulesConfig) -> Sum {
    let mut terms = vec![Term::new(ranged, "ranged")];
    if half {
        let kept = ranged / rules.flank_counter_volley_divisor;
        terms.push(Term::new(kept - ranged, "half_flank"));
    }
    if target_in_forest {
        terms.push(Term::new(-rules.forest_fire_reduction, "forest"));
    }
    let total: i32 = terms.iter().map(|t| t.value).sum();
    if total < 0 {
        terms.push(Term::new(-total, "not_below_0"));
    }
    Sum::of(terms)
}

/// T-FIRE-5, T-SKIRM-2: the pips a shot needs, if any.
pub fn hit_needed(kind: FireKind, target_skirmishing: bool, rules: &RulesConfig) -> Option<PipRange> {
    if target_skirmishing {
        Some(rules.skirmisher_hit)
    } else if kind == FireKind::Roundshot {
        Some(rules.roundshot_hits)
    } else {
        None
    }
}

impl Ctx {
    /// Infantry on a hill, the wall or a redoubt fires over units (T-FIRE-3, T-TERR-5); on a
    /// redoubt, artillery alike: "пехота и артиллерия могут стрелять через головы солдат" (T-TERR-4).
    fn elevated(&self, u: &UnitState, from: Cell) -> bool {
        let t = self.terrain(from);
        match self.arm(u) {
            Arm::Infantry => matches!(t, Some(Terrain::Hill | Terrain::Wall | Terrain::Redoubt)),
            Arm::Artillery => t == Some(Terrain::Redoubt),
            Arm::Cavalry => false,
        }
    }

    /// Range of a unit firing from a cell (T-FORT-3: +1 for infantry on the wall).
    pub fn fire_range(&self, u: &UnitState, from: Cell) -> Option<Range> {
        let (_, range) = self.ty(u).fires()?;
        Some(match range {
            Range::Cells(n) if self.arm(u) == Arm::Infantry && self.terrain(from) == Some(Terrain::Wall) => {
                Range::Cells(n + self.rules().wall_range_bonus)
            }
            r => r,
        })
    }

    /// Whether a cell lies in a unit's firing arc and range (T-FIRE-2, T-FIRE-4, T-FIRE-5).
    pub fn in_arc(&self, u: &UnitState, from: Cell, facing: Dir, target: Cell) -> Result<(), OrderError> {
        let Some(range) = self.fire_range(u, from) else {
            return Err(OrderError::rule("T-FIRE-4", format!("{} has no ranged value", self.name(u.id))));
        };
        let (forward, lateral) = facing.project(from, target);
        let max = match range {
            Range::Cells(n) => n,
            Range::WholeMap => i32::MAX,
        };
        match self.arm(u) {
            Arm::Infantry => {
                if forward < 1 || lateral.abs() > 1 {
                    return Err(OrderError::rule(
                        "T-FIRE-2",
                        format!("{target} is outside the band ahead of {}", self.name(u.id)),
                    ));
                }
                if forward > max {
                    return Err(OrderError::rule(
                        "T-FIRE-2",
                        format!("{target} is {forward} cells ahead; range is {max}"),
                    ));
                }
            }
            Arm::Cavalry => {
                if forward < 1 || lateral != 0 {
                    return Err(OrderError::rule(
                        "T-FIRE-4",
                        format!("cavalry fires only straight ahead; {target} is not"),
                    ));
                }
                if forward > max {
                    return Err(OrderError::rule(
                        "T-FIRE-4",
                        format!("{target} is {forward} cells ahead; range is {max}"),
                    ));
                }
            }
            Arm::Artillery => {
                let d = from.distance(target);
                if d > max {
                    return Err(OrderError::rule("T-FIRE-5", format!("{target} is {d} cells away; range is {max}")));
                }
            }
        }
        Ok(())
    }

    /// Whether the line of fire is open (T-FIRE-3, T-FIRE-6, T-FIRE-7), as the firer's side sees it.
    pub fn line_clear(&self, u: &UnitState, from: Cell, target: Cell) -> Result<(), OrderError> {
        let between = cells_between(from, target);
        if let Some(w) = between.iter().find(|c| self.terrain(**c) == Some(Terrain::Wall)) {
            return Err(OrderError::rule("T-FIRE-7", format!("the fortress wall at {w} covers the target")));
        }
        if self.elevated(u, from) {
            return Ok(());
        }
        let seen = |c: &Cell| self.at(*c).filter(|o| o.id != u.id && self.visible_to(o, u.side));
        if self.arm(u) == Arm::Artillery {
            if let Some(c) = between.iter().find(|c| c.touches(target) && seen(c).is_some()) {
                return Err(OrderError::rule(
                    "T-FIRE-6",
                    format!("the unit at {c} next to the target covers the line"),
                ));
            }
        } else if let Some(c) = between.iter().find(|c| seen(c).is_some()) {
            return Err(OrderError::rule("T-FIRE-3", format!("the unit at {c} is in the way")));
        }
        Ok(())
    }

    /// The shot a unit at `from` facing `facing` would fire at `target` (no order-level checks).
    pub fn shot(
        &self,
        u: &UnitState,
        from: Cell,
        facing: Dir,
        target: &UnitState,
        occasion: FireOccasion,
    ) -> Result<Shot, OrderError> {
        let Some((ranged, _)) = self.ty(u).fires() else {
            return Err(OrderError::rule("T-FIRE-4", format!("{} has no ranged value", self.name(u.id))));
        };
        let half = occasion == FireOccasion::FlankCounterVolley;
        if !half {
            self.in_arc(u, from, facing, target.cell)?;
        }
        self.line_clear(u, from, target.cell)?;
        let kind = match self.arm(u) {
            Arm::Artillery if from.distance(target.cell) > self.rules().canister_range => FireKind::Roundshot,
            Arm::Artillery => FireKind::Canister,
            _ => FireKind::Volley,
        };
        let rules = self.rules();
        Ok(Shot {
            firer: u.id,
            target: target.id,
            kind,
            occasion,
            needed: hit_needed(kind, target.skirmish.is_some(), rules),
            damage: shot_damage(ranged, half, self.grid.is_forest(target.cell), rules),
        })
    }

    /// Validates a fire order.
    pub fn check_fire(&self, id: UnitId, target: UnitId) -> Result<Shot, OrderError> {
        let u = self.own_unit(id)?;
        if u.skirmish.is_some_and(|s| s.disorganized) {
            return Err(OrderError::rule(
                "T-SKIRM-5",
                format!("{} is disorganized and may only reform", self.name(id)),
            ));
        }
        if u.activity.whole_turn {
            return Err(OrderError::rule(
                "T-SKIRM-1",
                format!("{} has spent this turn changing its order", self.name(id)),
            ));
        }
        if u.activity.fired && !self.may_fire_second_shot(u) {
            return Err(OrderError::rule("T-FIRE-1", format!("{} has already fired this turn", self.name(id))));
        }
        // T-FIRE-1: one fire per own turn, a counter-volley at an interceptor included.
        if u.activity.counter_volleyed {
            return Err(OrderError::rule(
                "T-FIRE-1",
                format!("{} has fired a counter-volley this turn; one fire per turn", self.name(id)),
            ));
        }
        if self.sides.retreating[u.side.index()] {
            return Err(OrderError::rule("T-END-2", "a retreating army no longer fires"));
        }
        if self.in_contact(u) {
            return Err(OrderError::rule("T-FIRE-1", format!("{} is in melee and cannot fire", self.name(id))));
        }
        self.check_command(u)?;
        let t = self
            .unit(target)
            .filter(|t| t.side != u.side && t.status.on_field() && self.visible_to(t, u.side))
            .ok_or_else(|| OrderError::rule("T-FIRE-1", format!("unit {target} is not an enemy in sight")))?;
        self.shot(u, u.cell, u.facing, t, FireOccasion::Ordered)
    }

    /// T-ART-1: horse artillery that has fired once this turn may try a second shot, once.
    pub fn may_fire_second_shot(&self, u: &UnitState) -> bool {
        self.has(u, Ability::HorseArtillery) && u.activity.fired && !u.activity.second_shot
    }

    /// An ordered shot (T-FIRE-1); horse artillery's second shot of the turn first takes the
    /// shots test, and is not fired if it fails (T-ART-1).
    pub fn fire_ordered(&mut self, shot: &Shot) {
        let second = self.unit(shot.firer).is_some_and(|u| self.may_fire_second_shot(u));
        if let Some(u) = self.unit_mut(shot.firer) {
            u.activity.fired = true;
            u.activity.second_shot |= second;
        }
        if second {
            let roll = Roll { pips: self.dice.d6(), needed: self.rules().horse_artillery_second_shot };
            self.push(Event::ShotsTest { unit: shot.firer, roll });
            if !roll.success() {
                return;
            }
        }
        self.fire(shot);
    }

    /// Fires a shot: the hit die if one is needed, then damage (T-FIRE-1, T-FIRE-5, T-SKIRM-2).
    pub fn fire(&mut self, shot: &Shot) {
        let roll = shot.needed.map(|needed| Roll { pips: self.dice.d6(), needed });
        let hit = roll.is_none_or(Roll::success);
        self.push(Event::Fired {
            firer: shot.firer,
            target: shot.target,
            kind: shot.kind,
            occasion: shot.occasion,
            roll,
            damage: shot.damage.clone(),
        });
        self.reveal(shot.firer);
        let answering = matches!(shot.occasion, FireOccasion::CounterVolley | FireOccasion::FlankCounterVolley);
        let skirmisher = !answering && self.unit(shot.firer).is_some_and(|u| u.skirmish.is_some());
        if hit && shot.damage.total > 0 {
            self.damage(shot.target, shot.damage.total, Cause::Fire { by: shot.firer, skirmisher });
        }
    }

    /// T-TERR-2: firing (or an adjacent enemy) reveals a hidden unit.
    pub fn reveal(&mut self, id: UnitId) {
        if let Some(u) = self.unit_mut(id)
            && u.concealed
        {
            u.concealed = false;
            self.push(Event::Revealed { unit: id });
        }
    }

    /// Targets a unit could fire at now (for the AI and the interface).
    pub fn fire_targets(&self, id: UnitId) -> Vec<Shot> {
        let Some(u) = self.unit(id) else {
            return Vec::new();
        };
        let side: Side = u.side;
        self.units
            .iter()
            .filter(|t| t.side != side && t.status.on_field() && self.visible_to(t, side))
            .filter_map(|t| self.check_fire(id, t.id).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> RulesConfig {
        RulesConfig::builtin()
    }

    #[test]
    fn t_fire_8_forest_takes_one_off() {
        assert_eq!(shot_damage(3, false, true, &rules()).total, 2); // T-FIRE-8
        assert_eq!(shot_damage(3, false, false, &rules()).total, 3); // T-FIRE-1
    }

    #[test]
    fn t_fire_10_half_rounded_down() {
        assert_eq!(shot_damage(3, true, false, &rules()).total, 1); // T-FIRE-10: ½ × 3 = 1
        assert_eq!(shot_damage(1, true, true, &rules()).total, 0); // never below 0
    }

    #[test]
    fn t_fire_5_and_t_skirm_2_hit_dice() {
        let r = rules();
        assert_eq!(hit_needed(FireKind::Canister, false, &r), None); // T-FIRE-5: canister always hits
        assert_eq!(hit_needed(FireKind::Roundshot, false, &r), Some(PipRange(4, 6))); // T-FIRE-5: a coin
        assert_eq!(hit_needed(FireKind::Canister, true, &r), Some(PipRange(1, 2))); // T-SKIRM-2: canister too
        assert_eq!(hit_needed(FireKind::Volley, true, &r), Some(PipRange(1, 2)));
    }
}
