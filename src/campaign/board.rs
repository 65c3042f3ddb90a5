//! The campaign map on screen: hexes laid out as the engine's hex geometry (offset rows,
//! pointy-top, odd rows shifted half a hex east), tinted by ground, with rivers and fords on
//! their hexsides, villages, fortresses and key hexes; armies as counters in their side's colour;
//! for the selected army the hexes it reaches this turn (the engine's reach), the path to the hex
//! under the pointer and the enemy armies that could intercept it (T-STRAT-2). Everything here
//! reads rules state only. Numbers and names are drawn over it by `labels`.

use super::command::route;
use super::{ArmySelection, HoveredHex};
use crate::battle::board::camera::BoardCamera;
use crate::hud::EguiBusy;
use crate::replay::ReplayView;
use crate::screens::{Mode, Scene, Screen};
use crate::session::Session;
use bevy::asset::RenderAssetUsages;
use bevy::camera::ScalingMode;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use rules::Game;
use rules::campaign::map::Crossing;
use rules::campaign::{Campaign, CampaignMap, Ground, HexAt};
use rules::tactical::Side;

/// World units from a hex's centre to a corner.
pub const HEX: f32 = 40.0;
const SQRT3: f32 = 1.732_050_8;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_art)
        .add_systems(OnEnter(Scene::Playing(Mode::Campaign)), fit)
        .add_systems(OnEnter(Scene::Replay(Mode::Campaign)), fit)
        .add_systems(Update, hover.in_set(crate::AppSystems::Input).run_if(in_state(Mode::Campaign)))
        .add_systems(
            Update,
            (spawn_terrain, sync_pieces, control_camera)
                .chain()
                .in_set(crate::AppSystems::Visuals)
                .run_if(in_state(Mode::Campaign)),
        );
}

/// The hex image every hex and marker is drawn with (white, tinted per sprite).
#[derive(Resource, Clone)]
struct HexArt(Handle<Image>);

fn load_art(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(HexArt(images.add(hex_image(64))));
}

/// A white pointy-top hexagon on a transparent square image of `size` pixels across the corners.
fn hex_image(size: u32) -> Image {
    let r = size as f32 / 2.0;
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = ((x as f32 + 0.5 - r).abs(), (y as f32 + 0.5 - r).abs());
            // Inside a pointy-top hexagon of circumradius r: |x| ≤ r·√3/2 and |y| + |x|/√3 ≤ r.
            let inside = dx <= r * SQRT3 / 2.0 && dy + dx / SQRT3 <= r;
            data.extend_from_slice(if inside { &[255, 255, 255, 255] } else { &[0, 0, 0, 0] });
        }
    }
    Image::new(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// The game the map shows: the one in play, or the replay.
pub fn shown<'a>(
    session: Option<&'a Session<Campaign>>,
    replay: Option<&'a ReplayView<Campaign>>,
) -> Option<&'a Campaign> {
    session.map(|s| &s.game).or_else(|| replay.map(|r| &r.game))
}

/// World position of a hex's centre, the map centred on the origin (rows grow southwards in
/// the rules, upwards on screen).
pub fn hex_to_world(map: &CampaignMap, h: HexAt) -> Vec2 {
    let x = SQRT3 * HEX * (h.col as f32 + 0.5 * (h.row & 1) as f32);
    let y = 1.5 * HEX * h.row as f32;
    let (w, hgt) = map_size(map);
    Vec2::new(x - w / 2.0 + SQRT3 * HEX / 2.0, hgt / 2.0 - y - HEX)
}

/// The map's size in world units.
fn map_size(map: &CampaignMap) -> (f32, f32) {
    let w = SQRT3 * HEX * (map.width() as f32 + 0.5);
    let h = 1.5 * HEX * (map.height() as f32 - 1.0) + 2.0 * HEX;
    (w, h)
}

/// The hex under a world position (the nearest centre, if within the hex).
pub fn world_to_hex(map: &CampaignMap, p: Vec2) -> Option<HexAt> {
    map.hexes()
        .map(|h| (hex_to_world(map, h).distance_squared(p), h))
        .filter(|(d, _)| *d <= HEX * HEX)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, h)| h)
}

pub fn ground_colour(g: Ground) -> Color {
    match g {
        Ground::Clear => Color::srgb(0.62, 0.66, 0.42),
        Ground::Forest => Color::srgb(0.27, 0.42, 0.24),
        Ground::Hills => Color::srgb(0.58, 0.50, 0.34),
        Ground::Marsh => Color::srgb(0.40, 0.50, 0.45),
        Ground::Water => Color::srgb(0.25, 0.40, 0.62),
    }
}

/// A side's colour on the map.
/// The colours of the map's marks and overlays (the legend shows the same).
pub struct Marks {
    pub river: Color,
    pub ford: Color,
    pub village: Color,
    pub fortress: Color,
    pub battle: Color,
    pub reach: Color,
    pub zone: Color,
    pub risk: Color,
    pub selected: Color,
    pub intercept_order: Color,
}

pub fn marks() -> Marks {
    Marks {
        river: Color::srgb(0.16, 0.34, 0.70),
        ford: Color::srgb(0.62, 0.78, 0.92),
        village: Color::srgb(0.45, 0.30, 0.22),
        fortress: Color::srgb(0.30, 0.28, 0.26),
        battle: Color::srgba(1.0, 0.85, 0.2, 0.45),
        reach: Color::srgba(1.0, 1.0, 0.9, 0.28),
        zone: Color::srgba(0.9, 0.15, 0.1, 0.7),
        risk: Color::srgba(1.0, 0.2, 0.1, 0.5),
        selected: Color::srgb(1.0, 0.92, 0.4),
        intercept_order: Color::srgb(1.0, 0.95, 0.7),
    }
}

pub fn side_colour(side: Side) -> Color {
    match side {
        Side::Red => Color::srgb(0.78, 0.22, 0.18),
        Side::Blue => Color::srgb(0.22, 0.36, 0.78),
    }
}

/// A terrain sprite of the map (built once per game on screen).
#[derive(Component)]
struct Terrain;

/// A piece redrawn when the game or the pointer changes (armies, overlays).
#[derive(Component)]
struct Piece;

fn scope(session: bool) -> DespawnOnExit<Screen> {
    DespawnOnExit(if session { Screen::Playing } else { Screen::Replay })
}

fn hex_sprite(art: &HexArt, colour: Color, scale: f32) -> Sprite {
    Sprite { image: art.0.clone(), color: colour, custom_size: Some(Vec2::splat(2.0 * HEX * scale)), ..default() }
}

/// A bar along the hexside of `h` towards `n` (a river, or a ford in a lighter colour).
fn hexside(map: &CampaignMap, h: HexAt, n: HexAt, colour: Color, width: f32) -> (Sprite, Transform) {
    let (a, b) = (hex_to_world(map, h), hex_to_world(map, n));
    let mid = (a + b) / 2.0;
    let along = (b - a).perp().normalize_or_zero();
    let angle = along.y.atan2(along.x);
    (
        Sprite::from_color(colour, Vec2::new(HEX * 1.0, width)),
        Transform::from_translation(mid.extend(1.0)).with_rotation(Quat::from_rotation_z(angle)),
    )
}

#[allow(clippy::too_many_arguments)]
fn spawn_terrain(
    mut commands: Commands,
    session: Option<Res<Session<Campaign>>>,
    replay: Option<Res<ReplayView<Campaign>>>,
    scene: Option<Res<State<Scene>>>,
    art: Option<Res<HexArt>>,
    old: Query<Entity, With<Terrain>>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    windows: Query<&Window>,
) {
    let (Some(scene), Some(art)) = (scene, art) else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let replaced = session.as_ref().is_some_and(|s| s.is_added()) || replay.as_ref().is_some_and(|r| r.is_changed());
    if !old.is_empty() && !replaced {
        return;
    }
    let in_play = matches!(scene.get(), Scene::Playing(_));
    for e in &old {
        commands.entity(e).despawn();
    }
    let map = &game.scenario().map;
    for h in map.hexes() {
        let Some(ground) = map.ground(h) else { continue };
        let at = hex_to_world(map, h);
        commands.spawn((
            Name::new(format!("Hex {h}")),
            Terrain,
            scope(in_play),
            hex_sprite(&art, ground_colour(ground), 0.97),
            Transform::from_translation(at.extend(0.0)),
        ));
        for d in 0..3u8 {
            // Each hexside once: E, SE and SW of every hex.
            let n = h.neighbour(d);
            let colour = match map.crossing(h, n) {
                Crossing::Open => continue,
                Crossing::Ford => marks().ford,
                Crossing::River => marks().river,
            };
            let (sprite, tf) = hexside(map, h, n, colour, 6.0);
            commands.spawn((Name::new("River"), Terrain, scope(in_play), sprite, tf));
        }
        if map.has_village(h) {
            let off = Vec2::new(-HEX * 0.45, -HEX * 0.35);
            for (i, dx) in [0.0, 7.0, 14.0].iter().enumerate() {
                commands.spawn((
                    Name::new("Village"),
                    Terrain,
                    scope(in_play),
                    Sprite::from_color(marks().village, Vec2::splat(6.0 - i as f32)),
                    Transform::from_translation((at + off + Vec2::new(*dx, 0.0)).extend(0.5)),
                ));
            }
        }
        if map.has_fortress(h) {
            commands.spawn((
                Name::new("Fortress"),
                Terrain,
                scope(in_play),
                Sprite::from_color(marks().fortress, Vec2::splat(HEX * 0.5)),
                Transform::from_translation(at.extend(0.4))
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
            ));
        }
    }
    // A new map on screen: show all of it.
    let window = windows.iter().next().map_or(Vec2::new(1280.0, 720.0), |w| Vec2::new(w.width(), w.height()));
    for (mut tf, mut projection) in &mut cameras {
        let (scale, at) = fitted(map, window);
        tf.translation = at.extend(tf.translation.z);
        *projection = Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale,
            ..OrthographicProjection::default_2d()
        });
    }
}

/// Screen room the panels take around the map, in logical pixels (left, right, top, bottom).
const PANELS: (f32, f32, f32, f32) = (270.0, 330.0, 30.0, 40.0);

fn fitted(map: &CampaignMap, window: Vec2) -> (f32, Vec2) {
    let (left, right, top, bottom) = PANELS;
    let room = Vec2::new((window.x - left - right).max(200.0), (window.y - top - bottom).max(150.0));
    let (w, h) = map_size(map);
    let scale = (w * 1.04 / room.x).max(h * 1.04 / room.y);
    let offset = Vec2::new((right - left) / 2.0, (bottom - top) / 2.0) * scale;
    (scale, Vec2::new(offset.x, -offset.y))
}

fn fit(
    session: Option<Res<Session<Campaign>>>,
    replay: Option<Res<ReplayView<Campaign>>>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let window = windows.iter().next().map_or(Vec2::new(1280.0, 720.0), |w| Vec2::new(w.width(), w.height()));
    let (scale, at) = fitted(&game.scenario().map, window);
    for (mut tf, mut projection) in &mut cameras {
        tf.translation = at.extend(tf.translation.z);
        *projection = Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale,
            ..OrthographicProjection::default_2d()
        });
    }
}

/// Pans and zooms by the shell's keys.
fn control_camera(
    time: Res<Time>,
    controls: Query<
        &leafwing_input_manager::prelude::ActionState<crate::input::ShellAction>,
        With<crate::input::Controls>,
    >,
    session: Option<Res<Session<Campaign>>>,
    replay: Option<Res<ReplayView<Campaign>>>,
    windows: Query<&Window>,
    (scroll, busy): (Option<Res<bevy::input::mouse::AccumulatedMouseScroll>>, Option<Res<EguiBusy>>),
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    use crate::input::ShellAction as Action;
    let Ok(actions) = controls.single() else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let map = &game.scenario().map;
    for (mut tf, mut projection) in &mut cameras {
        let Projection::Orthographic(ortho) = &mut *projection else { continue };
        if actions.just_pressed(&Action::FitField) {
            let window = windows.iter().next().map_or(Vec2::new(1280.0, 720.0), |w| Vec2::new(w.width(), w.height()));
            let (scale, at) = fitted(map, window);
            ortho.scale = scale;
            tf.translation = at.extend(tf.translation.z);
        }
        let speed = HEX * 12.0 * ortho.scale * time.delta_secs();
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
        let (w, h) = map_size(map);
        tf.translation.x = tf.translation.x.clamp(-w, w);
        tf.translation.y = tf.translation.y.clamp(-h, h);
        // The wheel over a panel scrolls the panel, not the map.
        let over_board = !busy.as_ref().is_some_and(|b| b.pointer);
        let (zoom, _) = crate::input::board_zoom(actions, scroll.as_deref(), over_board, time.delta_secs().min(0.1));
        if zoom != 1.0 {
            ortho.scale = (ortho.scale * zoom).clamp(0.1, 8.0);
        }
    }
}

fn hover(
    session: Option<Res<Session<Campaign>>>,
    replay: Option<Res<ReplayView<Campaign>>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    egui: Option<Res<EguiBusy>>,
    mut hovered: ResMut<HoveredHex>,
) {
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    // Headless (no window) the hex is set by the caller.
    let Ok(window) = windows.single() else { return };
    let hex = (|| {
        if egui.is_some_and(|e| e.pointer) {
            return None;
        }
        let cursor = window.cursor_position()?;
        let (camera, at) = cameras.single().ok()?;
        let world = camera.viewport_to_world_2d(at, cursor).ok()?;
        world_to_hex(&game.scenario().map, world)
    })();
    hovered.set_if_neq(HoveredHex(hex));
}

/// When to redraw the pieces.
#[derive(Default, PartialEq, Eq, Clone)]
struct Key {
    orders: usize,
    turns: u64,
    selected: Option<u32>,
    hovered: Option<HexAt>,
    state: u64,
}

/// A side's armies in one hex, drawn as one counter (its armies by id); where both sides share
/// a hex (a battle) the two counters stand side by side.
pub struct Stack {
    pub at: HexAt,
    pub side: Side,
    pub armies: Vec<rules::campaign::ArmyId>,
    /// From the hex's centre, in world units.
    pub offset: Vec2,
}

/// The stacks of the map, in army-id order of their first army.
pub fn stacks(state: &rules::campaign::CampaignState) -> Vec<Stack> {
    let mut out: Vec<Stack> = Vec::new();
    for a in &state.armies {
        match out.iter_mut().find(|s| s.at == a.at && s.side == a.side) {
            Some(s) => s.armies.push(a.id),
            None => out.push(Stack { at: a.at, side: a.side, armies: vec![a.id], offset: Vec2::ZERO }),
        }
    }
    for i in 0..out.len() {
        let shared = out.iter().filter(|o| o.at == out[i].at).count() > 1;
        if shared {
            let x = if out[i].side == Side::Red { -0.4 } else { 0.4 };
            out[i].offset = Vec2::new(x * HEX, 0.0);
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn sync_pieces(
    mut commands: Commands,
    session: Option<Res<Session<Campaign>>>,
    replay: Option<Res<ReplayView<Campaign>>>,
    scene: Option<Res<State<Scene>>>,
    selection: Res<ArmySelection>,
    hovered: Res<HoveredHex>,
    art: Option<Res<HexArt>>,
    old: Query<Entity, With<Piece>>,
    mut last: Local<Key>,
) {
    let (Some(scene), Some(art)) = (scene, art) else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let selected = session.as_deref().and_then(|s| selection.of(s));
    let key = Key {
        orders: game.orders().len(),
        turns: session.as_ref().map_or(0, |s| s.turns_passed),
        selected: selected.map(|a| a.0),
        hovered: hovered.0,
        state: game.state_hash().0,
    };
    if *last == key && !old.is_empty() && session.as_ref().is_none_or(|s| !s.is_added()) {
        return;
    }
    *last = key;
    for e in &old {
        commands.entity(e).despawn();
    }
    let in_play = matches!(scene.get(), Scene::Playing(_));
    let map = &game.scenario().map;
    let state = game.state();
    // Key hexes: a ring in the holder's colour, and its flag in the hex's top corner.
    for (k, holder) in game.scenario().victory.key_hexes.iter().zip(&state.holders) {
        let at = hex_to_world(map, k.at);
        commands.spawn((
            Name::new("Key hex"),
            Piece,
            scope(in_play),
            hex_sprite(&art, side_colour(*holder), 1.08),
            Transform::from_translation(at.extend(-0.5)),
        ));
        commands.spawn((
            Name::new("Key hex flag"),
            Piece,
            scope(in_play),
            Sprite::from_color(side_colour(*holder), Vec2::new(HEX * 0.3, HEX * 0.2)),
            Transform::from_translation((at + Vec2::new(HEX * 0.12, HEX * 0.62)).extend(2.0)),
        ));
        commands.spawn((
            Name::new("Key hex staff"),
            Piece,
            scope(in_play),
            Sprite::from_color(Color::srgb(0.15, 0.12, 0.1), Vec2::new(2.0, HEX * 0.42)),
            Transform::from_translation((at + Vec2::new(-HEX * 0.04, HEX * 0.52)).extend(2.0)),
        ));
    }
    // The battle waiting to be fought.
    if let Some(b) = &state.battle {
        commands.spawn((
            Name::new("Battle"),
            Piece,
            scope(in_play),
            hex_sprite(&art, marks().battle, 0.9),
            Transform::from_translation(hex_to_world(map, b.at).extend(0.6)),
        ));
    }
    // The selected army: its reach, the path to the pointer, the enemies that could intercept.
    if let (Some(session), Some(id)) = (session.as_deref(), selected)
        && session.human_turn()
        && state.battle.is_none()
    {
        // The enemy's interception zones (T-STRAT-2): every hex an enemy army could step into
        // to intercept, whether or not it holds the (secret) order.
        let side = state.army(id).map_or(Side::Red, |a| a.side);
        let range = game.scenario().campaign_rules.intercept_range;
        for h in map.hexes().filter(|h| map.passable(*h)) {
            let watched = state.armies.iter().any(|e| e.side != side && e.at != h && e.at.distance(h) <= range);
            if watched {
                commands.spawn((
                    Name::new("Interception zone"),
                    Piece,
                    scope(in_play),
                    Sprite::from_color(marks().zone, Vec2::new(HEX * 0.5, 3.0)),
                    Transform::from_translation((hex_to_world(map, h) + Vec2::new(0.0, -HEX * 0.78)).extend(0.9)),
                ));
            }
        }
        let reach = game.reach(id);
        for (h, _) in &reach {
            commands.spawn((
                Name::new("Reach"),
                Piece,
                scope(in_play),
                hex_sprite(&art, marks().reach, 0.8),
                Transform::from_translation(hex_to_world(map, *h).extend(0.7)),
            ));
        }
        if let Some(to) = hovered.0.filter(|h| reach.iter().any(|(r, _)| r == h))
            && let Some(path) = route(game, id, to)
        {
            for h in &path {
                commands.spawn((
                    Name::new("Path"),
                    Piece,
                    scope(in_play),
                    Sprite::from_color(Color::srgb(1.0, 0.95, 0.6), Vec2::splat(9.0)),
                    Transform::from_translation(hex_to_world(map, *h).extend(3.0)),
                ));
            }
            for enemy in game.interception_risk(side, &path) {
                let Some(e) = state.army(enemy) else { continue };
                commands.spawn((
                    Name::new("Interception risk"),
                    Piece,
                    scope(in_play),
                    hex_sprite(&art, marks().risk, 0.95),
                    Transform::from_translation(hex_to_world(map, e.at).extend(0.8)),
                ));
            }
        }
    }
    // The armies, a counter per side and hex.
    let viewer = session.as_deref().and_then(Session::viewer);
    // The standing intercept orders the seat may know of (T-STRAT-2), as the engine's view says.
    let known: Option<Vec<_>> = session.as_deref().map(|s| {
        let view = rules::view::Sight::view(&s.game, rules::view::Viewer::of(viewer));
        view.armies.iter().filter(|a| a.intercept).map(|a| a.id).collect()
    });
    for stack in stacks(state) {
        let at = hex_to_world(map, stack.at) + stack.offset;
        if selected.is_some_and(|id| stack.armies.contains(&id)) {
            commands.spawn((
                Name::new("Selected"),
                Piece,
                scope(in_play),
                Sprite::from_color(marks().selected, Vec2::new(HEX * 0.86, HEX * 0.66)),
                Transform::from_translation(at.extend(4.0)),
            ));
        }
        commands.spawn((
            Name::new(format!("Armies at {}", stack.at)),
            Piece,
            scope(in_play),
            Sprite::from_color(side_colour(stack.side), Vec2::new(HEX * 0.76, HEX * 0.56)),
            Transform::from_translation(at.extend(5.0)),
        ));
        let intercepts =
            stack.armies.iter().filter_map(|id| state.army(*id)).any(|a| {
                a.intercept && known.as_ref().is_none_or(|k: &Vec<rules::campaign::ArmyId>| k.contains(&a.id))
            });
        if intercepts {
            commands.spawn((
                Name::new("Intercept order"),
                Piece,
                scope(in_play),
                Sprite::from_color(marks().intercept_order, Vec2::new(HEX * 0.76, 3.0)),
                Transform::from_translation((at + Vec2::new(0.0, -HEX * 0.22)).extend(6.0)),
            ));
        }
    }
}
