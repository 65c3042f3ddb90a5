//! Player settings: language, turn timer, animation speed, key bindings; kept between sessions.

use crate::i18n::Lang;
use crate::input::Binding;
use crate::storage;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(storage::load_settings().unwrap_or_default()).add_systems(Last, persist);
}

/// How fast moves, volleys and melee are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnimSpeed {
    Slow,
    #[default]
    Normal,
    Fast,
    /// No animation at all.
    Instant,
}

impl AnimSpeed {
    pub const ALL: [AnimSpeed; 4] = [AnimSpeed::Slow, AnimSpeed::Normal, AnimSpeed::Fast, AnimSpeed::Instant];

    /// Seconds of one animation step.
    pub fn step_seconds(self) -> f32 {
        match self {
            AnimSpeed::Slow => 0.6,
            AnimSpeed::Normal => 0.3,
            AnimSpeed::Fast => 0.12,
            AnimSpeed::Instant => 0.0,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            AnimSpeed::Slow => "ui.anim.slow",
            AnimSpeed::Normal => "ui.anim.normal",
            AnimSpeed::Fast => "ui.anim.fast",
            AnimSpeed::Instant => "ui.anim.instant",
        }
    }
}

/// Everything the player sets.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub lang: Lang,
    /// T-TURN-2: 20 s a turn (15 s in small battles), 2 minutes to deploy (T-SETUP-1).
    pub turn_timer: bool,
    pub anim: AnimSpeed,
    /// Keys of each action (mouse buttons stay as they are).
    pub bindings: Vec<Binding>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lang: Lang::default(),
            turn_timer: false,
            anim: AnimSpeed::default(),
            bindings: crate::input::default_bindings(),
        }
    }
}

fn persist(settings: Res<Settings>) {
    if settings.is_changed() && !settings.is_added() {
        storage::save_settings(&settings);
    }
}
