//! The Great War's overlays, each toggled by a key or the panel's switch, and the marks of play
//! the board always shows over the chunks (minefields at sea, fortification levels).
//!
//! - supply: each hex with land units, by whether they have their money (S-SUP-2) and their
//!   ammunition (S-SUP-3);
//! - front line: each unit's turns in a row on the front line against the turns it may stay
//!   (S-SUP-6), red where the next Upkeep costs it Morale;
//! - encirclement: the hexes the next Combat phase finds encircled (S-COMBAT-11), with the turns their
//!   units have been encircled so far;
//! - climate: the harsh zones (S-SUP-5), and the units the next Upkeep's climate costs Health;
//! - sea lanes: each lane's sea area by its efficiency after enemy submarines (S-NAVAL-15).
//!
//! Every value comes from the engine's own read-only functions; nothing here changes the game.

use super::art;
use super::board::{BoardView, GwArt, map_rect, shown};
use super::geometry::{HEX_W, ROW_STEP, hex_to_world};
use crate::camera::BoardCamera;
use crate::i18n::Tr;
use crate::input::{ActionSet, Controls, KeyBindings, TypingText, just_pressed};
use crate::replay::ReplayView;
use crate::screens::{Mode, PlayView, Scene, Screen};
use crate::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::*;
use rules::strategic::hexmap::Climate;
use rules::strategic::{Ctx, GreatWar, HexAt, HexMap, PowerId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The overlays a player can lay over the map.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum Overlay {
    Supply,
    FrontLine,
    Encirclement,
    Climate,
    SeaLanes,
}

impl Overlay {
    pub const ALL: [Overlay; 5] =
        [Overlay::Supply, Overlay::FrontLine, Overlay::Encirclement, Overlay::Climate, Overlay::SeaLanes];

    /// Its name's key in the string tables.
    pub fn key(self) -> &'static str {
        match self {
            Overlay::Supply => "gw.overlay.supply",
            Overlay::FrontLine => "gw.overlay.front",
            Overlay::Encirclement => "gw.overlay.encirclement",
            Overlay::Climate => "gw.overlay.climate",
            Overlay::SeaLanes => "gw.overlay.lanes",
        }
    }

    /// The key of the line that says what its colours mean.
    pub fn legend_key(self) -> &'static str {
        match self {
            Overlay::Supply => "gw.overlay.supply.legend",
            Overlay::FrontLine => "gw.overlay.front.legend",
            Overlay::Encirclement => "gw.overlay.encirclement.legend",
            Overlay::Climate => "gw.overlay.climate.legend",
            Overlay::SeaLanes => "gw.overlay.lanes.legend",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl ActionSet for Overlay {
    const KEYED: &'static [Overlay] = &Overlay::ALL;

    fn name(self) -> &'static str {
        match self {
            Overlay::Supply => "GwOverlaySupply",
            Overlay::FrontLine => "GwOverlayFront",
            Overlay::Encirclement => "GwOverlayEncirclement",
            Overlay::Climate => "GwOverlayClimate",
            Overlay::SeaLanes => "GwOverlayLanes",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            Overlay::Supply => &[F3],
            Overlay::FrontLine => &[F4],
            Overlay::Encirclement => &[F5],
            Overlay::Climate => &[F6],
            Overlay::SeaLanes => &[F7],
        }
    }
}

/// The overlays on show.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overlays(u8);

impl Overlays {
    pub fn is_on(&self, o: Overlay) -> bool {
        self.0 & o.bit() != 0
    }

    pub fn toggle(&mut self, o: Overlay) {
        self.0 ^= o.bit();
    }

    pub fn on(&self) -> impl Iterator<Item = Overlay> + '_ {
        Overlay::ALL.into_iter().filter(|o| self.is_on(*o))
    }
}

/// The overlays' state and keys (no drawing: headless apps have them too).
pub(super) fn plugin(app: &mut App) {
    crate::input::bind::<Overlay>(app);
    app.init_resource::<Overlays>().add_systems(
        Update,
        toggle_by_key
            .in_set(crate::AppSystems::Input)
            .run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing).or_else(in_state(Screen::Replay)))),
    );
}

/// The overlays and the marks of play on the board.
pub(super) fn view_plugin(app: &mut App) {
    app.init_resource::<Drawn>()
        .init_resource::<SeaPlaces>()
        .add_systems(
            Update,
            (follow_seas, sync).chain().in_set(crate::AppSystems::Visuals).run_if(in_state(Mode::GreatWar)),
        )
        .add_systems(EguiPrimaryContextPass, labels.run_if(in_state(Mode::GreatWar)).before(crate::hud::PanelsBegin))
        .add_systems(OnExit(Scene::Playing(Mode::GreatWar)), forget)
        .add_systems(OnExit(Scene::Replay(Mode::GreatWar)), forget);
}

fn toggle_by_key(
    controls: Query<&ActionState<Overlay>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    mut overlays: ResMut<Overlays>,
) {
    let Ok(actions) = controls.single() else { return };
    if typing.0 {
        return;
    }
    for o in Overlay::ALL {
        if just_pressed(actions, keys.as_deref(), &bindings, o) {
            overlays.toggle(o);
        }
    }
}

/// The switches of the overlays, with their keys, and what the colours of those on show mean
/// (for the scene's panel).
pub fn toggles(ui: &mut egui::Ui, tr: &Tr, bindings: &KeyBindings, overlays: &mut Overlays) {
    ui.label(egui::RichText::new(tr.t("gw.overlay.title")).strong());
    ui.horizontal_wrapped(|ui| {
        for o in Overlay::ALL {
            let key = bindings.keys_of(o.name()).next().map(|k| format!(" ({})", crate::input::key_name(*k)));
            let text = format!("{}{}", tr.t(o.key()), key.unwrap_or_default());
            if ui.selectable_label(overlays.is_on(o), text).clicked() {
                overlays.toggle(o);
            }
        }
    });
    for o in overlays.on() {
        ui.label(egui::RichText::new(tr.t(o.legend_key())).size(12.0).weak());
    }
}

/// The supply of the land units on a hex (S-SUP-1…3): the worst of theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Supply {
    Supplied,
    NoAmmunition,
    NoMoney,
    Unsupplied,
}

/// Every hex with land units on it, by the supply of its worst-off unit.
pub fn supply(ctx: &Ctx) -> BTreeMap<HexAt, Supply> {
    let mut out = BTreeMap::new();
    for f in ctx.forces.iter().filter(|f| f.on_map()) {
        let Some(at) = f.hex() else { continue };
        let s = match (f.supply.money, f.supply.ammo) {
            (true, true) => Supply::Supplied,
            (true, false) => Supply::NoAmmunition,
            (false, true) => Supply::NoMoney,
            (false, false) => Supply::Unsupplied,
        };
        let worst = out.entry(at).or_insert(s);
        *worst = (*worst).max(s);
    }
    out
}

/// One hex of the front-line overlay (S-SUP-6): its most worn unit's turns in a row on the front
/// line, the turns that unit may stay, and whether the next Upkeep costs it Morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontMark {
    pub turns: u16,
    pub period: u16,
    pub worn: bool,
}

/// The hexes whose units stand on the front line now or have stood there (S-SUP-6), as the
/// engine's [`Ctx::rotation_status`] counts them.
pub fn front_line(ctx: &Ctx) -> BTreeMap<HexAt, FrontMark> {
    let mut out: BTreeMap<HexAt, FrontMark> = BTreeMap::new();
    for r in ctx.rotation_status() {
        if !r.on_front && r.turns == 0 {
            continue;
        }
        let Some(at) = ctx.force(r.unit).and_then(|f| f.hex()) else { continue };
        let mark = FrontMark { turns: r.turns, period: r.period, worn: r.loses_morale() };
        // The unit closest to losing Morale speaks for the hex.
        let slack = |m: &FrontMark| i32::from(m.period) - i32::from(m.turns);
        out.entry(at)
            .and_modify(|m| {
                if slack(&mark) < slack(m) {
                    *m = mark
                }
            })
            .or_insert(mark);
    }
    out
}

/// The hexes the next Combat phase finds encircled (S-COMBAT-11, the engine's
/// [`Ctx::encircled_groups`]), each with the turns its units have been encircled so far.
pub fn encirclement(ctx: &Ctx) -> BTreeMap<HexAt, u16> {
    let mut out = BTreeMap::new();
    for at in ctx.encircled_groups().into_iter().flatten() {
        let turns = ctx.at(at).iter().filter_map(|u| ctx.force(*u)).map(|f| f.front.encircled).max().unwrap_or(0);
        out.insert(at, turns);
    }
    out
}

/// The hexes of units the next Upkeep's harsh climate costs Health (S-SUP-5).
pub fn climate_casualties(ctx: &Ctx) -> Vec<HexAt> {
    let mut out: Vec<HexAt> = ctx.climate_casualties().into_iter().filter_map(|u| ctx.force(u)?.hex()).collect();
    out.sort();
    out.dedup();
    out
}

/// A sea lane as the overlay shows it (S-NAVAL-15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneMark {
    /// Sea-area index.
    pub area: u16,
    pub owner: PowerId,
    /// Efficiency now, in per cent, after the enemy submarines patrolling it.
    pub efficiency: u32,
    /// Its efficiency without them.
    pub full: u32,
}

/// Every sea lane with its efficiency, from the engine's [`Ctx::lane_efficiency`].
pub fn lanes(ctx: &Ctx) -> Vec<LaneMark> {
    ctx.navy
        .lanes
        .iter()
        .enumerate()
        .map(|(i, l)| LaneMark { area: l.area, owner: l.owner, efficiency: ctx.lane_efficiency(i), full: l.efficiency })
        .collect()
}

/// Where a sea area lies: its hexes (the map's cells of the area, which large maps give instead
/// of the area's own list) and the hex its name is written on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeaPlace {
    pub hexes: Vec<HexAt>,
    /// The area's hex nearest the middle of its hexes.
    pub label: Option<HexAt>,
}

/// Every sea area's place, by area index (one pass over the map).
pub fn sea_places(map: &HexMap) -> Vec<SeaPlace> {
    let mut places = vec![SeaPlace::default(); map.sea_areas.len()];
    for at in map.hexes() {
        let Some(i) = map.cell(at).and_then(|c| c.sea_area.checked_sub(1)) else { continue };
        if let Some(p) = places.get_mut(usize::from(i)) {
            p.hexes.push(at);
        }
    }
    for p in &mut places {
        let n = p.hexes.len().max(1) as f32;
        let middle = p.hexes.iter().map(|h| hex_to_world(*h)).sum::<Vec2>() / n;
        p.label = p.hexes.iter().copied().min_by(|a, b| {
            hex_to_world(*a).distance_squared(middle).total_cmp(&hex_to_world(*b).distance_squared(middle))
        });
    }
    places
}

/// The sea areas' places on the map shown (worked out once a game).
#[derive(Resource, Default)]
pub struct SeaPlaces {
    map: Option<(String, u32, u32)>,
    pub areas: Vec<SeaPlace>,
}

fn follow_seas(
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    mut places: ResMut<SeaPlaces>,
) {
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let map = &game.scenario().map;
    let key = Some((map.name.clone(), map.width, map.height));
    if places.map != key {
        places.areas = sea_places(map);
        places.map = key;
    }
}

/// A harsh climate's tint.
fn climate_rgba(c: Climate) -> Option<[u8; 4]> {
    match c {
        Climate::Temperate => None,
        Climate::Desert => Some([235, 150, 40, 110]),
        Climate::North => Some([150, 200, 255, 120]),
        Climate::Mountain => Some([150, 90, 200, 110]),
    }
}

/// A lane's tint by its efficiency: green at 100 %, through yellow, to red at 0.
fn lane_rgba(efficiency: u32) -> [u8; 4] {
    let e = efficiency.min(100) as f32 / 100.0;
    let (r, g) = if e > 0.5 { ((2.0 - 2.0 * e) * 255.0, 220.0) } else { (235.0, e * 2.0 * 220.0) };
    [r as u8, g as u8, 40, 110]
}

/// A tint over a whole map: two pixels a hex across (odd rows a pixel east, as the hexes lie),
/// a pixel a row; hexes without a tint stay clear.
pub fn tint_image(map: &HexMap, tints: impl Iterator<Item = (HexAt, [u8; 4])>) -> Image {
    let (w, h) = (map.width.max(1) as usize * 2 + 1, map.height.max(1) as usize);
    let mut data = vec![0u8; w * h * 4];
    for (at, rgba) in tints {
        if !map.contains(at) {
            continue;
        }
        let (x, y) = (at.col as usize * 2 + usize::from(at.row & 1 == 1), at.row as usize);
        for px in [x, x + 1] {
            let i = (y * w + px) * 4;
            if let Some(p) = data.get_mut(i..i + 4) {
                p.copy_from_slice(&rgba);
            }
        }
    }
    art::image_nearest(w as u32, h as u32, data)
}

/// Where a [`tint_image`] lies in the world: each pixel row on its row of hexes.
fn tint_rect(map: &HexMap) -> Rect {
    let r = map_rect(map);
    let top = ROW_STEP / 2.0;
    let bottom = -(map.height.max(1) as f32 - 0.5) * ROW_STEP;
    Rect::from_corners(Vec2::new(r.min.x, top), Vec2::new(r.min.x + (map.width.max(1) as f32 + 0.5) * HEX_W, bottom))
}

/// What the overlays on screen were drawn from.
#[derive(Resource, Default)]
struct Drawn {
    key: Option<(usize, u64, u8, Option<u8>, u32)>,
    entities: Vec<Entity>,
    /// The climate tint of the game's map (it never changes in a game).
    climate: Option<Handle<Image>>,
    /// The numbers the labels write, worked out with the marks (not every frame).
    front: Vec<(HexAt, FrontMark)>,
    encircled: Vec<(HexAt, u16)>,
    lanes: Vec<LaneMark>,
}

fn forget(mut drawn: ResMut<Drawn>) {
    *drawn = Drawn::default();
}

/// Fortification levels (S-FORT-1) by hex: a ring each level.
fn forts(ctx: &Ctx) -> Vec<(HexAt, u8)> {
    ctx.hexes.iter().filter(|(_, s)| s.fort > 0).map(|(at, s)| (*at, s.fort)).collect()
}

/// The minefields a viewer may see: their own side's and allies' (as submarines, S-SUB), or all
/// when nobody watches (the AI playing, the replay).
fn minefields(ctx: &Ctx, viewer: Option<PowerId>) -> Vec<(u16, PowerId, u8)> {
    ctx.navy
        .mines
        .iter()
        .filter(|m| m.mines > 0 && viewer.is_none_or(|v| !ctx.hostile(v, m.power)))
        .map(|m| (m.area, m.power, m.mines))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn sync(
    mut commands: Commands,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    view: Option<Res<BoardView>>,
    art: Option<Res<GwArt>>,
    overlays: Res<Overlays>,
    seas: Res<SeaPlaces>,
    mut images: ResMut<Assets<Image>>,
    mut drawn: ResMut<Drawn>,
) {
    let (Some(art), Some(view)) = (art, view) else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let viewer = session.as_deref().and_then(|s| s.viewer());
    // Marks at sea keep about their size on screen when the camera is far out (as counters do).
    let step = (view.scale * 0.9).max(1.0);
    let key = (
        game.orders().len(),
        session.as_deref().map_or(0, |s| s.turns_passed) ^ replay.as_deref().map_or(0, |r| r.at as u64) << 32,
        overlays.0,
        viewer.map(|p| p.0),
        (step * 4.0).round() as u32,
    );
    if drawn.key == Some(key) {
        return;
    }
    drawn.key = Some(key);
    for e in std::mem::take(&mut drawn.entities) {
        commands.entity(e).despawn();
    }
    let ctx = game.ctx();
    let map = ctx.map();
    let scene = if session.is_some() { Scene::Playing(Mode::GreatWar) } else { Scene::Replay(Mode::GreatWar) };
    let mut spawned = Vec::new();
    let mut hex = |commands: &mut Commands, image: &Handle<Image>, at: HexAt, colour: Color, z: f32, scale: f32| {
        spawned.push(
            commands
                .spawn((
                    Name::new("Overlay mark"),
                    Sprite { image: image.clone(), color: colour, ..default() },
                    Transform::from_translation(hex_to_world(at).extend(z)).with_scale(Vec3::splat(scale)),
                    DespawnOnExit(scene),
                ))
                .id(),
        );
    };
    for (at, level) in forts(&ctx) {
        let brown = Color::srgb(0.42, 0.27, 0.12);
        for l in 0..level.min(3) {
            hex(&mut commands, &art.hex_ring, at, brown, 1.85, 0.92 - 0.14 * f32::from(l));
        }
    }
    if overlays.is_on(Overlay::Supply) {
        for (at, s) in supply(&ctx) {
            let c = match s {
                Supply::Supplied => Color::srgba(0.2, 0.8, 0.3, 0.40),
                Supply::NoAmmunition => Color::srgba(1.0, 0.6, 0.1, 0.50),
                Supply::NoMoney => Color::srgba(0.9, 0.15, 0.1, 0.50),
                Supply::Unsupplied => Color::srgba(0.55, 0.0, 0.35, 0.60),
            };
            hex(&mut commands, &art.hex_fill, at, c, 1.8, 1.0);
        }
    }
    drawn.front.clear();
    drawn.encircled.clear();
    drawn.lanes.clear();
    if overlays.is_on(Overlay::FrontLine) {
        drawn.front = front_line(&ctx).into_iter().collect();
        for &(at, m) in &drawn.front {
            let c = if m.worn {
                Color::srgba(0.9, 0.1, 0.1, 0.5)
            } else if m.turns >= m.period {
                Color::srgba(1.0, 0.45, 0.05, 0.5)
            } else {
                Color::srgba(1.0, 0.75, 0.1, 0.5)
            };
            hex(&mut commands, &art.hex_fill, at, c, 1.8, 1.0);
        }
    }
    if overlays.is_on(Overlay::Encirclement) {
        drawn.encircled = encirclement(&ctx).into_iter().collect();
        for &(at, _) in &drawn.encircled {
            hex(&mut commands, &art.hex_fill, at, Color::srgba(0.8, 0.0, 0.8, 0.45), 1.8, 1.0);
            hex(&mut commands, &art.hex_ring, at, Color::srgb(0.5, 0.0, 0.5), 1.9, 1.0);
        }
    }
    if overlays.is_on(Overlay::Climate) {
        for at in climate_casualties(&ctx) {
            hex(&mut commands, &art.hex_ring, at, Color::srgb(0.85, 0.1, 0.1), 1.9, 0.85);
        }
    }
    let mut picture = |commands: &mut Commands, image: Handle<Image>, z: f32| {
        let rect = tint_rect(map);
        spawned.push(
            commands
                .spawn((
                    Name::new("Overlay tint"),
                    Sprite { image, custom_size: Some(rect.size()), ..default() },
                    Transform::from_translation(rect.center().extend(z)),
                    DespawnOnExit(scene),
                ))
                .id(),
        );
    };
    if overlays.is_on(Overlay::Climate) {
        let image = drawn
            .climate
            .get_or_insert_with(|| {
                images.add(tint_image(
                    map,
                    map.hexes().filter_map(|at| climate_rgba(map.cell(at)?.climate).map(|c| (at, c))),
                ))
            })
            .clone();
        picture(&mut commands, image, 1.7);
    }
    if overlays.is_on(Overlay::SeaLanes) {
        drawn.lanes = lanes(&ctx);
        let tints = drawn.lanes.iter().flat_map(|l| {
            let rgba = lane_rgba(l.efficiency);
            seas.areas
                .get(usize::from(l.area))
                .map(|a| a.hexes.clone())
                .unwrap_or_default()
                .into_iter()
                .map(move |h| (h, rgba))
        });
        let image = images.add(tint_image(map, tints));
        picture(&mut commands, image, 1.75);
    }
    // Minefields: a mine each (at most 3 an area, S-MINE-1) in the layer's colour, under the sea's name.
    for (area, power, mines) in minefields(&ctx, viewer) {
        let Some(mid) = seas.areas.get(usize::from(area)).and_then(|a| a.label) else { continue };
        let id = ctx.scenario().powers.get(usize::from(power.0)).map_or("", |p| p.id.as_str());
        let colour = art::power_colour(id, usize::from(power.0));
        for i in 0..mines.min(3) {
            let at = hex_to_world(mid) + Vec2::new((f32::from(i) - 1.0) * 20.0, -ROW_STEP * 1.2) * step;
            spawned.push(
                commands
                    .spawn((
                        Name::new("Minefield"),
                        Sprite { image: art.mine.clone(), color: colour, ..default() },
                        Transform::from_translation(at.extend(4.5)).with_scale(Vec3::splat(step)),
                        DespawnOnExit(scene),
                    ))
                    .id(),
            );
        }
    }
    drawn.entities = spawned;
}

/// The overlays' numbers on the map: front-line turns against the period, encircled turns, and
/// each sea lane's efficiency.
#[allow(clippy::too_many_arguments)]
fn labels(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    overlays: Res<Overlays>,
    seas: Res<SeaPlaces>,
    drawn: Res<Drawn>,
    view: Option<Res<State<PlayView>>>,
    screen: Res<State<Screen>>,
    cameras: Query<(&Camera, &GlobalTransform, &Projection), With<BoardCamera>>,
) -> Result {
    if overlays.0 == 0 || !matches!(screen.get(), Screen::Playing | Screen::Replay) {
        return Ok(());
    }
    if session.is_some() && view.is_some_and(|v| *v.get() == PlayView::HandOver) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return Ok(()) };
    let Ok((camera, tf, Projection::Orthographic(ortho))) = cameras.single() else { return Ok(()) };
    let painter = ctx.layer_painter(egui::LayerId::background());
    let area = ctx.content_rect();
    let put = |at: Vec2, text: String, colour: egui::Color32| {
        let Ok(p) = camera.world_to_viewport(tf, at.extend(0.0)) else { return };
        let pos = egui::pos2(p.x, p.y);
        if !area.contains(pos) {
            return;
        }
        let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), colour);
        let rect = egui::Align2::CENTER_CENTER.anchor_size(pos, galley.size()).expand(2.0);
        painter.rect_filled(rect, 3.0, egui::Color32::from_black_alpha(170));
        painter.galley(rect.min + egui::vec2(2.0, 2.0), galley, colour);
    };
    // Counts per hex only where a hex has room for them.
    if ortho.scale < 2.0 {
        if overlays.is_on(Overlay::FrontLine) {
            for &(at, m) in drawn.front.iter().take(400) {
                let colour = if m.worn { egui::Color32::from_rgb(255, 120, 110) } else { egui::Color32::WHITE };
                put(hex_to_world(at) + Vec2::new(0.0, 14.0), format!("{}/{}", m.turns, m.period), colour);
            }
        }
        if overlays.is_on(Overlay::Encirclement) {
            for &(at, turns) in drawn.encircled.iter().take(400) {
                put(
                    hex_to_world(at) + Vec2::new(0.0, -14.0),
                    format!("◊{turns}"),
                    egui::Color32::from_rgb(240, 160, 255),
                );
            }
        }
    }
    if overlays.is_on(Overlay::SeaLanes) {
        let map = &game.scenario().map;
        for l in &drawn.lanes {
            let Some(a) = map.sea_areas.get(usize::from(l.area)) else { continue };
            let Some(mid) = seas.areas.get(usize::from(l.area)).and_then(|p| p.label) else { continue };
            let name = if tr.russian() && !a.name_ru.is_empty() { &a.name_ru } else { &a.name };
            let text = tr.f("gw.overlay.lane", &[("sea", name.clone()), ("pct", l.efficiency.to_string())]);
            put(hex_to_world(mid) + Vec2::new(0.0, ROW_STEP * 1.3 * ortho.scale.max(1.0)), text, egui::Color32::WHITE);
        }
    }
    Ok(())
}
