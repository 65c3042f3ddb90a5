//! War at sea, the data: ships, fleets, squadrons, mine fields, sea lanes, the [`Navy`] that holds
//! them, and a surface battle in progress ([`BattleRun`]). The state stores these; the rules in
//! [`super::rules`] act on them.

use crate::dice::Pips;
use crate::strategic::hexmap::HexAt;
use crate::strategic::ids::{ForceId, FormationId, PowerId};
use bevy_ecs::prelude::Resource;
use serde::{Deserialize, Serialize};

/// Where a surface battle stands (S-NAVAL-6, S-NAVAL-7): the battle is a machine of small steps
/// so the real battle and its exact odds run the same code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BattleRun {
    /// The two fleets as they met.
    pub sides: [FleetId; 2],
    /// First and second to fire, after the initiative roll.
    pub order: [FleetId; 2],
    pub stage: Stage,
    pub round: u32,
    /// Ships still to fire this round, per side in `order`.
    pub queue: [Vec<ShipId>; 2],
    /// Index into `order` of the side to fire next.
    pub turn: usize,
}

/// The stage of a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    InitiativeA,
    InitiativeB(Pips),
    RoundStart,
    Fire,
    Done,
}

/// A ship by its stable ID.
pub type ShipId = u32;
/// A fleet (or submarine flotilla) by its stable ID.
pub type FleetId = u32;
/// An air squadron by its stable ID.
pub type SquadronId = u32;

/// S-NAVAL-2: a fleet holds at most 20 ships, transports included.
pub const FLEET_LIMIT: usize = 20;
/// S-NAVAL-13: bombardment reaches 3 hexes.
pub const BOMBARD_RANGE: u32 = 3;
/// S-MINE-1: at most 3 mines in a sea area.
pub const MINES_PER_AREA: u8 = 3;
/// S-MINE-4: 2 sweeping points remove 1 mine.
pub const SWEEP_POINTS_PER_MINE: u8 = 2;
/// S-NAVAL-15: each submarine on a sea lane cuts its efficiency by 5 %.
pub const LANE_CUT_PERCENT: u32 = 5;

/// Ship types (S-NAVAL-3…5, S-NAVAL-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ShipType {
    Battleship,
    Battlecruiser,
    LightCruiser,
    Destroyer,
    Gunboat,
    Submarine,
    Asw,
    Minelayer,
    Minesweeper,
    Transport,
}

impl ShipType {
    /// S-NAVAL-5: the class of a warship; none for the others.
    pub fn class(self) -> Option<u8> {
        match self {
            ShipType::Battleship => Some(5),
            ShipType::Battlecruiser => Some(4),
            ShipType::LightCruiser => Some(3),
            ShipType::Destroyer => Some(2),
            ShipType::Gunboat => Some(1),
            _ => None,
        }
    }

    /// The class a ship is hit as: non-combat ships count as class 1 (S-NAVAL-10, S-AIR-2).
    pub fn target_class(self) -> u8 {
        self.class().unwrap_or(1)
    }

    /// The type's key in the string tables (the engine's lines and the fleet panel).
    pub fn key(self) -> &'static str {
        match self {
            ShipType::Battleship => "gw.ship.battleship",
            ShipType::Battlecruiser => "gw.ship.battlecruiser",
            ShipType::LightCruiser => "gw.ship.light_cruiser",
            ShipType::Destroyer => "gw.ship.destroyer",
            ShipType::Gunboat => "gw.ship.gunboat",
            ShipType::Submarine => "gw.ship.submarine",
            ShipType::Asw => "gw.ship.asw",
            ShipType::Minelayer => "gw.ship.minelayer",
            ShipType::Minesweeper => "gw.ship.minesweeper",
            ShipType::Transport => "gw.ship.transport",
        }
    }

    pub fn is_warship(self) -> bool {
        self.class().is_some()
    }

    /// S-NAVAL-3: crews (transports carry no crew of their own in the sources: 0).
    pub fn crew(self) -> u32 {
        match self {
            ShipType::Battleship => 1800,
            ShipType::Battlecruiser => 1200,
            ShipType::LightCruiser => 500,
            ShipType::Destroyer => 200,
            ShipType::Gunboat => 100,
            ShipType::Submarine => 40,
            ShipType::Asw | ShipType::Minelayer | ShipType::Minesweeper => 60,
            ShipType::Transport => 0,
        }
    }

    /// S-NAVAL-4: ships 30, battleships 20, submarines 40.
    pub fn speed(self) -> u32 {
        match self {
            ShipType::Battleship => 20,
            ShipType::Submarine => 40,
            _ => 30,
        }
    }
}

/// S-NAVAL-1: ship counts of every type but battleships are divided by 4; fewer than 4 give 1.
pub fn scaled_count(kind: ShipType, historical: u32) -> u32 {
    if kind == ShipType::Battleship || historical == 0 { historical } else { (historical / 4).max(1) }
}

/// One ship.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub id: ShipId,
    pub power: PowerId,
    pub kind: ShipType,
    pub fleet: FleetId,
    /// Hits taken in the current battle (S-NAVAL-9).
    pub hits: u8,
    pub sunk: bool,
    /// The land unit a transport carries (S-NAVAL-11).
    pub cargo: Option<ForceId>,
    /// The air squadron a transport carries (S-NAVAL-11: land or air units).
    #[serde(default)]
    pub air_cargo: Option<SquadronId>,
    /// The enemy ship its player named for it to fire at (S-NAVAL-7); kept out of the encoding
    /// while unset, so the hashes of games that name none stay as they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aim: Option<ShipId>,
}

/// A fleet or submarine flotilla on a sea (or port) hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fleet {
    pub id: FleetId,
    pub power: PowerId,
    pub name: String,
    pub at: HexAt,
    pub mp_left: u32,
    /// Intercept stance (S-NAVAL-12).
    pub intercept: bool,
    /// Withdraw after a round when weaker, if it fired second (S-NAVAL-10).
    pub withdraw: bool,
    /// Bombarded or laid a mine this turn.
    pub bombarded: bool,
    pub laid_mine: bool,
    /// Its minesweepers sweep this turn (S-MINE-4).
    pub sweeping: bool,
    /// Its ships fire at enemy transports first (S-NAVAL-11: escorted transports may be targeted).
    #[serde(default)]
    pub transports_first: bool,
    /// Sea lane index the flotilla patrols (S-NAVAL-15).
    pub patrol: Option<usize>,
}

/// Air squadron (S-AIR); its type's values come from the aviation data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Squadron {
    pub id: SquadronId,
    pub power: PowerId,
    pub name: String,
    pub base: HexAt,
    pub recon: bool,
    pub radius: u32,
    pub bombing: u8,
    pub aircraft: u32,
    pub flew: bool,
    /// Aboard a transport (S-NAVAL-11).
    #[serde(default)]
    pub aboard: Option<ShipId>,
    /// The corps or army it is attached to (S-ARMY-2): it flies from the formation's hex nearest
    /// its target (S-ARMY-5) and is lost with its army (S-ARMY-12). Kept out of the encoding while
    /// unset, so the hashes of games that attach none stay as they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached: Option<FormationId>,
}

/// Mines of one power in one sea area (S-MINE).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MineField {
    /// Sea-area index.
    pub area: u16,
    pub power: PowerId,
    pub mines: u8,
    /// Sweeping points against this field (S-MINE-4).
    pub swept: u8,
}

/// A sea lane: a sea area whose efficiency submarines cut (S-NAVAL-15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lane {
    pub id: String,
    pub area: u16,
    pub owner: PowerId,
    pub efficiency: u32,
}

/// Everything at sea and in the air.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Navy {
    /// Sorted by ID; sunk ships stay with `sunk` set.
    pub ships: Vec<Ship>,
    /// Sorted by ID.
    pub fleets: Vec<Fleet>,
    pub squadrons: Vec<Squadron>,
    pub mines: Vec<MineField>,
    pub lanes: Vec<Lane>,
    pub next_ship: ShipId,
    pub next_fleet: FleetId,
}

impl Navy {
    pub fn fleet(&self, id: FleetId) -> Option<&Fleet> {
        self.fleets.iter().find(|f| f.id == id)
    }

    pub fn fleet_mut(&mut self, id: FleetId) -> Option<&mut Fleet> {
        self.fleets.iter_mut().find(|f| f.id == id)
    }

    pub fn ship(&self, id: ShipId) -> Option<&Ship> {
        self.ships.iter().find(|s| s.id == id)
    }

    /// A ship's number among its power's ships of its type, from 1, sunk ones counted: what the
    /// lines call it ("Battleship No. 3 (Great Britain)") instead of its ID, which counts every
    /// ship of the war. It never changes, since ships are kept sorted by ID and a new one has the
    /// highest.
    ///
    /// ```
    /// use rules::strategic::naval::{Navy, Ship, ShipType};
    /// use rules::strategic::PowerId;
    /// let ship = |id, power, kind| Ship {
    ///     id, power: PowerId(power), kind, fleet: 1, hits: 0, sunk: false,
    ///     cargo: None, air_cargo: None, aim: None,
    /// };
    /// let mut navy = Navy::default();
    /// navy.ships = vec![
    ///     ship(4, 0, ShipType::Battleship),
    ///     ship(7, 1, ShipType::Battleship),
    ///     ship(9, 0, ShipType::Destroyer),
    ///     ship(12, 0, ShipType::Battleship),
    /// ];
    /// assert_eq!(navy.number(12), Some(2));
    /// assert_eq!(navy.number(7), Some(1));
    /// assert_eq!(navy.number(9), Some(1));
    /// assert_eq!(navy.number(5), None);
    /// ```
    pub fn number(&self, id: ShipId) -> Option<usize> {
        let s = self.ship(id)?;
        Some(self.ships.iter().filter(|o| o.power == s.power && o.kind == s.kind && o.id <= id).count())
    }

    pub fn ship_mut(&mut self, id: ShipId) -> Option<&mut Ship> {
        self.ships.iter_mut().find(|s| s.id == id)
    }

    /// Afloat ships of a fleet, by class (highest first) then ID.
    pub fn afloat(&self, fleet: FleetId) -> Vec<ShipId> {
        let mut v: Vec<&Ship> = self.ships.iter().filter(|s| s.fleet == fleet && !s.sunk).collect();
        v.sort_by_key(|s| (std::cmp::Reverse(s.kind.class().unwrap_or(0)), s.id));
        v.into_iter().map(|s| s.id).collect()
    }

    pub fn count(&self, fleet: FleetId, kind: ShipType) -> u32 {
        self.ships.iter().filter(|s| s.fleet == fleet && !s.sunk && s.kind == kind).count() as u32
    }

    pub fn has_warships(&self, fleet: FleetId) -> bool {
        self.ships.iter().any(|s| s.fleet == fleet && !s.sunk && s.kind.is_warship())
    }

    /// Only submarines: a flotilla.
    pub fn is_flotilla(&self, fleet: FleetId) -> bool {
        let v = self.afloat(fleet);
        !v.is_empty() && v.iter().all(|s| self.ship(*s).is_some_and(|s| s.kind == ShipType::Submarine))
    }

    /// S-NAVAL-4: a fleet moves at its slowest ship's speed.
    pub fn speed(&self, fleet: FleetId) -> u32 {
        self.afloat(fleet).iter().filter_map(|s| self.ship(*s)).map(|s| s.kind.speed()).min().unwrap_or(0)
    }

    /// Enemy mines in a sea area for `power`'s fleets, capped at 3.
    pub fn enemy_mines(&self, area: u16, hostile: impl Fn(PowerId) -> bool) -> u8 {
        self.mines
            .iter()
            .filter(|m| m.area == area && hostile(m.power))
            .map(|m| m.mines)
            .sum::<u8>()
            .min(MINES_PER_AREA)
    }
}
