//! The battle being shown: the rules engine's `Battle`, owned by the app as a resource.

use bevy::prelude::*;
use rules::tactical::Battle;

/// The battle on screen. The app reads it and sends it orders; nothing else changes it.
#[derive(Resource)]
pub struct Session {
    pub battle: Battle,
}
