//! Every Great War action is an [`Order`]; an illegal one gets an [`OrderError`] saying why.

use super::hexmap::HexAt;
use super::ids::{ForceId, FormationId, Phase};
use super::tables::Model;
use super::tech::Tech;
use crate::texts::Msg;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A counter on the map that moves as one: an independent unit or a corps (S-ARMY-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Piece {
    Unit(ForceId),
    Corps(FormationId),
}

/// A player's action, given by the power whose part of the phase it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Order {
    /// Move an independent unit or a corps along adjacent hexes (Movement phase, S-LAND-3, S-TERR).
    Move { piece: Piece, path: Vec<HexAt> },
    /// Move an army as a whole: its listed corps along their paths, at the slowest division's
    /// speed (S-ARMY-1, S-ARMY-3). Corps not listed stay.
    MoveArmy { army: FormationId, moves: Vec<(FormationId, Vec<HexAt>)> },
    /// Form a corps of 2–4 land units standing on one hex or next to the first one (S-ARMY-2);
    /// they gather on the first unit's hex and move no further this turn.
    FormCorps { name: String, units: Vec<ForceId> },
    /// Form an army of 2–4 corps (S-ARMY-2).
    FormArmy { name: String, corps: Vec<FormationId> },
    /// Add a land unit standing next to (or on) a corps' hex to the corps (at most 4).
    JoinCorps { unit: ForceId, corps: FormationId },
    /// Detach a unit from its corps, or a corps from its army (S-ARMY-2), onto `to` (free, adjacent).
    Detach { piece: Piece, to: Option<HexAt> },
    /// Attach a heavy artillery division on or next to a corps or army hex to it (S-ARMY-2, S-ARMY-5).
    Attach { unit: ForceId, formation: FormationId },
    /// Attach an air squadron based on or next to a corps or army hex to it, or detach it (`None`)
    /// onto a base at its formation's nearest hex (S-ARMY-2, S-ARMY-5; Movement phase).
    AttachSquadron { squadron: u32, formation: Option<FormationId> },
    /// Send a unit next to an army's hexes into its off-map reserve (S-ARMY-6).
    AssignReserve { unit: ForceId, army: FormationId },
    /// Bring a reserve onto a free hex next to its army (S-ARMY-8); it counts as having moved.
    CommitReserve { unit: ForceId, to: HexAt },
    /// Name the enemy hex an independent unit or corps fights in this turn's Combat phase
    /// (S-COMBAT-8 resolution: engagements are local); without it, the hex its front faces.
    Attack { piece: Piece, target: HexAt },
    /// Stop and build (or raise to level 2) a fortification on the piece's hex (S-FORT-1).
    Fortify { piece: Piece },
    /// Fire a heavy artillery division (or the battery it belongs to) at a hex (Fire phase,
    /// S-ART-2); `gas` fires a chemical shell instead (S-CHEM-3).
    Fire { unit: ForceId, target: HexAt, gas: bool },
    /// Form a battery of three artillery divisions on the first one's hex (S-ART-5).
    FormBattery { units: [ForceId; 3] },
    /// Place a gas cylinder on a hex with own troops (Preparation phase, S-CHEM-1).
    PlaceCylinder { at: HexAt },
    /// Release the cylinder on `from` at `target` within 3 hexes (Preparation phase, S-CHEM-1).
    ReleaseGas { from: HexAt, target: HexAt },
    /// Upgrade a division to the 1916 model (S-LAND-4; cavalry: gas masks, S-LAND-8).
    Upgrade { unit: ForceId },
    /// Convert a regular class-1 division into mountain infantry (S-LAND-5) or an elite unit
    /// (S-LAND-6; cavalry: elite cavalry, S-LAND-8), keeping its model (Movement phase).
    Convert { unit: ForceId, to: super::purchase::Conversion },
    /// Buy a technology (S-LAND-4, S-LAND-9, S-CHEM-1).
    Research { tech: Tech },
    /// Restore a dispersed unit at the nearest own city (S-LOSS-1), raising it from `class` manpower.
    Restore { unit: ForceId, class: u8 },
    /// Make good a damaged unit's lost Health (S-LOSS-2).
    Repair { unit: ForceId },
    /// Retreat an engaged defender up to 10 hexes (S-ARMY-15); an army retreats as a whole.
    Retreat { moves: Vec<(Piece, Vec<HexAt>)> },
    /// Armies to leave without money first if the treasury is short (S-SUP-4).
    SupplyPriority { last: Vec<FormationId> },
    /// Move a fleet or flotilla over sea (or port) hexes, 1 MP each, at its slowest ship's speed
    /// (S-NAVAL-4); mines, meetings and interceptions happen on the way (S-MINE-2, S-NAVAL-12).
    MoveFleet { fleet: u32, path: Vec<HexAt> },
    /// Intercept stance (S-NAVAL-12), whether to withdraw after a round when weaker (S-NAVAL-10),
    /// whether to fire at escorted transports first (S-NAVAL-11), and the enemy ship each of its
    /// ships fires at in its battles (S-NAVAL-7: "указывая, по какому вражескому кораблю он
    /// стреляет"): pairs (own ship, enemy ship). A ship not named, or whose target is not in the
    /// battle, fires as the engine chooses.
    FleetStance {
        fleet: u32,
        intercept: bool,
        withdraw: bool,
        #[serde(default)]
        transports_first: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<(u32, u32)>,
    },
    /// Split ships off into a new fleet on the same hex.
    SplitFleet { fleet: u32, ships: Vec<u32>, name: String },
    /// Join a fleet to another on its hex (at most 20 ships, S-NAVAL-2).
    MergeFleet { fleet: u32, into: u32 },
    /// Lay a mine with the fleet's minelayer in its sea area (S-MINE-1).
    LayMine { fleet: u32 },
    /// The fleet's minesweepers sweep its sea area this turn (S-MINE-4).
    Sweep { fleet: u32 },
    /// A submarine flotilla attacks a fleet, or an enemy flotilla its side has detected (S-SUB-5
    /// house rule, `naval::Detection`), on or next to its hex (S-SUB-1…5).
    SubmarineAttack { flotilla: u32, target: u32 },
    /// A flotilla patrols a sea lane (S-NAVAL-15).
    Patrol { flotilla: u32, lane: u32 },
    /// Board a land unit onto a transport paid for now (S-NAVAL-11).
    Embark { unit: ForceId, fleet: u32 },
    /// Land a transported unit next to its fleet.
    Disembark { unit: ForceId, to: HexAt },
    /// Board an air squadron based next to the fleet onto a transport paid for now (S-NAVAL-11).
    EmbarkSquadron { squadron: u32, fleet: u32 },
    /// Land a transported squadron at a new base next to its fleet.
    LandSquadron { squadron: u32, base: HexAt },
    /// Battleships bombard a coastal hex (Fire phase, S-NAVAL-13).
    Bombard { fleet: u32, target: HexAt },
    /// Coastal heavy artillery fires at a ship (Fire phase, S-NAVAL-14).
    CoastalFire { unit: ForceId, ship: u32 },
    /// A reconnaissance flight over the sea (Fire phase, S-AIR-1).
    Reconnaissance { squadron: u32 },
    /// Bombers attack one ship together (Fire phase, S-AIR-2).
    Bomb { squadrons: Vec<u32>, ship: u32 },
    /// Buy ammunition for the power's stock at `ammunition.price` each (S-SUP-1, S-SUP-3 resupply;
    /// any phase).
    BuyAmmunition { amount: u32 },
    /// Raise a unit at a free hex of an own city, or a ship at an own port (issue 12 purchases;
    /// Movement phase).
    Recruit { unit: super::purchase::Recruit, at: HexAt },
    /// Buy chemical shells and gas cylinders (S-CHEM-1, S-CHEM-3; Movement phase).
    BuyGas { shells: u32, cylinders: u32 },
    /// Offer peace to a power at war with this one; `cede` names provinces (ids) one of the two
    /// occupies of the other's that pass to their occupier; the others are returned (S-CITY-4).
    OfferPeace { to: String, cede: Vec<String> },
    /// Accept the standing peace offer of `from` (S-CITY-4).
    AcceptPeace { from: String },
    /// End this power's part of the current phase.
    EndPhase,
    /// The moderator's: the decisions the war asks the moderator for from now on
    /// ([`crate::moderation`]: the Great War's is S-COMBAT-3's support); none, and the engine
    /// decides.
    Moderate { asks: Vec<crate::moderation::Asked> },
    /// The moderator's ruling on the waiting question.
    Rule(Ruling),
}

/// A moderator's answer to the war's waiting question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ruling {
    /// S-COMBAT-3: the blocks (each named by its lowest unit ID, as the question lists them)
    /// not brought up: they stay out of this Combat phase's engagements.
    Support { withheld: Vec<ForceId> },
    /// The engine's own answer: every unit in contact joins.
    Default,
}

/// Why an order is illegal. The state is unchanged. Its words are keys of the string tables
/// ([`OrderError::line`]); `Display` gives the English.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderError {
    GameOver,
    WrongPhase {
        what: Msg,
        phase: Phase,
    },
    NoUnit(ForceId),
    NoFormation(FormationId),
    /// The named unit, corps or army belongs to another power.
    NotYours(String),
    OffMap(String),
    TakesOrdersFromFormation(String),
    EmptyPath,
    NotAdjacent {
        from: HexAt,
        to: HexAt,
    },
    OutsideMap(HexAt),
    Water(HexAt),
    EnemyHex(HexAt),
    Occupied(HexAt),
    NoMovement {
        need: u32,
        left: u32,
    },
    MustStop(HexAt),
    NoEnemyAt(HexAt),
    Engaged(String),
    Organization(Msg),
    Fortification(Msg),
    Fire(Msg),
    Gas(Msg),
    Economy(Msg),
    Retreat(Msg),
    Naval(Msg),
    Undetected {
        target: String,
    },
    PortClosed {
        at: HexAt,
        holder: Msg,
    },
    NoAmmunition {
        what: Msg,
        need: i64,
        left: i64,
    },
    NoTech {
        what: Msg,
        tech: Tech,
    },
    TooEarly {
        what: Msg,
        from: u32,
    },
    Purchase(super::purchase::PurchaseError),
    Peace(Msg),
    NeutralLand {
        at: HexAt,
        power: Msg,
    },
    /// The power (named) is neutral or has surrendered.
    Idle(Msg),
    AlreadyUpgraded {
        unit: ForceId,
        model: Model,
    },
    /// A moderator's order, or an order while the war waits for one.
    Moderation(Msg),
}

impl OrderError {
    /// Why, in keys of the string tables.
    pub fn line(&self) -> Msg {
        use OrderError as E;
        match self {
            E::GameOver => Msg::new("gw.err.game_over"),
            E::WrongPhase { what, phase } => {
                Msg::new("gw.err.wrong_phase").msg("what", what.clone()).msg("phase", Msg::new(phase.key()))
            }
            E::NoUnit(id) => Msg::new("gw.err.no_unit").arg("id", id),
            E::NoFormation(id) => Msg::new("gw.err.no_formation").arg("id", id),
            E::NotYours(name) => Msg::new("gw.err.not_yours").arg("name", name),
            E::OffMap(name) => Msg::new("gw.err.off_map").arg("name", name),
            E::TakesOrdersFromFormation(name) => Msg::new("gw.err.takes_orders").arg("name", name),
            E::EmptyPath => Msg::new("gw.err.empty_path"),
            E::NotAdjacent { from, to } => Msg::new("gw.err.not_adjacent").hex("from", from).hex("to", to),
            E::OutsideMap(at) => Msg::new("gw.err.outside_map").hex("at", at),
            E::Water(at) => Msg::new("gw.err.water").hex("at", at),
            E::EnemyHex(at) => Msg::new("gw.err.enemy_hex").hex("at", at),
            E::Occupied(at) => Msg::new("gw.err.occupied").hex("at", at),
            E::NoMovement { need, left } => Msg::new("gw.err.no_movement").arg("need", need).arg("left", left),
            E::MustStop(at) => Msg::new("gw.err.must_stop").hex("at", at),
            E::NoEnemyAt(at) => Msg::new("gw.err.no_enemy_at").hex("at", at),
            E::Engaged(name) => Msg::new("gw.err.engaged").arg("name", name),
            E::Organization(m)
            | E::Fortification(m)
            | E::Fire(m)
            | E::Gas(m)
            | E::Economy(m)
            | E::Retreat(m)
            | E::Naval(m)
            | E::Moderation(m) => m.clone(),
            E::Undetected { target } => Msg::new("gw.err.undetected").arg("target", target),
            E::PortClosed { at, holder } => Msg::new("gw.err.port_closed").hex("at", at).msg("holder", holder.clone()),
            E::NoAmmunition { what, need, left } => {
                Msg::new("gw.err.no_ammunition").msg("what", what.clone()).arg("need", need).arg("left", left)
            }
            E::NoTech { what, tech } => {
                Msg::new("gw.err.no_tech").msg("what", what.clone()).msg("tech", Msg::new(tech.key()))
            }
            E::TooEarly { what, from } => Msg::new("gw.err.too_early").msg("what", what.clone()).arg("from", from),
            E::Purchase(e) => e.line(),
            E::Peace(m) => Msg::new("gw.err.peace").msg("why", m.clone()),
            E::NeutralLand { at, power } => Msg::new("gw.err.neutral_land").hex("at", at).msg("power", power.clone()),
            E::Idle(name) => Msg::new("gw.err.idle").msg("name", name.clone()),
            E::AlreadyUpgraded { unit, model } => {
                Msg::new("gw.err.already_upgraded").arg("unit", unit).msg("model", Msg::new(model.key()))
            }
        }
    }
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.line().fmt(f)
    }
}

impl std::error::Error for OrderError {}

impl From<super::purchase::PurchaseError> for OrderError {
    fn from(e: super::purchase::PurchaseError) -> Self {
        OrderError::Purchase(e)
    }
}
