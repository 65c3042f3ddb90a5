//! The Great War map on screen. The map can hold 700,000 hexes (Europe 1914), so it is never
//! spawned whole: it is cut into chunks of [`CHUNK`] × [`CHUNK`] hexes, each its own
//! bevy_ecs_tilemap layer with a mesh of its rivers (with bridges), roads, railways, borders,
//! occupation, cities, fortresses and ports, spawned when it comes into view and despawned when
//! it leaves. Under them lies the overview, one image of the whole map at a pixel per hex, which
//! alone is drawn at far zoom. Everything here reads rules state only.

use super::HoveredHex;
use super::art;
use super::geometry::{HEX_H, HEX_W, ROW_STEP, hex_to_world, hexside, world_to_hex};
use super::political::{self, MapView, Overview};
use crate::hud::EguiBusy;
use crate::replay::ReplayView;
use crate::screens::{Mode, Scene, Screen};
use crate::session::Session;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::*;
use rules::strategic::hexmap::flag;
use rules::strategic::state::ProvinceState;
use rules::strategic::{GreatWar, HexAt, HexMap, Scenario};
use std::collections::BTreeMap;

/// Hexes per side of a chunk (even, so a chunk's rows keep the map's odd-row shift).
pub const CHUNK: i32 = 64;
/// Beyond this camera scale (a hex under about six pixels) only the overview is drawn.
pub const OVERVIEW_SCALE: f32 = 5.0;
/// A view of at most this many chunks is drawn in chunks at any zoom.
const SMALL_MAP_CHUNKS: usize = 9;
/// Chunks spawned per frame at most, so panning into new country never stalls a frame.
const SPAWNS_PER_FRAME: usize = 2;

pub(super) fn plugin(app: &mut App) {
    if !app.is_plugin_added::<TilemapPlugin>() {
        app.add_plugins(TilemapPlugin);
    }
    app.init_resource::<Chunks>()
        .add_systems(Startup, load_art)
        .add_systems(OnEnter(Scene::Playing(Mode::GreatWar)), spawn_overview)
        .add_systems(OnEnter(Scene::Replay(Mode::GreatWar)), spawn_overview)
        .add_systems(OnExit(Scene::Playing(Mode::GreatWar)), forget_chunks)
        .add_systems(OnExit(Scene::Replay(Mode::GreatWar)), forget_chunks)
        .add_systems(Update, hover.in_set(crate::AppSystems::Input).run_if(in_state(Mode::GreatWar)))
        .add_systems(Update, follow_view.in_set(crate::AppSystems::Visuals).run_if(in_state(Mode::GreatWar)));
}

/// What the camera shows of the world (kept by the camera).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardView {
    pub rect: Rect,
    pub scale: f32,
}

/// The images the board draws with, made in code.
#[derive(Resource, Clone)]
pub struct GwArt {
    pub tileset: Handle<Image>,
    pub hex_fill: Handle<Image>,
    pub hex_ring: Handle<Image>,
    pub white: Handle<Image>,
    pub mine: Handle<Image>,
    pub features: Handle<ColorMaterial>,
}

fn load_art(mut commands: Commands, mut images: ResMut<Assets<Image>>, mut materials: ResMut<Assets<ColorMaterial>>) {
    commands.insert_resource(GwArt {
        tileset: images.add(art::tileset()),
        hex_fill: images.add(art::hex_fill()),
        hex_ring: images.add(art::hex_ring()),
        white: images.add(art::white()),
        mine: images.add(art::mine()),
        features: materials.add(ColorMaterial::from(Color::WHITE)),
    });
}

/// The game the board shows: the one in play, or the replay.
pub fn shown<'a>(
    session: Option<&'a Session<GreatWar>>,
    replay: Option<&'a ReplayView<GreatWar>>,
) -> Option<&'a GreatWar> {
    session.map(|s| &s.game).or_else(|| replay.map(|r| &r.game))
}

/// The chunks on screen, by chunk column and row, and what they were drawn from.
#[derive(Resource, Default)]
pub struct Chunks {
    pub spawned: BTreeMap<(i32, i32), Entity>,
    /// The occupation they show: when it changes they are drawn again.
    occupation: Vec<ProvinceState>,
    /// The political map they show (none in the terrain view), and who was at war with whom
    /// when it was gathered: when either changes they are drawn again.
    pub politics: Option<political::Politics>,
    wars: Vec<political::WarState>,
}

impl Chunks {
    pub fn count(&self) -> usize {
        self.spawned.len()
    }
}

/// The scene the board's entities belong to.
fn scene_of(session: bool) -> Scene {
    if session { Scene::Playing(Mode::GreatWar) } else { Scene::Replay(Mode::GreatWar) }
}

/// Where the map lies in the world: its hexes' centres from (0, 0) eastwards and southwards.
pub fn map_rect(map: &HexMap) -> Rect {
    let w = map.width as f32 * HEX_W + HEX_W / 2.0;
    let h = (map.height.max(1) - 1) as f32 * ROW_STEP + HEX_H;
    Rect::from_corners(Vec2::new(-HEX_W / 2.0, HEX_H / 2.0), Vec2::new(w - HEX_W / 2.0, HEX_H / 2.0 - h))
}

fn spawn_overview(
    mut commands: Commands,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    mut images: ResMut<Assets<Image>>,
    mut chunks: ResMut<Chunks>,
) {
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let map = &game.scenario().map;
    let rect = map_rect(map);
    chunks.spawned.clear();
    commands.spawn((
        Name::new("Overview"),
        Overview,
        Sprite { image: images.add(art::overview(map)), custom_size: Some(rect.size()), ..default() },
        Transform::from_translation(rect.center().extend(-10.0)),
        DespawnOnExit(scene_of(session.is_some())),
    ));
}

fn forget_chunks(mut chunks: ResMut<Chunks>) {
    *chunks = Chunks::default();
}

/// Spawns the chunks that come into view (at most a few a frame), despawns those that left it,
/// and draws them again when the occupation they show changes.
#[allow(clippy::too_many_arguments)]
fn follow_view(
    mut commands: Commands,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    view: Option<Res<BoardView>>,
    art: Option<Res<GwArt>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut chunks: ResMut<Chunks>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    mut cameras: Query<&mut Transform, With<crate::camera::BoardCamera>>,
    map_view: Option<Res<MapView>>,
    overview: Query<&mut Sprite, With<Overview>>,
    mut images: ResMut<Assets<Image>>,
) {
    let (Some(view), Some(art)) = (view, art) else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    // The occupation of record, read in place (a working copy of the whole state each frame
    // would cost more than the board).
    let provinces = rules::strategic::query::provinces(game);
    let wars = political::war_state(rules::strategic::query::powers(game));
    let political = map_view.is_none_or(|v| *v == MapView::Political);
    if chunks.occupation != provinces || chunks.wars != wars || chunks.politics.is_some() != political {
        for (_, e) in std::mem::take(&mut chunks.spawned) {
            commands.entity(e).despawn();
        }
        chunks.occupation = provinces.to_vec();
        chunks.wars = wars;
        chunks.politics = political.then(|| political::Politics::of(&game.ctx()));
        political::redraw_overview(overview, &mut images, &game.scenario().map, chunks.politics.as_ref());
    }
    let map = &game.scenario().map;
    // Far out the overview alone is drawn, unless the map is small enough to be drawn in chunks
    // whole (a hex of a few pixels still reads better as a hex than as a pixel of the overview).
    let keys = chunks_in(map, view.rect);
    let wanted = if view.scale > OVERVIEW_SCALE && keys.len() > SMALL_MAP_CHUNKS { Vec::new() } else { keys };
    let gone: Vec<(i32, i32)> = chunks.spawned.keys().filter(|k| !wanted.contains(k)).copied().collect();
    for key in gone {
        if let Some(e) = chunks.spawned.remove(&key) {
            commands.entity(e).despawn();
        }
    }
    let scene = scene_of(session.is_some());
    let mut spawned = 0;
    for key in wanted {
        if chunks.spawned.contains_key(&key) || spawned >= SPAWNS_PER_FRAME {
            continue;
        }
        let e = spawn_chunk(&mut commands, &mut meshes, &art, game.scenario(), &chunks.occupation, key, scene);
        if let Some(politics) = &chunks.politics {
            political::spawn_chunk_politics(
                &mut commands,
                &mut meshes,
                &art.features,
                &game.scenario().map,
                politics,
                (key, CHUNK),
                e,
            );
        }
        chunks.spawned.insert(key, e);
        spawned += 1;
    }
    // Chunks still to come: the next frame comes at once, not when the idle window next wakes
    // (a zoom alone left the view on the overview for seconds).
    if spawned >= SPAWNS_PER_FRAME {
        redraw.write(bevy::window::RequestRedraw);
    }
    // New chunks are drawn once the camera is seen to move (the tilemap's culling follows it): a
    // zoom alone left them out until the next pan.
    if spawned > 0 {
        for mut tf in &mut cameras {
            tf.set_changed();
        }
    }
}

/// The chunks a world rectangle touches (with a margin of half a chunk), nearest the centre first.
pub fn chunks_in(map: &HexMap, rect: Rect) -> Vec<(i32, i32)> {
    let margin = Vec2::new(HEX_W, ROW_STEP) * (CHUNK as f32 / 2.0);
    let a = world_to_hex(Vec2::new(rect.min.x - margin.x, rect.max.y + margin.y));
    let b = world_to_hex(Vec2::new(rect.max.x + margin.x, rect.min.y - margin.y));
    let cols = (map.width as i32 + CHUNK - 1) / CHUNK;
    let rows = (map.height as i32 + CHUNK - 1) / CHUNK;
    let (c0, c1) = ((a.col.div_euclid(CHUNK)).max(0), (b.col.div_euclid(CHUNK)).min(cols - 1));
    let (r0, r1) = ((a.row.div_euclid(CHUNK)).max(0), (b.row.div_euclid(CHUNK)).min(rows - 1));
    let centre = world_to_hex(rect.center());
    let mut keys: Vec<(i32, i32)> = (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| (c, r))).collect();
    keys.sort_by_key(|(c, r)| {
        let mid = HexAt::new(c * CHUNK + CHUNK / 2, r * CHUNK + CHUNK / 2);
        (mid.distance(centre), *c, *r)
    });
    keys
}

/// One chunk: its terrain tiles and its features' mesh.
fn spawn_chunk(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    art: &GwArt,
    scenario: &Scenario,
    occupation: &[ProvinceState],
    (cc, cr): (i32, i32),
    scene: Scene,
) -> Entity {
    let map = &scenario.map;
    let (c0, r0) = (cc * CHUNK, cr * CHUNK);
    let size = TilemapSize { x: CHUNK as u32, y: CHUNK as u32 };
    // Tile rows run northwards within the chunk: tile y 0 is the chunk's southernmost row (odd,
    // as CHUNK is even), so the engine's odd rows are the tilemap's even ones (RowEven).
    let top_row = r0 + CHUNK - 1;
    let origin = hex_to_world(HexAt::new(c0, top_row));
    let tilemap = commands
        .spawn((
            Name::new(format!("Chunk {cc},{cr}")),
            Transform::from_translation(origin.extend(0.0)),
            DespawnOnExit(scene),
        ))
        .id();
    let mut storage = TileStorage::empty(size);
    for lr in 0..CHUNK {
        for lc in 0..CHUNK {
            let at = HexAt::new(c0 + lc, r0 + lr);
            let Some(cell) = map.cell(at) else { continue };
            let position = TilePos { x: lc as u32, y: (CHUNK - 1 - lr) as u32 };
            let tile = commands
                .spawn(TileBundle {
                    position,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(art::tile_index(cell.terrain)),
                    ..Default::default()
                })
                .id();
            commands.entity(tilemap).add_child(tile);
            storage.set(&position, tile);
        }
    }
    let tile_size = TilemapTileSize { x: art::TILE_W as f32, y: art::TILE_H as f32 };
    commands.entity(tilemap).insert(TilemapBundle {
        grid_size: TilemapGridSize { x: HEX_W, y: HEX_H },
        map_type: TilemapType::Hexagon(HexCoordSystem::RowEven),
        size,
        storage,
        texture: TilemapTexture::Single(art.tileset.clone()),
        tile_size,
        anchor: TilemapAnchor::None,
        transform: Transform::from_translation(origin.extend(0.0)),
        ..Default::default()
    });
    let mesh = features_mesh(scenario, occupation, c0, r0);
    let features = commands
        .spawn((
            Name::new("Features"),
            Mesh2d(meshes.add(mesh)),
            MeshMaterial2d(art.features.clone()),
            Transform::from_translation(Vec3::new(-origin.x, -origin.y, 1.0)),
        ))
        .id();
    commands.entity(tilemap).add_child(features);
    tilemap
}

pub use super::shapes::Shapes;

const RIVER: [f32; 4] = [0.16, 0.36, 0.72, 1.0];
const BRIDGE: [f32; 4] = [0.35, 0.24, 0.14, 1.0];
const ROAD: [f32; 4] = [0.55, 0.42, 0.25, 0.9];
const RAIL: [f32; 4] = [0.12, 0.12, 0.12, 1.0];
const BORDER: [f32; 4] = [0.45, 0.05, 0.08, 0.9];

fn rgba(c: Color, alpha: f32) -> [f32; 4] {
    let s = c.to_srgba();
    [s.red, s.green, s.blue, alpha]
}

/// The sovereign power index of a hex (its province's owner, or who a treaty gave it to).
fn sovereign(scenario: &Scenario, provinces: &[ProvinceState], at: HexAt) -> Option<usize> {
    let cell = scenario.map.cell(at)?;
    let index = usize::from(cell.province.checked_sub(1)?);
    if let Some(p) = provinces.get(index).and_then(|p| p.ceded_to) {
        return Some(usize::from(p.0));
    }
    scenario.power_index(&scenario.map.provinces.get(index)?.owner)
}

/// The hexes of a line (railway or road) that touch both `a` and its neighbour across hexside
/// `d` (the two hexes on the ends of their shared hexside) and join both.
fn thirds(a: HexAt, d: u8, joined: &dyn Fn(HexAt, HexAt) -> bool) -> Vec<HexAt> {
    let n = a.neighbour(d);
    [a.neighbour((d + 5) % 6), a.neighbour((d + 1) % 6)]
        .into_iter()
        .filter(|m| joined(a, *m) && joined(n, *m))
        .collect()
}

fn direction(from: HexAt, to: HexAt) -> Option<u8> {
    (0..6u8).find(|d| from.neighbour(*d) == to)
}

/// Whether the link from `a` across hexside `d` is drawn. The map marks lines hex by hex, so a
/// line across a staircase of hexes joins three hexes around a corner (a triangle of links):
/// of each triangle, the links that lie in no other triangle but this one are thinned, the
/// highest by hex order dropped, so the line runs through once, without loops.
fn drawn_link(a: HexAt, d: u8, joined: &dyn Fn(HexAt, HexAt) -> bool) -> bool {
    let n = a.neighbour(d);
    let [m] = thirds(a, d, joined)[..] else { return true };
    let key = |x: HexAt, y: HexAt| (x.min(y), x.max(y));
    let single = |x: HexAt, y: HexAt| direction(x, y).is_some_and(|dd| thirds(x, dd, joined).len() < 2);
    let top = [(a, n), (a, m), (n, m)].into_iter().filter(|(x, y)| single(*x, *y)).map(|(x, y)| key(x, y)).max();
    top != Some(key(a, n))
}

/// The features of the chunk at (`c0`, `r0`), in world coordinates.
pub fn features_mesh(scenario: &Scenario, occupation: &[ProvinceState], c0: i32, r0: i32) -> Mesh {
    let map = &scenario.map;
    let mut s = Shapes::default();
    for lr in 0..CHUNK {
        for lc in 0..CHUNK {
            let at = HexAt::new(c0 + lc, r0 + lr);
            let Some(cell) = map.cell(at) else { continue };
            let c = hex_to_world(at);
            // Occupation: the occupier's colour laid over the hex (S-CITY).
            let occupier =
                usize::from(cell.province).checked_sub(1).and_then(|i| occupation.get(i)).and_then(|p| p.occupier);
            if let Some(p) = occupier {
                let id = scenario.powers.get(usize::from(p.0)).map_or("", |p| p.id.as_str());
                let col = rgba(art::power_colour(id, usize::from(p.0)), 0.30);
                for d in 0..6u8 {
                    let (a, b) = hexside(at, d);
                    s.quad([c, a, b, c], col, 0.1);
                }
            }
            for d in 0..6u8 {
                let n = at.neighbour(d);
                let (a, b) = hexside(at, d);
                // Each hexside is drawn once, from the hex on its west/north-west/north-east.
                let owner = d < 3 || !map.contains(n);
                if owner && cell.river_on(d) {
                    s.line(a, b, 3.0, RIVER, 0.3);
                    if cell.bridge_on(d) {
                        let mid = (a + b) / 2.0;
                        let across = (hex_to_world(n) - c).normalize_or_zero() * 7.0;
                        s.line(mid - across, mid + across, 3.0, BRIDGE, 0.4);
                    }
                }
                if owner && map.contains(n) {
                    let (here, there) = (sovereign(scenario, occupation, at), sovereign(scenario, occupation, n));
                    let land = !cell.terrain.is_water() && map.is_land(n);
                    if land && here.is_some() && there.is_some() && here != there {
                        s.line(a, b, 2.0, BORDER, 0.35);
                    }
                }
                if d < 3 && map.contains(n) {
                    let rail = |a: HexAt, b: HexAt| map.rail_between(a, b);
                    let road = |a: HexAt, b: HexAt| a.is_adjacent(b) && map.road_between(a, b);
                    if rail(at, n) {
                        if drawn_link(at, d, &rail) {
                            s.line(c, hex_to_world(n), 2.0, RAIL, 0.25);
                        }
                    } else if road(at, n) && drawn_link(at, d, &road) {
                        s.line(c, hex_to_world(n), 2.5, ROAD, 0.2);
                    }
                }
            }
            if cell.has(flag::CITY) {
                s.square(c, 11.0, [0.1, 0.1, 0.1, 1.0], 0.5);
                s.square(c, 8.0, [0.95, 0.93, 0.86, 1.0], 0.55);
            }
            if cell.has(flag::FORTRESS) {
                s.diamond(c + Vec2::new(0.0, 10.0), 6.0, [0.1, 0.1, 0.1, 1.0], 0.6);
                s.diamond(c + Vec2::new(0.0, 10.0), 3.5, [0.75, 0.15, 0.15, 1.0], 0.65);
            }
            if cell.has(flag::PORT) {
                s.diamond(c + Vec2::new(-9.0, -8.0), 4.5, [0.05, 0.15, 0.45, 1.0], 0.6);
            }
        }
    }
    s.into_mesh()
}

/// Finds the hex under the pointer (not while it is over a panel).
fn hover(
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<crate::camera::BoardCamera>>,
    busy: Res<EguiBusy>,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    screen: Res<State<Screen>>,
    mut hovered: ResMut<HoveredHex>,
) {
    if !matches!(screen.get(), Screen::Playing | Screen::Replay) {
        return;
    }
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let (Ok(window), Ok((camera, tf))) = (windows.single(), cameras.single()) else { return };
    let found = window
        .cursor_position()
        .filter(|_| !busy.pointer)
        // Only in the board's room: the map goes on beyond it, under the panels.
        .filter(|p| camera.logical_viewport_rect().is_none_or(|r| r.contains(*p)))
        .and_then(|p| camera.viewport_to_world_2d(tf, p).ok())
        .map(world_to_hex)
        .filter(|h| game.scenario().map.contains(*h));
    hovered.set_if_neq(HoveredHex(found));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The links drawn among a set of line hexes, each once.
    fn links(line: &[HexAt]) -> BTreeSet<(HexAt, HexAt)> {
        let set: BTreeSet<HexAt> = line.iter().copied().collect();
        let joined = |a: HexAt, b: HexAt| a.is_adjacent(b) && set.contains(&a) && set.contains(&b);
        let mut out = BTreeSet::new();
        for a in line {
            for d in 0..6u8 {
                let n = a.neighbour(d);
                if joined(*a, n) && drawn_link(*a, d, &joined) {
                    out.insert((*a.min(&n), *a.max(&n)));
                }
            }
        }
        out
    }

    /// A straight line keeps every link; three hexes around a corner lose one link (no
    /// triangle); four around a hexside keep three (a tree, no loop).
    #[test]
    fn lines_drawn_hex_by_hex_have_no_loops() {
        let straight = [HexAt::new(1, 2), HexAt::new(2, 2), HexAt::new(3, 2), HexAt::new(4, 2)];
        assert_eq!(links(&straight).len(), 3);
        let a = HexAt::new(3, 2);
        let corner = [a, a.neighbour(0), a.neighbour(1)];
        assert_eq!(links(&corner).len(), 2, "a triangle loses one link");
        let rhombus = [a, a.neighbour(0), a.neighbour(1), a.neighbour(5)];
        assert_eq!(links(&rhombus).len(), 3, "four hexes around a hexside: a tree");
        // A band two hexes wide stays one line: as many links as hexes less one.
        let band: Vec<HexAt> = (0..6).flat_map(|c| [HexAt::new(c, 4), HexAt::new(c, 5)]).collect();
        assert_eq!(links(&band).len(), band.len() - 1, "{:?}", links(&band));
    }
}
