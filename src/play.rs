//! The play machinery a scene's game gets from the shell, in one call: [`plugin_for`] adds its
//! session (start, load, undo, hand-over, autosave, result screen), the AI's turns, the replay
//! viewer, its saves, and the opening of its saves from the menus.

use crate::replay::OpenReplay;
use crate::saves::{self, OpenSave};
use crate::session::{LoadGame, PlayGame};
use bevy::prelude::*;
use rules::Save;

/// Everything the shell does for a scene's game `G`.
pub fn plugin_for<G: PlayGame>(app: &mut App) {
    crate::session::plugin_for::<G>(app);
    crate::ai_turns::plugin_for::<G>(app);
    crate::replay::plugin_for::<G>(app);
    saves::register::<Save<G>>(app);
    app.add_systems(Update, open_saves::<G>.in_set(crate::AppSystems::Logic));
}

/// A save of this scene opened from the menus: continued, or watched in the replay viewer. A save
/// whose scenario's files the browser has not fetched yet waits for them on the loading screen.
fn open_saves<G: PlayGame>(
    mut opens: MessageReader<OpenSave>,
    mut loads: MessageWriter<LoadGame<G>>,
    mut replays: MessageWriter<OpenReplay<G>>,
    mut commands: Commands,
    mut screen: ResMut<NextState<crate::screens::Screen>>,
) {
    for open in opens.read().filter(|o| o.mode == G::MODE) {
        if let Some(wanted) = saves::fetch_first_of::<Save<G>>(&open.name, &open.text) {
            // No scenario was chosen: the loading screen only fetches.
            commands.remove_resource::<crate::catalog::Chosen>();
            commands.insert_resource(crate::catalog::ParkedSave { open: open.clone(), files: wanted.files });
            screen.set(crate::screens::Screen::Loading);
            continue;
        }
        match saves::saved_game_from_text::<Save<G>>(&open.name, &open.text) {
            Ok(game) if open.replay => {
                replays.write(OpenReplay(game.save));
            }
            Ok(game) => {
                loads.write(LoadGame(game));
            }
            Err(e) => warn!("could not open the save: {e}"),
        }
    }
}
