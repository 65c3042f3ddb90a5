//! What happens when units close: contact, counter-volleys (T-FIRE-9/10), counter-charges
//! (T-MELEE-6), cavalry against skirmishers (T-SKIRM-4/5), artillery overrun (T-ART-3) and
//! intercepts (T-MELEE-2). Reactions trigger automatically in unit-ID order (T-FIRE-11).

use super::components::{MeleeContact, Side, UnitId};
use super::config::SkirmisherFate;
use super::event::{Cause, Event, FireOccasion, Removal};
use super::fire::Shot;
use super::grid::{Aspect, Cell, Dir};
use super::scenario::can_stand;
use super::state::{Ctx, UnitState};
use super::units::{Ability, Arm};
use pathfinding::prelude::dijkstra_reach;
use std::collections::HashMap;

/// A planned intercept: the path to the cell before the last step, the facing there, and the last step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterceptPlan {
    pub unit: UnitId,
    pub path: Vec<Cell>,
    pub facing: Dir,
    pub last: Cell,
    pub cost: i32,
    pub shot: Option<Shot>,
}

impl Ctx {
    fn can_charge(&self, u: &UnitState, against: &[UnitId]) -> bool {
        // T-TERR-1: no charge in or into forest; T-END-2 / T-CMD-5: no charge when retreating or without HQ.
        self.arm(u) == Arm::Cavalry
            && !self.grid.is_forest(u.cell)
            && against.iter().filter_map(|e| self.unit(*e)).all(|e| !self.grid.is_forest(e.cell))
            && !self.sides.retreating[u.side.index()]
            && !self.command.hq_captured[u.side.index()]
    }

    /// `mover` has just come next to `enemies` (each newly adjacent); resolve everything that follows.
    pub fn close(&mut self, mover: UnitId, enemies: Vec<UnitId>, intercepts: bool) {
        let turn = self.clock.turn;
        for e in &enemies {
            self.reveal(*e);
        }
        let Some(m) = self.unit(mover).cloned() else {
            return;
        };
        let fresh = m.contact.is_none();
        let charging = fresh && self.can_charge(&m, &enemies);
        if fresh && let Some(u) = self.unit_mut(mover) {
            u.contact = Some(MeleeContact { since_turn: turn, attacked: false, charging, exchanges: 0 });
        }
        for &e in &enemies {
            let Some(eu) = self.unit(e).cloned() else {
                continue;
            };
            let flank = eu.facing.side_of(eu.cell, m.cell).is_some_and(|a| a.is_flank_or_rear());
            self.push(Event::Contact { unit: mover, enemy: e, flank, charging });
            if eu.contact.is_none() {
                let counter = eu.reactions.counter_charge && self.can_charge(&eu, &[mover]);
                if let Some(u) = self.unit_mut(e) {
                    u.contact =
                        Some(MeleeContact { since_turn: turn, attacked: true, charging: counter, exchanges: 0 });
                }
                if counter {
                    self.push(Event::CounterCharge { unit: e });
                }
            }
        }
        // T-FIRE-9, T-FIRE-10: counter-volleys before melee.
        for &e in &enemies {
            if !self.is_on_field(mover) {
                break;
            }
            if let Some(shot) = self.counter_volley(e, mover) {
                if let Some(u) = self.unit_mut(e) {
                    u.activity.counter_volleyed = true;
                }
                self.fire(&shot);
            }
        }
        // T-SKIRM-4, T-SKIRM-5: skirmishers attacked.
        for &e in &enemies {
            if !self.is_on_field(mover) {
                break;
            }
            let Some(s) = self.unit(e).filter(|s| s.status.on_field()).and_then(|s| s.skirmish) else {
                continue;
            };
            if s.disorganized {
                self.remove(e, Removal::Routed);
            } else if self.arm_of(mover) == Some(Arm::Cavalry) {
                self.skirmishers_charged(e, mover);
            }
        }
        // T-ART-3: artillery closed on without a unit directly behind it is overrun.
        for &e in &enemies {
            if !self.is_on_field(mover) {
                break;
            }
            let Some(a) = self.unit(e).filter(|a| a.status.on_field()) else {
                continue;
            };
            if self.arm(a) == Arm::Artillery && !self.supported(a) {
                self.remove(e, Removal::Overrun);
            }
        }
        // T-MELEE-2: friends of the attacked units may intercept the attacker.
        if intercepts && self.is_on_field(mover) {
            let candidates: Vec<UnitId> = self
                .units
                .iter()
                .filter(|u| u.side != m.side && u.status.on_field() && u.reactions.intercept)
                .map(|u| u.id)
                .collect();
            for i in candidates {
                if !self.is_on_field(mover) {
                    break;
                }
                if let Some(plan) = self.plan_intercept(i, mover) {
                    self.intercept(plan, mover);
                }
            }
        }
        self.refresh_contacts();
    }

    fn is_on_field(&self, id: UnitId) -> bool {
        self.unit(id).is_some_and(|u| u.status.on_field())
    }

    fn arm_of(&self, id: UnitId) -> Option<Arm> {
        self.unit(id).map(|u| self.arm(u))
    }

    /// T-ART-3: a friendly unit stands directly behind the artillery.
    pub fn supported(&self, a: &UnitState) -> bool {
        let behind = a.cell.step(a.facing.opposite());
        self.at(behind).is_some_and(|f| {
            f.side == a.side && self.arm(f) != Arm::Artillery && !self.sides.retreating[f.side.index()]
        })
    }

    /// The counter-volley a unit fires at an enemy closing on it, if it may (T-FIRE-9, T-FIRE-10).
    pub fn counter_volley(&self, id: UnitId, at: UnitId) -> Option<Shot> {
        let u = self.unit(id)?;
        let target = self.unit(at)?;
        // T-FIRE-1: one fire per unit per own turn, so a unit that fired in this, its own, turn
        // does not fire again at an interceptor; T-CMD-4: only within reach of the HQ.
        if !u.status.on_field()
            || !u.reactions.counter_volley
            || u.activity.moved
            || u.activity.fired
            || u.activity.counter_volleyed
            || self.sides.retreating[u.side.index()]
            || u.skirmish.is_some_and(|s| s.disorganized)
            || self.check_command(u).is_err()
        {
            return None;
        }
        // T-FIRE-9: "если повернут к нему лицом" — guns too, though they fire at any cell.
        let (forward, lateral) = u.facing.project(u.cell, target.cell);
        let faced = self.arm(u) != Arm::Artillery || (forward >= 1 && lateral.abs() <= 1);
        let frontal = faced.then(|| self.shot(u, u.cell, u.facing, target, FireOccasion::CounterVolley).ok()).flatten();
        frontal.or_else(|| {
            // T-FIRE-10: "даже если противник атакует во фланг" — the flank, not the rear.
            let flank = u.facing.side_of(u.cell, target.cell) == Some(Aspect::Flank);
            (flank && self.has(u, Ability::FlankCounterVolley))
                .then(|| self.shot(u, u.cell, u.facing, target, FireOccasion::FlankCounterVolley).ok())
                .flatten()
        })
    }

    /// T-SKIRM-4: morale test; failed = overrun; passed = the d6 table.
    fn skirmishers_charged(&mut self, id: UnitId, cavalry: UnitId) {
        if !self.morale_test(id, Cause::Melee) {
            self.remove(id, Removal::Routed);
            return;
        }
        let roll = self.dice.d6();
        let fate = self.rules().skirmisher_fate(roll);
        self.push(Event::SkirmishersCharged { unit: id, cavalry, roll, fate });
        match fate {
            SkirmisherFate::Routs => self.remove(id, Removal::Routed),
            SkirmisherFate::FallsBack => match self.fallback_cell(id, cavalry) {
                Some(to) => {
                    if let Some(u) = self.unit_mut(id) {
                        u.cell = to;
                        u.contact = None;
                        u.skirmish = Some(super::components::Skirmishing { disorganized: true });
                    }
                    self.push(Event::FellBack { unit: id, to });
                    self.refresh_contacts();
                }
                None => self.remove(id, Removal::Routed),
            },
            SkirmisherFate::Stands => {
                if let Some(u) = self.unit_mut(id) {
                    u.skirmish = Some(super::components::Skirmishing { disorganized: true });
                }
            }
        }
    }

    /// T-SKIRM-4: the nearest free cell behind a friendly infantry unit, away from the cavalry.
    pub fn fallback_cell(&self, id: UnitId, cavalry: UnitId) -> Option<Cell> {
        let s = self.unit(id)?;
        let cav = self.unit(cavalry)?.cell;
        let infantry: Vec<Cell> = self
            .units
            .iter()
            .filter(|f| {
                f.side == s.side
                    && f.id != id
                    && f.status.on_field()
                    && self.arm(f) == Arm::Infantry
                    && f.skirmish.is_none()
            })
            .map(|f| f.cell)
            .collect();
        self.grid
            .cells()
            .filter(|c| {
                self.at(*c).is_none()
                    && self.terrain(*c).is_some_and(|t| can_stand(Arm::Infantry, t).is_ok())
                    && !self.next_to_any_enemy(*c, s.side)
                    && infantry.iter().any(|f| f.is_adjacent(*c) && f.distance(cav) < c.distance(cav))
            })
            .min_by_key(|c| (c.distance(s.cell), c.y, c.x))
    }

    /// T-MELEE-2: the shortest path within Speed to a cell next to the attacker, preferring one
    /// from which the unit can fire at it before the last step; `None` if it cannot reach.
    pub fn plan_intercept(&self, id: UnitId, target: UnitId) -> Option<InterceptPlan> {
        let u = self.unit(id)?;
        let t = self.unit(target)?;
        let side = u.side;
        if !u.status.on_field()
            || !u.reactions.intercept
            || self.in_contact(u)
            || self.arm(u) == Arm::Artillery
            || self.sides.retreating[side.index()]
            || self.command.hq_captured[side.index()]
            || u.skirmish.is_some_and(|s| s.disorganized)
            || self.check_command(u).is_err()
        {
            return None;
        }
        let arm = self.arm(u);
        let cavalry = arm == Arm::Cavalry;
        let origin = u.cell;
        // T-CMD-4: a unit without its general also ends its intercept within reach of the HQ.
        let finals: Vec<Cell> = t
            .cell
            .neighbours()
            .into_iter()
            .filter(|c| {
                self.at(*c).is_none()
                    && self.terrain(*c).is_some_and(|x| can_stand(arm, x).is_ok())
                    && self.check_command_move(u, *c).is_ok()
            })
            .collect();
        if finals.is_empty() {
            return None;
        }
        let max = self.speed(u, false).max(self.speed(u, true));
        let start: Node = (origin, u.facing, cavalry && self.grid.is_forest(origin));
        let successors = |&(cell, facing, forest): &Node| -> Vec<(Node, i32)> {
            let mut next: Vec<(Node, i32)> = Dir::ALL
                .into_iter()
                .filter(|d| *d != facing)
                .map(|d| ((cell, d, forest), self.turn_cost(u, d)))
                .collect();
            if cell == origin || !self.next_to_any_enemy(cell, side) {
                for n in cell.neighbours() {
                    let ok = self.terrain(n).is_some_and(|x| can_stand(arm, x).is_ok())
                        && self.at(n).is_none_or(|o| o.side == side)
                        && !self.next_to_any_enemy(n, side);
                    if ok {
                        next.push((
                            (n, facing, forest || (cavalry && self.grid.is_forest(n))),
                            self.step_cost(cell, n),
                        ));
                    }
                }
            }
            next
        };
        let mut parents: HashMap<Node, Node> = HashMap::new();
        let mut best: Option<(InterceptKey, InterceptPlan)> = None;
        for item in dijkstra_reach(&start, successors) {
            if item.total_cost > max {
                break;
            }
            if let Some(p) = item.parent {
                parents.insert(item.node, p);
            }
            let (cell, facing, forest) = item.node;
            if cell != origin && self.at(cell).is_some() {
                continue;
            }
            for &last in finals.iter().filter(|f| f.is_adjacent(cell)) {
                let cost = item.total_cost + self.step_cost(cell, last);
                let forest = forest || (cavalry && self.grid.is_forest(last));
                if cost > self.speed(u, forest) {
                    continue;
                }
                let shot = self
                    .check_command_at(u, cell)
                    .and_then(|()| self.shot(u, cell, facing, t, FireOccasion::Intercept))
                    .ok();
                let flank = t.facing.side_of(t.cell, last).is_some_and(|a| a.is_flank_or_rear());
                let key = (cost, shot.is_none(), !flank, last.y, last.x, cell.y, cell.x, facing);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    let path = path_cells(&parents, item.node, start, origin);
                    best = Some((key, InterceptPlan { unit: id, path, facing, last, cost, shot }));
                }
            }
        }
        best.map(|(_, plan)| plan)
    }

    /// Carries out an intercept: move, turn, fire once, last step into contact (T-MELEE-2).
    fn intercept(&mut self, plan: InterceptPlan, target: UnitId) {
        let Some(u) = self.unit(plan.unit).cloned() else {
            return;
        };
        let mut full = plan.path.clone();
        full.push(plan.last);
        self.push(Event::Intercept { unit: plan.unit, target, path: full });
        let before_last = plan.cost - self.step_cost(plan.path.last().copied().unwrap_or(u.cell), plan.last);
        let touched: bool = plan.path.iter().chain([&plan.last]).any(|c| self.grid.is_forest(*c));
        if let Some(m) = self.unit_mut(plan.unit) {
            m.cell = plan.path.last().copied().unwrap_or(u.cell);
            m.facing = plan.facing;
            m.activity.moved = true;
            m.activity.mp_spent += before_last;
            m.activity.touched_forest |= touched;
            m.concealed = false;
        }
        if let Some(shot) = &plan.shot {
            self.fire(shot);
        }
        if !self.is_on_field(target) || !self.is_on_field(plan.unit) {
            return;
        }
        let before: Vec<UnitId> = self.unit(plan.unit).map(|m| self.adjacent_enemies(m)).unwrap_or_default();
        let step = self.step_cost(plan.path.last().copied().unwrap_or(u.cell), plan.last);
        if let Some(m) = self.unit_mut(plan.unit) {
            m.cell = plan.last;
            m.activity.mp_spent += step;
        }
        let Some(now) = self.unit(plan.unit).map(|m| self.adjacent_enemies(m)) else {
            return;
        };
        let new: Vec<UnitId> = now.into_iter().filter(|e| !before.contains(e)).collect();
        if !new.is_empty() {
            self.close(plan.unit, new, false);
        }
    }

    /// Which side a unit is on, if it exists.
    pub fn side_of(&self, id: UnitId) -> Option<Side> {
        self.unit(id).map(|u| u.side)
    }
}

type Node = (Cell, Dir, bool);

/// Preference among intercept paths: fewest MP, then one that can fire, then a flank cell,
/// then the lowest cells (a fixed order, so the choice is deterministic).
type InterceptKey = (i32, bool, bool, i32, i32, i32, i32, Dir);

/// The cells of a Dijkstra path over (cell, facing, forest) nodes, without the origin.
fn path_cells(parents: &HashMap<Node, Node>, end: Node, start: Node, origin: Cell) -> Vec<Cell> {
    let mut nodes = vec![end];
    let mut node = end;
    while node != start {
        match parents.get(&node) {
            Some(p) => {
                node = *p;
                nodes.push(node);
            }
            None => break,
        }
    }
    let mut cells: Vec<Cell> = Vec::new();
    for (cell, _, _) in nodes.into_iter().rev() {
        if cell != origin && cells.last() != Some(&cell) {
            cells.push(cell);
        }
    }
    cells
}
