//! Counters in NATO style on the Great War map: divisions (XX), corps (XXX) and, when the
//! camera is far out, armies (XXXX) in place of their corps; infantry, cavalry, tanks and heavy
//! artillery by their symbols, with elite, mountain and colonial marks; a strength bar (Health)
//! and a morale bar under each; stacks offset; fleets and flotillas at sea (submarines only to
//! their own side and its allies, and to an enemy that has detected them, when a person watches). They follow the rules state and the
//! zoom; nothing here changes either.

use super::art::{self, COUNTER_H, COUNTER_W, Echelon, Marks, Symbol};
use super::board::{BoardView, GwArt, shown};
use super::command::pieces_at;
use super::geometry::hex_to_world;
use crate::replay::ReplayView;
use crate::screens::{Mode, Scene};
use crate::session::Session;
use bevy::prelude::*;
use rules::strategic::state::{ForceKind, FormationKind};
use rules::strategic::{Ctx, ForceId, GreatWar, HexAt, Piece, PowerId};
use std::collections::BTreeMap;

/// From this camera scale on, armies are drawn in place of their corps.
pub const ARMY_SCALE: f32 = 2.5;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CounterImages>()
        .init_resource::<Drawn>()
        .add_systems(
            Update,
            sync.in_set(crate::AppSystems::Visuals).in_set(DrawCounters).run_if(in_state(Mode::GreatWar)),
        )
        .add_systems(OnExit(Scene::Playing(Mode::GreatWar)), forget)
        .add_systems(OnExit(Scene::Replay(Mode::GreatWar)), forget);
}

/// The system that draws the counters again when the game changes (animations follow it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct DrawCounters;

/// The counter images made so far.
#[derive(Resource, Default)]
struct CounterImages(BTreeMap<(Symbol, Echelon, Marks), Handle<Image>>);

/// What the counters on screen were drawn from.
#[derive(Resource, Default)]
struct Drawn {
    key: Option<(usize, u64, bool, Option<u8>, u32)>,
    entities: Vec<Entity>,
}

/// A counter on the map.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Counter {
    pub hex: HexAt,
    pub what: CounterOf,
}

/// What a counter stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CounterOf {
    Piece(Piece),
    Army(rules::strategic::FormationId),
    Fleet(u32),
}

fn forget(mut drawn: ResMut<Drawn>) {
    *drawn = Drawn::default();
}

/// A unit's symbol and marks.
pub fn symbol_of(kind: ForceKind) -> (Symbol, Marks) {
    match kind {
        ForceKind::Infantry { mountain, elite, colonial, .. } => {
            (Symbol::Infantry, Marks { elite, mountain, colonial })
        }
        ForceKind::Cavalry { elite, .. } => (Symbol::Cavalry, Marks { elite, ..Marks::default() }),
        ForceKind::Tank { .. } => (Symbol::Tank, Marks::default()),
        ForceKind::Artillery { .. } => (Symbol::Artillery, Marks::default()),
    }
}

/// Strength (Health) and morale of units together, as fractions of their full values.
pub fn bars(ctx: &Ctx, units: &[ForceId]) -> (f32, Option<f32>) {
    let (mut h, mut hm, mut m, mut mm) = (0i64, 0i64, 0i64, 0i64);
    for f in units.iter().filter_map(|u| ctx.force(*u)) {
        h += i64::from(f.vitals.health.max(0));
        hm += i64::from(f.vitals.max_health.max(0));
        if let (Some(a), Some(b)) = (f.vitals.morale, f.vitals.max_morale) {
            m += i64::from(a.max(0));
            mm += i64::from(b.max(0));
        }
    }
    let frac = |a: i64, b: i64| if b > 0 { (a as f32 / b as f32).clamp(0.0, 1.0) } else { 0.0 };
    (frac(h, hm), (mm > 0).then(|| frac(m, mm)))
}

/// What the zoom shows of the forces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoomLevel {
    /// Close: divisions (XX) and corps (XXX), each by itself.
    Divisions,
    /// Far: each army (XXXX) in place of its corps, the corps outside armies (XXX).
    Armies,
    /// Farthest: the armies over the overview image of the whole map (no chunks).
    Overview,
}

/// The zoom level at a camera scale (world units a pixel).
pub fn zoom_level(scale: f32) -> ZoomLevel {
    if scale > super::board::OVERVIEW_SCALE {
        ZoomLevel::Overview
    } else if scale > ARMY_SCALE {
        ZoomLevel::Armies
    } else {
        ZoomLevel::Divisions
    }
}

/// What one counter shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    pub symbol: Symbol,
    pub echelon: Echelon,
    pub marks: Marks,
    pub power: PowerId,
    pub units: Vec<ForceId>,
}

fn piece_look(ctx: &Ctx, piece: Piece) -> Option<Look> {
    let (power, units) = ctx.piece_units(piece).ok()?;
    let first = units
        .iter()
        .filter_map(|u| ctx.force(*u))
        .find(|f| f.kind.is_combatant())
        .or_else(|| ctx.force(*units.first()?))?;
    let (symbol, marks) = symbol_of(first.kind);
    let echelon = match piece {
        Piece::Corps(_) => Echelon::Corps,
        Piece::Unit(_) if first.kind.is_division() => Echelon::Division,
        Piece::Unit(_) => Echelon::None,
    };
    Some(Look { symbol, echelon, marks, power, units })
}

/// The counters at a zoom level, stacked by hex: the pieces (divisions, corps), armies in place
/// of their corps when far out, fleets and flotillas (a watching enemy sees only the submarines
/// it has detected, `sea_orders::sees`).
pub fn stacks(ctx: &Ctx, level: ZoomLevel, viewer: Option<PowerId>) -> BTreeMap<HexAt, Vec<(Look, CounterOf)>> {
    let armies = level != ZoomLevel::Divisions;
    let mut stacks: BTreeMap<HexAt, Vec<(Look, CounterOf)>> = BTreeMap::new();
    let mut hexes: Vec<HexAt> = ctx.forces.iter().filter_map(|f| f.hex()).collect();
    hexes.sort();
    hexes.dedup();
    let army_of = |p: Piece| super::command::army_of(ctx, p);
    for at in hexes {
        for power in
            ctx.at(at).iter().filter_map(|u| ctx.force(*u)).map(|f| f.power).collect::<std::collections::BTreeSet<_>>()
        {
            for piece in pieces_at(ctx, power, at) {
                if armies && army_of(piece).is_some() {
                    continue;
                }
                if let Some(look) = piece_look(ctx, piece) {
                    stacks.entry(at).or_default().push((look, CounterOf::Piece(piece)));
                }
            }
        }
    }
    if armies {
        for army in ctx.formations.iter().filter(|f| f.kind == FormationKind::Army) {
            let Some(at) = army.corps.iter().find_map(|c| ctx.piece_hex(Piece::Corps(*c))) else { continue };
            let look = Look {
                symbol: Symbol::Headquarters,
                echelon: Echelon::Army,
                marks: Marks::default(),
                power: army.power,
                units: ctx.formation_units(army.id),
            };
            stacks.entry(at).or_default().push((look, CounterOf::Army(army.id)));
        }
    }
    for f in &ctx.navy.fleets {
        if super::fleet(ctx, f.id).is_none() {
            continue;
        }
        let flotilla = ctx.navy.is_flotilla(f.id);
        // Enemy submarines are hidden from a watching enemy until it detects them (S-AIR-1, S-SUB-5).
        if !super::sea_orders::sees(ctx, viewer, f) {
            continue;
        }
        let symbol = if flotilla { Symbol::Flotilla } else { Symbol::Fleet };
        let look = Look { symbol, echelon: Echelon::None, marks: Marks::default(), power: f.power, units: Vec::new() };
        stacks.entry(f.at).or_default().push((look, CounterOf::Fleet(f.id)));
    }
    stacks
}

#[allow(clippy::too_many_arguments)]
fn sync(
    mut commands: Commands,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    view: Option<Res<BoardView>>,
    art: Option<Res<GwArt>>,
    mut images: ResMut<Assets<Image>>,
    mut cache: ResMut<CounterImages>,
    mut drawn: ResMut<Drawn>,
) {
    let (Some(view), Some(art)) = (view, art) else { return };
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return };
    let armies = zoom_level(view.scale) != ZoomLevel::Divisions;
    // Counters keep about 26 pixels on screen when the camera is far out.
    let size_step = (view.scale * 0.9).max(1.0);
    let viewer = session.as_deref().and_then(|s| s.viewer());
    let key = (
        game.orders().len(),
        session.as_deref().map_or(0, |s| s.turns_passed) ^ replay.as_deref().map_or(0, |r| r.at as u64) << 32,
        armies,
        viewer.map(|p| p.0),
        (size_step * 4.0).round() as u32,
    );
    if drawn.key == Some(key) {
        return;
    }
    drawn.key = Some(key);
    for e in std::mem::take(&mut drawn.entities) {
        commands.entity(e).despawn();
    }
    let ctx = game.ctx();
    let scene = if session.is_some() { Scene::Playing(Mode::GreatWar) } else { Scene::Replay(Mode::GreatWar) };
    let mut image = |s: Symbol, e: Echelon, m: Marks| {
        cache.0.entry((s, e, m)).or_insert_with(|| images.add(art::counter(s, e, m))).clone()
    };
    let power_colour = |p: PowerId| {
        let id = ctx.scenario().powers.get(usize::from(p.0)).map_or("", |s| s.id.as_str());
        art::power_colour(id, usize::from(p.0))
    };
    let stacks = stacks(&ctx, zoom_level(view.scale), viewer);
    for (at, stack) in stacks {
        let centre = hex_to_world(at);
        for (i, (look, what)) in stack.iter().enumerate() {
            let offset = Vec2::new(3.0, 3.0) * i as f32 * size_step;
            let z = 5.0 + i as f32 * 0.1;
            let size = Vec2::new(COUNTER_W as f32, COUNTER_H as f32) * 0.9 * size_step;
            let counter = commands
                .spawn((
                    Name::new("Counter"),
                    Counter { hex: at, what: *what },
                    Sprite {
                        image: image(look.symbol, look.echelon, look.marks),
                        color: power_colour(look.power),
                        custom_size: Some(size),
                        ..default()
                    },
                    Transform::from_translation((centre + offset).extend(z)),
                    DespawnOnExit(scene),
                ))
                .id();
            drawn.entities.push(counter);
            if look.units.is_empty() {
                continue;
            }
            let (strength, morale) = bars(&ctx, &look.units);
            let bar = |frac: f32, row: f32, colour: Color| {
                let w = size.x * frac;
                (
                    Sprite {
                        image: art.white.clone(),
                        color: colour,
                        custom_size: Some(Vec2::new(w, 2.5 * size_step)),
                        ..default()
                    },
                    Transform::from_translation(Vec3::new(
                        (w - size.x) / 2.0,
                        -size.y / 2.0 - (1.5 + row * 3.0) * size_step,
                        0.05,
                    )),
                )
            };
            commands.entity(counter).with_children(|c| {
                c.spawn(bar(strength, 0.0, Color::srgb(0.2, 0.75, 0.25)));
                if let Some(m) = morale {
                    c.spawn(bar(m, 1.0, Color::srgb(0.95, 0.8, 0.2)));
                }
            });
        }
    }
}
