//! Counters in NATO style on the Great War map: divisions (XX), corps (XXX) and, when the
//! camera is far out, armies (XXXX) in place of their corps; infantry, cavalry, tanks and heavy
//! artillery by their symbols, with elite, mountain and colonial marks; a strength bar (Health)
//! and a morale bar under each; stacks offset; fleets and flotillas at sea (submarines only to
//! their own side and its allies, and to an enemy that has detected them, when a person watches). They follow the rules state and the
//! zoom; nothing here changes either.

use super::art::{self, COUNTER_H, COUNTER_W, Echelon, Marks, Symbol};
use super::board::{BoardView, GwArt, shown};
use super::geometry::hex_to_world;
use crate::replay::ReplayView;
use crate::screens::{Mode, Scene};
use crate::session::Session;
use bevy::prelude::*;
use rules::strategic::query::pieces_at;
use rules::strategic::state::{ForceKind, FormationKind};
use rules::strategic::{Ctx, ForceId, GreatWar, HexAt, Piece, PowerId};
use std::collections::BTreeMap;

/// From this camera scale on, corps are drawn in place of their divisions.
pub const CORPS_SCALE: f32 = 1.25;
/// From this camera scale on, armies are drawn in place of their corps.
pub const ARMY_SCALE: f32 = 2.5;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CounterImages>()
        .init_resource::<Drawn>()
        .add_systems(
            Update,
            sync.in_set(crate::AppSystems::Visuals).in_set(DrawCounters).run_if(in_state(Mode::GreatWar)),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            stack_counts.run_if(in_state(Mode::GreatWar)).before(crate::hud::PanelsBegin),
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
    key: Option<(usize, u64, u8, Option<u8>, u32)>,
    entities: Vec<Entity>,
    /// Each stack of more than one counter: where its count is written, and the count.
    pub counts: Vec<(Vec2, usize)>,
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
    /// Close: every division (XX) by itself, those of corps too.
    Divisions,
    /// Middle: each corps (XXX) in place of its divisions, the divisions outside corps.
    Corps,
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
    } else if scale > CORPS_SCALE {
        ZoomLevel::Corps
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
    let armies = matches!(level, ZoomLevel::Armies | ZoomLevel::Overview);
    let mut stacks: BTreeMap<HexAt, Vec<(Look, CounterOf)>> = BTreeMap::new();
    let mut hexes: Vec<HexAt> = ctx.forces.iter().filter_map(|f| f.hex()).collect();
    hexes.sort();
    hexes.dedup();
    let army_of = |p: Piece| rules::strategic::query::army_of(ctx, p);
    for at in hexes {
        for power in
            ctx.at(at).iter().filter_map(|u| ctx.force(*u)).map(|f| f.power).collect::<std::collections::BTreeSet<_>>()
        {
            for piece in pieces_at(ctx, power, at) {
                if armies && army_of(piece).is_some() {
                    continue;
                }
                let shown = match piece {
                    Piece::Corps(c) if level == ZoomLevel::Divisions => corps_divisions(ctx, c, at),
                    _ => vec![piece],
                };
                for piece in shown {
                    let Some(look) = piece_look(ctx, piece) else { continue };
                    // A battery's three divisions are one counter (S-ART-5).
                    let stack = stacks.entry(at).or_default();
                    if !stack.iter().any(|(l, _)| !l.units.is_empty() && l.units == look.units) {
                        stack.push((look, CounterOf::Piece(piece)));
                    }
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

/// A corps's divisions in a hex, each a piece of its own (the close zoom).
fn corps_divisions(ctx: &Ctx, corps: rules::strategic::FormationId, at: HexAt) -> Vec<Piece> {
    let mut units: Vec<ForceId> =
        ctx.at(at).iter().copied().filter(|u| ctx.force(*u).is_some_and(|f| f.member.corps == Some(corps))).collect();
    units.sort();
    units.into_iter().map(Piece::Unit).collect()
}

/// A hex's stack as it is drawn: one counter, the highest echelon and the most units on top,
/// with the number of counters it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Pile {
    pub top: (Look, CounterOf),
    pub count: usize,
}

/// The piles of the stacks (see [`stacks`]): a hex reads as one counter with a count.
pub fn piles(stacks: BTreeMap<HexAt, Vec<(Look, CounterOf)>>) -> BTreeMap<HexAt, Pile> {
    stacks
        .into_iter()
        .filter_map(|(at, stack)| {
            let count = stack.len();
            let top = stack
                .into_iter()
                .enumerate()
                .max_by_key(|(i, (look, _))| (look.echelon, look.units.len(), std::cmp::Reverse(*i)))?;
            Some((at, Pile { top: top.1, count }))
        })
        .collect()
}

/// Far out (the army zoom and beyond) the piles of one power that would overlap on screen read
/// as one counter (issue 27: counters heaped along the borders): the map is cut into square cells
/// of `cell` world units, and in each cell a power's piles become one, its highest echelon on top
/// (the most units, then the lowest hex, on a tie), at that pile's hex, with every counter
/// counted. Purely visual.
pub fn declutter(piles: BTreeMap<HexAt, Pile>, cell: f32) -> BTreeMap<HexAt, Pile> {
    let mut cells: BTreeMap<(i64, i64, PowerId), (HexAt, Pile)> = BTreeMap::new();
    for (at, pile) in piles {
        let w = hex_to_world(at) / cell.max(1.0);
        let key = (w.x.floor() as i64, w.y.floor() as i64, pile.top.0.power);
        match cells.get_mut(&key) {
            None => {
                cells.insert(key, (at, pile));
            }
            Some((top_at, top)) => {
                let count = top.count + pile.count;
                let rank = |p: &Pile| (p.top.0.echelon, p.top.0.units.len());
                if rank(&pile) > rank(top) || (rank(&pile) == rank(top) && at < *top_at) {
                    *top_at = at;
                    *top = pile;
                }
                top.count = count;
            }
        }
    }
    cells.into_values().collect()
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
    let level = zoom_level(view.scale);
    // Counters keep about 26 pixels on screen when the camera is far out.
    let size_step = (view.scale * 0.9).max(1.0);
    let viewer = session.as_deref().and_then(|s| s.viewer());
    let key = (
        game.orders().len(),
        session.as_deref().map_or(0, |s| s.turns_passed) ^ replay.as_deref().map_or(0, |r| r.at as u64) << 32,
        level as u8,
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
    drawn.counts.clear();
    let size = Vec2::new(COUNTER_W as f32, COUNTER_H as f32) * 0.9 * size_step;
    let mut shown = piles(stacks(&ctx, level, viewer));
    if matches!(level, ZoomLevel::Armies | ZoomLevel::Overview) {
        shown = declutter(shown, size.x);
    }
    for (at, pile) in shown {
        let centre = hex_to_world(at);
        if pile.count > 1 {
            drawn.counts.push((centre + size / 2.0, pile.count));
        }
        // A stack's lower counters show as edges under the top one.
        for depth in 1..pile.count.min(3) {
            let edge = Sprite {
                image: art.white.clone(),
                color: Color::srgba(0.08, 0.08, 0.08, 0.85),
                custom_size: Some(size),
                ..default()
            };
            let offset = Vec2::new(2.5, -2.5) * depth as f32 * size_step;
            let e = commands
                .spawn((edge, Transform::from_translation((centre + offset).extend(4.9)), DespawnOnExit(scene)))
                .id();
            drawn.entities.push(e);
        }
        {
            let (look, what) = &pile.top;
            let offset = Vec2::ZERO;
            let z = 5.0;
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

/// Each stack's count on its counter's corner, drawn under the panels.
fn stack_counts(
    mut contexts: bevy_egui::EguiContexts,
    drawn: Res<Drawn>,
    screen: Res<State<crate::screens::Screen>>,
    view: Option<Res<State<crate::screens::PlayView>>>,
    cameras: Query<(&Camera, &GlobalTransform), With<crate::camera::BoardCamera>>,
) -> Result {
    use bevy_egui::egui;
    if drawn.counts.is_empty()
        || !matches!(screen.get(), crate::screens::Screen::Playing | crate::screens::Screen::Replay)
    {
        return Ok(());
    }
    if view.is_some_and(|v| *v.get() == crate::screens::PlayView::HandOver) {
        return Ok(());
    }
    let Ok((camera, tf)) = cameras.single() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::background());
    let area = ctx.content_rect();
    for (at, count) in drawn.counts.iter().take(2_000) {
        let Ok(p) = camera.world_to_viewport(tf, at.extend(0.0)) else { continue };
        let pos = egui::pos2(p.x, p.y);
        if !area.contains(pos) {
            continue;
        }
        let galley = painter.layout_no_wrap(count.to_string(), egui::FontId::proportional(11.0), egui::Color32::WHITE);
        let rect = egui::Align2::CENTER_CENTER.anchor_size(pos, galley.size()).expand(2.0);
        painter.rect_filled(rect, 6.0, egui::Color32::from_rgb(150, 20, 20));
        painter.galley(rect.min + egui::vec2(2.0, 2.0), galley, egui::Color32::WHITE);
    }
    Ok(())
}
