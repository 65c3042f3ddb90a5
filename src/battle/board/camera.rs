//! The board camera: fits the whole field at the start; pans and zooms by keys and mouse.

use super::{CELL, shown};
use crate::input::{Controls, ShellAction as Action};
use crate::replay::ReplayView;
use crate::screens::Screen;
use crate::session::Session;
use bevy::camera::ScalingMode;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::tactical::Battle as Game;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), fit)
        .add_systems(OnEnter(Screen::Replay), fit)
        .add_systems(Update, control.in_set(crate::AppSystems::Input));
}

pub use crate::camera::BoardCamera;

/// Screen room the panels take around the board, in logical pixels (left, right, top, bottom).
const PANELS: (f32, f32, f32, f32) = (250.0, 380.0, 26.0, 60.0);

/// The zoom and position that show the whole field in the room the panels leave.
fn fitted(grid: &rules::tactical::GridMap, window: Vec2) -> (f32, Vec2) {
    let (left, right, top, bottom) = PANELS;
    let room = Vec2::new((window.x - left - right).max(200.0), (window.y - top - bottom).max(150.0));
    let field = Vec2::new(grid.width as f32, grid.height as f32) * CELL * 1.04;
    let scale = (field.x / room.x).max(field.y / room.y);
    // Move the camera so the field's centre sits in the middle of the room.
    let offset = Vec2::new((right - left) / 2.0, (bottom - top) / 2.0) * scale;
    (scale, Vec2::new(offset.x, -offset.y))
}

fn fit(
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else { return };
    let window = windows.iter().next().map_or(Vec2::new(1280.0, 720.0), |w| Vec2::new(w.width(), w.height()));
    let (scale, at) = fitted(battle.grid(), window);
    for (mut tf, mut projection) in &mut cameras {
        tf.translation = at.extend(tf.translation.z);
        *projection = Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale,
            ..OrthographicProjection::default_2d()
        });
    }
}

fn control(
    time: Res<Time>,
    controls: Query<&ActionState<Action>, With<Controls>>,
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let Ok(actions) = controls.single() else { return };
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else { return };
    let grid = battle.grid();
    for (mut tf, mut projection) in &mut cameras {
        let Projection::Orthographic(ortho) = &mut *projection else { continue };
        if actions.just_pressed(&Action::FitField) {
            let window = windows.iter().next().map_or(Vec2::new(1280.0, 720.0), |w| Vec2::new(w.width(), w.height()));
            let (scale, at) = fitted(grid, window);
            ortho.scale = scale;
            tf.translation = at.extend(tf.translation.z);
        }
        let speed = CELL * 12.0 * ortho.scale * time.delta_secs();
        let mut d = Vec2::ZERO;
        for (action, v) in [
            (Action::PanUp, Vec2::Y),
            (Action::PanDown, -Vec2::Y),
            (Action::PanLeft, -Vec2::X),
            (Action::PanRight, Vec2::X),
        ] {
            if actions.pressed(&action) {
                d += v;
            }
        }
        tf.translation += (d * speed).extend(0.0);
        let half = Vec2::new(grid.width as f32, grid.height as f32) * CELL / 2.0 + CELL * 4.0;
        tf.translation.x = tf.translation.x.clamp(-half.x, half.x);
        tf.translation.y = tf.translation.y.clamp(-half.y, half.y);
        let mut zoom = actions.value(&Action::Zoom) * 0.1;
        if actions.pressed(&Action::ZoomIn) {
            zoom += 1.5 * time.delta_secs();
        }
        if actions.pressed(&Action::ZoomOut) {
            zoom -= 1.5 * time.delta_secs();
        }
        if zoom != 0.0 {
            ortho.scale = (ortho.scale * (1.0 - zoom)).clamp(0.15, 4.0);
        }
    }
}
