//! The political map (issue 27): land in its sovereign's colour, an occupied province hatched in
//! its occupier's colour, the front as a thick line between the land of powers at war, and a key
//! of the powers' colours in the legend. The terrain view (the board as it was: terrain tiles,
//! the occupier's tint) is one key away (`GwAction::TerrainView`, T).
//!
//! Who holds what and who fights whom are the engine's answers (`Ctx::province_owner`,
//! `province_controller`, `at_war`), gathered once each time they change ([`Politics::of`]);
//! the colours are data (`assets/ui/great_war_colours.ron`). The chunks' political meshes and
//! the overview's political image are drawn here, apart from the board's terrain and features.

use super::art::power_rgb;
use super::geometry::{HEX_W, hex_to_world, hexside};
use super::shapes::Shapes;
use crate::input::{Controls, KeyBindings, TypingText, just_pressed};
use crate::screens::{Mode, Screen};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use rules::strategic::{Ctx, HexAt, HexMap, PowerId};

/// How the board shows the land.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MapView {
    /// Land in its holders' colours (the view a game opens with).
    #[default]
    Political,
    /// The terrain tiles alone, occupation as a tint.
    Terrain,
}

/// The view's state and key (no drawing: headless apps have them too).
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapView>().add_systems(
        Update,
        toggle_by_key
            .in_set(crate::AppSystems::Input)
            .run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing).or_else(in_state(Screen::Replay)))),
    );
}

fn toggle_by_key(
    controls: Query<&ActionState<super::actions::GwAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    mut view: ResMut<MapView>,
) {
    let Ok(actions) = controls.single() else { return };
    if !typing.0 && just_pressed(actions, keys.as_deref(), &bindings, super::actions::GwAction::TerrainView) {
        view.toggle();
    }
}

impl MapView {
    pub fn toggle(&mut self) {
        *self = match self {
            MapView::Political => MapView::Terrain,
            MapView::Terrain => MapView::Political,
        };
    }
}

/// Who holds the land and who fights whom, as the engine says, gathered for drawing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Politics {
    /// Each province's sovereign (its owner, or the power a peace treaty gave it to).
    owner: Vec<Option<PowerId>>,
    /// Each province's occupier, if any.
    occupier: Vec<Option<PowerId>>,
    /// Whether two powers are enemies at war, row by row.
    war: Vec<bool>,
    /// Powers that take no part (neutral or out of the war).
    idle: Vec<bool>,
    /// Each power's colour.
    rgb: Vec<[u8; 3]>,
}

/// How one land hex is shown on the political map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexLook {
    /// The sovereign whose colour fills it.
    pub sovereign: PowerId,
    /// The occupier whose colour hatches it.
    pub hatch: Option<PowerId>,
}

impl Politics {
    pub fn of(ctx: &Ctx) -> Politics {
        let n = ctx.powers.len();
        let provinces = ctx.map().provinces.len();
        let power = |i: usize| PowerId(u8::try_from(i).unwrap_or(u8::MAX));
        Politics {
            owner: (0..provinces).map(|i| ctx.province_owner(i)).collect(),
            occupier: (0..provinces).map(|i| ctx.provinces.get(i).and_then(|p| p.occupier)).collect(),
            // Enemies: of two alliances and at war (`at_war` alone holds for two allies too).
            war: (0..n * n).map(|k| ctx.hostile(power(k / n), power(k % n))).collect(),
            idle: (0..n).map(|i| ctx.idle(power(i))).collect(),
            rgb: ctx.scenario().powers.iter().enumerate().map(|(i, p)| power_rgb(&p.id, i)).collect(),
        }
    }

    /// The political look of a hex: none at sea or outside every province.
    pub fn hex(&self, map: &HexMap, at: HexAt) -> Option<HexLook> {
        let cell = map.cell(at)?;
        if cell.terrain.is_water() {
            return None;
        }
        let province = usize::from(cell.province).checked_sub(1)?;
        let sovereign = (*self.owner.get(province)?)?;
        let hatch = self.occupier.get(province).copied().flatten().filter(|o| *o != sovereign);
        Some(HexLook { sovereign, hatch })
    }

    /// The power that holds a hex: its occupier, else its sovereign.
    pub fn holder(&self, map: &HexMap, at: HexAt) -> Option<PowerId> {
        self.hex(map, at).map(|l| l.hatch.unwrap_or(l.sovereign))
    }

    /// Whether the hexside between two land hexes is on the front: their holders are at war.
    pub fn front_between(&self, map: &HexMap, a: HexAt, b: HexAt) -> bool {
        let (Some(x), Some(y)) = (self.holder(map, a), self.holder(map, b)) else { return false };
        let n = self.idle.len();
        x != y && self.war.get(usize::from(x.0) * n + usize::from(y.0)).copied().unwrap_or(false)
    }

    /// A power's colour.
    pub fn rgb(&self, p: PowerId) -> [u8; 3] {
        self.rgb.get(usize::from(p.0)).copied().unwrap_or([150, 150, 150])
    }

    fn is_idle(&self, p: PowerId) -> bool {
        self.idle.get(usize::from(p.0)).copied().unwrap_or(true)
    }
}

/// What of a power's state says whom it fights (neutral, out of the war, the powers it made
/// peace with): the board draws the front again when it changes.
pub type WarState = (bool, bool, Vec<PowerId>);

pub fn war_state(powers: &[rules::strategic::state::PowerState]) -> Vec<WarState> {
    powers.iter().map(|p| (p.neutral, p.out, p.peace.clone())).collect()
}

/// A chunk's political meshes, as children of its tilemap (at `origin`, its translation): the
/// fill under the board's features, the hatching and the front over them.
pub fn spawn_chunk_politics(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    material: &Handle<ColorMaterial>,
    map: &HexMap,
    politics: &Politics,
    ((cc, cr), chunk): ((i32, i32), i32),
    tilemap: Entity,
) {
    let (c0, r0) = (cc * chunk, cr * chunk);
    let origin = hex_to_world(HexAt::new(c0, r0 + chunk - 1));
    let fill = fill_mesh(map, politics, c0, r0, chunk);
    let marks = marks_mesh(map, politics, c0, r0, chunk);
    for (name, mesh, z) in [("Political fill", fill, 0.9), ("Occupation and front", marks, 1.05)] {
        let child = commands
            .spawn((
                Name::new(name),
                Mesh2d(meshes.add(mesh)),
                MeshMaterial2d(material.clone()),
                Transform::from_translation(Vec3::new(-origin.x, -origin.y, z)),
            ))
            .id();
        commands.entity(tilemap).add_child(child);
    }
}

/// The overview image under the chunks (spawned by the board).
#[derive(Component)]
pub struct Overview;

/// The overview image for the view: political, or the terrain's.
pub fn redraw_overview(
    mut overview: Query<&mut Sprite, With<Overview>>,
    images: &mut Assets<Image>,
    map: &HexMap,
    politics: Option<&Politics>,
) {
    for mut sprite in &mut overview {
        let image = match politics {
            Some(p) => super::art::image_of(map.width.max(1), map.height.max(1), overview_rgba(map, p)),
            None => super::art::overview(map),
        };
        sprite.image = images.add(image);
    }
}

/// The front line's colour and width.
const FRONT: [f32; 4] = [0.08, 0.02, 0.02, 0.95];
const FRONT_WIDTH: f32 = 4.5;
/// The share of a land hex's terrain the sovereign's colour covers (less for a neutral's land).
const FILL_ALPHA: f32 = 0.62;
const NEUTRAL_ALPHA: f32 = 0.38;
/// Hatching: stripes this far apart, this wide.
const HATCH_STEP: f32 = HEX_W / 3.5;
const HATCH_WIDTH: f32 = 3.0;

fn rgba([r, g, b]: [u8; 3], alpha: f32) -> [f32; 4] {
    [f32::from(r) / 255.0, f32::from(g) / 255.0, f32::from(b) / 255.0, alpha]
}

/// The hexes of a chunk, row by row.
fn chunk_hexes(map: &HexMap, c0: i32, r0: i32, size: i32) -> impl Iterator<Item = HexAt> + '_ {
    (0..size).flat_map(move |lr| (0..size).map(move |lc| HexAt::new(c0 + lc, r0 + lr))).filter(|at| map.contains(*at))
}

/// The political fill of a chunk's land hexes (under the board's features).
pub fn fill_mesh(map: &HexMap, politics: &Politics, c0: i32, r0: i32, size: i32) -> Mesh {
    let mut s = Shapes::default();
    for at in chunk_hexes(map, c0, r0, size) {
        let Some(look) = politics.hex(map, at) else { continue };
        let alpha = if politics.is_idle(look.sovereign) { NEUTRAL_ALPHA } else { FILL_ALPHA };
        let colour = rgba(politics.rgb(look.sovereign), alpha);
        let c = hex_to_world(at);
        for d in 0..6u8 {
            let (a, b) = hexside(at, d);
            s.quad([c, a, b, c], colour, 0.0);
        }
    }
    s.into_mesh()
}

/// The occupiers' hatching and the front line of a chunk (over the board's features).
pub fn marks_mesh(map: &HexMap, politics: &Politics, c0: i32, r0: i32, size: i32) -> Mesh {
    let mut s = Shapes::default();
    for at in chunk_hexes(map, c0, r0, size) {
        if let Some(occupier) = politics.hex(map, at).and_then(|l| l.hatch) {
            hatch(&mut s, at, rgba(politics.rgb(occupier), 0.9));
        }
        // Each hexside once, from the hex on its west, north-west or north-east (as the board).
        for d in 0..3u8 {
            let n = at.neighbour(d);
            if map.contains(n) && politics.front_between(map, at, n) {
                let (a, b) = hexside(at, d);
                s.line(a, b, FRONT_WIDTH, FRONT, 0.1);
            }
        }
    }
    s.into_mesh()
}

/// Diagonal stripes across a hex, on lines fixed in the world so that they run on across a
/// province's hexes.
fn hatch(s: &mut Shapes, at: HexAt, colour: [f32; 4]) {
    let c = hex_to_world(at);
    let dir = Vec2::new(1.0, 1.0).normalize();
    let across = Vec2::new(-dir.y, dir.x);
    let sides: Vec<(Vec2, Vec2)> = (0..6u8).map(|d| hexside(at, d)).collect();
    let reach = HEX_W;
    let mid = across.dot(c);
    let first = ((mid - reach) / HATCH_STEP).ceil() as i32;
    let last = ((mid + reach) / HATCH_STEP).floor() as i32;
    for k in first..=last {
        let origin = across * (k as f32 * HATCH_STEP) + dir * dir.dot(c);
        if let Some((a, b)) = clip(origin, dir, &sides) {
            s.line(a, b, HATCH_WIDTH, colour, 0.0);
        }
    }
}

/// The part of the line `origin + t·dir` inside a convex polygon given by its sides.
fn clip(origin: Vec2, dir: Vec2, sides: &[(Vec2, Vec2)]) -> Option<(Vec2, Vec2)> {
    let cross = |a: Vec2, b: Vec2| a.x * b.y - a.y * b.x;
    let mut ts: Vec<f32> = Vec::new();
    for (a, b) in sides {
        let edge = *b - *a;
        let denom = cross(dir, edge);
        if denom.abs() < 1e-6 {
            continue;
        }
        let t = cross(*a - origin, edge) / denom;
        let u = cross(*a - origin, dir) / denom;
        if (-1e-4..=1.0 + 1e-4).contains(&u) {
            ts.push(t);
        }
    }
    let lo = ts.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = ts.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    (hi - lo > 1.0).then(|| (origin + dir * lo, origin + dir * hi))
}

/// The political overview: one pixel per hex, each land hex its terrain blended with its
/// sovereign's colour, occupied land striped in the occupier's, the front's hexes dark.
pub fn overview_rgba(map: &HexMap, politics: &Politics) -> Vec<u8> {
    let (w, h) = (map.width.max(1) as usize, map.height.max(1) as usize);
    let mut data = vec![0u8; w * h * 4];
    for (i, at) in map.hexes().enumerate() {
        let Some(cell) = map.cell(at) else { continue };
        let ground = super::art::terrain_rgb(cell.terrain);
        let rgb = match politics.hex(map, at) {
            None => ground,
            Some(_) if (0..6u8).any(|d| politics.front_between(map, at, at.neighbour(d))) => [40, 12, 12],
            Some(HexLook { hatch: Some(o), .. }) if (at.col + at.row).rem_euclid(3) == 0 => politics.rgb(o),
            Some(look) => {
                let alpha = if politics.is_idle(look.sovereign) { NEUTRAL_ALPHA } else { FILL_ALPHA };
                blend(ground, politics.rgb(look.sovereign), alpha)
            }
        };
        if let Some(px) = data.get_mut(i * 4..i * 4 + 4) {
            px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    data
}

fn blend(under: [u8; 3], over: [u8; 3], alpha: f32) -> [u8; 3] {
    let mix = |a: u8, b: u8| (f32::from(a) * (1.0 - alpha) + f32::from(b) * alpha).round().clamp(0.0, 255.0) as u8;
    [mix(under[0], over[0]), mix(under[1], over[1]), mix(under[2], over[2])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_a_hex_is_clipped_to_it_and_one_beside_it_is_not_drawn() {
        let at = HexAt::new(3, 3);
        let sides: Vec<(Vec2, Vec2)> = (0..6u8).map(|d| hexside(at, d)).collect();
        let c = hex_to_world(at);
        let (a, b) = clip(c, Vec2::X, &sides).expect("through the centre");
        assert!(((b - a).length() - HEX_W).abs() < 0.01, "across a pointy hex: its width, {}", (b - a).length());
        assert!(clip(c + Vec2::Y * HEX_W * 2.0, Vec2::X, &sides).is_none());
    }

    use super::super::art::{check_colours, coloured_powers};

    #[test]
    fn the_colour_table_reads_and_names_every_power_once_in_distinct_colours() {
        assert_eq!(check_colours(), Ok(super::super::POWERS.len()));
        let powers = coloured_powers();
        for id in super::super::POWERS {
            assert_eq!(powers.iter().filter(|p| *p == id).count(), 1, "{id}");
        }
        let mut colours: Vec<[u8; 3]> = powers.iter().map(|p| power_rgb(p, 0)).collect();
        colours.sort();
        colours.dedup();
        assert_eq!(colours.len(), powers.len());
        assert_ne!(power_rgb("austria_hungary", 0), power_rgb("belgium", 0));
        assert_eq!(power_rgb("nowhere", 1), power_rgb("elsewhere", 5), "others by place");
    }
}
