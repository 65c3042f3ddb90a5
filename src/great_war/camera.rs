//! The Great War camera: the board camera (shared with the battle) fitted to the map at the
//! start, panned and zoomed by keys and the wheel, from a few hexes to the whole of Europe.
//! [`BoardView`](super::board::BoardView) tells the board which part of the map is in view and at what zoom.

use super::board::{BoardView, map_rect, shown};
use super::geometry::{HEX_W, hex_to_world};
use super::{Selected, Selection};
use crate::camera::BoardCamera;
use crate::hud::EguiBusy;
use crate::hud::board::{BoardRoom, BoardView as RoomView, FitBoard, fit_scale};
use crate::input::{Controls, KeyBindings, ShellAction as Action, board_zoom, just_pressed};
use crate::replay::ReplayView;
use crate::screens::{Mode, Scene};
use crate::session::Session;
use bevy::camera::ScalingMode;
use bevy::ecs::system::SystemParam;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::ActionState;
use rules::strategic::{GreatWar, HexAt};

pub(super) fn plugin(app: &mut App) {
    crate::hud::frame_stats::script_zooms(app, Mode::GreatWar, &[START_SCALE, MIN_SCALE]);
    app.add_systems(OnEnter(Scene::Playing(Mode::GreatWar)), fit)
        .add_systems(OnEnter(Scene::Replay(Mode::GreatWar)), fit)
        .add_systems(
            Update,
            (control, fit_when_asked, show_selection, close_in_for_recap, follow)
                .chain()
                .in_set(crate::AppSystems::Input)
                .run_if(in_state(Mode::GreatWar)),
        );
    // `KRIEGSSPIEL_FRAME_LOG=1`: the frame times are written to the log every two seconds (for
    // measuring panning on the largest map under Xvfb; see the closing note of issue 14).
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("KRIEGSSPIEL_FRAME_LOG").is_some() {
        app.add_systems(Last, frame_log.run_if(in_state(Mode::GreatWar)));
    }
}

/// Frame times since the last report: count, sum and longest, in seconds.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Default)]
struct FrameLog {
    frames: u32,
    sum: f32,
    longest: f32,
}

#[cfg(not(target_arch = "wasm32"))]
fn frame_log(
    time: Res<Time<Real>>,
    view: Option<Res<BoardView>>,
    chunks: Res<super::board::Chunks>,
    mut log: Local<FrameLog>,
) {
    let dt = time.delta_secs();
    log.frames += 1;
    log.sum += dt;
    log.longest = log.longest.max(dt);
    if log.sum >= 2.0 {
        info!(
            "frames: {} in {:.1} s, mean {:.1} ms, longest {:.1} ms; scale {:.2}, chunks {}",
            log.frames,
            log.sum,
            log.sum * 1000.0 / log.frames as f32,
            log.longest * 1000.0,
            view.map_or(0.0, |v| v.scale),
            chunks.count()
        );
        *log = FrameLog::default();
    }
}

/// The closest zoom: a hex of about 130 pixels.
pub const MIN_SCALE: f32 = 0.25;
/// The farthest: the whole of Europe in the room the panels leave a 1280 × 720 window.
pub const MAX_SCALE: f32 = 64.0;
/// A new game opens at this zoom on its first forces (a hex of about 45 pixels).
pub const START_SCALE: f32 = 0.7;

/// The size of the room the panels leave the board, in logical pixels.
fn room_size(room: &BoardRoom, windows: &Query<&Window>) -> Vec2 {
    room.logical_size(windows.iter().next())
}

/// The whole map in a room of `room` logical pixels: the centre and the zoom.
pub fn fitted_view(map: &rules::strategic::HexMap, room: Vec2) -> (Vec2, f32) {
    let rect = map_rect(map);
    (rect.center(), fit_scale(rect.size(), room).clamp(MIN_SCALE, MAX_SCALE))
}

/// The world rectangle a camera at `centre` and `scale` shows in a room of `room` logical pixels.
pub fn view_rect(centre: Vec2, scale: f32, room: Vec2) -> Rect {
    Rect::from_center_half_size(centre, room * scale / 2.0)
}

/// Opens on the player's first piece (or the middle of the map), at a close zoom.
fn fit(
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut RoomView), With<BoardCamera>>,
) {
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let ctx = game.ctx();
    // The player's own forces (the person at the screen, not the power that moves first), or the
    // active power's when the AI plays every seat.
    let power = session.as_deref().and_then(|s| s.viewer()).unwrap_or_else(|| ctx.active_power());
    let first = ctx.forces.iter().filter(|f| f.power == power).find_map(|f| f.hex());
    let fleet = ctx.navy.fleets.iter().find(|f| f.power == power).map(|f| f.at);
    let at = first.or(fleet).map_or_else(|| map_rect(&game.scenario().map).center(), super::geometry::hex_to_world);
    for (mut tf, mut projection, mut view) in &mut cameras {
        tf.translation = at.extend(tf.translation.z);
        *projection = Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale: START_SCALE,
            ..OrthographicProjection::default_2d()
        });
        // A close view on the first forces: a change of the panels' room keeps it.
        view.fitted = false;
    }
}

/// F, a resized window, or a changed room while the whole map was shown: the whole map again,
/// in the room the panels leave.
fn fit_when_asked(
    mut asked: MessageReader<FitBoard>,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    room: Res<BoardRoom>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut RoomView), With<BoardCamera>>,
) {
    if asked.read().count() == 0 {
        return;
    }
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let (centre, scale) = fitted_view(&game.scenario().map, room_size(&room, &windows));
    for (mut tf, mut projection, mut view) in &mut cameras {
        tf.translation = centre.extend(tf.translation.z);
        if let Projection::Orthographic(o) = &mut *projection {
            o.scale = scale;
        }
        view.fitted = true;
    }
}

/// The mouse as the camera reads it: where it points on the board, and a middle-button drag.
#[derive(SystemParam)]
struct Pointer<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    lens: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<BoardCamera>>,
    busy: Res<'w, EguiBusy>,
    mouse: Option<Res<'w, ButtonInput<MouseButton>>>,
    motion: Option<Res<'w, AccumulatedMouseMotion>>,
}

impl Pointer<'_, '_> {
    /// Where the pointer is on the map, when it is over the board (not over a panel).
    fn on_board(&self) -> Option<Vec2> {
        let (window, (camera, tf)) = (self.windows.single().ok()?, self.lens.single().ok()?);
        let p = window.cursor_position().filter(|_| !self.busy.pointer)?;
        if camera.logical_viewport_rect().is_some_and(|r| !r.contains(p)) {
            return None;
        }
        camera.viewport_to_world_2d(tf, p).ok()
    }

    /// This frame's drag with the middle button, in logical pixels (a left click selects and
    /// orders, so it does not pan).
    fn drag(&self) -> Vec2 {
        match (&self.mouse, &self.motion) {
            (Some(m), Some(d)) if m.pressed(MouseButton::Middle) && !self.busy.pointer => d.delta,
            _ => Vec2::ZERO,
        }
    }
}

/// How far the camera moves for a drag of `drag` logical pixels at zoom `scale`: the map
/// follows the pointer (screen y grows downwards, the world's upwards).
pub fn drag_offset(drag: Vec2, scale: f32) -> Vec2 {
    Vec2::new(-drag.x, drag.y) * scale
}

/// Where the camera goes for a new selection standing on `hexes`: to its first hex when none of
/// them is in `view` (Tab, the army panel, a log line), nowhere when one is (a click on the board).
pub fn selection_target(hexes: &[HexAt], view: Rect) -> Option<HexAt> {
    let first = hexes.first().copied()?;
    (!hexes.iter().any(|h| view.contains(hex_to_world(*h)))).then_some(first)
}

/// The centre that keeps the map point `anchor` under the pointer when the zoom goes from `old`
/// to `new` (the wheel zooms towards the pointer, not the middle of the view).
pub fn anchored_centre(centre: Vec2, anchor: Vec2, old: f32, new: f32) -> Vec2 {
    anchor + (centre - anchor) * (new / old)
}

#[allow(clippy::too_many_arguments)]
fn control(
    time: Res<Time<Real>>,
    controls: Query<&ActionState<Action>, With<Controls>>,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    typing: Res<crate::input::TypingText>,
    (keys, bindings): (Option<Res<ButtonInput<KeyCode>>>, Res<KeyBindings>),
    (mouse, scroll): (Pointer, Option<Res<AccumulatedMouseScroll>>),
    mut fit: MessageWriter<FitBoard>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut RoomView), With<BoardCamera>>,
) {
    let Ok(actions) = controls.single() else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    if typing.0 {
        return;
    }
    let (pointer, drag) = (mouse.on_board(), mouse.drag());
    let rect = map_rect(&game.scenario().map);
    // The frame's time, bounded so a slow frame does not throw the view across the map.
    let dt = time.delta_secs().min(0.1);
    // A press shorter than a frame counts too (see `input::just_pressed`).
    if just_pressed(actions, keys.as_deref(), &bindings, Action::FitField) {
        fit.write(FitBoard);
    }
    for (mut tf, mut projection, mut view) in &mut cameras {
        let Projection::Orthographic(ortho) = &mut *projection else { continue };
        let speed = HEX_W * 14.0 * ortho.scale * dt;
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
        if drag != Vec2::ZERO {
            view.fitted = false;
            tf.translation += drag_offset(drag, ortho.scale).extend(0.0);
        }
        // The wheel over a panel (the log, the legend) scrolls the panel, not the map.
        let (zoom, wheel) = board_zoom(actions, scroll.as_deref(), pointer.is_some(), dt);
        if zoom != 1.0 {
            view.fitted = false;
            let (old, new) = (ortho.scale, (ortho.scale * zoom).clamp(MIN_SCALE, MAX_SCALE));
            if let Some(anchor) = pointer.filter(|_| wheel) {
                let centre = anchored_centre(tf.translation.truncate(), anchor, old, new);
                tf.translation = centre.extend(tf.translation.z);
            }
            ortho.scale = new;
        }
        tf.translation.x = tf.translation.x.clamp(rect.min.x, rect.max.x);
        tf.translation.y = tf.translation.y.clamp(rect.min.y, rect.max.y);
    }
}

/// A selection made off the screen (Tab, the army panel, a log line) brings the camera to it;
/// one in view (a click on the board) leaves the camera where it is.
fn show_selection(
    session: Option<Res<Session<GreatWar>>>,
    selection: Res<Selection>,
    view: Option<Res<BoardView>>,
    mut last: Local<Option<Selected>>,
    mut cameras: Query<(&mut Transform, &mut RoomView), With<BoardCamera>>,
) {
    let Some(session) = session else { return };
    let now = selection.of(&session);
    if now == *last {
        return;
    }
    *last = now;
    let (Some(s), Some(view)) = (now, view) else { return };
    let ctx = session.ctx();
    let hexes = super::overlay::selected_hexes(&ctx, s);
    let Some(first) = selection_target(&hexes, view.rect) else { return };
    for (mut tf, mut room) in &mut cameras {
        tf.translation = hex_to_world(first).extend(tf.translation.z);
        room.fitted = false;
    }
}

/// The zoom the replay of the others' moves closes in to when it starts farther out: corps and
/// their moves' lines can be read (issue 27).
pub const RECAP_SCALE: f32 = 1.2;

/// When the replay of the others' moves starts, a camera farther out than [`RECAP_SCALE`] closes
/// in to it (each step's `LookAt` then centres it on the move).
fn close_in_for_recap(
    recap: Res<super::recap::Recap>,
    mut was: Local<bool>,
    mut cameras: Query<(&mut Projection, &mut RoomView), With<BoardCamera>>,
) {
    let started = recap.playing && !*was;
    *was = recap.playing;
    if !started {
        return;
    }
    for (mut projection, mut view) in &mut cameras {
        if let Projection::Orthographic(o) = &mut *projection
            && o.scale > RECAP_SCALE
        {
            o.scale = RECAP_SCALE;
            view.fitted = false;
        }
    }
}

/// Keeps [`BoardView`] up to date.
fn follow(
    mut commands: Commands,
    windows: Query<&Window>,
    room: Res<BoardRoom>,
    cameras: Query<(&Transform, &Projection), With<BoardCamera>>,
    view: Option<Res<BoardView>>,
) {
    let Ok((tf, Projection::Orthographic(ortho))) = cameras.single() else { return };
    let rect = view_rect(tf.translation.truncate(), ortho.scale, room_size(&room, &windows));
    let now = BoardView { rect, scale: ortho.scale };
    if view.is_none_or(|v| *v != now) {
        commands.insert_resource(now);
    }
}

/// Sets the zoom (for scripted views and tests): `scale` world units per pixel, centred on `at`.
pub fn look_at(at: Vec2, scale: f32, cameras: &mut Query<(&mut Transform, &mut Projection), With<BoardCamera>>) {
    for (mut tf, mut projection) in cameras.iter_mut() {
        tf.translation = at.extend(tf.translation.z);
        if let Projection::Orthographic(o) = &mut *projection {
            o.scale = scale.clamp(MIN_SCALE, MAX_SCALE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27: the wheel zooms towards the pointer: the map point under it stays under it.
    #[test]
    fn the_point_under_the_pointer_stays_under_it_when_zooming() {
        let (centre, anchor, room) = (Vec2::new(100.0, 50.0), Vec2::new(180.0, 10.0), Vec2::new(800.0, 600.0));
        for (old, new) in [(1.0, 0.5), (0.7, 2.1), (4.0, 4.0)] {
            let moved = anchored_centre(centre, anchor, old, new);
            // The pointer's offset from the middle of the room, in pixels, is the same before and after.
            let before = (anchor - centre) / old;
            let after = (anchor - moved) / new;
            assert!((before - after).length() < 1e-4, "{old} → {new}: {before} vs {after}");
            assert!(view_rect(moved, new, room).contains(anchor));
        }
    }

    /// Issue 27, drag panning: the map point under the pointer stays under it as it drags.
    #[test]
    fn a_dragged_map_follows_the_pointer() {
        let (centre, room) = (Vec2::new(300.0, -40.0), Vec2::new(800.0, 600.0));
        // The world point under a pointer at `p` (logical pixels from the room's top left).
        let under =
            |centre: Vec2, scale: f32, p: Vec2| centre + Vec2::new(p.x - room.x / 2.0, room.y / 2.0 - p.y) * scale;
        for (scale, drag) in [(0.7, Vec2::new(35.0, -12.0)), (4.0, Vec2::new(-3.0, 50.0))] {
            let p = Vec2::new(500.0, 200.0);
            let before = under(centre, scale, p);
            let after = under(centre + drag_offset(drag, scale), scale, p + drag);
            assert!((before - after).length() < 1e-3, "{scale}: {before} vs {after}");
        }
    }

    /// Issue 27: a selection off the screen (Tab, the army panel) brings the camera to it, one
    /// in view leaves the camera where it is.
    #[test]
    fn the_camera_goes_to_a_selection_only_when_it_is_out_of_view() {
        let (a, b) = (HexAt::new(10, 10), HexAt::new(40, 10));
        let view = Rect::from_center_half_size(hex_to_world(a), Vec2::splat(HEX_W * 3.0));
        assert_eq!(selection_target(&[a], view), None, "in view");
        assert_eq!(selection_target(&[b], view), Some(b), "out of view");
        assert_eq!(selection_target(&[b, a], view), None, "an army with a corps in view");
        assert_eq!(selection_target(&[], view), None, "off the map");
    }
}
