//! The battle being played: the engine's `Battle`, who plays each side, and the one path by
//! which the interface changes it: [`Session::apply`] (an order through the engine's entry point).

use crate::screens::{BattleView, Screen};
use crate::storage::{self, Mode, SavedGame};
use ai::{Ai, Level};
use bevy::prelude::*;
use rules::Game;
use rules::tactical::components::Phase;
use rules::tactical::event::Event;
use rules::tactical::{Battle, Ctx, Order, OrderError, Scenario, Side, UnitId};
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<StartBattle>()
        .add_message::<LoadBattle>()
        .add_message::<BattleEvents>()
        .init_resource::<AnimBusy>()
        .add_systems(Update, (start_battle, load_battle).in_set(crate::AppSystems::Logic))
        .add_systems(Update, battle_over.in_set(crate::AppSystems::Logic).run_if(in_state(Screen::Battle)))
        .add_systems(OnExit(Screen::Result), end_session)
        .add_systems(OnEnter(Screen::Title), end_session);
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Human,
    Ai(Level),
}

/// Start a new battle.
#[derive(Message, Clone, Debug)]
pub struct StartBattle {
    pub scenario: Scenario,
    pub seed: u64,
    pub seats: [Seat; 2],
}

/// Continue a saved battle.
#[derive(Message, Clone, Debug)]
pub struct LoadBattle(pub SavedGame);

/// What an order did, for the log and the animations.
#[derive(Message, Clone, Debug)]
pub struct BattleEvents(pub Vec<Event>);

/// True while the board is still showing what happened; orders wait for it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimBusy(pub bool);

/// The battle in play.
#[derive(Resource)]
pub struct Session {
    pub battle: Battle,
    pub seats: [Seat; 2],
    /// The game's name (start date and scenario): its autosaves share it.
    pub game: String,
    ais: [Option<Ai>; 2],
    pub selected: Option<UnitId>,
    /// Orders before this index can no longer be taken back (a die was thrown, a hidden unit
    /// revealed, or a turn ended since).
    undo_floor: usize,
    /// An order waiting for the player's "yes" (retreat, capitulation).
    pub confirm: Option<Order>,
    /// The last refusal, shown to the player.
    pub refusal: Option<String>,
}

impl Session {
    pub fn new(battle: Battle, seats: [Seat; 2], game: String) -> Session {
        let seed = battle.seed();
        let ais = [Side::Red, Side::Blue].map(|s| match seats[s.index()] {
            Seat::Ai(level) => Some(Ai::new(s, level, seed)),
            Seat::Human => None,
        });
        let undo_floor = battle.orders().len();
        Session { battle, seats, game, ais, selected: None, undo_floor, confirm: None, refusal: None }
    }

    pub fn ctx(&self) -> Ctx {
        self.battle.ctx()
    }

    pub fn seat(&self, side: Side) -> Seat {
        self.seats[side.index()]
    }

    /// Whether a person gives the orders now.
    pub fn human_turn(&self) -> bool {
        self.battle.clock().phase != Phase::Over && self.seat(self.battle.clock().active) == Seat::Human
    }

    /// Both sides played by people at one screen.
    pub fn hot_seat(&self) -> bool {
        self.seats.iter().all(|s| *s == Seat::Human)
    }

    /// Whose eyes the board uses: the side to move in hot-seat, the human in solo, all-seeing
    /// when the AI plays both sides.
    pub fn viewer(&self) -> Option<Side> {
        match self.seats {
            [Seat::Human, Seat::Human] => Some(self.battle.clock().active),
            [Seat::Human, _] => Some(Side::Red),
            [_, Seat::Human] => Some(Side::Blue),
            _ => None,
        }
    }

    /// The AI of a side, if it has one.
    pub fn ai_mut(&mut self, side: Side) -> Option<&mut Ai> {
        self.ais[side.index()].as_mut()
    }

    /// Applies an order through the engine's one entry point and reports what happened.
    pub fn apply(&mut self, order: Order, events: &mut MessageWriter<BattleEvents>) -> Result<(), OrderError> {
        let turn = self.battle.clock().turn;
        let thrown = self.ctx().dice.thrown();
        let happened = self.battle.apply(order.clone()).inspect_err(|e| self.refusal = Some(e.to_string()))?;
        self.refusal = None;
        let revealed = happened.iter().any(|e| matches!(e, Event::Revealed { .. } | Event::Ambushed { .. }));
        let chance = self.ctx().dice.thrown() != thrown;
        let turn_over = self.battle.clock().turn != turn || matches!(order, Order::EndTurn | Order::EndSetup);
        if revealed || chance || turn_over {
            self.undo_floor = self.battle.orders().len();
        }
        if turn_over {
            self.selected = None;
            self.autosave();
        }
        if let Some(s) = self.selected
            && !self
                .battle
                .ctx()
                .unit(s)
                .is_some_and(|u| u.status.on_field() || u.status == rules::tactical::Status::Undeployed)
        {
            self.selected = None;
        }
        events.write(BattleEvents(happened));
        Ok(())
    }

    /// Whether the last order can be taken back (this turn, no die thrown, nothing revealed since).
    pub fn can_undo(&self) -> bool {
        self.battle.orders().len() > self.undo_floor && self.human_turn()
    }

    /// Takes back the last order by replaying the rest.
    pub fn undo(&mut self) -> bool {
        if !self.can_undo() {
            return false;
        }
        let save = self.battle.save();
        match Battle::replay_until(&save, save.orders.len() - 1) {
            Ok(b) => {
                self.battle = b;
                self.refusal = None;
                true
            }
            Err(e) => {
                self.refusal = Some(e.to_string());
                false
            }
        }
    }

    pub fn saved_game(&self) -> SavedGame {
        SavedGame { mode: Mode::Battle, game: self.game.clone(), seats: self.seats.to_vec(), save: self.battle.save() }
    }

    /// The autosave of this turn (the game's last turns are kept).
    fn autosave(&mut self) {
        if let Err(e) = storage::autosave(&self.saved_game(), self.battle.clock().turn) {
            warn!("autosave failed: {e}");
            self.refusal = Some(storage::describe(&e));
        }
    }
}

fn start_battle(
    mut commands: Commands,
    mut starts: MessageReader<StartBattle>,
    mut screen: ResMut<NextState<Screen>>,
    mut view: ResMut<NextState<BattleView>>,
) {
    for s in starts.read() {
        let game = storage::new_game_name(&s.scenario.name);
        commands.insert_resource(Session::new(Battle::new(&s.scenario, s.seed), s.seats, game));
        screen.set(Screen::Battle);
        view.set(BattleView::Playing);
    }
}

fn load_battle(mut commands: Commands, mut loads: MessageReader<LoadBattle>, mut screen: ResMut<NextState<Screen>>) {
    for LoadBattle(game) in loads.read() {
        let loaded =
            game.battle_seats().and_then(|seats| Ok((seats, Battle::replay(&game.save).map_err(|e| e.to_string())?)));
        match loaded {
            Ok((seats, battle)) => {
                commands.insert_resource(Session::new(battle, seats, game.game.clone()));
                screen.set(Screen::Battle);
            }
            Err(e) => warn!("could not load the save: {e}"),
        }
    }
}

/// The result screen follows once the last blow has been shown (a scripted run keeps the
/// battle on screen for its screenshot).
fn battle_over(
    session: Option<Res<Session>>,
    busy: Res<AnimBusy>,
    launch: Option<Res<crate::launch::Launch>>,
    mut screen: ResMut<NextState<Screen>>,
) {
    if let Some(s) = session
        && s.battle.clock().phase == Phase::Over
        && !busy.0
        && !crate::launch::holding(launch.as_deref())
    {
        screen.set(Screen::Result);
    }
}

fn end_session(mut commands: Commands) {
    commands.remove_resource::<Session>();
}
