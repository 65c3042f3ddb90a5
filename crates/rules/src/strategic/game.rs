//! A Great War game: the ECS world behind a small API, with saves that replay bit-identically.

use super::apply::apply_order;
use super::event::Event;
use super::order::{Order, OrderError};
use super::preview::Preview;
use super::scenario::{KindSpec, Scenario};
use super::state::*;
use super::tables::Model;
use crate::data::DataError;
use crate::dice::Dice;
use crate::game::{Game, Save};
use crate::hash::StateHash;
use crate::limits::Limit;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::replay::Checkpoint;

/// A Great War game in progress.
#[derive(Debug)]
pub struct GreatWar {
    world: World,
    seed: u64,
    checkpoints: Vec<Checkpoint>,
}

/// A Great War game as it stood after so many orders ([`GreatWar::snapshot`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// Orders applied when it was taken.
    pub after: usize,
    pub state: GameState,
    /// The state's hash then (checked when resumed).
    pub hash: StateHash,
    /// The game's checkpoints up to it (its save's state hashes).
    pub checkpoints: Vec<crate::replay::Checkpoint>,
}

/// Builds the working copy of a new game.
pub fn new_ctx(scenario: &Scenario, seed: u64) -> Ctx {
    new_ctx_shared(StaticData::of(scenario.clone()), seed)
}

/// Builds the working copy of a new game on static data shared with other games (the map of
/// Europe is not copied for each).
pub fn new_ctx_shared(statics: Arc<StaticData>, seed: u64) -> Ctx {
    let shared = statics.clone();
    let scenario = &shared.scenario;
    let mut specs: Vec<_> = scenario.forces.iter().collect();
    specs.sort_by_key(|f| f.id);
    let powers: Vec<PowerState> = scenario
        .powers
        .iter()
        .map(|p| PowerState {
            money: p.money,
            ammo: p.ammo,
            chem_shells: p.chem_shells,
            cylinders: p.cylinders,
            manpower: p.manpower,
            techs: p.techs,
            supply_last: Vec::new(),
            out: false,
            neutral: p.entry.is_some(),
            peace: Vec::new(),
            offer: None,
        })
        .collect();
    let mut ctx = Ctx {
        statics,
        clock: Clock {
            turn: scenario.start_turn,
            phase: Phase::Preparation,
            active: 0,
            ask_support: false,
            support_asked: false,
        },
        powers,
        provinces: vec![ProvinceState::default(); scenario.map.provinces.len()],
        hexes: BTreeMap::new(),
        forces: Vec::new(),
        formations: Vec::new(),
        next_formation: 1,
        dice: Dice::seeded(seed),
        navy: Default::default(),
        events: Vec::new(),
        defer_battles: false,
        deferred: None,
        occupancy: BTreeMap::new(),
        withheld: Vec::new(),
    };
    let formation_of = |id: u32| -> (Option<FormationId>, Option<FormationId>) {
        let corps = scenario.corps.iter().find(|c| c.units.contains(&id)).map(|c| c.id);
        let army = corps
            .and_then(|c| scenario.armies.iter().find(|a| a.corps.contains(&c)).map(|a| FormationId(a.id)))
            .or_else(|| {
                scenario
                    .armies
                    .iter()
                    .find(|a| a.reserves.contains(&id) || a.attached.contains(&id))
                    .map(|a| FormationId(a.id))
            })
            .or_else(|| {
                let c = scenario.corps.iter().find(|c| c.attached.contains(&id))?;
                scenario.armies.iter().find(|a| a.corps.contains(&c.id)).map(|a| FormationId(a.id))
            });
        (corps.map(FormationId), army)
    };
    for spec in specs {
        let power = PowerId(scenario.power_index(&spec.power).unwrap_or(0) as u8);
        let pspec = &scenario.powers[usize::from(power.0)];
        let kind = match &spec.kind {
            KindSpec::Infantry { model, class, mountain, elite, colonial } => {
                // S-LAND-2: colonial contingents fight in their table's group; the Foreign Legion keeps its own.
                let group =
                    colonial.as_deref().and_then(|c| scenario.units.colonial(c)).map_or(pspec.group, |c| c.group);
                ForceKind::Infantry {
                    group,
                    model: *model,
                    class: *class,
                    mountain: *mountain,
                    elite: *elite,
                    colonial: colonial.is_some(),
                }
            }
            KindSpec::Cavalry { class, model, elite } => {
                ForceKind::Cavalry { class: *class, model: *model, elite: *elite }
            }
            KindSpec::Tank(n) => ForceKind::Tank { tank: scenario.units.tank(n).unwrap_or(0) as u16 },
            KindSpec::Artillery(n) => ForceKind::Artillery { gun: scenario.units.gun(n).unwrap_or(0) as u16 },
        };
        let stats = ctx.stats(kind);
        let (corps, army) = formation_of(spec.id);
        let place = match (spec.at, spec.arrives) {
            (Some(h), _) => Place::Map(h),
            (None, Some(arrival)) => Place::Arriving(arrival.at),
            (None, None) => {
                if let Some(a) = scenario.armies.iter().find(|a| a.reserves.contains(&spec.id)) {
                    Place::Reserve(FormationId(a.id))
                } else if let Some(a) = scenario.armies.iter().find(|a| a.attached.contains(&spec.id)) {
                    Place::Attached(FormationId(a.id))
                } else if let Some(c) = scenario.corps.iter().find(|c| c.attached.contains(&spec.id)) {
                    Place::Attached(FormationId(c.id))
                } else {
                    Place::Dispersed
                }
            }
        };
        let has_morale = !kind.is_artillery();
        let morale = has_morale.then(|| spec.morale.unwrap_or(stats.morale).clamp(0, stats.morale));
        ctx.forces.push(Force {
            id: ForceId(spec.id),
            power,
            kind,
            place,
            vitals: Vitals {
                health: spec.health.unwrap_or(stats.health).clamp(0, stats.health),
                max_health: stats.health,
                morale,
                max_morale: has_morale.then_some(stats.morale),
            },
            supply: SupplyState::default(),
            front: FrontLine::default(),
            activity: Activity::default(),
            member: Membership { corps, army, battery: None },
        });
    }
    for c in &scenario.corps {
        let power = c.units.first().and_then(|u| ctx.force(ForceId(*u))).map_or(PowerId(0), |f| f.power);
        ctx.formations.push(Formation {
            id: FormationId(c.id),
            power,
            kind: FormationKind::Corps,
            name: c.name.clone(),
            units: c.units.iter().map(|u| ForceId(*u)).collect(),
            corps: Vec::new(),
            engaged: false,
        });
    }
    for a in &scenario.armies {
        let power = a
            .corps
            .first()
            .and_then(|c| scenario.corps.iter().find(|k| k.id == *c))
            .and_then(|k| k.units.first())
            .and_then(|u| ctx.force(ForceId(*u)))
            .map_or(PowerId(0), |f| f.power);
        ctx.formations.push(Formation {
            id: FormationId(a.id),
            power,
            kind: FormationKind::Army,
            name: a.name.clone(),
            units: Vec::new(),
            corps: a.corps.iter().map(|c| FormationId(*c)).collect(),
            engaged: false,
        });
    }
    ctx.formations.sort_by_key(|f| f.id);
    ctx.next_formation = ctx.formations.iter().map(|f| f.id.0 + 1).max().unwrap_or(1).max(1);
    for fo in &scenario.fortifications {
        let p = PowerId(scenario.power_index(&fo.power).unwrap_or(0) as u8);
        let alliance = ctx.alliance(p);
        let s = ctx.hex_state_mut(fo.at);
        s.fort = fo.level;
        s.fort_alliance = alliance;
        s.fort_turn = 0;
    }
    for (h, p) in &scenario.cylinders {
        let p = PowerId(scenario.power_index(p).unwrap_or(0) as u8);
        ctx.hex_state_mut(*h).cylinder = Some(p);
    }
    ctx.navy = navy_of(scenario);
    ctx.rebuild_occupancy();
    ctx.turn_start();
    ctx
}

/// A fresh game world holding a working copy (with empty order and event logs).
pub(crate) fn world_of(ctx: Ctx) -> World {
    let mut world = World::new();
    world.insert_resource(OrderLog::default());
    world.insert_resource(EventLog::default());
    ctx.store_new(&mut world);
    world
}

/// The fleets, squadrons, mines and lanes of a scenario; ships numbered from 1 in fleet order.
fn navy_of(scenario: &Scenario) -> super::naval::Navy {
    use super::naval::{Fleet, Lane, MineField, Navy, Ship, Squadron};
    let power = |id: &str| PowerId(scenario.power_index(id).unwrap_or(0) as u8);
    let area = |id: &str| scenario.map.sea_areas.iter().position(|a| a.id == id).unwrap_or(0) as u16;
    let mut navy = Navy::default();
    let mut fleets: Vec<_> = scenario.fleets.iter().collect();
    fleets.sort_by_key(|f| f.id);
    let mut next_ship = 1;
    for f in fleets {
        for kind in f.ship_list() {
            navy.ships.push(Ship {
                id: next_ship,
                power: power(&f.power),
                kind,
                fleet: f.id,
                hits: 0,
                sunk: false,
                cargo: None,
                air_cargo: None,
                aim: None,
            });
            next_ship += 1;
        }
        navy.fleets.push(Fleet {
            id: f.id,
            power: power(&f.power),
            name: f.name.clone(),
            at: f.at,
            mp_left: 0,
            intercept: f.intercept,
            withdraw: f.withdraw,
            bombarded: false,
            laid_mine: false,
            sweeping: false,
            transports_first: false,
            patrol: None,
        });
    }
    navy.next_ship = next_ship;
    navy.next_fleet = navy.fleets.iter().map(|f| f.id + 1).max().unwrap_or(1);
    for s in &scenario.squadrons {
        if let Some(t) = scenario.aviation.get(&s.kind) {
            navy.squadrons.push(Squadron {
                id: s.id,
                power: power(&s.power),
                name: s.name.clone().unwrap_or_else(|| format!("{} {}", t.name, s.id)),
                base: s.base,
                recon: t.recon,
                radius: t.radius,
                bombing: t.bombing,
                aircraft: t.aircraft,
                flew: false,
                aboard: None,
                attached: None,
            });
        }
    }
    navy.squadrons.sort_by_key(|s| s.id);
    for m in &scenario.mines {
        navy.mines.push(MineField { area: area(&m.area), power: power(&m.power), mines: m.mines, swept: 0 });
    }
    navy.mines.sort_by_key(|m| (m.area, m.power));
    for l in &scenario.sea_lanes {
        navy.lanes.push(Lane {
            id: l.id.clone(),
            area: area(&l.area),
            owner: power(&l.owner),
            efficiency: l.efficiency,
        });
    }
    navy
}

impl GreatWar {
    /// Starts a game from a scenario with a seed for the dice.
    pub fn new(scenario: &Scenario, seed: u64) -> GreatWar {
        GreatWar::new_shared(StaticData::of(scenario.clone()), seed)
    }

    /// A new game on a scenario's static data that other games share ([`StaticData::of`]): a
    /// server holding several games of August 1914 keeps one map of Europe.
    ///
    /// ```
    /// use rules::Game;
    /// use rules::strategic::{GreatWar, state::StaticData};
    /// let statics = StaticData::of(rules::strategic::testkit::army_front());
    /// let (a, b) = (GreatWar::new_shared(statics.clone(), 1), GreatWar::new_shared(statics.clone(), 2));
    /// assert!(std::ptr::eq(a.ctx().map(), b.ctx().map()), "one map, two games");
    /// assert_eq!(a.state_hash(), GreatWar::new(&statics.scenario, 1).state_hash());
    /// ```
    pub fn new_shared(statics: Arc<StaticData>, seed: u64) -> GreatWar {
        let world = world_of(new_ctx_shared(statics, seed));
        let mut game = GreatWar { world, seed, checkpoints: Vec::new() };
        game.checkpoint();
        game
    }

    /// A game on a working copy made elsewhere (a view made into a game,
    /// [`crate::view::Mirror`]): no orders logged, no checkpoint but this one.
    pub(crate) fn from_ctx(ctx: Ctx, seed: u64) -> GreatWar {
        let mut game = GreatWar { world: world_of(ctx), seed, checkpoints: Vec::new() };
        game.checkpoint();
        game
    }

    /// The game as it stands, to resume from ([`GreatWar::resume`]) instead of replaying its
    /// whole log: a server keeps one a turn.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            after: self.orders().len(),
            state: self.state(),
            hash: self.hash(),
            checkpoints: self.checkpoints.clone(),
        }
    }

    /// A game resumed from a snapshot of it: `orders` are its log up to the snapshot (kept, so
    /// that its save and its replay are whole). Refused when they do not match: as many orders
    /// as the snapshot was taken after, and the state it holds hashing as it did then.
    ///
    /// ```
    /// use rules::strategic::{GreatWar, state::StaticData};
    /// use rules::Game;
    /// let statics = StaticData::of(rules::strategic::testkit::army_front());
    /// let mut game = GreatWar::new_shared(statics.clone(), 7);
    /// for _ in 0..5 {
    ///     let pass = game.pass();
    ///     game.apply(pass).unwrap();
    /// }
    /// let snap = game.snapshot();
    /// let resumed = GreatWar::resume(statics.clone(), 7, &snap, game.orders().to_vec()).unwrap();
    /// assert_eq!(resumed.state_hash(), game.state_hash());
    /// assert!(GreatWar::resume(statics, 7, &snap, Vec::new()).is_err(), "the log does not match");
    /// ```
    pub fn resume(
        statics: Arc<StaticData>,
        seed: u64,
        snapshot: &Snapshot,
        orders: Vec<Order>,
    ) -> Result<GreatWar, String> {
        if orders.len() != snapshot.after {
            return Err(format!(
                "the snapshot was taken after {} orders, the log has {}",
                snapshot.after,
                orders.len()
            ));
        }
        if snapshot.state.hash() != snapshot.hash {
            return Err("the snapshot's state does not hash as it did when it was taken".to_string());
        }
        let mut world = world_of(Ctx::from_state(statics, &snapshot.state));
        world.resource_mut::<OrderLog>().0 = orders;
        Ok(GreatWar { world, seed, checkpoints: snapshot.checkpoints.clone() })
    }

    /// Applies an order (the one door into the rules).
    pub fn apply(&mut self, order: Order) -> Result<Vec<Event>, OrderError> {
        let before = self.clock();
        let events = apply_order(&mut self.world, &order)?;
        let after = self.clock();
        if (after.turn, after.phase) != (before.turn, before.phase) {
            self.checkpoint();
        }
        Ok(events)
    }

    fn checkpoint(&mut self) {
        let after = self.world.resource::<OrderLog>().0.len();
        let turn = self.clock().turn;
        let hash = self.hash();
        crate::replay::record(&mut self.checkpoints, after, turn, hash);
    }

    pub fn ctx(&self) -> Ctx {
        Ctx::load(&self.world)
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// What the game shares with every other game of its scenario (its map above all).
    pub fn statics(&self) -> Arc<StaticData> {
        self.world.resource::<Statics>().0.clone()
    }

    pub fn state(&self) -> GameState {
        self.ctx().state()
    }

    pub fn hash(&self) -> StateHash {
        self.state().hash()
    }

    pub fn clock(&self) -> Clock {
        *self.world.resource::<Clock>()
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn orders(&self) -> &[Order] {
        &self.world.resource::<OrderLog>().0
    }

    pub fn events(&self) -> &[Event] {
        &self.world.resource::<EventLog>().0
    }

    pub fn scenario(&self) -> &Scenario {
        &self.world.resource::<Statics>().0.scenario
    }

    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    pub fn is_over(&self) -> bool {
        self.clock().phase == Phase::Over
    }

    /// What an order would do, with the odds of every fall of the dice (see [`Ctx::preview`]).
    pub fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        self.ctx().preview(order)
    }
}

impl Game for GreatWar {
    const SAVE_NAME: &'static str = "GreatWarSave";
    const SAVE_FORMAT: u32 = SAVE_FORMAT;

    type Scenario = Scenario;
    type Order = Order;
    type Error = OrderError;
    type Event = Event;
    type Ctx = Ctx;
    type Preview = Preview;
    type Player = PowerId;

    fn new(scenario: &Scenario, seed: u64) -> GreatWar {
        GreatWar::new(scenario, seed)
    }

    fn apply(&mut self, order: Order) -> Result<Vec<Event>, OrderError> {
        GreatWar::apply(self, order)
    }

    fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        GreatWar::preview(self, order)
    }

    fn ctx(&self) -> Ctx {
        GreatWar::ctx(self)
    }

    /// The powers in the scenario's order, which is the order of play (S-TURN-1).
    fn players(&self) -> Vec<PowerId> {
        (0..self.scenario().powers.len()).filter_map(|i| u8::try_from(i).ok()).map(PowerId).collect()
    }

    fn active_player(&self) -> Option<PowerId> {
        let clock = self.clock();
        (clock.phase != Phase::Over && !clock.support_asked).then_some(PowerId(clock.active))
    }

    /// S-COMBAT-3: the Combat phase waits for the moderator's ruling on the support.
    fn awaits_moderator(&self) -> bool {
        let clock = self.clock();
        clock.phase != Phase::Over && clock.support_asked
    }

    fn default_ruling(&self) -> Option<Order> {
        self.awaits_moderator().then_some(Order::Rule(super::Ruling::Default))
    }

    fn is_moderators(order: &Order) -> bool {
        matches!(order, Order::Moderate { .. } | Order::Rule(_))
    }

    fn is_over(&self) -> bool {
        GreatWar::is_over(self)
    }

    fn turn(&self) -> u32 {
        self.clock().turn
    }

    fn orders(&self) -> &[Order] {
        GreatWar::orders(self)
    }

    fn events(&self) -> &[Event] {
        GreatWar::events(self)
    }

    fn checkpoints(&self) -> &[Checkpoint] {
        GreatWar::checkpoints(self)
    }

    fn scenario(&self) -> &Scenario {
        GreatWar::scenario(self)
    }

    fn seed(&self) -> u64 {
        GreatWar::seed(self)
    }

    fn state_hash(&self) -> StateHash {
        self.hash()
    }

    fn dice_thrown(&self) -> u64 {
        self.world.resource::<Dice>().thrown()
    }

    fn pass(&self) -> Order {
        Order::EndPhase
    }

    fn ends_turn(order: &Order) -> bool {
        matches!(order, Order::EndPhase)
    }

    /// The only things hidden on the Great War map are the enemy submarines a player has not
    /// detected (S-AIR-1, S-SUB-5 house rule, see `naval::Detection`): an order that finds one
    /// shows it, so it cannot be taken back.
    fn reveals(event: &Event) -> bool {
        matches!(event.kind, super::event::EventKind::Sighted { .. })
    }

    fn scenario_name(scenario: &Scenario) -> &str {
        &scenario.name
    }

    fn scenario_hash(scenario: &Scenario) -> StateHash {
        scenario.hash()
    }

    /// The embedded scenario's forces and fleets within the referee's limits.
    fn check_save(save: &SaveGame, path: &str, _text: &str) -> Result<(), DataError> {
        let over = |e| DataError::over_limit(path, crate::data::Pos::START, e);
        Limit::Forces.check_len(save.scenario.forces.len()).map_err(over)?;
        Limit::ListEntries.check_len(save.scenario.fleets.len()).map_err(over)?;
        for f in &save.scenario.fleets {
            f.ship_count().map_err(over)?;
        }
        Ok(())
    }
}

/// Version of the Great War save format.
pub const SAVE_FORMAT: u32 = 1;

/// A saved Great War game: scenario (embedded, with its hash) + seed + orders + state hashes,
/// written as `GreatWarSave(..)`.
pub type SaveGame = Save<GreatWar>;

/// Why a save could not be replayed.
pub type ReplayError = crate::game::ReplayError<GreatWar>;

/// One unit as tools print it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForceView {
    pub id: u32,
    pub name: String,
    pub power: String,
    pub kind: String,
    pub place: String,
    pub health: i32,
    pub max_health: i32,
    pub morale: Option<i32>,
    pub corps: Option<u32>,
    pub army: Option<u32>,
}

impl Ctx {
    /// Every unit, by ID, as tools print it.
    pub fn views(&self) -> Vec<ForceView> {
        self.forces
            .iter()
            .map(|f| ForceView {
                id: f.id.0,
                name: self.name(f.id),
                power: self.scenario().powers[usize::from(f.power.0)].id.clone(),
                kind: match f.kind {
                    ForceKind::Infantry { model, class, group, mountain, elite, .. } => format!(
                        "infantry {} class {class} group {group}{}{}",
                        if model == Model::M1914 { 1914 } else { 1916 },
                        if mountain { " mountain" } else { "" },
                        if elite { " elite" } else { "" }
                    ),
                    ForceKind::Cavalry { class, elite, .. } => {
                        format!("cavalry class {class}{}", if elite { " elite" } else { "" })
                    }
                    ForceKind::Tank { tank } => {
                        self.scenario().units.tanks.get(usize::from(tank)).map_or_else(String::new, |t| t.name.clone())
                    }
                    ForceKind::Artillery { gun } => {
                        self.scenario().units.guns.get(usize::from(gun)).map_or_else(String::new, |g| g.name.clone())
                    }
                },
                place: match f.place {
                    Place::Map(h) => format!("{h}"),
                    Place::Reserve(a) => format!("reserve of {a}"),
                    Place::Attached(a) => format!("attached to {a}"),
                    Place::Embarked(ship) => format!("aboard ship {ship}"),
                    Place::Dispersed => "dispersed".into(),
                    Place::Destroyed => "destroyed".into(),
                    Place::Arriving(h) => format!("arriving at {h}"),
                },
                health: f.vitals.health,
                max_health: f.vitals.max_health,
                morale: f.vitals.morale,
                corps: f.member.corps.map(|c| c.0),
                army: f.member.army.map(|a| a.0),
            })
            .collect()
    }
}
