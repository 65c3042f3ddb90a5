//! The battle's own orders by key (the shell's actions, [`ShellAction`](crate::input::ShellAction),
//! cover selecting, confirming, ending the turn, undo, the view and the menus).

use crate::input::ActionSet;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

/// What a player can order a unit by key.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum BattleAction {
    TurnLeft,
    TurnRight,
    NextUnit,
    Skirmish,
    Reform,
    ToggleCounterVolley,
    ToggleCounterCharge,
    ToggleIntercept,
    Retreat,
    Capitulate,
}

impl ActionSet for BattleAction {
    const KEYED: &'static [BattleAction] = &[
        BattleAction::TurnLeft,
        BattleAction::TurnRight,
        BattleAction::NextUnit,
        BattleAction::Skirmish,
        BattleAction::Reform,
        BattleAction::ToggleCounterVolley,
        BattleAction::ToggleCounterCharge,
        BattleAction::ToggleIntercept,
        BattleAction::Retreat,
        BattleAction::Capitulate,
    ];

    fn name(self) -> &'static str {
        match self {
            BattleAction::TurnLeft => "TurnLeft",
            BattleAction::TurnRight => "TurnRight",
            BattleAction::NextUnit => "NextUnit",
            BattleAction::Skirmish => "Skirmish",
            BattleAction::Reform => "Reform",
            BattleAction::ToggleCounterVolley => "ToggleCounterVolley",
            BattleAction::ToggleCounterCharge => "ToggleCounterCharge",
            BattleAction::ToggleIntercept => "ToggleIntercept",
            BattleAction::Retreat => "Retreat",
            BattleAction::Capitulate => "Capitulate",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            BattleAction::TurnLeft => &[KeyQ],
            BattleAction::TurnRight => &[KeyE],
            BattleAction::NextUnit => &[Tab],
            BattleAction::Skirmish => &[KeyK],
            BattleAction::Reform => &[KeyJ],
            BattleAction::ToggleCounterVolley => &[KeyV],
            BattleAction::ToggleCounterCharge => &[KeyC],
            BattleAction::ToggleIntercept => &[KeyI],
            BattleAction::Retreat => &[KeyR],
            BattleAction::Capitulate => &[KeyP],
        }
    }
}
