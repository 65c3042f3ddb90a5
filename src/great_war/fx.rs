//! Short effects on the Great War board for what the rules did: a burst where land forces
//! fought (S-COMBAT-8), shells landing (S-ART, bombardment from the sea, coastal guns), a
//! yellow-green cloud where gas falls (S-CHEM), dust where a fortification, fortress or forest
//! is damaged (S-FORT-5, S-FORT-6, S-TERR-3), smoke where a city loses a level (S-ART-4), splashes
//! where ships fight (a naval battle, a submarine attack, bombs), a whirl where a ship goes down,
//! and the counter of a destroyed or dispersed unit fading where it stood.
//!
//! Purely visual, like `anim`: the app reads the orders and events that came since the last
//! frame (and where units and ships stood before them) and changes nothing; orders and the AI
//! never wait. Timed by the player's animation speed (none when animations are off); at most
//! [`FX_PER_FRAME`] start in a frame and [`FX_ALIVE`] play at once, the most telling first, so
//! an AI's grand turn neither stalls nor floods the board; the event log tells every die and sum.
//! A game started, loaded or rebuilt (undo, a replay's jump) starts from what it shows, with no
//! effects. The window draws frames only while an effect plays.

use super::art::{self, Echelon};
use super::board::BoardView;
use super::counters::symbol_of;
use super::geometry::{HEX_W, hex_to_world};
use crate::replay::{OpenReplay, ReplayView};
use crate::screens::{Mode, Scene, Screen};
use crate::session::{LoadGame, Session, StartGame};
use crate::settings::Settings;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use rules::strategic::{Ctx, Event, EventKind, ForceId, GreatWar, HexAt, Order, PowerId};
use std::collections::BTreeMap;

/// UI limit: effects started in one frame. One order can resolve hundreds of engagements (an
/// AI's Combat phase); the most telling (losses first) are shown and the rest only in the log,
/// so the frame neither stalls nor fills the board with flashes.
pub const FX_PER_FRAME: usize = 12;
/// UI limit: effects playing at once.
pub const FX_ALIVE: usize = 48;
/// UI limit: orders that came in one frame and are still played out. A person, the AI and the
/// replay viewer's step give one a frame; more is a jump (a replay's turn skipped), shown at once.
pub const LIVE_ORDERS: usize = 8;
/// UI limit: hexes of one engagement that flash.
const HEXES_PER_FIGHT: usize = 6;

/// The scene's effects; added with the board (tests add it to a headless app).
pub fn plugin(app: &mut App) {
    let fresh = |mut watch: ResMut<Watch>| watch.seen = None;
    app.init_resource::<Watch>()
        .add_message::<RequestRedraw>()
        .add_systems(
            Update,
            (watch, play)
                .chain()
                .after(super::counters::DrawCounters)
                .in_set(crate::AppSystems::Visuals)
                .run_if(in_state(Mode::GreatWar)),
        )
        .add_systems(OnEnter(Screen::Playing), fresh)
        .add_systems(OnEnter(Screen::Replay), fresh);
}

/// What an effect shows, the most telling first (kept first when too many come at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FxKind {
    /// A unit destroyed or dispersed (S-LOSS-1): its counter fades where it stood.
    Fallen,
    /// A ship sunk: a whirl closing over the water.
    Sinking,
    /// A city loses a level (S-ART-4): fire and black smoke.
    CityRuined,
    /// A fortification, fortress or forest damaged or destroyed: a dust ring.
    Rubble,
    /// A land engagement (S-COMBAT-8): a burst at every hex that fought.
    Clash,
    /// Ships fighting: a naval battle, a submarine attack, bombs on a ship.
    SeaFight,
    /// Gas shells or a cylinder's cloud (S-CHEM).
    Gas,
    /// Shells landing: heavy artillery, bombardment from the sea, coastal guns.
    Shellfire,
    /// Mines laid in a sea area (S-MINE-1): a dark splash where the minelayer lies.
    Minelaying,
    /// Minesweepers at work (S-MINE-4): rings spreading from the fleet.
    Sweeping,
    /// A reconnaissance flight (S-AIR-1): a wide ring over the squadron's base.
    Scouting,
}

impl FxKind {
    /// Its length in animation steps (Settings' speed gives a step's seconds).
    pub fn steps(self) -> f32 {
        match self {
            FxKind::Shellfire => 2.0,
            FxKind::Clash | FxKind::Rubble | FxKind::SeaFight | FxKind::Minelaying | FxKind::Sweeping => 3.0,
            FxKind::Scouting => 4.0,
            FxKind::Fallen | FxKind::Sinking | FxKind::CityRuined => 4.0,
            FxKind::Gas => 5.0,
        }
    }

    /// Its length in seconds at a step's seconds (0: animations are off).
    pub fn seconds(self, step: f32) -> f32 {
        self.steps() * step.max(0.0)
    }
}

/// One effect to show: what, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fx {
    pub kind: FxKind,
    pub at: HexAt,
    /// The unit a fading counter shows.
    pub unit: Option<ForceId>,
}

/// Where units and ships stood when the board last changed (a destroyed unit has no hex any
/// more; a sunk ship no fleet).
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Known {
    pub units: BTreeMap<ForceId, HexAt>,
    /// Each ship afloat: its fleet's hex, and whether the person watching may see that fleet
    /// (an undetected enemy submarine flotilla is hidden, `sea_orders::sees`).
    pub ships: BTreeMap<u32, (HexAt, bool)>,
    pub fleets: BTreeMap<u32, HexAt>,
    /// Attacks named this turn (S-COMBAT-8), from the attacker's hex to its target: one side's
    /// hex in a fight brings the other's, which loses nothing when the weaker side goes.
    pub attacks: Vec<(HexAt, HexAt)>,
}

impl Known {
    pub fn of(ctx: &Ctx, viewer: Option<PowerId>) -> Known {
        let units = ctx.forces.iter().filter_map(|f| Some((f.id, f.hex()?))).collect();
        let fleets: BTreeMap<u32, HexAt> = ctx.navy.fleets.iter().map(|f| (f.id, f.at)).collect();
        let ships = ctx
            .navy
            .ships
            .iter()
            .filter(|s| !s.sunk)
            .filter_map(|s| {
                let fleet = ctx.navy.fleet(s.fleet)?;
                Some((s.id, (fleet.at, super::sea_orders::sees(ctx, viewer, fleet))))
            })
            .collect();
        let mut attacks: Vec<(HexAt, HexAt)> =
            ctx.forces.iter().filter_map(|f| Some((f.hex()?, f.activity.target?))).collect();
        attacks.sort();
        attacks.dedup();
        Known { units, ships, fleets, attacks }
    }

    fn unit(&self, ctx: &Ctx, u: ForceId) -> Option<HexAt> {
        self.units.get(&u).copied().or_else(|| ctx.force(u).and_then(|f| f.hex()))
    }

    fn fleet(&self, ctx: &Ctx, id: u32) -> Option<HexAt> {
        self.fleets.get(&id).copied().or_else(|| ctx.navy.fleet(id).map(|f| f.at))
    }

    /// A fleet's hex, if the person watching saw any of its ships there.
    fn seen_fleet(&self, ctx: &Ctx, id: u32) -> Option<HexAt> {
        let seen = ctx.navy.ships.iter().filter(|s| s.fleet == id).any(|s| self.ships.get(&s.id).is_some_and(|k| k.1));
        seen.then(|| self.fleet(ctx, id)).flatten()
    }

    fn ship(&self, ctx: &Ctx, id: u32) -> Option<HexAt> {
        self.ships.get(&id).map(|s| s.0).or_else(|| ctx.navy.ship(id).and_then(|s| self.fleet(ctx, s.fleet)))
    }
}

/// The effects of the orders and events that came since `known` was taken, with `ctx` the game
/// after them. A ship of a fleet the watching person could not see goes down unseen (S-SUB).
pub fn effects_of(known: &Known, ctx: &Ctx, orders: &[Order], events: &[Event]) -> Vec<Fx> {
    let mut out = Vec::new();
    let mut put = |kind: FxKind, at: Option<HexAt>, unit: Option<ForceId>| {
        if let Some(at) = at {
            out.push(Fx { kind, at, unit });
        }
    };
    // The hexes of the engagement being read: its units' losses follow its line.
    let mut fight: Option<Vec<HexAt>> = None;
    let flush = |fight: &mut Option<Vec<HexAt>>, put: &mut dyn FnMut(FxKind, Option<HexAt>, Option<ForceId>)| {
        let mut hexes = fight.take().unwrap_or_default();
        let other_sides: Vec<HexAt> = known
            .attacks
            .iter()
            .filter_map(|(from, to)| {
                if hexes.contains(to) {
                    Some(*from)
                } else if hexes.contains(from) {
                    Some(*to)
                } else {
                    None
                }
            })
            .collect();
        for at in other_sides {
            if !hexes.contains(&at) && hexes.len() < HEXES_PER_FIGHT {
                hexes.push(at);
            }
        }
        for at in hexes {
            put(FxKind::Clash, Some(at), None);
        }
    };
    let mut at_sea = false;
    for e in events {
        match &e.kind {
            EventKind::Engagement { .. } => {
                flush(&mut fight, &mut put);
                fight = Some(Vec::new());
            }
            EventKind::Health { unit, .. }
            | EventKind::Morale { unit, .. }
            | EventKind::Destroyed { unit }
            | EventKind::Dispersed { unit } => {
                if let (Some(hexes), Some(at)) = (fight.as_mut(), known.unit(ctx, *unit))
                    && !hexes.contains(&at)
                    && hexes.len() < HEXES_PER_FIGHT
                {
                    hexes.push(at);
                }
                if matches!(e.kind, EventKind::Destroyed { .. } | EventKind::Dispersed { .. }) {
                    put(FxKind::Fallen, known.unit(ctx, *unit), Some(*unit));
                }
            }
            EventKind::FortDamage { at, .. } => put(FxKind::Rubble, Some(*at), None),
            EventKind::CityDestroyed { at, .. } => put(FxKind::CityRuined, Some(*at), None),
            EventKind::Volley => at_sea = true,
            EventKind::Die { what, .. } if what == "volley" => at_sea = true,
            EventKind::Phase { .. } | EventKind::Moved { .. } | EventKind::Note => flush(&mut fight, &mut put),
            _ => {}
        }
    }
    flush(&mut fight, &mut put);
    for order in orders {
        match order {
            Order::Fire { target, gas, .. } => {
                put(if *gas { FxKind::Gas } else { FxKind::Shellfire }, Some(*target), None)
            }
            Order::ReleaseGas { target, .. } => put(FxKind::Gas, Some(*target), None),
            Order::Bombard { target, .. } => put(FxKind::Shellfire, Some(*target), None),
            Order::CoastalFire { ship, .. } => put(FxKind::Shellfire, known.ship(ctx, *ship), None),
            Order::Bomb { ship, .. } => put(FxKind::SeaFight, known.ship(ctx, *ship), None),
            Order::SubmarineAttack { target, .. } => put(FxKind::SeaFight, known.fleet(ctx, *target), None),
            Order::LayMine { fleet } => put(FxKind::Minelaying, known.seen_fleet(ctx, *fleet), None),
            Order::Sweep { fleet } => put(FxKind::Sweeping, known.seen_fleet(ctx, *fleet), None),
            Order::Reconnaissance { squadron } => {
                put(FxKind::Scouting, ctx.navy.squadrons.iter().find(|q| q.id == *squadron).map(|q| q.base), None)
            }
            Order::MoveFleet { fleet, .. } if at_sea => {
                put(FxKind::SeaFight, ctx.navy.fleet(*fleet).map(|f| f.at).or(known.fleet(ctx, *fleet)), None)
            }
            _ => {}
        }
    }
    // Ships gone down since: in a battle, to a submarine, a mine, bombs or coastal guns.
    for s in ctx.navy.ships.iter().filter(|s| s.sunk) {
        if let Some(&(at, true)) = known.ships.get(&s.id) {
            put(FxKind::Sinking, Some(at), None);
        }
    }
    out
}

/// The effects to start now: one of a kind a hex, the most telling first, at most
/// [`FX_PER_FRAME`] and no more than `room`.
pub fn pick(mut fx: Vec<Fx>, room: usize) -> Vec<Fx> {
    fx.sort_by_key(|f| (f.kind, f.at));
    fx.dedup_by_key(|f| (f.kind, f.at));
    fx.truncate(FX_PER_FRAME.min(room));
    fx
}

/// What the board has shown: the logs' lengths (`None`: start from the next game seen, with no
/// effects), whether it is the replay's game, and where things stood.
#[derive(Resource, Default, Debug)]
pub struct Watch {
    seen: Option<(usize, usize)>,
    replay: bool,
    known: Known,
}

/// An effect playing on the board.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Effect {
    pub fx: Fx,
    /// Seconds left of `duration`.
    pub left: f32,
    pub duration: f32,
}

impl Effect {
    /// How far it has played, 0 to 1.
    pub fn progress(&self) -> f32 {
        if self.duration <= 0.0 { 1.0 } else { (1.0 - self.left / self.duration).clamp(0.0, 1.0) }
    }
}

/// The images effects are drawn with, made once (none in a headless app).
struct FxArt {
    burst: Handle<Image>,
    puff: Handle<Image>,
    ring: Handle<Image>,
    cross: Handle<Image>,
    counters: BTreeMap<(art::Symbol, Echelon, art::Marks), Handle<Image>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Burst,
    Puff,
    Ring,
    Cross,
    /// The fallen unit's counter.
    Counter,
}

/// One sprite of an effect: its image, colour (sRGB and alpha), size in hex widths at the start
/// and at the end, how far it rises (hex widths), and whether it swells in before fading.
#[derive(Clone, Copy, Debug)]
struct Part {
    shape: Shape,
    colour: [f32; 4],
    from: f32,
    to: f32,
    rise: f32,
    swell: bool,
}

const fn part(shape: Shape, colour: [f32; 4], from: f32, to: f32) -> Part {
    Part { shape, colour, from, to, rise: 0.0, swell: false }
}

const fn cloud(colour: [f32; 4], from: f32, to: f32, rise: f32) -> Part {
    Part { shape: Shape::Puff, colour, from, to, rise, swell: true }
}

/// Each kind's sprites, back to front.
static PARTS: [(FxKind, [Part; 2]); 11] = {
    use Shape::*;
    [
        (FxKind::Clash, [part(Ring, [0.9, 0.15, 0.1, 0.95], 0.7, 2.6), part(Burst, [1.0, 0.55, 0.1, 1.0], 1.0, 2.0)]),
        (
            FxKind::Shellfire,
            [cloud([0.35, 0.32, 0.3, 0.6], 0.6, 1.3, 0.3), part(Burst, [1.0, 0.95, 0.6, 1.0], 0.5, 1.3)],
        ),
        (FxKind::Gas, [cloud([0.62, 0.82, 0.2, 0.8], 1.0, 2.4, 0.0), cloud([0.8, 0.92, 0.25, 0.75], 0.6, 1.6, 0.2)]),
        (FxKind::Rubble, [cloud([0.6, 0.5, 0.38, 0.6], 0.7, 1.5, 0.1), part(Ring, [0.55, 0.4, 0.25, 0.9], 0.5, 1.6)]),
        (
            FxKind::CityRuined,
            [part(Burst, [1.0, 0.4, 0.1, 0.8], 0.5, 1.0), cloud([0.12, 0.1, 0.1, 0.75], 0.6, 1.8, 0.8)],
        ),
        (FxKind::SeaFight, [part(Burst, [1.0, 0.9, 0.6, 0.9], 0.4, 1.0), part(Ring, [0.95, 0.97, 1.0, 0.9], 0.4, 1.8)]),
        (FxKind::Sinking, [cloud([0.85, 0.92, 1.0, 0.5], 0.4, 1.2, 0.0), part(Ring, [0.6, 0.8, 1.0, 0.9], 1.6, 0.2)]),
        (
            FxKind::Minelaying,
            [cloud([0.15, 0.17, 0.22, 0.75], 0.4, 1.1, 0.0), part(Ring, [0.2, 0.22, 0.3, 0.9], 0.3, 1.4)],
        ),
        (FxKind::Sweeping, [part(Ring, [0.75, 0.9, 1.0, 0.9], 0.4, 2.2), part(Ring, [0.9, 0.97, 1.0, 0.8], 0.2, 1.2)]),
        (FxKind::Scouting, [part(Ring, [0.95, 0.95, 0.8, 0.8], 0.5, 6.0), part(Burst, [1.0, 1.0, 0.9, 0.7], 0.3, 0.6)]),
        (
            FxKind::Fallen,
            [part(Counter, [1.0, 1.0, 1.0, 1.0], 1.0, 0.8), part(Cross, [0.85, 0.05, 0.05, 1.0], 1.0, 1.0)],
        ),
    ]
};

fn parts(kind: FxKind) -> &'static [Part] {
    PARTS.iter().find(|(k, _)| *k == kind).map_or(&[], |(_, p)| p.as_slice())
}

/// A part's size (hex widths), alpha and rise (hex widths) at `t` (0 to 1).
fn part_at(p: &Part, t: f32) -> (f32, f32, f32) {
    let size = p.from + (p.to - p.from) * t;
    let fade = if p.swell { (std::f32::consts::PI * t).sin() } else { 1.0 - t * t };
    (size, p.colour[3] * fade, p.rise * t)
}

/// One sprite of a playing effect.
#[derive(Component, Clone, Copy, Debug)]
struct FxPart {
    part: Part,
    /// World units a hex width is drawn at (grows as the camera zooms out, as counters do).
    unit: f32,
    /// Width and height of its image in hex widths at size 1.
    aspect: Vec2,
}

/// What begins a game on the board: a new one, a loaded one, a replay.
type NewGames<'w, 's> = (
    MessageReader<'w, 's, StartGame<GreatWar>>,
    MessageReader<'w, 's, LoadGame<GreatWar>>,
    MessageReader<'w, 's, OpenReplay<GreatWar>>,
);

#[allow(clippy::too_many_arguments)]
fn watch(
    mut commands: Commands,
    session: Option<Res<Session<GreatWar>>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    (settings, view, screen): (Res<Settings>, Option<Res<BoardView>>, Res<State<Screen>>),
    (mut starts, mut loads, mut opens): NewGames,
    mut watch: ResMut<Watch>,
    alive: Query<(), With<Effect>>,
    mut images: Option<ResMut<Assets<Image>>>,
    mut look: Local<Option<FxArt>>,
) {
    // A game started or loaded (over this one, too) begins with what it shows.
    if starts.read().count() + loads.read().count() + opens.read().count() > 0 {
        watch.seen = None;
    }
    // The replay viewer's game on its screen (a game in play may wait under it), else the one in play.
    let is_replay = *screen.get() == Screen::Replay;
    let game = if is_replay { replay.as_deref().map(|r| &r.game) } else { session.as_deref().map(|s| &s.game) };
    let Some(game) = game else {
        watch.seen = None;
        return;
    };
    let logs = (game.orders().len(), game.events().len());
    if watch.seen == Some(logs) && watch.replay == is_replay {
        return;
    }
    let ctx = game.ctx();
    let live = watch
        .seen
        .filter(|(o, e)| watch.replay == is_replay && logs.0 >= *o && logs.1 >= *e && logs.0 - o <= LIVE_ORDERS);
    let step = settings.anim.step_seconds();
    if let Some((o, e)) = live
        && step > 0.0
    {
        let fx = effects_of(&watch.known, &ctx, &game.orders()[o..], &game.events()[e..]);
        let fx = pick(fx, FX_ALIVE.saturating_sub(alive.iter().count()));
        if look.is_none()
            && let Some(images) = images.as_mut()
        {
            *look = Some(FxArt {
                burst: images.add(art::burst()),
                puff: images.add(art::puff()),
                ring: images.add(art::ring()),
                cross: images.add(art::cross()),
                counters: BTreeMap::new(),
            });
        }
        let unit = HEX_W * view.map_or(1.0, |v| (v.scale * 0.9).max(1.0));
        let scene = if is_replay { Scene::Replay(Mode::GreatWar) } else { Scene::Playing(Mode::GreatWar) };
        for (i, f) in fx.into_iter().enumerate() {
            let duration = f.kind.seconds(step);
            let z = 8.0 + i as f32 * 0.01;
            let effect = commands
                .spawn((
                    Name::new("Effect"),
                    Effect { fx: f, left: duration, duration },
                    Transform::from_translation(hex_to_world(f.at).extend(z)),
                    Visibility::default(),
                    DespawnOnExit(scene),
                ))
                .id();
            if let (Some(look), Some(images)) = (look.as_mut(), images.as_mut()) {
                spawn_parts(&mut commands, effect, look, images, &ctx, f, unit);
            }
        }
    }
    // The replay shows every fleet; a game in play what its watching person may see.
    let viewer = session.as_deref().filter(|_| !is_replay).and_then(|s| s.viewer());
    watch.known = Known::of(&ctx, viewer);
    watch.seen = Some(logs);
    watch.replay = is_replay;
}

/// The sprites of an effect (a fading counter in its power's colour and marks).
fn spawn_parts(
    commands: &mut Commands,
    effect: Entity,
    look: &mut FxArt,
    images: &mut Assets<Image>,
    ctx: &Ctx,
    f: Fx,
    unit: f32,
) {
    let fallen = f.unit.and_then(|u| ctx.force(u));
    for (k, p) in parts(f.kind).iter().enumerate() {
        let (image, colour, aspect) = match p.shape {
            Shape::Burst => (look.burst.clone(), None, Vec2::ONE),
            Shape::Puff => (look.puff.clone(), None, Vec2::ONE),
            Shape::Ring => (look.ring.clone(), None, Vec2::ONE),
            Shape::Cross => (look.cross.clone(), None, Vec2::ONE),
            Shape::Counter => {
                let Some(force) = fallen else { continue };
                let (symbol, marks) = symbol_of(force.kind);
                let echelon = if force.kind.is_division() { Echelon::Division } else { Echelon::None };
                let image = look
                    .counters
                    .entry((symbol, echelon, marks))
                    .or_insert_with(|| images.add(art::counter(symbol, echelon, marks)))
                    .clone();
                let id = ctx.scenario().powers.get(usize::from(force.power.0)).map_or("", |s| s.id.as_str());
                let aspect = Vec2::new(art::COUNTER_W as f32, art::COUNTER_H as f32) / HEX_W;
                (image, Some(art::power_colour(id, usize::from(force.power.0))), aspect)
            }
        };
        let base = colour.unwrap_or(Color::srgba(p.colour[0], p.colour[1], p.colour[2], p.colour[3]));
        let (size, alpha, _) = part_at(p, 0.0);
        commands.entity(effect).with_child((
            FxPart { part: *p, unit, aspect },
            Sprite { image, color: base.with_alpha(alpha), custom_size: Some(aspect * size * unit), ..default() },
            Transform::from_translation(Vec3::new(0.0, 0.0, k as f32 * 0.001)),
        ));
    }
}

/// Plays the effects on and ends them; the window keeps drawing while one plays.
fn play(
    mut commands: Commands,
    time: Res<Time>,
    mut effects: Query<(Entity, &mut Effect, Option<&Children>)>,
    mut parts: Query<(&FxPart, &mut Sprite, &mut Transform)>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let dt = time.delta_secs();
    let mut any = false;
    for (entity, mut effect, children) in &mut effects {
        effect.left = (effect.left - dt).max(0.0);
        if effect.left <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        any = true;
        let t = effect.progress();
        for child in children.into_iter().flatten() {
            let Ok((p, mut sprite, mut tf)) = parts.get_mut(*child) else { continue };
            let (size, alpha, rise) = part_at(&p.part, t);
            sprite.custom_size = Some(p.aspect * size * p.unit);
            sprite.color.set_alpha(alpha);
            tf.translation.y = rise * p.unit;
        }
    }
    if any {
        redraw.write(RequestRedraw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::strategic::testkit::{ctx, hex, id, infantry, scenario};
    use rules::strategic::{CombatResult, HexMap, Phase, Terrain};

    fn front() -> Ctx {
        let map = HexMap::filled("m", 40, 12, Terrain::Clear);
        ctx(&scenario(map, vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (3, 2))]), Phase::Combat, 0)
    }

    fn event(kind: EventKind) -> Event {
        Event { turn: 5, kind, line: rules::texts::Msg::new("gw.turn").arg("turn", 5) }
    }

    fn engagement() -> Event {
        event(EventKind::Engagement {
            stronger_total: 4,
            weaker_total: 3,
            divisions: 2,
            d: 1,
            result: CombatResult::Stubborn,
        })
    }

    fn health(unit: ForceId) -> Event {
        event(EventKind::Health { unit, delta: -1, now: 3 })
    }

    /// Each kind lasts its steps at the player's speed; with animations off, nothing plays.
    #[test]
    fn an_effect_lasts_its_steps_at_the_players_speed() {
        use crate::settings::AnimSpeed;
        assert_eq!(FxKind::Clash.seconds(AnimSpeed::Normal.step_seconds()), 0.3 * 3.0);
        assert_eq!(FxKind::Gas.seconds(AnimSpeed::Slow.step_seconds()), 0.6 * 5.0);
        assert!(FxKind::Shellfire.seconds(AnimSpeed::Fast.step_seconds()) < FxKind::Fallen.seconds(0.12));
        for kind in [FxKind::Clash, FxKind::Fallen, FxKind::Gas] {
            assert_eq!(kind.seconds(AnimSpeed::Instant.step_seconds()), 0.0);
        }
        let mut e = Effect { fx: Fx { kind: FxKind::Clash, at: hex(1, 1), unit: None }, left: 0.9, duration: 0.9 };
        assert_eq!(e.progress(), 0.0);
        e.left = 0.45;
        assert!((e.progress() - 0.5).abs() < 1e-6);
        // A part swells in and out, or fades from full; it ends unseen.
        for kind in [FxKind::Clash, FxKind::Gas, FxKind::Fallen, FxKind::Sinking] {
            for p in parts(kind) {
                assert!(part_at(p, 1.0).1.abs() < 1e-3, "{kind:?} ends unseen");
            }
        }
    }

    /// An engagement flashes at the hexes of both sides, read from the losses that follow its
    /// line (the event names no hex).
    #[test]
    fn an_engagement_flashes_at_both_hexes() {
        let ctx = front();
        let known = Known::of(&ctx, None);
        let fx = effects_of(&known, &ctx, &[], &[engagement(), health(id(1)), health(id(2))]);
        let at: Vec<HexAt> = fx.iter().filter(|f| f.kind == FxKind::Clash).map(|f| f.at).collect();
        assert_eq!(at, vec![hex(2, 2), hex(3, 2)]);
    }

    /// A beaten side's hex flashes with the other side's, known by the attack named (the winner
    /// loses nothing when the weaker side is destroyed).
    #[test]
    fn a_beaten_side_flashes_with_the_other_side() {
        let mut ctx = front();
        if let Some(f) = ctx.forces.iter_mut().find(|f| f.id == id(1)) {
            f.activity.target = Some(hex(3, 2));
        }
        let known = Known::of(&ctx, None);
        assert_eq!(known.attacks, vec![(hex(2, 2), hex(3, 2))]);
        ctx.destroy(id(2), rules::texts::Msg::plain("D ≥ 30"));
        let mut events = vec![engagement()];
        events.extend(ctx.events.clone());
        let clash: Vec<HexAt> =
            effects_of(&known, &ctx, &[], &events).iter().filter(|f| f.kind == FxKind::Clash).map(|f| f.at).collect();
        assert_eq!(clash, vec![hex(3, 2), hex(2, 2)]);
        // The attacker beaten: its target flashes too.
        let mut beaten = front();
        beaten.destroy(id(1), rules::texts::Msg::plain("D ≥ 30"));
        let mut events = vec![engagement()];
        events.extend(beaten.events.clone());
        let clash: Vec<HexAt> = effects_of(&known, &beaten, &[], &events)
            .iter()
            .filter(|f| f.kind == FxKind::Clash)
            .map(|f| f.at)
            .collect();
        assert_eq!(clash, vec![hex(2, 2), hex(3, 2)]);
        let unnamed = Known { attacks: Vec::new(), ..known };
        let clash = effects_of(&unnamed, &ctx, &[], &events).into_iter().filter(|f| f.kind == FxKind::Clash).count();
        assert_eq!(clash, 1, "without a named target only the beaten hex is known");
    }

    /// No hex, no effect: an engagement without losses read, a note, the loss of a unit never
    /// seen on the map, an order that names no place.
    #[test]
    fn no_effect_without_a_hex() {
        let ctx = front();
        let known = Known::of(&ctx, None);
        let events = [engagement(), event(EventKind::Note), event(EventKind::Destroyed { unit: id(99) })];
        assert_eq!(effects_of(&known, &ctx, &[Order::EndPhase], &events), vec![]);
        assert_eq!(
            effects_of(&known, &ctx, &[Order::Fortify { piece: rules::strategic::Piece::Unit(id(1)) }], &[]),
            vec![]
        );
    }

    /// A destroyed unit's counter fades where it stood before (it has no hex any more); gas shells
    /// and a high-explosive shot show at their target.
    #[test]
    fn a_destroyed_unit_fades_where_it_stood_and_fire_shows_at_its_target() {
        let mut ctx = front();
        let known = Known::of(&ctx, None);
        ctx.destroy(id(2), rules::texts::Msg::plain("a test"));
        assert_eq!(ctx.force(id(2)).and_then(|f| f.hex()), None);
        let events = ctx.events.clone();
        let fx = effects_of(&known, &ctx, &[], &events);
        assert_eq!(fx, vec![Fx { kind: FxKind::Fallen, at: hex(3, 2), unit: Some(id(2)) }]);
        let gas = Order::Fire { unit: id(1), target: hex(3, 2), gas: true };
        let shell = Order::Fire { unit: id(1), target: hex(4, 2), gas: false };
        let fx = effects_of(&known, &ctx, &[gas, shell], &[]);
        assert_eq!(
            fx.iter().map(|f| (f.kind, f.at)).collect::<Vec<_>>(),
            vec![(FxKind::Gas, hex(3, 2)), (FxKind::Shellfire, hex(4, 2))]
        );
    }

    /// A ship sunk goes down in a whirl where its fleet lay, unless it sailed in an enemy
    /// submarine flotilla the watching person had not detected (S-SUB): U-Flottille II in the
    /// North Sea, seen by Germany, hidden from Great Britain.
    #[test]
    fn a_sunk_ship_whirls_where_its_fleet_lay_unless_the_watcher_could_not_see_it() {
        let scenario = super::super::files::load_scenario("scenarios/great_war/north_sea_1916.ron").expect("loads");
        let mut ctx = GreatWar::new(&scenario, 1).ctx();
        let flotilla = ctx.navy.fleets.iter().find(|f| f.id == 11).cloned().expect("U-Flottille II");
        assert!(ctx.navy.is_flotilla(flotilla.id));
        let (germany, gb) = (flotilla.power, PowerId(2));
        assert!(ctx.hostile(gb, germany) && !ctx.detects(gb, flotilla.id));
        let boat = ctx.navy.ships.iter().find(|s| s.fleet == flotilla.id).map(|s| s.id).expect("a boat");
        let (own, enemy) = (Known::of(&ctx, Some(germany)), Known::of(&ctx, Some(gb)));
        ctx.sink(boat, rules::texts::Msg::plain("a test"));
        let whirl = Fx { kind: FxKind::Sinking, at: flotilla.at, unit: None };
        assert_eq!(effects_of(&own, &ctx, &[], &[]), vec![whirl]);
        assert_eq!(effects_of(&Known::of(&GreatWar::new(&scenario, 1).ctx(), None), &ctx, &[], &[]), vec![whirl]);
        assert_eq!(effects_of(&enemy, &ctx, &[], &[]), vec![], "hidden from the enemy");
    }

    /// Fire at sea and from the air shows where it lands: a bombardment on its target hex, coastal
    /// guns and bombs on the ship's fleet; mines laid and swept where the fleet lies, a flight over
    /// its base; a flotilla the watcher has not found shows nothing (S-NAVAL-13, S-NAVAL-14,
    /// S-AIR-1, S-AIR-2, S-MINE-1, S-MINE-4).
    #[test]
    fn fire_at_sea_mines_and_flights_show_where_they_happen() {
        let scenario = super::super::files::load_scenario("scenarios/great_war/north_sea_1916.ron").expect("loads");
        let ctx = GreatWar::new(&scenario, 1).ctx();
        let (germany, gb) = (PowerId(0), PowerId(2));
        let surface = ctx.navy.fleets.iter().find(|f| !ctx.navy.is_flotilla(f.id)).cloned().expect("a fleet");
        let flotilla = ctx.navy.fleets.iter().find(|f| f.id == 11).cloned().expect("U-Flottille II");
        assert_eq!(flotilla.power, germany);
        let ship = ctx.navy.ships.iter().find(|s| s.fleet == surface.id).map(|s| s.id).expect("a ship");
        let squadron = ctx.navy.squadrons.first().cloned().expect("a squadron");
        let target = HexAt::new(3, 4);
        let all = Known::of(&ctx, None);
        let fx = |known: &Known, order: Order| effects_of(known, &ctx, &[order], &[]);
        let one = |kind, at| vec![Fx { kind, at, unit: None }];
        assert_eq!(fx(&all, Order::Bombard { fleet: surface.id, target }), one(FxKind::Shellfire, target));
        assert_eq!(fx(&all, Order::CoastalFire { unit: id(1), ship }), one(FxKind::Shellfire, surface.at));
        assert_eq!(fx(&all, Order::Bomb { squadrons: vec![squadron.id], ship }), one(FxKind::SeaFight, surface.at));
        assert_eq!(fx(&all, Order::LayMine { fleet: surface.id }), one(FxKind::Minelaying, surface.at));
        assert_eq!(fx(&all, Order::Sweep { fleet: surface.id }), one(FxKind::Sweeping, surface.at));
        assert_eq!(fx(&all, Order::Reconnaissance { squadron: squadron.id }), one(FxKind::Scouting, squadron.base));
        let (own, enemy) = (Known::of(&ctx, Some(germany)), Known::of(&ctx, Some(gb)));
        assert_eq!(fx(&own, Order::Sweep { fleet: flotilla.id }), one(FxKind::Sweeping, flotilla.at));
        assert_eq!(fx(&enemy, Order::Sweep { fleet: flotilla.id }), vec![], "hidden from the enemy");
        // Every kind is drawn.
        for kind in [FxKind::Minelaying, FxKind::Sweeping, FxKind::Scouting] {
            assert_eq!(parts(kind).len(), 2, "{kind:?}");
        }
    }

    /// A grand turn's hundreds of engagements start at most the frame's cap of effects, losses
    /// first, and never more than the room left on the board.
    #[test]
    fn a_grand_turn_starts_at_most_the_cap() {
        let mut ctx = front();
        let known_units: Vec<(ForceId, HexAt)> =
            (0..300).map(|i| (id(1000 + i), hex(i as i32 % 40, 1 + i as i32 / 40))).collect();
        let mut known = Known::of(&ctx, None);
        known.units.extend(known_units.iter().copied());
        let mut events = Vec::new();
        for (u, _) in &known_units {
            events.push(engagement());
            events.push(health(*u));
        }
        events.push(event(EventKind::Phase { phase: Phase::Upkeep, power: None }));
        ctx.destroy(id(2), rules::texts::Msg::plain("a test"));
        events.extend(ctx.events.clone());
        let fx = effects_of(&known, &ctx, &[], &events);
        assert_eq!(fx.iter().filter(|f| f.kind == FxKind::Clash).count(), 300);
        let started = pick(fx.clone(), FX_ALIVE);
        assert_eq!(started.len(), FX_PER_FRAME);
        assert_eq!(started[0].kind, FxKind::Fallen, "the loss comes first");
        assert_eq!(pick(fx.clone(), 3).len(), 3);
        assert_eq!(pick(fx, 0).len(), 0);
        // One of a kind a hex.
        let twice = vec![Fx { kind: FxKind::Gas, at: hex(1, 1), unit: None }; 2];
        assert_eq!(pick(twice, FX_ALIVE).len(), 1);
    }
}
