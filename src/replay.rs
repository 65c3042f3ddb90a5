//! The replay viewer, for every scene: a saved game, stepped through turn by turn (by its
//! recorded state hashes, so every step is checked as it is rebuilt) or order by order, by
//! buttons or keys (`help::HelpAction`: `.` and `,` an order, Page Down and Page Up a turn).
//! The scene draws the game at the point shown and the bar that moves it.

use crate::help::{HelpAction, help_pressed};
use crate::input::{Controls, KeyBindings, TypingText};
use crate::screens::{Mode, Screen};
use crate::session::PlayGame;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::Save;

pub(crate) fn plugin_for<G: PlayGame>(app: &mut App) {
    app.add_message::<OpenReplay<G>>()
        .add_systems(Update, open::<G>.in_set(crate::AppSystems::Logic))
        .add_systems(Update, step_keys::<G>.in_set(crate::AppSystems::Logic).run_if(in_state(Screen::Replay)))
        .add_systems(OnExit(Screen::Replay), close::<G>);
}

/// Show a saved game.
#[derive(Message, Clone, Debug)]
pub struct OpenReplay<G: PlayGame>(pub Save<G>);

/// The game being replayed, at one of its stops.
#[derive(Resource)]
pub struct ReplayView<G: PlayGame> {
    pub save: Save<G>,
    /// Orders applied at each stop: the start, then the end of every turn.
    pub stops: Vec<usize>,
    pub at: usize,
    /// Orders applied to the game shown (a stop's, or any between when stepping order by order).
    pub orders: usize,
    pub game: G,
    /// Where the events of the last order begin in the game's event log.
    pub last_events: usize,
}

impl<G: PlayGame> ReplayView<G> {
    pub fn new(save: Save<G>) -> Result<ReplayView<G>, String> {
        let mut stops: Vec<usize> = save.checkpoints.iter().map(|c| c.after).collect();
        stops.push(save.orders.len());
        stops.sort_unstable();
        stops.dedup();
        let game = G::replay_until(&save, stops[0]).map_err(|e| e.to_string())?;
        let last_events = game.events().len();
        Ok(ReplayView { orders: stops[0], save, stops, at: 0, last_events, game })
    }

    /// Moves to another stop.
    pub fn go(&mut self, stop: usize) -> Result<(), String> {
        let stop = stop.min(self.stops.len() - 1);
        self.show_orders(self.stops[stop])?;
        self.at = stop;
        Ok(())
    }

    /// Shows the game after `orders` orders (clamped to the log); the stop is the last one at or
    /// before it.
    pub fn show_orders(&mut self, orders: usize) -> Result<(), String> {
        let orders = orders.min(self.save.orders.len());
        // The events of the last order: those after the game one order earlier.
        self.last_events = match orders.checked_sub(1) {
            Some(before) if before == self.orders => self.game.events().len(),
            Some(before) => G::replay_until(&self.save, before).map_err(|e| e.to_string())?.events().len(),
            None => 0,
        };
        self.game = G::replay_until(&self.save, orders).map_err(|e| e.to_string())?;
        self.orders = orders;
        self.at = self.stops.iter().rposition(|s| *s <= orders).unwrap_or(0);
        Ok(())
    }

    /// One order on (`forward`) or back.
    pub fn step_order(&mut self, forward: bool) -> Result<(), String> {
        match (forward, self.orders) {
            (true, n) if n < self.save.orders.len() => self.show_orders(n + 1),
            (false, n) if n > 0 => self.show_orders(n - 1),
            _ => Ok(()),
        }
    }

    /// To the next stop (the end of a turn) or back to the one before the game shown.
    pub fn step_turn(&mut self, forward: bool) -> Result<(), String> {
        let target = if forward {
            self.stops.iter().position(|s| *s > self.orders)
        } else {
            self.stops.iter().rposition(|s| *s < self.orders)
        };
        match target {
            Some(stop) => self.go(stop),
            None => Ok(()),
        }
    }

    /// The order that led to the game shown, if any.
    pub fn last_order(&self) -> Option<&G::Order> {
        self.orders.checked_sub(1).and_then(|i| self.save.orders.get(i))
    }
}

/// The replay keys: an order on or back, a turn on or back.
fn step_keys<G: PlayGame>(
    controls: Query<&ActionState<HelpAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    view: Option<ResMut<ReplayView<G>>>,
) {
    let Some(mut view) = view else { return };
    let pressed = |a: HelpAction| help_pressed(&controls, keys.as_deref(), &bindings, &typing, a);
    let step = if pressed(HelpAction::ReplayNextOrder) {
        view.step_order(true)
    } else if pressed(HelpAction::ReplayPreviousOrder) {
        view.step_order(false)
    } else if pressed(HelpAction::ReplayNextTurn) {
        view.step_turn(true)
    } else if pressed(HelpAction::ReplayPreviousTurn) {
        view.step_turn(false)
    } else {
        return;
    };
    if let Err(e) = step {
        warn!("cannot replay: {e}");
    }
}

fn open<G: PlayGame>(
    mut commands: Commands,
    mut opens: MessageReader<OpenReplay<G>>,
    mut screen: ResMut<NextState<Screen>>,
    mut mode: ResMut<NextState<Mode>>,
) {
    for OpenReplay(save) in opens.read() {
        match ReplayView::<G>::new(save.clone()) {
            Ok(view) => {
                commands.insert_resource(view);
                NextState::set_if_neq(&mut mode, G::MODE);
                screen.set(Screen::Replay);
            }
            Err(e) => warn!("cannot replay: {e}"),
        }
    }
}

fn close<G: PlayGame>(mut commands: Commands) {
    commands.remove_resource::<ReplayView<G>>();
}
