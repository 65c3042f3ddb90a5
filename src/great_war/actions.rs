//! The Great War's own orders by key (the shell's actions cover selecting, confirming, ending the
//! phase, undo, the view and the menus).

use crate::input::ActionSet;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

/// What a player can order by key in the Great War.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum GwAction {
    /// The next own piece that can still move.
    NextPiece,
    /// Take the whole army of the selected corps in hand (S-ARMY-3).
    WholeArmy,
    /// Fire gas shells instead of high explosive (S-CHEM-3).
    ToggleGas,
    /// Build or raise a fortification on the selected piece's hex (S-FORT-1).
    Fortify,
    /// The terrain view instead of the political map, and back (issue 27).
    TerrainView,
}

impl ActionSet for GwAction {
    const KEYED: &'static [GwAction] =
        &[GwAction::NextPiece, GwAction::WholeArmy, GwAction::ToggleGas, GwAction::Fortify, GwAction::TerrainView];

    fn name(self) -> &'static str {
        match self {
            GwAction::NextPiece => "GwNextPiece",
            GwAction::WholeArmy => "GwWholeArmy",
            GwAction::ToggleGas => "GwToggleGas",
            GwAction::Fortify => "GwFortify",
            GwAction::TerrainView => "GwTerrainView",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            GwAction::NextPiece => &[Tab],
            GwAction::WholeArmy => &[KeyY],
            GwAction::ToggleGas => &[KeyG],
            GwAction::Fortify => &[KeyB],
            GwAction::TerrainView => &[KeyT],
        }
    }
}
