//! What each power of the Great War may know: the [`Sight`] of a [`GreatWar`].
//!
//! The map is open: every counter on it is seen by every power. Hidden from a power are
//! - the enemy submarine flotillas it has not detected (S-SUB-5 house rule, S-AIR-1, see
//!   [`Ctx::detection`]): the submarines' stealth is the whole of their warfare in [002];
//! - the other powers' army reserves, which «не присутствуют на карте до момента своего
//!   выставления» ([003], S-ARMY-6), and their units not yet arrived (house rule, issue 12);
//! - the other powers' treasury, stocks, manpower, research and supply priorities, and their
//!   purchases (house rule: the sources give each power its own economy and no exchange of it, so
//!   each keeps it to itself, allies included);
//! - the standing orders of the other powers' fleets: intercept (S-NAVAL-12), withdraw
//!   (S-NAVAL-10), transports first (S-NAVAL-11) and each ship's named target (S-NAVAL-7)
//!   (house rule: orders given and not yet carried out are known to the one who gave them).
//!
//! ```
//! use rules::strategic::testkit::{infantry, scenario};
//! use rules::strategic::{GreatWar, HexMap, PowerId, Terrain};
//! use rules::view::{Sight, Viewer};
//!
//! let s = scenario(HexMap::filled("land", 6, 6, Terrain::Clear), vec![infantry(1, "france", (1, 1))]);
//! let war = GreatWar::new(&s, 1);
//! let germany = war.view(Viewer::Player(PowerId(0)));
//! let france = war.view(Viewer::Player(PowerId(1)));
//! // France knows its treasury; Germany does not, but sees the French division on the map.
//! assert!(france.powers[1].secrets.is_some());
//! assert!(germany.powers[1].secrets.is_none());
//! assert_eq!(germany.forces.len(), 1);
//! ```

use super::event::{Event, EventKind};
use super::game::GreatWar;
use super::hexmap::HexAt;
use super::ids::{Clock, ForceId, PowerId};
use super::naval::model::{FleetId, Navy};
use super::order::{Order, OrderError};
use super::preview::Preview;
use super::scenario::Scenario;
use super::state::{Ctx, Force, Formation, GameState, HexState, Place, PowerState, ProvinceState, StaticData, Techs};
use super::treaty::PeaceOffer;
use crate::dice::Dice;
use crate::hash::StateHash;
use crate::texts::{Arg, Msg};
use crate::view::{Mirror, Seen, Sight, ViewError, Viewer, view_seed};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A Great War as one viewer knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarView {
    pub viewer: Viewer<PowerId>,
    /// The scenario it is played on (the map and the tables are in it).
    pub scenario: StateHash,
    pub clock: Clock,
    /// Every power, in the order of play.
    pub powers: Vec<PowerView>,
    pub provinces: Vec<ProvinceState>,
    /// Hexes whose state is not the default, by hex.
    pub hexes: Vec<(HexAt, HexState)>,
    /// The land units the viewer knows of, by ID (other powers' reserves absent).
    pub forces: Vec<Force>,
    pub formations: Vec<Formation>,
    /// The ID the next formation raised will have (every formation is on the open map, so the
    /// count tells nothing hidden).
    pub next_formation: u32,
    /// Fleets, ships, squadrons, mines and lanes the viewer knows of (undetected enemy
    /// flotillas and their ships absent; other powers' standing orders cleared).
    pub navy: Navy,
    /// The umpire's alone: the engagements waiting for the moderator's ruling on the support
    /// (S-COMBAT-3), each side's blocks by their units ([`Ctx::support_question`]); a power
    /// sees only that the war waits (`clock.support_asked`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub support_question: Vec<[Vec<Vec<ForceId>>; 2]>,
}

/// One power as a viewer knows it: at war or not, its peace; its economy only to itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerView {
    pub out: bool,
    pub neutral: bool,
    pub peace: Vec<PowerId>,
    pub offer: Option<PeaceOffer>,
    /// Known to the power itself and the umpire only.
    pub secrets: Option<PowerSecrets>,
}

/// What a power keeps to itself (house rule, see the module's notes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerSecrets {
    pub money: i64,
    pub ammo: i64,
    pub chem_shells: u32,
    pub cylinders: u32,
    pub manpower: [u32; 2],
    pub techs: Techs,
    pub supply_last: Vec<super::ids::FormationId>,
}

/// Lines that tell a power's economy (its purchases and research): the other powers do not see them.
const PRIVATE_LINES: &[&str] = &["gwe.econ.buys", "gwe.naval.buys_ammunition"];

impl Ctx {
    /// Whether the fleet is an enemy flotilla `viewer` has not detected (S-SUB-5, S-AIR-1).
    pub fn fleet_hidden_from(&self, fleet: FleetId, viewer: PowerId) -> bool {
        self.navy.fleet(fleet).is_some_and(|f| {
            self.navy.is_flotilla(fleet) && self.hostile(viewer, f.power) && !self.detects(viewer, fleet)
        })
    }

    /// Whether the land unit is hidden from `viewer`: another power's reserve (S-ARMY-6) or a
    /// unit not yet arrived.
    pub fn force_hidden_from(&self, f: &Force, viewer: PowerId) -> bool {
        off_map_of_another(f, viewer)
    }

    /// The working copy as `viewer` knows it, the dice still the game's (see [`Ctx::as_known_by`]).
    fn redacted(&self, viewer: PowerId) -> Ctx {
        let mut copy = self.clone();
        copy.redact(viewer);
        copy
    }

    /// Leaves out of this copy what `viewer` may not know (the dice stay as they are).
    fn redact(&mut self, viewer: PowerId) {
        let hidden: Vec<FleetId> =
            self.navy.fleets.iter().map(|f| f.id).filter(|id| self.fleet_hidden_from(*id, viewer)).collect();
        let copy = self;
        copy.events.clear();
        copy.deferred = None;
        copy.defer_battles = false;
        copy.forces.retain(|f| !off_map_of_another(f, viewer));
        copy.navy.fleets.retain(|f| !hidden.contains(&f.id));
        copy.navy.ships.retain(|s| !hidden.contains(&s.fleet));
        for f in copy.navy.fleets.iter_mut().filter(|f| f.power != viewer) {
            f.intercept = false;
            f.withdraw = false;
            f.transports_first = false;
        }
        for s in copy.navy.ships.iter_mut().filter(|s| s.power != viewer) {
            s.aim = None;
        }
        for (i, p) in copy.powers.iter_mut().enumerate() {
            if usize::from(viewer.0) != i {
                *p = PowerState {
                    money: 0,
                    ammo: 0,
                    chem_shells: 0,
                    cylinders: 0,
                    manpower: [0; 2],
                    techs: Techs::default(),
                    supply_last: Vec::new(),
                    ..p.clone()
                };
            }
        }
        copy.rebuild_occupancy();
    }

    /// The war as `viewer` knows it.
    pub fn view(&self, viewer: Viewer<PowerId>) -> WarView {
        match viewer.player() {
            Some(p) => self.redacted(p).view_of(viewer, self.statics.scenario_hash),
            None => self.view_of(viewer, self.statics.scenario_hash),
        }
    }

    /// The view of a copy already redacted for `viewer`, naming the scenario by `scenario`.
    fn view_of(&self, viewer: Viewer<PowerId>, scenario: StateHash) -> WarView {
        let state = self.state();
        WarView {
            viewer,
            scenario,
            clock: state.clock,
            powers: state
                .powers
                .iter()
                .enumerate()
                .map(|(i, p)| PowerView {
                    out: p.out,
                    neutral: p.neutral,
                    peace: p.peace.clone(),
                    offer: p.offer.clone(),
                    secrets: viewer.player().is_none_or(|v| usize::from(v.0) == i).then(|| PowerSecrets {
                        money: p.money,
                        ammo: p.ammo,
                        chem_shells: p.chem_shells,
                        cylinders: p.cylinders,
                        manpower: p.manpower,
                        techs: p.techs,
                        supply_last: p.supply_last.clone(),
                    }),
                })
                .collect(),
            provinces: state.provinces,
            hexes: state.hexes,
            forces: state.forces,
            formations: state.formations,
            next_formation: state.next_formation,
            navy: state.navy,
            support_question: if viewer.sees_all() && self.clock.support_asked {
                self.support_question()
            } else {
                Vec::new()
            },
        }
    }

    /// The working copy as `viewer` knows it (what an AI thinks on): hidden pieces absent, the
    /// other powers' secrets cleared, and dice seeded from the view; the umpire's is the game's.
    pub fn as_known_by(&self, viewer: Viewer<PowerId>) -> Ctx {
        let mut copy = self.clone();
        copy.into_known_by(viewer);
        copy
    }

    /// Makes this copy the working copy as `viewer` knows it (see [`Ctx::as_known_by`]), without
    /// a second copy of the state.
    pub fn into_known_by(&mut self, viewer: Viewer<PowerId>) {
        let Some(p) = viewer.player() else { return };
        let copy = self;
        copy.redact(p);
        // The scenario is the game's own and fixed: left out of the seed's hash, which then costs
        // no pass over the map.
        copy.dice = Dice::seeded(view_seed(GreatWar::view_hash(&copy.view_of(viewer, StateHash(0)))));
    }

    /// `events` as `viewer` sees them, by the state as it now stands: an event that names a
    /// flotilla or a land unit hidden from it, or tells another power's purchases or supply, is
    /// hidden, and so are the dice and volley lines that follow a hidden event.
    pub fn seen(&self, viewer: Viewer<PowerId>, events: &[Event]) -> Vec<Seen<Event>> {
        let Some(v) = viewer.player() else { return events.iter().cloned().map(Seen::Open).collect() };
        let hidden_fleets: Vec<&super::naval::model::Fleet> =
            self.navy.fleets.iter().filter(|f| self.fleet_hidden_from(f.id, v)).collect();
        let hidden_force = |id: ForceId| self.force(id).is_some_and(|f| self.force_hidden_from(f, v));
        let own_key = self.power_key(v);
        let mut after_hidden = false;
        events
            .iter()
            .map(|e| {
                let hidden = match &e.kind {
                    EventKind::FleetMoved { fleet, .. } => hidden_fleets.iter().any(|f| f.id == *fleet),
                    EventKind::Sighted { by, .. } => *by != v,
                    EventKind::Supply { power, .. } => *power != v,
                    EventKind::Die { .. } | EventKind::Volley => after_hidden,
                    kind => kind.unit().is_some_and(hidden_force),
                } || hidden_fleets.iter().any(|f| names(&e.line, &f.name))
                    || (PRIVATE_LINES.contains(&&*e.line.key) && !names_power(&e.line, &own_key));
                after_hidden = hidden;
                if hidden { Seen::Hidden } else { Seen::Open(e.clone()) }
            })
            .collect()
    }
}

/// Another power's reserve (S-ARMY-6) or a unit of another power not yet arrived.
fn off_map_of_another(f: &Force, viewer: PowerId) -> bool {
    f.power != viewer && matches!(f.place, Place::Reserve(_) | Place::Arriving(_))
}

/// Whether a line names `name` among its arguments (a fleet's or a flotilla's name).
fn names(line: &Msg, name: &str) -> bool {
    line.args.iter().any(|(_, a)| match a {
        Arg::Text(t) => t == name,
        Arg::Msg(m) => names(m, name),
        Arg::List(ms, _) => ms.iter().any(|m| names(m, name)),
        Arg::Hex(..) => false,
        Arg::Name { text, .. } | Arg::Local { text, .. } => text == name,
    })
}

/// Whether a line's `power` is the power with the string-table key `key`.
fn names_power(line: &Msg, key: &str) -> bool {
    line.args.iter().any(|(n, a)| n == "power" && matches!(a, Arg::Name { key: k, .. } if k == key))
}

impl Sight for GreatWar {
    type View = WarView;
    type SeenEvent = Seen<Event>;

    fn view(&self, viewer: Viewer<PowerId>) -> WarView {
        self.ctx().view(viewer)
    }

    fn seen(&self, viewer: Viewer<PowerId>, events: &[Event]) -> Vec<Seen<Event>> {
        self.ctx().seen(viewer, events)
    }

    /// The rules' preview run on the viewer's copy (see [`Ctx::as_known_by`]).
    fn preview_on(ctx: Ctx, order: &Order) -> Result<Preview, OrderError> {
        ctx.preview(order)
    }

    fn ctx_as(&self, viewer: Viewer<PowerId>) -> Ctx {
        let mut ctx = self.ctx();
        ctx.into_known_by(viewer);
        ctx
    }

    fn known_by(ctx: &Ctx, viewer: Viewer<PowerId>) -> Ctx {
        ctx.as_known_by(viewer)
    }
}

impl Ctx {
    /// The working copy of a war as a view tells it, on the scenario's static data: the view's
    /// pieces, provinces, hexes and clock; the other powers' secrets zero where the view has
    /// none (as [`Ctx::as_known_by`] clears them); the dice seeded from the view. A view of
    /// another scenario, or one the rules could not give (a power, hex, province or piece the
    /// map and the order of play lack, pieces out of ID order), is refused.
    pub fn from_view(statics: Arc<StaticData>, view: &WarView) -> Result<Ctx, ViewError> {
        let scenario = &statics.scenario;
        if view.scenario != statics.scenario_hash {
            return Err(ViewError::Scenario { view: view.scenario, scenario: statics.scenario_hash });
        }
        let bad = |why: String| Err(ViewError::Inconsistent(why));
        let powers = scenario.powers.len();
        let power_ok = |p: PowerId| usize::from(p.0) < powers;
        if view.powers.len() != powers {
            return bad(format!("{} powers, the scenario has {powers}", view.powers.len()));
        }
        if view.viewer.player().is_some_and(|p| !power_ok(p)) || usize::from(view.clock.active) >= powers {
            return bad("a viewer or active power the scenario lacks".into());
        }
        if view.provinces.len() != scenario.map.provinces.len() {
            return bad(format!("{} provinces, the map has {}", view.provinces.len(), scenario.map.provinces.len()));
        }
        let on_map = |h: HexAt| scenario.map.cell(h).is_some();
        if !view.hexes.windows(2).all(|w| w[0].0 < w[1].0) || view.hexes.iter().any(|(h, _)| !on_map(*h)) {
            return bad("the hexes are off the map or out of order".into());
        }
        if !view.forces.windows(2).all(|w| w[0].id < w[1].id) {
            return bad("the land units are not in ID order, each once".into());
        }
        for f in &view.forces {
            let off = matches!(f.place, Place::Map(h) if !on_map(h));
            if off || !power_ok(f.power) {
                return bad(format!("land unit {} is off the map or of no power", f.id.0));
            }
        }
        if !view.formations.windows(2).all(|w| w[0].id < w[1].id) || view.formations.iter().any(|f| !power_ok(f.power))
        {
            return bad("the formations are out of ID order or of no power".into());
        }
        let navy = &view.navy;
        let fleets_ok = navy.fleets.windows(2).all(|w| w[0].id < w[1].id)
            && navy.fleets.iter().all(|f| power_ok(f.power) && on_map(f.at));
        let ships_ok = navy.ships.windows(2).all(|w| w[0].id < w[1].id)
            && navy.ships.iter().all(|s| power_ok(s.power) && navy.fleet(s.fleet).is_some());
        if !fleets_ok || !ships_ok {
            return bad("the fleets or ships are out of ID order, off the map or of no power".into());
        }
        let state = GameState {
            clock: view.clock,
            powers: view
                .powers
                .iter()
                .map(|p| {
                    let s = p.secrets.clone().unwrap_or(PowerSecrets {
                        money: 0,
                        ammo: 0,
                        chem_shells: 0,
                        cylinders: 0,
                        manpower: [0; 2],
                        techs: Techs::default(),
                        supply_last: Vec::new(),
                    });
                    PowerState {
                        money: s.money,
                        ammo: s.ammo,
                        chem_shells: s.chem_shells,
                        cylinders: s.cylinders,
                        manpower: s.manpower,
                        techs: s.techs,
                        supply_last: s.supply_last,
                        out: p.out,
                        neutral: p.neutral,
                        peace: p.peace.clone(),
                        offer: p.offer.clone(),
                    }
                })
                .collect(),
            provinces: view.provinces.clone(),
            hexes: view.hexes.clone(),
            forces: view.forces.clone(),
            formations: view.formations.clone(),
            dice: Dice::seeded(view_seed(GreatWar::view_hash(view))).state(),
            next_formation: view.next_formation,
            navy: view.navy.clone(),
        };
        Ok(Ctx::from_state(statics, &state))
    }
}

impl GreatWar {
    /// The war a view tells, on static data shared with another game of its scenario (a client
    /// makes each new view it is sent into a game without copying the map again).
    pub fn from_view_shared(statics: Arc<StaticData>, view: &WarView) -> Result<GreatWar, ViewError> {
        Ctx::from_view(statics, view).map(|ctx| GreatWar::from_ctx(ctx, 0))
    }
}

/// ```
/// use rules::strategic::testkit::{infantry, scenario};
/// use rules::strategic::{GreatWar, HexMap, PowerId, Terrain};
/// use rules::view::{Mirror, Sight, Viewer};
///
/// let s = scenario(HexMap::filled("land", 6, 6, Terrain::Clear), vec![infantry(1, "france", (1, 1))]);
/// let war = GreatWar::new(&s, 1);
/// let germany = Viewer::Player(PowerId(0));
/// let view = war.view(germany);
/// // Germany's client plays on the war Germany knows: France's treasury is not in it.
/// let mirror = GreatWar::from_view(&s, &view).expect("a view of this scenario");
/// assert_eq!(mirror.view(germany), view);
/// assert_eq!(mirror.ctx().powers[1].money, 0);
/// ```
impl Mirror for GreatWar {
    fn from_view(scenario: &Scenario, view: &WarView) -> Result<GreatWar, ViewError> {
        GreatWar::from_view_shared(StaticData::of(scenario.clone()), view)
    }
}
