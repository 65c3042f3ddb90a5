//! The board camera: draws in the room the panels leave (`hud::board`), fits the whole field
//! at the start, on F and when the window changes; pans and zooms by keys and mouse.

use super::{CELL, shown};
use crate::hud::EguiBusy;
use crate::hud::board::{BoardRoom, BoardView, FitBoard, fit_scale};
use crate::input::{Controls, KeyBindings, ShellAction as Action, board_zoom, just_pressed};
use crate::replay::ReplayView;
use crate::screens::Screen;
use crate::session::Session;
use bevy::camera::ScalingMode;
use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::ActionState;
use rules::tactical::Battle as Game;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), fit)
        .add_systems(OnEnter(Screen::Replay), fit)
        .add_systems(Update, (control, fit_when_asked).chain().in_set(crate::AppSystems::Input));
}

pub use crate::camera::BoardCamera;

/// Shows the whole field, centred in the room the panels leave (the camera's viewport).
fn fit(
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    room: Res<BoardRoom>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut BoardView), With<BoardCamera>>,
) {
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else { return };
    let grid = battle.grid();
    let field = Vec2::new(grid.width as f32, grid.height as f32) * CELL;
    let scale = fit_scale(field, room.logical_size(windows.single().ok()));
    for (mut tf, mut projection, mut view) in &mut cameras {
        tf.translation = Vec3::new(0.0, 0.0, tf.translation.z);
        *projection = Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale,
            ..OrthographicProjection::default_2d()
        });
        view.fitted = true;
    }
}

/// F, a resized window, or a changed room of a board that showed the whole field: fit again.
fn fit_when_asked(
    mut asked: MessageReader<FitBoard>,
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    room: Res<BoardRoom>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&mut Transform, &mut Projection, &mut BoardView), With<BoardCamera>>,
) {
    if asked.read().count() > 0 {
        fit(session, replay, room, windows, cameras);
    }
}

#[allow(clippy::too_many_arguments)]
fn control(
    time: Res<Time>,
    controls: Query<&ActionState<Action>, With<Controls>>,
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    (keys, bindings): (Option<Res<ButtonInput<KeyCode>>>, Res<KeyBindings>),
    (scroll, busy): (Option<Res<AccumulatedMouseScroll>>, Option<Res<EguiBusy>>),
    mut fit: MessageWriter<FitBoard>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut BoardView), With<BoardCamera>>,
) {
    let Ok(actions) = controls.single() else { return };
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else { return };
    let grid = battle.grid();
    // A press shorter than a frame counts too (see `input::just_pressed`).
    if just_pressed(actions, keys.as_deref(), &bindings, Action::FitField) {
        fit.write(FitBoard);
    }
    for (mut tf, mut projection, mut view) in &mut cameras {
        let Projection::Orthographic(ortho) = &mut *projection else { continue };
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
        if d != Vec2::ZERO {
            view.fitted = false;
            tf.translation += (d * speed).extend(0.0);
        }
        let half = Vec2::new(grid.width as f32, grid.height as f32) * CELL / 2.0 + CELL * 4.0;
        tf.translation.x = tf.translation.x.clamp(-half.x, half.x);
        tf.translation.y = tf.translation.y.clamp(-half.y, half.y);
        // The wheel over a panel (the log, a card) scrolls the panel, not the field.
        let over_board = !busy.as_ref().is_some_and(|b| b.pointer);
        let (zoom, _) = board_zoom(actions, scroll.as_deref(), over_board, time.delta_secs().min(0.1));
        if zoom != 1.0 {
            view.fitted = false;
            ortho.scale = (ortho.scale * zoom).clamp(0.15, 4.0);
        }
    }
}
