//! The replay viewer, for every scene: a saved game, stepped through turn by turn (by its
//! recorded state hashes, so every step is checked as it is rebuilt). The scene draws the game
//! at the stop shown and the bar that moves between stops.

use crate::screens::{Mode, Screen};
use crate::session::PlayGame;
use bevy::prelude::*;
use rules::Save;

pub(crate) fn plugin_for<G: PlayGame>(app: &mut App) {
    app.add_message::<OpenReplay<G>>()
        .add_systems(Update, open::<G>.in_set(crate::AppSystems::Logic))
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
    pub game: G,
}

impl<G: PlayGame> ReplayView<G> {
    pub fn new(save: Save<G>) -> Result<ReplayView<G>, String> {
        let mut stops: Vec<usize> = save.checkpoints.iter().map(|c| c.after).collect();
        stops.push(save.orders.len());
        stops.sort_unstable();
        stops.dedup();
        let game = G::replay_until(&save, stops[0]).map_err(|e| e.to_string())?;
        Ok(ReplayView { save, stops, at: 0, game })
    }

    /// Moves to another stop.
    pub fn go(&mut self, stop: usize) -> Result<(), String> {
        let stop = stop.min(self.stops.len() - 1);
        self.game = G::replay_until(&self.save, self.stops[stop]).map_err(|e| e.to_string())?;
        self.at = stop;
        Ok(())
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
