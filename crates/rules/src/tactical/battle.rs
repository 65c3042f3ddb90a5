//! A battle: the ECS world of one Napoleonic engagement behind a small, read-mostly API.

use super::apply::{apply_order, end_of_turn_schedule};
use super::components::{Clock, Phase, Side, UnitId};
use super::event::Event;
use super::grid::{Cell, Dir, GridMap};
use super::order::{Order, OrderError};
use super::preview::Preview;
use super::result::BattleResult;
use super::scenario::Scenario;
use super::state::{BattleState, Ctx, EventLog, OrderLog, Outcome, spawn_battle};
use crate::hash::StateHash;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

pub use crate::replay::Checkpoint;

/// Checkpoints of this battle (one per finished turn and set-up step).
#[derive(Resource, Clone, Debug, Default)]
pub struct Checkpoints(pub Vec<Checkpoint>);

/// One unit as the interface shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: UnitId,
    pub name: String,
    pub side: Side,
    pub unit_type: String,
    pub cell: Cell,
    pub facing: Dir,
    pub health: i32,
    pub max_health: i32,
    pub status: String,
    pub skirmish: bool,
    pub disorganized: bool,
    pub hidden: bool,
    pub in_melee: bool,
}

/// A Napoleonic battle in progress.
#[derive(Debug)]
pub struct Battle {
    world: World,
    seed: u64,
}

impl Battle {
    /// Starts a battle from a scenario (a file's, or one a campaign built) with a seed for the dice.
    pub fn new(scenario: &Scenario, seed: u64) -> Battle {
        let mut world = spawn_battle(scenario, seed);
        world.add_schedule(end_of_turn_schedule());
        world.insert_resource(Checkpoints::default());
        let mut battle = Battle { world, seed };
        battle.checkpoint();
        battle
    }

    /// A battle going on from a working copy (a client's mirror of what its seat knows,
    /// [`crate::view::Mirror`]): no orders logged, no checkpoint but this one.
    pub(crate) fn from_ctx(ctx: Ctx, seed: u64) -> Battle {
        let mut world = ctx.to_world();
        world.add_schedule(end_of_turn_schedule());
        world.insert_resource(Checkpoints::default());
        let mut battle = Battle { world, seed };
        battle.checkpoint();
        battle
    }

    /// Applies an order (the one door into the rules).
    pub fn apply(&mut self, order: Order) -> Result<Vec<Event>, OrderError> {
        let events = apply_order(&mut self.world, &order)?;
        if matches!(order, Order::EndTurn | Order::EndSetup) || self.clock().phase == Phase::Over {
            self.checkpoint();
        }
        Ok(events)
    }

    fn checkpoint(&mut self) {
        let after = self.world.resource::<OrderLog>().0.len();
        let turn = self.clock().turn;
        let hash = self.hash();
        crate::replay::record(&mut self.world.resource_mut::<Checkpoints>().0, after, turn, hash);
    }

    /// What an order would do, with odds, as the side to move knows the field.
    pub fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        self.ctx().preview(order)
    }

    /// A working copy of the state (for reading, previews and the AI).
    pub fn ctx(&self) -> Ctx {
        Ctx::load(&self.world)
    }

    pub fn state(&self) -> BattleState {
        self.ctx().state()
    }

    /// Hash of the canonical state (same on every platform).
    pub fn hash(&self) -> StateHash {
        self.state().hash()
    }

    pub fn clock(&self) -> Clock {
        *self.world.resource::<Clock>()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.world.get_resource::<Outcome>().copied()
    }

    pub fn result(&self) -> Option<BattleResult> {
        self.ctx().result()
    }

    pub fn grid(&self) -> &GridMap {
        self.world.resource::<GridMap>()
    }

    pub fn scenario(&self) -> &Scenario {
        &self.world.resource::<super::state::Statics>().0.scenario
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn orders(&self) -> &[Order] {
        &self.world.resource::<OrderLog>().0
    }

    pub fn events(&self) -> &[Event] {
        &self.world.resource::<EventLog>().0
    }

    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.world.resource::<Checkpoints>().0
    }

    /// The ECS world, read-only (the interface never changes rules state except through orders).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Every unit, as seen by `viewer` (`None`: the umpire sees all); hidden enemies are left out.
    pub fn units(&self, viewer: Option<Side>) -> Vec<UnitView> {
        let ctx = self.ctx();
        ctx.units
            .iter()
            .filter(|u| viewer.is_none_or(|v| ctx.visible_to(u, v)))
            .map(|u| UnitView {
                id: u.id,
                name: ctx.name(u.id),
                side: u.side,
                unit_type: ctx.ty(u).id.clone(),
                cell: u.cell,
                facing: u.facing,
                health: u.health.current,
                max_health: u.health.max,
                status: u.status.name().to_string(),
                skirmish: u.skirmish.is_some(),
                disorganized: u.skirmish.is_some_and(|s| s.disorganized),
                hidden: u.concealed,
                in_melee: ctx.in_contact(u),
            })
            .collect()
    }

    /// Describes an event with this battle's unit names.
    pub fn describe(&self, event: &Event) -> String {
        let ctx = self.ctx();
        event.describe(&|id| ctx.name(id))
    }
}
