//! Command on the board: a star on the counter a formation's general is with (T-CMD-1), and a
//! pennant on each army's headquarters (T-CMD-5), in play and in the replay viewer.

use super::{CELL, cell_to_world, shown, viewer};
use crate::battle::card::{CommandMark, command_marks};
use crate::replay::ReplayView;
use crate::session::{AnimBusy, Session};
use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use rules::tactical::Battle;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_images).add_systems(Update, follow_command.in_set(crate::AppSystems::Visuals));
}

/// The images of the command marks.
#[derive(Resource, Clone)]
pub struct MarkImages {
    pub general: Handle<Image>,
    pub hq: Handle<Image>,
}

fn image(n: u32, f: impl Fn(f32, f32) -> Option<[u8; 4]>) -> Image {
    let mut data = Vec::with_capacity((n * n * 4) as usize);
    for y in 0..n {
        for x in 0..n {
            data.extend_from_slice(&f(x as f32 + 0.5, y as f32 + 0.5).unwrap_or([0, 0, 0, 0]));
        }
    }
    Image::new(
        Extent3d { width: n, height: n, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
}

/// A five-pointed gold star with a dark rim.
pub fn star() -> Image {
    image(16, |x, y| {
        let (dx, dy) = (x - 8.0, y - 8.5);
        let r = (dx * dx + dy * dy).sqrt();
        let a = dy.atan2(dx) + std::f32::consts::FRAC_PI_2;
        // The star's edge: radius swinging between 3 and 7.5 five times around.
        let k = (a * 5.0 / std::f32::consts::TAU).rem_euclid(1.0);
        let edge = 3.2 + 4.6 * (1.0 - 2.0 * (k - 0.5).abs()).powf(1.6);
        if r <= edge - 1.2 {
            Some([255, 214, 64, 255])
        } else if r <= edge {
            Some([60, 40, 10, 255])
        } else {
            None
        }
    })
}

/// A pennant on a staff: the army's headquarters.
pub fn pennant() -> Image {
    image(16, |x, y| {
        if (2.0..4.0).contains(&x) && (1.0..15.0).contains(&y) {
            Some([50, 34, 20, 255])
        } else if x >= 4.0 && (1.5..=9.5).contains(&y) && (x - 4.0) <= 11.0 * (1.0 - ((y - 5.5).abs() / 4.0)) {
            Some([250, 250, 240, 255])
        } else {
            None
        }
    })
}

fn make_images(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(MarkImages { general: images.add(star()), hq: images.add(pennant()) });
}

/// A command mark on the field.
#[derive(Component)]
struct Mark;

/// Redraws the marks when the battle changes (hidden while a move or volley is animated).
#[allow(clippy::too_many_arguments)]
fn follow_command(
    mut commands: Commands,
    session: Option<Res<Session<Battle>>>,
    replay: Option<Res<ReplayView<Battle>>>,
    images: Option<Res<MarkImages>>,
    busy: Res<AnimBusy>,
    old: Query<Entity, With<Mark>>,
    mut last: Local<Option<(usize, bool, bool)>>,
) {
    let battle = shown(session.as_deref(), replay.as_deref());
    let key = battle.map(|b| (b.orders().len(), busy.0, session.is_some()));
    if *last == key && !session.as_ref().is_some_and(|s| s.is_changed()) {
        return;
    }
    *last = key;
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(battle), Some(images)) = (battle, images) else { return };
    if busy.0 {
        return;
    }
    let ctx = battle.ctx();
    let view = viewer(session.as_deref());
    let screen = if session.is_some() { crate::screens::Screen::Playing } else { crate::screens::Screen::Replay };
    for (id, mark) in command_marks(&ctx) {
        let Some(u) = ctx.unit(id).filter(|u| u.status.on_field()) else { continue };
        if view.is_some_and(|v| !ctx.visible_to(u, v)) {
            continue;
        }
        let (image, dx) = match mark {
            CommandMark::General => (images.general.clone(), -0.28),
            CommandMark::Hq => (images.hq.clone(), -0.05),
        };
        let at = cell_to_world(&ctx.grid, u.cell) + Vec2::new(dx * CELL, 0.27 * CELL);
        commands.spawn((
            Name::new("Command mark"),
            Mark,
            DespawnOnExit(screen),
            Sprite { image, custom_size: Some(Vec2::splat(CELL * 0.3)), ..default() },
            Transform::from_translation(at.extend(2.6)),
        ));
    }
}
