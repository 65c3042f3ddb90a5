//! Before the battle: redoubts (T-STRAT-8, T-SETUP-2), deployment (T-SETUP-1) and command (T-CMD-1).

use super::components::{Formation, MeleeContact, Phase, Redoubt, Side, Status, UnitId};
use super::config::GeneralFate;
use super::event::Event;
use super::grid::{Cell, Dir, Terrain};
use super::order::OrderError;
use super::scenario::{Scenario, can_stand, distance_from_edge};
use super::state::Ctx;
use super::units::Ability;

/// T-CMD-1: the name of a side's one formation when its scenario names none (a campaign's
/// battles): the army's own, under its general (T-CMD-3).
pub const DEFAULT_FORMATION: &str = "Army";

impl Ctx {
    /// T-CMD-1 defaults: HQ = the side's first unit; formations as the scenario names them, or one of all units.
    pub fn form_default_command(&mut self, scenario: &Scenario) {
        for side in Side::BOTH {
            let spec = scenario.side(side);
            let list: Vec<UnitId> = scenario.units_of(side).map(|u| u.id).collect();
            let hq = spec.hq.or_else(|| list.first().copied());
            self.command.hq[side.index()] = hq;
            let mut specs: Vec<(String, Vec<UnitId>, UnitId)> =
                spec.formations.iter().map(|f| (f.name.clone(), f.units.clone(), f.general)).collect();
            let placed: Vec<UnitId> = specs.iter().flat_map(|f| f.1.clone()).collect();
            let rest: Vec<UnitId> = list.iter().copied().filter(|u| !placed.contains(u)).collect();
            if let Some(first) = rest.first() {
                let general = hq.filter(|h| rest.contains(h)).unwrap_or(*first);
                let name = if specs.is_empty() { DEFAULT_FORMATION } else { "Reserve" };
                specs.push((name.to_string(), rest, general));
            }
            for (name, units, general) in specs {
                self.add_formation(side, name, units, general);
            }
            // T-CMD-3: a general lost in an earlier battle of the campaign is gone.
            if let Some(fate) = spec.general_lost {
                for f in self.command.formations.iter_mut().filter(|f| f.side == side) {
                    f.general_with = None;
                    f.general = fate;
                }
            }
        }
    }

    fn add_formation(&mut self, side: Side, name: String, units: Vec<UnitId>, general: UnitId) {
        let id = self.command.formations.iter().map(|f| f.id + 1).max().unwrap_or(0);
        let division = units.len() >= self.rules().division_min_units;
        for u in &units {
            if let Some(unit) = self.unit_mut(*u) {
                unit.formation = Some(id);
            }
        }
        self.command.formations.push(Formation {
            id,
            side,
            name,
            units,
            division,
            general_with: Some(general),
            general: GeneralFate::Unhurt,
            losses: 0,
        });
    }

    fn setup_side(&self, phase: Phase, what: &'static str) -> Result<Side, OrderError> {
        if self.clock.phase == Phase::Over {
            return Err(OrderError::BattleOver);
        }
        if self.clock.phase != phase {
            let when = match self.clock.phase {
                Phase::Redoubts => "while redoubts are placed",
                Phase::Deployment => "during deployment",
                Phase::Battle => "once the battle has begun",
                Phase::Over => "after the battle",
            };
            return Err(OrderError::WrongPhase { what, when });
        }
        Ok(self.clock.active)
    }

    pub fn check_redoubt(&self, cell: Cell) -> Result<Side, OrderError> {
        let side = self.setup_side(Phase::Redoubts, "placing a redoubt")?;
        if self.sides.redoubts_left[side.index()] == 0 {
            return Err(OrderError::rule("T-STRAT-8", format!("{} has no redoubts left to place", side.name())));
        }
        // T-STRAT-8: at most `max_redoubts` per side, whatever a scenario built in code grants.
        let placed = self.redoubts.iter().filter(|r| r.side == side).count();
        let most = self.rules().max_redoubts;
        if !u32::try_from(placed).is_ok_and(|p| p < most) {
            return Err(OrderError::rule(
                "T-STRAT-8",
                format!("{} has placed {placed} redoubts; a side places at most {most}", side.name()),
            ));
        }
        if !self.statics.zone(side).contains(&cell) {
            return Err(OrderError::rule(
                "T-SETUP-2",
                format!("{cell} is outside the {} deployment zone", side.name()),
            ));
        }
        if !matches!(self.terrain(cell), Some(Terrain::Open | Terrain::Hill)) {
            return Err(OrderError::rule(
                "T-SETUP-2",
                format!("a redoubt is built on open ground or a hill, not at {cell}"),
            ));
        }
        Ok(side)
    }

    pub fn place_redoubt(&mut self, side: Side, cell: Cell) {
        self.grid.set(cell, Terrain::Redoubt);
        self.redoubts.push(Redoubt { cell, side });
        self.redoubts.sort_by_key(|r| (r.cell.y, r.cell.x));
        self.sides.redoubts_left[side.index()] -= 1;
        self.push(Event::RedoubtPlaced { side, cell });
    }

    pub fn check_deploy(&self, id: UnitId, cell: Cell) -> Result<(), OrderError> {
        let side = self.setup_side(Phase::Deployment, "deploying")?;
        let u = self.unit(id).ok_or(OrderError::UnknownUnit(id))?;
        if u.side != side {
            return Err(OrderError::NotYours { unit: id, owner: u.side, active: side });
        }
        if self.statics.scenario.is_reserve(id) {
            return Err(OrderError::rule(
                "T-STRAT-6",
                format!("unit {id} is held back; it is brought up during the battle, not deployed"),
            ));
        }
        self.check_placement(side, id, cell)
    }

    /// A unit of `side` may stand at `cell` of its zone (T-SETUP-2, T-MOVE-3, T-TERR).
    fn check_placement(&self, side: Side, id: UnitId, cell: Cell) -> Result<(), OrderError> {
        let u = self.unit(id).ok_or(OrderError::UnknownUnit(id))?;
        if !self.statics.zone(side).contains(&cell) {
            return Err(OrderError::rule(
                "T-SETUP-2",
                format!("{cell} is outside the {} deployment zone", side.name()),
            ));
        }
        let terrain =
            self.terrain(cell).ok_or_else(|| OrderError::rule("T-SETUP-2", format!("{cell} is off the map")))?;
        can_stand(self.arm(u), terrain)
            .map_err(|(rule, why)| OrderError::rule(rule, format!("cannot deploy at {cell}: {why}")))?;
        if self.at(cell).is_some_and(|o| o.id != id) {
            return Err(OrderError::rule("T-MOVE-3", format!("{cell} is occupied; only one unit per cell")));
        }
        Ok(())
    }

    /// T-STRAT-6: at the start of an own turn from `bring_up_from_turn` on, a side may bring up
    /// at most `bring_up` of its reserve units onto a free cell of its zone.
    pub fn check_bring_up(&self, id: UnitId, cell: Cell) -> Result<(), OrderError> {
        let side = self.battle_side("bringing up a reserve unit")?;
        let u = self.unit(id).ok_or(OrderError::UnknownUnit(id))?;
        if u.side != side {
            return Err(OrderError::NotYours { unit: id, owner: u.side, active: side });
        }
        let scenario = &self.statics.scenario;
        if !scenario.is_reserve(id) || u.status != Status::Undeployed {
            return Err(OrderError::rule("T-STRAT-6", format!("unit {id} is not a reserve unit waiting to come up")));
        }
        let spec = scenario.side(side);
        let brought = self
            .units
            .iter()
            .filter(|v| v.side == side && scenario.is_reserve(v.id) && v.status != Status::Undeployed)
            .count();
        if !u32::try_from(brought).is_ok_and(|b| b < spec.bring_up) {
            return Err(OrderError::rule(
                "T-STRAT-6",
                format!("{} has brought up {brought} of the {} unit(s) it may", side.name(), spec.bring_up),
            ));
        }
        if self.clock.turn < spec.bring_up_from_turn {
            return Err(OrderError::rule(
                "T-STRAT-6",
                format!("units come up from turn {} on; this is turn {}", spec.bring_up_from_turn, self.clock.turn),
            ));
        }
        if self.clock.orders_this_turn > 0 {
            return Err(OrderError::rule(
                "T-STRAT-6",
                "a unit is brought up at the start of the turn, before any other order",
            ));
        }
        self.check_placement(side, id, cell)
    }

    pub fn deploy(&mut self, id: UnitId, cell: Cell, facing: Dir, automatic: bool) {
        if let Some(u) = self.unit_mut(id) {
            u.cell = cell;
            u.facing = facing;
            u.status = Status::Active;
        }
        self.push(Event::Deployed { unit: id, cell, facing, automatic });
    }

    pub fn check_hq(&self, id: UnitId) -> Result<Side, OrderError> {
        let side = self.setup_side(Phase::Deployment, "naming the HQ")?;
        let u = self.unit(id).ok_or(OrderError::UnknownUnit(id))?;
        if u.side != side {
            return Err(OrderError::NotYours { unit: id, owner: u.side, active: side });
        }
        Ok(side)
    }

    pub fn name_hq(&mut self, side: Side, id: UnitId) {
        let old = self.command.hq[side.index()];
        self.command.hq[side.index()] = Some(id);
        // The general who was with the HQ goes with it, if the new HQ is in his formation.
        for f in self.command.formations.iter_mut().filter(|f| f.side == side) {
            if f.general_with == old && f.units.contains(&id) {
                f.general_with = Some(id);
            }
        }
        self.push(Event::HqNamed { side, unit: id });
    }

    pub fn check_formation(&self, units: &[UnitId], general: UnitId) -> Result<Side, OrderError> {
        let side = self.setup_side(Phase::Deployment, "forming a formation")?;
        if units.is_empty() || !units.contains(&general) {
            return Err(OrderError::rule("T-CMD-1", "a formation needs units and a general on one of them"));
        }
        for (i, id) in units.iter().enumerate() {
            let u = self.unit(*id).ok_or(OrderError::UnknownUnit(*id))?;
            if u.side != side {
                return Err(OrderError::NotYours { unit: *id, owner: u.side, active: side });
            }
            if units[..i].contains(id) {
                return Err(OrderError::rule("T-CMD-1", format!("unit {id} is named twice")));
            }
        }
        Ok(side)
    }

    pub fn form_formation(&mut self, side: Side, name: String, units: Vec<UnitId>, general: UnitId) {
        for f in &mut self.command.formations {
            f.units.retain(|u| !units.contains(u));
            if f.general_with.is_some_and(|g| units.contains(&g)) {
                f.general_with = f.units.first().copied();
            }
        }
        self.command.formations.retain(|f| !f.units.is_empty());
        let min = self.rules().division_min_units;
        for f in &mut self.command.formations {
            f.division = f.units.len() >= min;
        }
        let division = units.len() >= min;
        self.push(Event::FormationFormed { side, name: name.clone(), units: units.clone(), general, division });
        self.add_formation(side, name, units, general);
        // T-CMD-3: an army whose general fell in an earlier battle has none to put in command.
        if let Some(fate) = self.statics.scenario.side(side).general_lost
            && let Some(f) = self.command.formations.last_mut()
        {
            f.general_with = None;
            f.general = fate;
        }
    }

    pub fn check_end_setup(&self) -> Result<Side, OrderError> {
        match self.clock.phase {
            Phase::Redoubts => self.setup_side(Phase::Redoubts, "ending set-up"),
            _ => self.setup_side(Phase::Deployment, "ending set-up"),
        }
    }

    /// Finishes the active side's set-up step and moves on (T-SETUP-1, T-SETUP-2).
    pub fn end_setup(&mut self, side: Side) {
        match self.clock.phase {
            Phase::Deployment => self.auto_deploy(side),
            // Redoubts not placed by now are not built (T-STRAT-8).
            _ => self.sides.redoubts_left[side.index()] = 0,
        }
        self.clock.setup_done[side.index()] = true;
        self.push(Event::SetupDone { side });
        let attacker = self.statics.attacker();
        let defender = attacker.other();
        match self.clock.phase {
            Phase::Redoubts if side == defender && self.sides.redoubts_left[attacker.index()] > 0 => {
                self.clock.active = attacker;
            }
            Phase::Redoubts => {
                self.clock.phase = Phase::Deployment;
                self.clock.setup_done = [false; 2];
                self.clock.active = attacker;
            }
            Phase::Deployment if side == attacker => self.clock.active = defender,
            _ => self.begin_battle(),
        }
    }

    /// T-SETUP-1: units left are placed in army-list order on free zone cells, front row first,
    /// centre outwards, left first (as the army faces the enemy).
    pub fn auto_deploy(&mut self, side: Side) {
        let edge = self.statics.scenario.side(side).edge;
        let facing = edge.opposite();
        let map = &self.statics.scenario.map;
        let centre2 = match edge {
            Dir::North | Dir::South => map.width - 1,
            Dir::East | Dir::West => map.height - 1,
        };
        let mut cells: Vec<Cell> = self.statics.zone(side).to_vec();
        cells.sort_by_key(|c| {
            let depth = -distance_from_edge(map, edge, *c);
            let along = match edge {
                Dir::North | Dir::South => c.x,
                Dir::East | Dir::West => c.y,
            };
            let offset2 = 2 * along - centre2; // distance from the centre line, doubled
            // "Left" as the army faces the enemy: facing south, left is east (+x); facing north, west.
            let left_sign = match facing {
                Dir::South | Dir::West => 1,
                Dir::North | Dir::East => -1,
            };
            (depth, offset2.abs(), -(offset2.signum() * left_sign))
        });
        // Reserve units stay back to be brought up (T-STRAT-6).
        let list: Vec<UnitId> = self.statics.scenario.units_of(side).filter(|u| !u.reserve).map(|u| u.id).collect();
        for id in list {
            let Some(u) = self.unit(id) else { continue };
            if u.status != Status::Undeployed {
                continue;
            }
            let arm = self.arm(u);
            let free = cells
                .iter()
                .copied()
                .find(|c| self.at(*c).is_none() && self.terrain(*c).is_some_and(|t| can_stand(arm, t).is_ok()));
            if let Some(cell) = free {
                self.deploy(id, cell, facing, true);
            }
        }
    }

    /// The battle begins: turn 1, the attacker moves first (T-TURN-1); light infantry in forest hides (T-TERR-2).
    pub fn begin_battle(&mut self) {
        self.clock.phase = Phase::Battle;
        self.clock.turn = 1;
        self.clock.round = 1;
        self.clock.active = self.statics.attacker();
        self.clock.orders_this_turn = 0;
        let hide: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| {
                u.status.on_field()
                    && self.has(u, Ability::Ambush)
                    && self.grid.is_forest(u.cell)
                    && !self.next_to_any_enemy(u.cell, u.side)
            })
            .map(|u| u.id)
            .collect();
        for id in hide {
            if let Some(u) = self.unit_mut(id) {
                u.concealed = true;
            }
        }
        // Units placed in contact by the scenario: in contact since the set-up (turn 0), the defender attacked.
        let attacker = self.statics.attacker();
        let touching: Vec<(UnitId, bool)> =
            self.units.iter().filter(|u| self.in_contact(u)).map(|u| (u.id, u.side != attacker)).collect();
        for (id, attacked) in touching {
            if let Some(u) = self.unit_mut(id) {
                u.contact = Some(MeleeContact { since_turn: 0, attacked, charging: false, exchanges: 0 });
            }
        }
        self.push(Event::BattleBegins);
        self.push(Event::TurnBegins { turn: 1, round: 1, side: self.clock.active });
    }
}
