//! Movement and turning (T-MOVE), with terrain (T-TERR), walls (T-FORT-4), retreat (T-END-2)
//! and command limits (T-CMD-4, T-CMD-5).

use super::components::{Side, Status, UnitId};
use super::event::Event;
use super::grid::{Cell, Dir, Terrain};
use super::order::OrderError;
use super::scenario::can_stand;
use super::state::{Ctx, UnitState};
use super::units::{Ability, Arm};
use pathfinding::prelude::dijkstra_reach;
use std::collections::HashMap;

/// A checked move, ready to carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub unit: UnitId,
    pub path: Vec<Cell>,
    pub exit: bool,
    pub cost: i32,
}

/// A cell a unit can reach this turn, the MP it costs and the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub cell: Cell,
    pub cost: i32,
    pub path: Vec<Cell>,
}

impl Ctx {
    /// Visible enemy of `viewer` standing on a cell.
    pub fn visible_enemy_at(&self, cell: Cell, viewer: Side) -> Option<&UnitState> {
        self.at(cell).filter(|u| u.side != viewer && self.visible_to(u, viewer))
    }

    /// Whether a cell touches (orthogonally) an enemy of `viewer` that `viewer` can see.
    pub fn next_to_visible_enemy(&self, cell: Cell, viewer: Side) -> bool {
        cell.neighbours().iter().any(|n| self.visible_enemy_at(*n, viewer).is_some())
    }

    /// Distance to the nearest visible enemy (T-CMD-5 withdrawal).
    pub fn nearest_visible_enemy(&self, cell: Cell, viewer: Side) -> Option<i32> {
        self.units
            .iter()
            .filter(|e| e.status.on_field() && e.side != viewer && self.visible_to(e, viewer))
            .map(|e| e.cell.distance(cell))
            .min()
    }

    /// T-MOVE-1, T-FORT-4: MP for one step.
    pub fn step_cost(&self, from: Cell, to: Cell) -> i32 {
        let r = self.rules();
        let wall = |c: Cell| self.terrain(c) == Some(Terrain::Wall);
        1 + if wall(to) && !wall(from) { r.wall_climb_cost } else { 0 }
            + if wall(from) && !wall(to) { r.wall_descend_cost } else { 0 }
    }

    /// Speed this turn before MP already spent: +1 retreating (T-END-2), −1 cavalry in forest (T-TERR-1).
    pub fn speed(&self, u: &UnitState, touches_forest: bool) -> i32 {
        let r = self.rules();
        let mut speed = self.ty(u).speed;
        if self.sides.retreating[u.side.index()] {
            speed += r.retreat_speed_bonus;
        }
        if self.arm(u) == Arm::Cavalry && (touches_forest || u.activity.touched_forest || self.grid.is_forest(u.cell)) {
            speed -= r.forest_cavalry_speed_penalty;
        }
        speed
    }

    /// The unit behind an order given in the battle by the active side.
    pub fn own_unit(&self, id: UnitId) -> Result<&UnitState, OrderError> {
        let u = self.unit(id).ok_or(OrderError::UnknownUnit(id))?;
        if u.side != self.clock.active {
            return Err(OrderError::NotYours { unit: id, owner: u.side, active: self.clock.active });
        }
        if u.status != Status::Active {
            return Err(OrderError::OffField { unit: id, status: u.status.name() });
        }
        Ok(u)
    }

    /// T-CMD-4: the HQ's cell and the distance limit for a unit whose general is lost, if it is
    /// bound by them (light cavalry is exempt; with the HQ itself lost, T-CMD-5 applies instead).
    pub fn hq_bound(&self, u: &UnitState) -> Option<(Cell, i32)> {
        let f = u.formation.and_then(|f| self.command.formations.iter().find(|x| x.id == f))?;
        if !f.general_lost() || self.has(u, Ability::IgnoresCommandDistance) || self.command.hq_captured[u.side.index()]
        {
            return None;
        }
        let hq = self.command.hq[u.side.index()].and_then(|h| self.unit(h)).filter(|h| h.status.on_field())?;
        Some((hq.cell, self.rules().hq_distance))
    }

    /// T-CMD-4: a unit whose general is lost fires (and turns, or changes its order) only within
    /// `hq_distance` cells of the HQ unit.
    pub fn check_command(&self, u: &UnitState) -> Result<(), OrderError> {
        self.check_command_at(u, u.cell)
    }

    /// T-CMD-4 for a unit acting from `from` (its own cell, or a cell on an intercept path).
    pub fn check_command_at(&self, u: &UnitState, from: Cell) -> Result<(), OrderError> {
        let Some((hq, limit)) = self.hq_bound(u) else {
            return Ok(());
        };
        let d = hq.distance(from);
        if d > limit {
            return Err(OrderError::rule(
                "T-CMD-4",
                format!(
                    "{} has lost its general and takes orders only within {limit} cells of the HQ; it is {d} away",
                    self.name(u.id)
                ),
            ));
        }
        Ok(())
    }

    /// T-CMD-4: a unit whose general is lost ends a move within `hq_distance` cells of the HQ
    /// unit; one that stands farther away may only move to a cell nearer the HQ.
    pub fn check_command_move(&self, u: &UnitState, end: Cell) -> Result<(), OrderError> {
        let Some((hq, limit)) = self.hq_bound(u) else {
            return Ok(());
        };
        let (now, then) = (hq.distance(u.cell), hq.distance(end));
        if then > limit && then >= now {
            return Err(OrderError::rule(
                "T-CMD-4",
                format!(
                    "{} has lost its general and moves only within {limit} cells of the HQ, or nearer to it; \
                     {end} is {then} away and it stands {now} away",
                    self.name(u.id)
                ),
            ));
        }
        Ok(())
    }

    /// Checks that a unit may act at all this turn (disorganized skirmishers, whole-turn actions).
    fn check_free_to_act(&self, u: &UnitState) -> Result<(), OrderError> {
        if u.skirmish.is_some_and(|s| s.disorganized) {
            return Err(OrderError::rule(
                "T-SKIRM-5",
                format!("{} is disorganized and may only reform", self.name(u.id)),
            ));
        }
        if u.activity.whole_turn {
            return Err(OrderError::rule(
                "T-SKIRM-1",
                format!("{} has spent this turn changing its order", self.name(u.id)),
            ));
        }
        Ok(())
    }

    /// Whether a unit may move at all now, wherever to.
    fn check_may_move(&self, u: &UnitState) -> Result<(), OrderError> {
        self.check_free_to_act(u)?;
        // T-END-2, T-CMD-5: a retreating army, or one whose HQ is lost, may leave contact (withdraw).
        let may_leave_contact = self.sides.retreating[u.side.index()] || self.command.hq_captured[u.side.index()];
        if self.in_contact(u) && !may_leave_contact {
            return Err(OrderError::rule("T-MOVE-3", format!("{} is in melee and cannot move", self.name(u.id))));
        }
        if self.arm(u) == Arm::Artillery && !self.has(u, Ability::HorseArtillery) && u.activity.fired {
            return Err(OrderError::rule(
                "T-ART-1",
                format!("{} has fired; foot artillery that deployed to fire stays this turn", self.name(u.id)),
            ));
        }
        Ok(())
    }

    /// A move to `target` as [`reachable`](Self::reachable) finds it, or the real reason it
    /// cannot be made this turn (for a click on a cell out of reach): the unit cannot move, the
    /// ground cannot be entered, the cell is taken, the cheapest way there costs more MP than
    /// are left or must stop next to the enemy, or no way leads there.
    pub fn check_reach(&self, id: UnitId, target: Cell) -> Result<Reach, OrderError> {
        if let Some(r) = self.reachable(id).into_iter().find(|r| r.cell == target) {
            return Ok(r);
        }
        let u = self.own_unit(id)?;
        self.check_may_move(u)?;
        let arm = self.arm(u);
        let terrain =
            self.terrain(target).ok_or_else(|| OrderError::rule("T-MOVE-1", format!("{target} is off the map")))?;
        can_stand(arm, terrain)
            .map_err(|(rule, why)| OrderError::rule(rule, format!("{} cannot enter {target}: {why}", self.name(id))))?;
        if target == u.cell {
            return Err(OrderError::rule("T-MOVE-1", format!("{} already stands on {target}", self.name(id))));
        }
        if self.visible_enemy_at(target, u.side).is_some() {
            return Err(OrderError::rule("T-MOVE-3", format!("{target} is held by the enemy")));
        }
        if self.at(target).is_some() {
            return Err(OrderError::rule("T-MOVE-3", format!("{target} is occupied; only one unit per cell")));
        }
        // The cheapest way there on ground the unit may enter, whatever it costs: the move
        // check names what stops it (its MP, a stop next to the enemy, its general's HQ).
        let (side, origin) = (u.side, u.cell);
        let successors = |&cell: &Cell| -> Vec<(Cell, i32)> {
            cell.neighbours()
                .into_iter()
                .filter(|n| {
                    self.terrain(*n).is_some_and(|t| can_stand(arm, t).is_ok())
                        && self.visible_enemy_at(*n, side).is_none()
                })
                .map(|n| (n, self.step_cost(cell, n)))
                .collect()
        };
        let mut parents: HashMap<Cell, Cell> = HashMap::new();
        for item in dijkstra_reach(&origin, successors) {
            if let Some(p) = item.parent {
                parents.entry(item.node).or_insert(p);
            }
            if item.node != target {
                continue;
            }
            let mut path = vec![target];
            let mut cell = target;
            while let Some(p) = parents.get(&cell).copied().filter(|p| *p != origin) {
                path.push(p);
                cell = p;
            }
            path.reverse();
            self.check_move(id, &path, false)?;
            break;
        }
        Err(OrderError::rule(
            "T-MOVE-1",
            format!("no way leads {} to {target} this turn: enemies or impassable ground bar it", self.name(id)),
        ))
    }

    /// Validates a move order.
    pub fn check_move(&self, id: UnitId, path: &[Cell], exit: bool) -> Result<MovePlan, OrderError> {
        let u = self.own_unit(id)?;
        let side = u.side;
        let retreating = self.sides.retreating[side.index()];
        let hq_lost = self.command.hq_captured[side.index()];
        self.check_may_move(u)?;
        if path.is_empty() && !exit {
            return Err(OrderError::rule("T-MOVE-1", "the path is empty"));
        }
        let arm = self.arm(u);
        let mut cost = 0;
        let mut prev = u.cell;
        for (i, &cell) in path.iter().enumerate() {
            if !prev.is_adjacent(cell) {
                return Err(OrderError::rule(
                    "T-MOVE-1",
                    format!("{prev} to {cell} is not one step forward, back, left or right"),
                ));
            }
            let terrain =
                self.terrain(cell).ok_or_else(|| OrderError::rule("T-MOVE-1", format!("{cell} is off the map")))?;
            can_stand(arm, terrain).map_err(|(rule, why)| {
                OrderError::rule(rule, format!("{} cannot enter {cell}: {why}", self.name(id)))
            })?;
            if self.visible_enemy_at(cell, side).is_some() {
                return Err(OrderError::rule("T-MOVE-3", format!("{cell} is held by the enemy")));
            }
            if i + 1 < path.len() && self.next_to_visible_enemy(cell, side) {
                return Err(OrderError::rule("T-MOVE-3", format!("the move must stop at {cell}, next to the enemy")));
            }
            cost += self.step_cost(prev, cell);
            prev = cell;
        }
        let end = prev;
        self.check_command_move(u, end)?;
        if end != u.cell && self.at(end).is_some() {
            return Err(OrderError::rule("T-MOVE-3", format!("{end} is occupied; only one unit per cell")));
        }
        if exit {
            if !retreating {
                return Err(OrderError::rule("T-END-2", "only a retreating army leaves the field"));
            }
            if !self.grid.on_edge(end) {
                return Err(OrderError::rule("T-END-2", format!("{end} is not on the map edge")));
            }
            cost += 1;
        }
        let forest = path.iter().any(|c| self.grid.is_forest(*c));
        let budget = self.speed(u, forest) - u.activity.mp_spent;
        if cost > budget {
            return Err(OrderError::rule(
                "T-MOVE-1",
                format!("the move costs {cost} MP and {} has {budget} left", self.name(id)),
            ));
        }
        let ends_in_contact = !exit && self.next_to_visible_enemy(end, side);
        if ends_in_contact {
            if arm == Arm::Artillery {
                return Err(OrderError::rule(
                    "T-ART-3",
                    "artillery cannot fight in melee and may not close with the enemy",
                ));
            }
            if retreating {
                return Err(OrderError::rule("T-END-2", "a retreating army can no longer attack"));
            }
            if hq_lost {
                return Err(OrderError::rule("T-CMD-5", "with the HQ lost, units may only fire or withdraw"));
            }
        }
        if hq_lost && !exit {
            let before = self.nearest_visible_enemy(u.cell, side);
            let after = self.nearest_visible_enemy(end, side);
            if let (Some(b), Some(a)) = (before, after)
                && a < b
            {
                return Err(OrderError::rule(
                    "T-CMD-5",
                    format!("with the HQ lost, units only withdraw: {end} is nearer the enemy"),
                ));
            }
        }
        Ok(MovePlan { unit: id, path: path.to_vec(), exit, cost })
    }

    /// Carries out a checked move. A hidden ambush stops it short (T-TERR-2).
    pub fn do_move(&mut self, plan: &MovePlan) {
        let Some(start) = self.unit(plan.unit).cloned() else {
            return;
        };
        let before: Vec<UnitId> = self.adjacent_enemies(&start);
        let mut walked = Vec::new();
        let mut mp = 0;
        let mut prev = start.cell;
        let mut ambush = None;
        for (i, &cell) in plan.path.iter().enumerate() {
            mp += self.step_cost(prev, cell);
            walked.push(cell);
            prev = cell;
            let hidden = cell
                .neighbours()
                .into_iter()
                .find_map(|n| self.at(n).filter(|e| e.side != start.side && e.concealed).map(|e| e.id));
            if let Some(by) = hidden {
                if i + 1 < plan.path.len() || plan.exit {
                    ambush = Some((by, cell));
                }
                break;
            }
        }
        let end = prev;
        let exiting = plan.exit && ambush.is_none();
        if exiting {
            mp += 1;
        }
        let forest = walked.iter().any(|c| self.grid.is_forest(*c)) || self.grid.is_forest(start.cell);
        let ambusher = self.has(&start, Ability::Ambush);
        if let Some(u) = self.unit_mut(plan.unit) {
            u.cell = end;
            u.activity.mp_spent += mp;
            u.activity.moved = true;
            u.activity.touched_forest |= forest;
            u.concealed = false;
        }
        self.push(Event::Moved { unit: plan.unit, path: walked, mp });
        if let Some((by, at)) = ambush {
            self.push(Event::Ambushed { unit: plan.unit, by, at });
        }
        if exiting {
            self.set_status(plan.unit, Status::Retreated);
            self.push(Event::Retreated { unit: plan.unit });
            self.unit_left_field(plan.unit);
            return;
        }
        // T-TERR-2: hidden again once it has moved, if it stands in forest out of contact.
        let hide = ambusher && self.grid.is_forest(end) && !self.next_to_any_enemy(end, start.side);
        if let Some(u) = self.unit_mut(plan.unit) {
            u.concealed = hide;
        }
        let now = self.unit(plan.unit).map(|u| self.adjacent_enemies(u)).unwrap_or_default();
        if before.iter().any(|e| !now.contains(e)) {
            // It left contact (T-END-2, T-CMD-5): that melee is over for both sides.
            self.refresh_contacts();
        }
        let new: Vec<UnitId> = now.into_iter().filter(|e| !before.contains(e)).collect();
        if !new.is_empty() {
            let intercepts = self.clock.active == start.side;
            self.close(plan.unit, new, intercepts);
        }
    }

    /// Whether a cell touches any enemy, seen or not.
    pub fn next_to_any_enemy(&self, cell: Cell, side: Side) -> bool {
        cell.neighbours().iter().any(|n| self.at(*n).is_some_and(|e| e.side != side))
    }

    /// T-MOVE-2: turning costs infantry 1 MP; cavalry and artillery turn free.
    pub fn turn_cost(&self, u: &UnitState, facing: Dir) -> i32 {
        if facing == u.facing || self.arm(u) != Arm::Infantry { 0 } else { self.rules().infantry_turn_cost }
    }

    pub fn check_turn(&self, id: UnitId, facing: Dir) -> Result<i32, OrderError> {
        let u = self.own_unit(id)?;
        self.check_free_to_act(u)?;
        if self.in_contact(u) {
            return Err(OrderError::rule("T-MOVE-3", format!("{} is in melee and cannot turn", self.name(id))));
        }
        self.check_command(u)?;
        let cost = self.turn_cost(u, facing);
        let budget = self.speed(u, false) - u.activity.mp_spent;
        if cost > budget {
            return Err(OrderError::rule(
                "T-MOVE-2",
                format!("turning costs infantry {cost} MP and {} has {budget} left", self.name(id)),
            ));
        }
        Ok(cost)
    }

    pub fn do_turn(&mut self, id: UnitId, facing: Dir, cost: i32) {
        if let Some(u) = self.unit_mut(id) {
            u.facing = facing;
            u.activity.mp_spent += cost;
            u.activity.moved |= cost > 0;
        }
        self.push(Event::Turned { unit: id, facing, mp: cost });
    }

    /// Every cell a unit can move to now, with cost and path, as its side sees the field.
    pub fn reachable(&self, id: UnitId) -> Vec<Reach> {
        let Some(u) = self.unit(id) else {
            return Vec::new();
        };
        let side = u.side;
        let arm = self.arm(u);
        let cavalry = arm == Arm::Cavalry;
        let spent = u.activity.mp_spent;
        let max = self.speed(u, false) - spent;
        let may_leave_contact = self.sides.retreating[side.index()] || self.command.hq_captured[side.index()];
        if max <= 0 || (self.in_contact(u) && !may_leave_contact) {
            return Vec::new();
        }
        let start = (u.cell, false);
        let origin = u.cell;
        let successors = |&(cell, forest): &(Cell, bool)| -> Vec<((Cell, bool), i32)> {
            if cell != origin && self.next_to_visible_enemy(cell, side) {
                return Vec::new();
            }
            cell.neighbours()
                .into_iter()
                .filter(|n| {
                    self.terrain(*n).is_some_and(|t| can_stand(arm, t).is_ok())
                        && self.visible_enemy_at(*n, side).is_none()
                })
                .map(|n| ((n, forest || (cavalry && self.grid.is_forest(n))), self.step_cost(cell, n)))
                .collect()
        };
        let mut parents: HashMap<(Cell, bool), (Cell, bool)> = HashMap::new();
        let mut best: Vec<Reach> = Vec::new();
        for item in dijkstra_reach(&start, successors) {
            if item.total_cost > max {
                break;
            }
            if let Some(p) = item.parent {
                parents.insert(item.node, p);
            }
            let (cell, forest) = item.node;
            let budget = self.speed(u, forest) - spent;
            if cell == origin
                || item.total_cost > budget
                || self.at(cell).is_some()
                || best.iter().any(|r| r.cell == cell)
            {
                continue;
            }
            let mut path = vec![cell];
            let mut node = item.node;
            while let Some(p) = parents.get(&node) {
                if p.0 != origin {
                    path.push(p.0);
                }
                node = *p;
            }
            path.reverse();
            if self.check_move(id, &path, false).is_ok() {
                best.push(Reach { cell, cost: item.total_cost, path });
            }
        }
        best.sort_by_key(|r| (r.cell.y, r.cell.x));
        best
    }
}
