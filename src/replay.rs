//! The replay viewer: a saved battle, stepped through turn by turn (by its recorded state
//! hashes, so every step is checked as it is rebuilt).

use crate::screens::Screen;
use bevy::prelude::*;
use rules::Game;
use rules::tactical::{Battle, ReplayError, SaveGame};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<OpenReplay>()
        .add_systems(Update, open.in_set(crate::AppSystems::Logic))
        .add_systems(OnExit(Screen::Replay), close);
}

/// Show a saved battle.
#[derive(Message, Clone, Debug)]
pub struct OpenReplay(pub SaveGame);

/// The battle being replayed, at one of its stops.
#[derive(Resource)]
pub struct ReplayView {
    pub save: SaveGame,
    /// Orders applied at each stop: the start, then the end of every turn.
    pub stops: Vec<usize>,
    pub at: usize,
    pub battle: Battle,
}

impl ReplayView {
    pub fn new(save: SaveGame) -> Result<ReplayView, ReplayError> {
        let mut stops: Vec<usize> = save.checkpoints.iter().map(|c| c.after).collect();
        stops.push(save.orders.len());
        stops.sort_unstable();
        stops.dedup();
        let battle = Battle::replay_until(&save, stops[0])?;
        Ok(ReplayView { save, stops, at: 0, battle })
    }

    /// Moves to another stop.
    pub fn go(&mut self, stop: usize) -> Result<(), ReplayError> {
        let stop = stop.min(self.stops.len() - 1);
        self.battle = Battle::replay_until(&self.save, self.stops[stop])?;
        self.at = stop;
        Ok(())
    }
}

fn open(mut commands: Commands, mut opens: MessageReader<OpenReplay>, mut screen: ResMut<NextState<Screen>>) {
    for OpenReplay(save) in opens.read() {
        match ReplayView::new(save.clone()) {
            Ok(view) => {
                commands.insert_resource(view);
                screen.set(Screen::Replay);
            }
            Err(e) => warn!("cannot replay: {e}"),
        }
    }
}

fn close(mut commands: Commands) {
    commands.remove_resource::<ReplayView>();
}
