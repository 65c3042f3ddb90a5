//! The campaign's own orders by key (the shell's actions cover selecting, confirming, ending
//! the turn, undo, the view and the menus).

use crate::input::ActionSet;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

/// What a player can order an army by key.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum CampaignAction {
    /// Select the next army of the side to move.
    NextArmy,
    /// Give or cancel the selected army's intercept order (T-STRAT-2).
    ToggleInterceptArmy,
    /// Detach the second half of the selected army's units as a new army.
    SplitArmy,
    /// Join the selected army to another of its side in the same hex.
    MergeArmy,
}

impl ActionSet for CampaignAction {
    const KEYED: &'static [CampaignAction] = &[
        CampaignAction::NextArmy,
        CampaignAction::ToggleInterceptArmy,
        CampaignAction::SplitArmy,
        CampaignAction::MergeArmy,
    ];

    fn name(self) -> &'static str {
        match self {
            CampaignAction::NextArmy => "NextArmy",
            CampaignAction::ToggleInterceptArmy => "ToggleInterceptArmy",
            CampaignAction::SplitArmy => "SplitArmy",
            CampaignAction::MergeArmy => "MergeArmy",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            CampaignAction::NextArmy => &[Tab],
            CampaignAction::ToggleInterceptArmy => &[KeyI],
            CampaignAction::SplitArmy => &[KeyX],
            CampaignAction::MergeArmy => &[KeyM],
        }
    }
}
