//! The battlefield on screen: terrain as a bevy_ecs_tilemap layer, units as counters, overlays
//! for the selected unit, animations of what happened. Everything here reads rules state only.

pub mod anim;
pub mod art;
pub mod camera;
pub mod marks;
pub mod overlay;

use crate::battle::{HoveredCell, Selection};
use crate::hud::EguiBusy;
use crate::replay::ReplayView;
use crate::screens::Screen;
use crate::session::{AnimBusy, Session};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::*;
use rules::tactical::Battle as Game;
use rules::tactical::{Battle, Cell, Dir, GridMap, Side, UnitId, UnitView};
use std::collections::BTreeMap;

/// World units per cell.
pub const CELL: f32 = art::TILE as f32;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((TilemapPlugin, anim::plugin, camera::plugin, overlay::plugin, marks::plugin))
        .init_resource::<Counters>()
        .add_systems(Startup, load_art)
        .add_systems(OnEnter(Screen::Playing), spawn_terrain)
        .add_systems(OnEnter(Screen::Replay), spawn_terrain)
        .add_systems(OnExit(Screen::Playing), clear_counters)
        .add_systems(OnExit(Screen::Replay), clear_counters)
        .add_systems(Update, hover.in_set(crate::AppSystems::Input))
        .add_systems(Update, (follow_terrain, sync_counters).in_set(crate::AppSystems::Visuals));
}

/// The images the board draws with, made in code.
#[derive(Resource, Clone)]
pub struct Art {
    pub tileset: Handle<Image>,
    pub symbols: Vec<(art::Symbol, Handle<Image>)>,
    pub arrow: Handle<Image>,
    pub ring: Handle<Image>,
    pub flag: Handle<Image>,
}

impl Art {
    fn symbol(&self, s: art::Symbol) -> Handle<Image> {
        self.symbols.iter().find(|(k, _)| *k == s).map(|(_, h)| h.clone()).unwrap_or_default()
    }
}

fn load_art(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let symbols = art::Symbol::ALL.iter().map(|s| (*s, images.add(art::symbol(*s)))).collect();
    commands.insert_resource(Art {
        tileset: images.add(art::tileset()),
        symbols,
        arrow: images.add(art::arrow()),
        ring: images.add(art::ring()),
        flag: images.add(art::flag()),
    });
}

/// The battle the board shows: the one in play, or the replay.
pub fn shown<'a>(session: Option<&'a Session<Game>>, replay: Option<&'a ReplayView<Game>>) -> Option<&'a Battle> {
    session.map(|s| &s.game).or_else(|| replay.map(|r| &r.game))
}

/// Whose eyes the board uses (hidden units of the other side are not drawn).
pub fn viewer(session: Option<&Session<Game>>) -> Option<Side> {
    session.and_then(Session::<Game>::viewer)
}

/// World position of a cell's centre (the rules' y grows southwards; on screen y grows upwards).
pub fn cell_to_world(grid: &GridMap, cell: Cell) -> Vec2 {
    let (w, h) = (grid.width as f32, grid.height as f32);
    Vec2::new((cell.x as f32 - (w - 1.0) / 2.0) * CELL, ((h - 1.0) / 2.0 - cell.y as f32) * CELL)
}

/// The cell under a world position.
pub fn world_to_cell(grid: &GridMap, p: Vec2) -> Option<Cell> {
    let (w, h) = (grid.width as f32, grid.height as f32);
    let x = (p.x / CELL + (w - 1.0) / 2.0 + 0.5).floor() as i32;
    let y = ((h - 1.0) / 2.0 - p.y / CELL + 0.5).floor() as i32;
    let cell = Cell::new(x, y);
    grid.contains(cell).then_some(cell)
}

/// A facing as a rotation of an arrow drawn pointing up the screen (north).
pub fn facing_rotation(dir: Dir) -> Quat {
    let angle = match dir {
        Dir::North => 0.0,
        Dir::West => std::f32::consts::FRAC_PI_2,
        Dir::South => std::f32::consts::PI,
        Dir::East => -std::f32::consts::FRAC_PI_2,
    };
    Quat::from_rotation_z(angle)
}

/// The terrain tiles, to follow redoubts built at set-up.
#[derive(Component)]
struct TerrainTile(Cell);

fn spawn_terrain(
    mut commands: Commands,
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    art: Res<Art>,
) {
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else { return };
    let grid = battle.grid().clone();
    let size = TilemapSize { x: grid.width as u32, y: grid.height as u32 };
    let screen = if session.is_some() { Screen::Playing } else { Screen::Replay };
    let tilemap = commands.spawn((Name::new("Terrain"), DespawnOnExit(screen))).id();
    let mut storage = TileStorage::empty(size);
    for cell in grid.cells() {
        let Some(terrain) = grid.terrain(cell) else { continue };
        let position = TilePos { x: cell.x as u32, y: (grid.height - 1 - cell.y) as u32 };
        let tile = commands
            .spawn((
                TileBundle {
                    position,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(art::tile_index(terrain)),
                    ..Default::default()
                },
                TerrainTile(cell),
                DespawnOnExit(screen),
            ))
            .id();
        storage.set(&position, tile);
    }
    let tile_size = TilemapTileSize { x: CELL, y: CELL };
    commands.entity(tilemap).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture: TilemapTexture::Single(art.tileset.clone()),
        tile_size,
        anchor: TilemapAnchor::Center,
        ..Default::default()
    });
}

/// Redoubts built during set-up change the terrain under them.
fn follow_terrain(
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    mut tiles: Query<(&TerrainTile, &mut TileTextureIndex)>,
) {
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else { return };
    let grid = battle.grid();
    for (tile, mut index) in &mut tiles {
        if let Some(t) = grid.terrain(tile.0) {
            let want = art::tile_index(t);
            if index.0 != want {
                index.0 = want;
            }
        }
    }
}

/// A unit counter.
#[derive(Component)]
pub struct Counter {
    pub unit: UnitId,
}

#[derive(Component)]
struct FacingArrow;

#[derive(Component)]
struct HealthBar;

#[derive(Component)]
struct MeleeMark;

#[derive(Component)]
struct RetreatFlag;

#[derive(Component)]
struct SelectionRing;

/// The counter entity of each unit.
#[derive(Resource, Default)]
pub struct Counters(pub BTreeMap<UnitId, Entity>);

fn side_colour(side: Side) -> Color {
    match side {
        Side::Red => Color::srgb(0.70, 0.13, 0.12),
        Side::Blue => Color::srgb(0.15, 0.27, 0.64),
    }
}

fn clear_counters(mut commands: Commands, mut counters: ResMut<Counters>) {
    for (_, e) in std::mem::take(&mut counters.0) {
        commands.entity(e).despawn();
    }
}

fn spawn_counter(commands: &mut Commands, art: &Art, battle: &Battle, u: &UnitView) -> Entity {
    let ctx = battle.ctx();
    let symbol = ctx.unit(u.id).map_or(art::Symbol::Infantry, |s| art::Symbol::of(ctx.ty(s)));
    let at = cell_to_world(battle.grid(), u.cell);
    commands
        .spawn((
            Name::new(format!("Counter {}", u.name)),
            Counter { unit: u.id },
            Sprite::from_color(side_colour(u.side), Vec2::splat(CELL * 0.78)),
            Transform::from_translation(at.extend(2.0)),
            Visibility::Visible,
            children![
                (
                    Sprite {
                        image: art.symbol(symbol),
                        custom_size: Some(Vec2::new(CELL * 0.6, CELL * 0.4)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, CELL * 0.04, 0.1),
                ),
                (
                    FacingArrow,
                    Sprite {
                        image: art.arrow.clone(),
                        custom_size: Some(Vec2::new(CELL * 0.32, CELL * 0.22)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.3),
                ),
                (
                    Sprite::from_color(Color::srgb(0.15, 0.12, 0.1), Vec2::new(CELL * 0.7, CELL * 0.1)),
                    Transform::from_xyz(0.0, -CELL * 0.33, 0.15),
                ),
                (
                    HealthBar,
                    Sprite::from_color(Color::srgb(0.3, 0.85, 0.35), Vec2::new(CELL * 0.7, CELL * 0.08)),
                    Transform::from_xyz(0.0, -CELL * 0.33, 0.2),
                ),
                (
                    MeleeMark,
                    Sprite {
                        image: art.ring.clone(),
                        color: Color::srgb(1.0, 0.55, 0.1),
                        custom_size: Some(Vec2::splat(CELL * 0.9)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.05),
                    Visibility::Hidden,
                ),
                (
                    RetreatFlag,
                    Sprite { image: art.flag.clone(), custom_size: Some(Vec2::splat(CELL * 0.3)), ..default() },
                    Transform::from_xyz(CELL * 0.28, CELL * 0.28, 0.4),
                    Visibility::Hidden,
                ),
                (
                    SelectionRing,
                    Sprite {
                        image: art.ring.clone(),
                        color: Color::srgb(1.0, 0.95, 0.3),
                        custom_size: Some(Vec2::splat(CELL * 1.02)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.45),
                    Visibility::Hidden,
                ),
            ],
        ))
        .id()
}

/// A counter's mark (flag, ring, melee) shown or not. Shown means *inherited*: a counter hidden
/// because its unit left the field or is still to deploy hides its marks too (`Visible` would
/// draw them on their own, on an empty cell or off the board).
pub fn mark(shown: bool) -> Visibility {
    if shown { Visibility::Inherited } else { Visibility::Hidden }
}

/// Puts every counter where the rules say its unit is (while nothing is being animated).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn sync_counters(
    mut commands: Commands,
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    art: Option<Res<Art>>,
    busy: Res<AnimBusy>,
    selection: Res<Selection>,
    mut counters: ResMut<Counters>,
    mut bodies: Query<(&mut Transform, &mut Visibility, &mut Sprite, &Children), With<Counter>>,
    mut parts: Query<
        (
            &mut Transform,
            &mut Visibility,
            &mut Sprite,
            Has<FacingArrow>,
            Has<HealthBar>,
            Has<MeleeMark>,
            Has<RetreatFlag>,
            Has<SelectionRing>,
        ),
        Without<Counter>,
    >,
) {
    let (Some(art), Some(battle)) = (art, shown(session.as_deref(), replay.as_deref())) else { return };
    if busy.0 {
        return;
    }
    let view = viewer(session.as_deref());
    let selected = session.as_deref().and_then(|s| selection.of(s));
    let retreating = battle.ctx().sides.retreating;
    let units = battle.units(view);
    for u in &units {
        counters.0.entry(u.id).or_insert_with(|| spawn_counter(&mut commands, &art, battle, u));
    }
    for (id, e) in &counters.0 {
        let Ok((mut tf, mut vis, mut sprite, children)) = bodies.get_mut(*e) else { continue };
        let Some(u) = units.iter().find(|u| u.id == *id) else {
            *vis = Visibility::Hidden;
            continue;
        };
        let on = u.status == "active";
        *vis = if on { Visibility::Visible } else { Visibility::Hidden };
        tf.translation = cell_to_world(battle.grid(), u.cell).extend(2.0);
        tf.rotation = Quat::IDENTITY;
        let alpha = if u.hidden { 0.55 } else { 1.0 };
        sprite.color = side_colour(u.side).with_alpha(alpha);
        let share = (u.health.max(0) as f32 / u.max_health.max(1) as f32).clamp(0.0, 1.0);
        for child in children.iter() {
            let Ok((mut ctf, mut cvis, mut csprite, arrow, bar, melee, flag, ring)) = parts.get_mut(child) else {
                continue;
            };
            if arrow {
                ctf.rotation = facing_rotation(u.facing);
                let (dx, dy) = u.facing.delta();
                ctf.translation = Vec3::new(dx as f32 * CELL * 0.27, -dy as f32 * CELL * 0.27, 0.3);
            } else if bar {
                csprite.custom_size = Some(Vec2::new(CELL * 0.7 * share, CELL * 0.08));
                ctf.translation.x = -CELL * 0.35 * (1.0 - share);
                csprite.color = if share > 0.5 {
                    Color::srgb(0.3, 0.85, 0.35)
                } else if share > 0.25 {
                    Color::srgb(0.95, 0.75, 0.2)
                } else {
                    Color::srgb(0.9, 0.25, 0.2)
                };
            } else if melee {
                *cvis = mark(u.in_melee || u.disorganized);
                csprite.color = if u.disorganized { Color::srgb(0.6, 0.6, 0.6) } else { Color::srgb(1.0, 0.55, 0.1) };
            } else if flag {
                *cvis = mark(retreating[u.side.index()]);
            } else if ring {
                *cvis = mark(selected == Some(u.id));
            }
        }
    }
}

/// The cell under the pointer (none while the pointer is over a panel).
fn hover(
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<camera::BoardCamera>>,
    egui: Res<EguiBusy>,
    mut hovered: ResMut<HoveredCell>,
) {
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else {
        hovered.0 = None;
        return;
    };
    let cell = (|| {
        if egui.pointer {
            return None;
        }
        let window = windows.single().ok()?;
        let cursor = window.cursor_position()?;
        let (camera, at) = cameras.single().ok()?;
        let world = camera.viewport_to_world_2d(at, cursor).ok()?;
        world_to_cell(battle.grid(), world)
    })();
    if hovered.0 != cell {
        hovered.0 = cell;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Seat;
    use bevy::input::InputPlugin;
    use bevy::state::app::StatesPlugin;
    use rules::tactical::Status;

    /// A counter hidden because its unit is still to deploy (or has left the field) shows none
    /// of its marks: the selection bracket of an undeployed unit was drawn off the board, and a
    /// retreating army's flags on the empty cells of units gone.
    #[test]
    fn the_marks_of_a_hidden_counter_are_hidden_with_it() {
        crate::storage::use_dir(std::env::temp_dir().join(format!("kriegsspiel-marks-{}", std::process::id())));
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, crate::logic_plugin));
        app.insert_resource(Art {
            tileset: Handle::default(),
            symbols: Vec::new(),
            arrow: Handle::default(),
            ring: Handle::default(),
            flag: Handle::default(),
        })
        .init_resource::<Counters>()
        .add_systems(Update, sync_counters);
        app.update();
        let scenario = rules::testing::shipped("open_field");
        app.world_mut().write_message(crate::battle::StartBattle {
            scenario,
            seed: 1,
            seats: vec![Seat::Human, Seat::Human],
        });
        for _ in 0..3 {
            app.update();
        }
        let session = app.world().resource::<Session<Game>>();
        let ctx = session.ctx();
        let waiting = ctx.units.iter().find(|u| u.status == Status::Undeployed).map(|u| u.id).expect("one to deploy");
        let mut selection = Selection::default();
        selection.set(Some(waiting), session);
        app.world_mut().insert_resource(selection);
        app.update();
        let counter = app.world().resource::<Counters>().0[&waiting];
        assert_eq!(app.world().get::<Visibility>(counter), Some(&Visibility::Hidden), "not on the field");
        let children: Vec<Entity> = app.world().get::<Children>(counter).expect("marks").iter().collect();
        let rings: Vec<Visibility> = children
            .iter()
            .filter(|c| app.world().get::<SelectionRing>(**c).is_some())
            .filter_map(|c| app.world().get::<Visibility>(*c).copied())
            .collect();
        assert_eq!(rings, vec![Visibility::Inherited], "selected, and hidden with its counter");
        for c in children {
            assert_ne!(app.world().get::<Visibility>(c), Some(&Visibility::Visible), "no mark shows on its own");
        }
    }
}
