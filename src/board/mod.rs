//! The battlefield: terrain as a bevy_ecs_tilemap layer and units as counters, read from the
//! rules state (never changed here).

pub mod art;

use crate::session::Session;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use rules::tactical::{Cell, Dir, Side};

/// World units per cell.
pub const CELL: f32 = art::TILE as f32;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TilemapPlugin).add_systems(Startup, (spawn_terrain, spawn_counters, fit_camera));
}

/// World position of a cell's centre (y grows southwards in the rules, upwards on screen).
pub fn cell_to_world(session: &Session, cell: Cell) -> Vec2 {
    let grid = session.battle.grid();
    let (w, h) = (grid.width as f32, grid.height as f32);
    Vec2::new((cell.x as f32 - (w - 1.0) / 2.0) * CELL, ((h - 1.0) / 2.0 - cell.y as f32) * CELL)
}

fn spawn_terrain(mut commands: Commands, session: Res<Session>, mut images: ResMut<Assets<Image>>) {
    let grid = session.battle.grid();
    let size = TilemapSize { x: grid.width as u32, y: grid.height as u32 };
    let tilemap = commands.spawn(Name::new("Terrain")).id();
    let mut storage = TileStorage::empty(size);
    for cell in grid.cells() {
        let Some(terrain) = grid.terrain(cell) else { continue };
        // Tile y runs upwards; the rules' y runs southwards.
        let position = TilePos { x: cell.x as u32, y: (grid.height - 1 - cell.y) as u32 };
        let tile = commands
            .spawn(TileBundle {
                position,
                tilemap_id: TilemapId(tilemap),
                texture_index: TileTextureIndex(art::tile_index(terrain)),
                ..Default::default()
            })
            .id();
        storage.set(&position, tile);
    }
    let tile_size = TilemapTileSize { x: CELL, y: CELL };
    commands.entity(tilemap).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture: TilemapTexture::Single(images.add(art::tileset())),
        tile_size,
        anchor: TilemapAnchor::Center,
        ..Default::default()
    });
}

/// A unit counter: side colour, a facing marker and a health bar.
#[derive(Component)]
pub struct Counter;

fn side_colour(side: Side) -> Color {
    match side {
        Side::Red => Color::srgb(0.72, 0.12, 0.12),
        Side::Blue => Color::srgb(0.14, 0.26, 0.66),
    }
}

fn spawn_counters(mut commands: Commands, session: Res<Session>) {
    for unit in session.battle.units(None).into_iter().filter(|u| u.status == "active") {
        let at = cell_to_world(&session, unit.cell);
        let (dx, dy) = match unit.facing {
            Dir::North => (0.0, 1.0),
            Dir::South => (0.0, -1.0),
            Dir::East => (1.0, 0.0),
            Dir::West => (-1.0, 0.0),
        };
        let share = unit.health.max(0) as f32 / unit.max_health.max(1) as f32;
        commands.spawn((
            Name::new(unit.name.clone()),
            Counter,
            Sprite::from_color(side_colour(unit.side), Vec2::splat(CELL * 0.72)),
            Transform::from_translation(at.extend(1.0)),
            children![
                (
                    Sprite::from_color(Color::srgb(0.95, 0.9, 0.7), Vec2::splat(CELL * 0.2)),
                    Transform::from_xyz(dx * CELL * 0.26, dy * CELL * 0.26, 0.1),
                ),
                (
                    Sprite::from_color(Color::srgb(0.2, 0.85, 0.3), Vec2::new(CELL * 0.7 * share, CELL * 0.08)),
                    Transform::from_xyz(-CELL * 0.35 * (1.0 - share), -CELL * 0.42, 0.2),
                ),
            ],
        ));
    }
}

fn fit_camera(mut commands: Commands, session: Res<Session>) {
    let grid = session.battle.grid();
    commands.spawn((
        Name::new("Camera"),
        Camera2d,
        Projection::from(OrthographicProjection {
            scaling_mode: bevy::camera::ScalingMode::AutoMin {
                min_width: grid.width as f32 * CELL * 1.05,
                min_height: grid.height as f32 * CELL * 1.05,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
}
