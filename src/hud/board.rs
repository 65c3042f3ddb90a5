//! The board lives in the room the panels leave: every scene's board camera ([`BoardView`])
//! draws into the rectangle its panels did not take (its viewport), so no piece hides under a
//! panel, and the panels are drawn by a camera of their own over the whole window. When the
//! room changes (a panel resized, the window resized) a board still showing the whole field is
//! fitted again ([`FitBoard`]), and so is one after the window is resized.

use bevy::camera::{ClearColorConfig, Viewport};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardRoom>()
        .init_resource::<RoomThisFrame>()
        .add_message::<FitBoard>()
        .add_systems(Startup, spawn_panels_camera)
        .add_systems(Update, fit_on_resize.in_set(crate::AppSystems::Input));
}

/// The part of the window the panels leave to the board, in physical pixels (`None`: the whole
/// window, when no scene's panels are on screen).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct BoardRoom(pub Option<URect>);

impl BoardRoom {
    /// The room's size in logical pixels (the whole window when there is no room set).
    pub fn logical_size(&self, window: Option<&Window>) -> Vec2 {
        let scale = window.map_or(1.0, Window::scale_factor);
        match self.0 {
            Some(r) => r.size().as_vec2() / scale,
            None => window.map_or(Vec2::new(1280.0, 720.0), |w| Vec2::new(w.width(), w.height())),
        }
    }
}

/// The room the scene's panels left this frame (written by [`leave_room`]).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct RoomThisFrame(pub Option<URect>);

/// A scene's board camera: drawn in the [`BoardRoom`]. `fitted` while it shows the whole field
/// as [`FitBoard`] left it (panning or zooming clears it).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardView {
    pub fitted: bool,
}

/// Fit the whole field into the room (the window or the room changed, or F was pressed).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FitBoard;

/// The zoom (world units per logical pixel) that shows a field of `field` world units whole in
/// a room of `room` logical pixels, with a small margin.
pub fn fit_scale(field: Vec2, room: Vec2) -> f32 {
    let room = room.max(Vec2::splat(50.0));
    let field = field * 1.04;
    (field.x / room.x).max(field.y / room.y)
}

/// Called by a scene's panels once its side panels are shown: the rest of `ui` is the board's.
pub fn leave_room(ui: &egui::Ui, room: &mut RoomThisFrame) {
    let r = ui.available_rect_before_wrap();
    let ppp = ui.ctx().pixels_per_point();
    let min = (Vec2::new(r.min.x, r.min.y) * ppp).round().max(Vec2::ZERO);
    let max = (Vec2::new(r.max.x, r.max.y) * ppp).round().max(min);
    room.0 = Some(URect::from_corners(min.as_uvec2(), max.as_uvec2()));
}

/// The board's room in egui points (last frame's, as the panels left it): windows over the board
/// keep inside it, clear of the side panels and the log. The whole screen when no room is set.
pub fn room_in_points(room: &BoardRoom, ctx: &egui::Context) -> egui::Rect {
    let ppp = ctx.pixels_per_point();
    room.0.map_or(ctx.content_rect(), |r| {
        egui::Rect::from_min_max(
            egui::pos2(r.min.x as f32 / ppp, r.min.y as f32 / ppp),
            egui::pos2(r.max.x as f32 / ppp, r.max.y as f32 / ppp),
        )
    })
}

/// The panels' own camera over the whole window; it draws no sprites (a layer nothing is on)
/// and clears nothing, so the board camera's picture stays under the panels.
fn spawn_panels_camera(mut commands: Commands, mut egui: ResMut<EguiGlobalSettings>) {
    egui.auto_create_primary_context = false;
    commands.spawn((
        Name::new("Panels camera"),
        Camera2d,
        Camera { order: 10, clear_color: ClearColorConfig::None, ..default() },
        // As the board camera: egui antialiases its own shapes.
        Msaa::Off,
        bevy::camera::visibility::RenderLayers::layer(31),
        PrimaryEguiContext,
    ));
}

/// Before the panels are drawn: no room is known yet this frame.
pub(super) fn forget_room(mut room: ResMut<RoomThisFrame>) {
    room.0 = None;
}

/// After the panels: the board cameras draw into the room they left; a fitted board re-fits.
pub(super) fn follow_room(
    this_frame: Res<RoomThisFrame>,
    mut room: ResMut<BoardRoom>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut views: Query<(&mut Camera, &BoardView)>,
    mut fit: MessageWriter<FitBoard>,
) {
    let window = windows.single().ok();
    let size = window.map(|w| w.physical_size()).unwrap_or(UVec2::MAX);
    // A room too small to draw in (a panel over the whole window) is no room.
    let now = this_frame.0.map(|r| URect::from_corners(r.min.min(size), r.max.min(size))).filter(|r| {
        let s = r.size();
        s.x >= 16 && s.y >= 16
    });
    if room.0 == now {
        return;
    }
    room.0 = now;
    let viewport = now.map(|r| Viewport { physical_position: r.min, physical_size: r.size(), ..default() });
    let mut refit = false;
    for (mut camera, view) in &mut views {
        camera.viewport = viewport.clone();
        refit |= view.fitted;
    }
    if refit {
        fit.write(FitBoard);
    }
}

/// A resized window shows the whole field again if it showed it before; a view zoomed in on a
/// part of the field stays where it is.
fn fit_on_resize(
    mut resized: MessageReader<WindowResized>,
    views: Query<&BoardView>,
    mut fit: MessageWriter<FitBoard>,
) {
    if resized.read().count() > 0 && views.iter().any(|v| v.fitted) {
        fit.write(FitBoard);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20×10 field of 64-unit cells in a 640×320 room: two world units a pixel, with the 4 %
    /// margin, whichever side limits.
    #[test]
    fn the_field_fits_the_room_by_its_tighter_side() {
        let field = Vec2::new(20.0, 10.0) * 64.0;
        assert!((fit_scale(field, Vec2::new(640.0, 320.0)) - 2.08).abs() < 1e-4);
        assert!((fit_scale(field, Vec2::new(1280.0, 320.0)) - 2.08).abs() < 1e-4, "height limits");
        assert!((fit_scale(field, Vec2::new(640.0, 1000.0)) - 2.08).abs() < 1e-4, "width limits");
    }

    /// Issue 27: a resized window keeps a view zoomed in on a part of the field where it is;
    /// only a board that showed the whole field is fitted again.
    #[test]
    fn a_resize_refits_only_a_board_that_showed_the_whole_field() {
        let mut app = App::new();
        app.add_message::<WindowResized>().add_message::<FitBoard>().add_systems(Update, fit_on_resize);
        let view = app.world_mut().spawn(BoardView { fitted: false }).id();
        let resize = |app: &mut App| {
            app.world_mut().write_message(WindowResized { window: Entity::PLACEHOLDER, width: 1600.0, height: 900.0 });
            app.update();
            let fits = app.world().resource::<Messages<FitBoard>>();
            fits.iter_current_update_messages().count()
        };
        assert_eq!(resize(&mut app), 0, "a zoomed-in view stays");
        app.world_mut().entity_mut(view).insert(BoardView { fitted: true });
        assert_eq!(resize(&mut app), 1, "the whole field again");
    }
}
