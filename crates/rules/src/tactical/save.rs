//! Saved battles: the engine's one [`Save`](crate::game::Save) format, written as `SaveGame(..)`,
//! and how a battle is a [`Game`].
//! Loading replays the log and fails loudly on any difference.

use super::battle::{Battle, Checkpoint};
use super::components::{Phase, Side, SideStates};
use super::event::Event;
use super::order::{Order, OrderError};
use super::preview::Preview;
use super::scenario::Scenario;
use super::state::Ctx;
use crate::data::DataError;
use crate::dice::Dice;
use crate::game::{Game, Save};
use crate::hash::StateHash;

/// Version of the save format.
pub const SAVE_FORMAT: u32 = 1;

/// A saved battle.
pub type SaveGame = Save<Battle>;

/// Why a save could not be replayed.
pub type ReplayError = crate::game::ReplayError<Battle>;

impl Game for Battle {
    const SAVE_NAME: &'static str = "SaveGame";
    const SAVE_FORMAT: u32 = SAVE_FORMAT;

    type Scenario = Scenario;
    type Order = Order;
    type Error = OrderError;
    type Event = Event;
    type Ctx = Ctx;
    type Preview = Preview;
    type Player = Side;

    fn new(scenario: &Scenario, seed: u64) -> Battle {
        Battle::new(scenario, seed)
    }

    fn apply(&mut self, order: Order) -> Result<Vec<Event>, OrderError> {
        Battle::apply(self, order)
    }

    fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        Battle::preview(self, order)
    }

    fn ctx(&self) -> Ctx {
        Battle::ctx(self)
    }

    /// T-TURN-1: the attacker moves first.
    fn players(&self) -> Vec<Side> {
        let first = self.scenario().attacker;
        vec![first, first.other()]
    }

    fn active_player(&self) -> Option<Side> {
        let clock = self.clock();
        (clock.phase != Phase::Over && !self.awaits_moderator()).then_some(clock.active)
    }

    /// T-FORT-7: a capitulation's terms wait for the moderator.
    fn awaits_moderator(&self) -> bool {
        self.clock().phase != Phase::Over
            && self.world().get_resource::<SideStates>().is_some_and(|s| s.terms_asked.is_some())
    }

    fn default_ruling(&self) -> Option<Order> {
        self.awaits_moderator().then_some(Order::Rule(super::Ruling::Default))
    }

    fn is_moderators(order: &Order) -> bool {
        matches!(order, Order::Moderate { .. } | Order::Rule(_))
    }

    fn is_over(&self) -> bool {
        self.clock().phase == Phase::Over
    }

    fn turn(&self) -> u32 {
        self.clock().turn
    }

    fn orders(&self) -> &[Order] {
        Battle::orders(self)
    }

    fn events(&self) -> &[Event] {
        Battle::events(self)
    }

    fn checkpoints(&self) -> &[Checkpoint] {
        Battle::checkpoints(self)
    }

    fn scenario(&self) -> &Scenario {
        Battle::scenario(self)
    }

    fn seed(&self) -> u64 {
        Battle::seed(self)
    }

    fn state_hash(&self) -> StateHash {
        self.hash()
    }

    fn dice_thrown(&self) -> u64 {
        self.world().resource::<Dice>().thrown()
    }

    /// The set-up steps end with `EndSetup`, the battle's turns with `EndTurn`.
    fn pass(&self) -> Order {
        Order::pass_in(self.clock().phase)
    }

    fn ends_turn(order: &Order) -> bool {
        matches!(order, Order::EndTurn | Order::EndSetup)
    }

    /// A hidden unit seen, or an ambush sprung (T-TERR-2).
    fn reveals(event: &Event) -> bool {
        matches!(event, Event::Revealed { .. } | Event::Ambushed { .. })
    }

    fn scenario_name(scenario: &Scenario) -> &str {
        &scenario.name
    }

    fn scenario_hash(scenario: &Scenario) -> StateHash {
        scenario.hash()
    }

    fn check_save(save: &SaveGame, path: &str, text: &str) -> Result<(), DataError> {
        save.scenario.check_embedded(path, text, "scenario")
    }
}
