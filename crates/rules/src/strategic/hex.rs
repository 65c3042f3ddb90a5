//! A hex of the Great War map by its offset column and row, and the hex maths on it (`hexx`).
//! The map, the projection, orders and events all name hexes; a hex names none of them.

use hexx::{EdgeDirection, Hex};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A hex by its offset column and row (row grows southwards; odd rows are shifted half a hex east).
/// Files and orders name hexes this way; the maths uses [`HexAt::hex`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "HexRepr", into = "(i32, i32)")]
pub struct HexAt {
    pub col: i32,
    pub row: i32,
}

/// A hex as files write it, `(col, row)`; its coordinates are checked against
/// [`crate::limits::MAX_COORDINATE`] as it is read, so hex maths on it cannot overflow.
#[derive(Deserialize)]
#[serde(transparent)]
struct HexRepr((i32, i32));

impl TryFrom<HexRepr> for HexAt {
    type Error = crate::limits::LimitError;

    fn try_from(HexRepr((col, row)): HexRepr) -> Result<Self, Self::Error> {
        use crate::limits::check_coordinate;
        Ok(HexAt { col: check_coordinate(col)?, row: check_coordinate(row)? })
    }
}

impl From<(i32, i32)> for HexAt {
    fn from((col, row): (i32, i32)) -> Self {
        HexAt { col, row }
    }
}

impl From<HexAt> for (i32, i32) {
    fn from(h: HexAt) -> Self {
        (h.col, h.row)
    }
}

/// A hex by reference as the pair a message names it by (`Msg::hex`).
impl From<&HexAt> for (i32, i32) {
    fn from(at: &HexAt) -> (i32, i32) {
        (at.col, at.row)
    }
}

impl fmt::Display for HexAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.col, self.row)
    }
}

impl HexAt {
    pub const fn new(col: i32, row: i32) -> Self {
        HexAt { col, row }
    }

    /// Axial coordinates (hexx).
    pub fn hex(self) -> Hex {
        Hex::new(self.col - (self.row - (self.row & 1)) / 2, self.row)
    }

    pub fn from_hex(h: Hex) -> Self {
        HexAt { col: h.x + (h.y - (h.y & 1)) / 2, row: h.y }
    }

    /// The neighbour across hexside `dir` (hexx edge direction index 0..6: E, SE, SW, W, NW, NE).
    pub fn neighbour(self, dir: u8) -> HexAt {
        HexAt::from_hex(self.hex().neighbor(EdgeDirection::ALL_DIRECTIONS[usize::from(dir % 6)]))
    }

    /// The six neighbours, in hexside order.
    pub fn neighbours(self) -> [HexAt; 6] {
        let h = self.hex();
        EdgeDirection::ALL_DIRECTIONS.map(|d| HexAt::from_hex(h.neighbor(d)))
    }

    pub fn distance(self, other: HexAt) -> u32 {
        self.hex().unsigned_distance_to(other.hex())
    }

    pub fn is_adjacent(self, other: HexAt) -> bool {
        self.distance(other) == 1
    }

    /// The hexside index towards an adjacent hex.
    pub fn side_to(self, other: HexAt) -> Option<u8> {
        self.hex().neighbor_direction(other.hex()).map(|d| d.index())
    }
}
