//! The camera that looks at a board, shared by every scene: spawned once; each scene fits, pans
//! and zooms it over its own board.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera);
}

/// The camera that looks at the board.
#[derive(Component)]
pub struct BoardCamera;

fn spawn_camera(mut commands: Commands) {
    // No multisampling: the boards are textured quads whose edges are in their art, and 4× samples
    // cost four times the fill on a software renderer or a weak GPU (the browser's WebGL).
    commands.spawn((
        Name::new("Board camera"),
        BoardCamera,
        crate::hud::board::BoardView { fitted: true },
        Camera2d,
        Msaa::Off,
    ));
}
