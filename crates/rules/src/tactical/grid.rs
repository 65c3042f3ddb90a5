//! The square-grid battlefield: cells, facings, terrain and lines of fire.

use crate::limits::{Limit, LimitError, MAX_BATTLE_MAP_SIDE};
use bevy_ecs::prelude::Resource;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A cell of the battlefield; `y` grows southwards (T-EX).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "CellRepr", into = "(i32, i32)")]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

/// A cell as files write it, `(x, y)`; its coordinates are checked against
/// [`crate::limits::MAX_COORDINATE`] as it is read.
#[derive(Deserialize)]
#[serde(transparent)]
struct CellRepr((i32, i32));

impl TryFrom<CellRepr> for Cell {
    type Error = crate::limits::LimitError;

    fn try_from(CellRepr((x, y)): CellRepr) -> Result<Self, Self::Error> {
        use crate::limits::check_coordinate;
        Ok(Cell { x: check_coordinate(x)?, y: check_coordinate(y)? })
    }
}

impl From<(i32, i32)> for Cell {
    fn from((x, y): (i32, i32)) -> Self {
        Cell { x, y }
    }
}

impl From<Cell> for (i32, i32) {
    fn from(c: Cell) -> Self {
        (c.x, c.y)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Cell {
    pub const fn new(x: i32, y: i32) -> Self {
        Cell { x, y }
    }

    /// The next cell in a direction (saturating at the ends of `i32`: never a panic).
    pub fn step(self, dir: Dir) -> Cell {
        let (dx, dy) = dir.delta();
        Cell::new(self.x.saturating_add(dx), self.y.saturating_add(dy))
    }

    /// The 4 orthogonal neighbours (T-MOVE-1: "adjacent" means these), in N, E, S, W order.
    pub fn neighbours(self) -> [Cell; 4] {
        Dir::ALL.map(|d| self.step(d))
    }

    /// Chebyshev distance, the measure of ranges (rules README).
    pub fn distance(self, other: Cell) -> i32 {
        let d = self.x.abs_diff(other.x).max(self.y.abs_diff(other.y));
        i32::try_from(d).unwrap_or(i32::MAX)
    }

    /// Orthogonal adjacency: the contact of T-MELEE-1.
    pub fn is_adjacent(self, other: Cell) -> bool {
        u64::from(self.x.abs_diff(other.x)) + u64::from(self.y.abs_diff(other.y)) == 1
    }

    /// Adjacency including diagonals (T-FIRE-6 "next to the target").
    pub fn touches(self, other: Cell) -> bool {
        self != other && self.distance(other) == 1
    }

    /// The direction of an orthogonally adjacent cell.
    pub fn dir_to(self, other: Cell) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| self.step(*d) == other)
    }
}

/// One of the 4 facings of a unit (T-MOVE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// The facing 90° to the left of this one.
    pub const fn left(self) -> Dir {
        match self {
            Dir::North => Dir::West,
            Dir::East => Dir::North,
            Dir::South => Dir::East,
            Dir::West => Dir::South,
        }
    }

    pub const fn right(self) -> Dir {
        self.left().opposite()
    }

    /// Offset of `to` from `from` projected on this facing: (forward, lateral to the right).
    pub fn project(self, from: Cell, to: Cell) -> (i32, i32) {
        let (fx, fy) = self.delta();
        let (rx, ry) = self.right().delta();
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        (dx * fx + dy * fy, dx * rx + dy * ry)
    }

    /// Where `other` lies relative to a unit at `at` facing `self`, if orthogonally adjacent.
    pub fn side_of(self, at: Cell, other: Cell) -> Option<Aspect> {
        let dir = at.dir_to(other)?;
        Some(if dir == self {
            Aspect::Front
        } else if dir == self.opposite() {
            Aspect::Rear
        } else {
            Aspect::Flank
        })
    }

    /// The facing that points most directly from `from` towards `to` (ties: north/south first).
    pub fn towards(from: Cell, to: Cell) -> Dir {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dy.abs() >= dx.abs() && dy != 0 {
            if dy < 0 { Dir::North } else { Dir::South }
        } else if dx > 0 {
            Dir::East
        } else {
            Dir::West
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

/// Where an adjacent enemy stands relative to a unit's facing (T-MELEE-5: flank = side or rear).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

impl Aspect {
    pub fn is_flank_or_rear(self) -> bool {
        self != Aspect::Front
    }
}

/// Terrain of one cell (T-TERR, T-FORT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Open,
    SparseForest,
    DenseForest,
    Swamp,
    River,
    Ford,
    Sea,
    Hill,
    Building,
    Redoubt,
    Wall,
    Breach,
}

impl Terrain {
    pub const ALL: [Terrain; 12] = [
        Terrain::Open,
        Terrain::SparseForest,
        Terrain::DenseForest,
        Terrain::Swamp,
        Terrain::River,
        Terrain::Ford,
        Terrain::Sea,
        Terrain::Hill,
        Terrain::Building,
        Terrain::Redoubt,
        Terrain::Wall,
        Terrain::Breach,
    ];

    /// The character that stands for this terrain in map files.
    pub const fn symbol(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::SparseForest => 'f',
            Terrain::DenseForest => 'F',
            Terrain::Swamp => 's',
            Terrain::River => '~',
            Terrain::Ford => '=',
            Terrain::Sea => 'W',
            Terrain::Hill => '^',
            Terrain::Building => 'B',
            Terrain::Redoubt => 'R',
            Terrain::Wall => '#',
            Terrain::Breach => '_',
        }
    }

    pub fn from_symbol(c: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.symbol() == c)
    }

    /// T-TERR-1/T-TERR-2: both kinds of forest.
    pub const fn is_forest(self) -> bool {
        matches!(self, Terrain::SparseForest | Terrain::DenseForest)
    }

    /// T-TERR-3: swamp, river (except fords) and sea cannot be entered by anyone.
    pub const fn is_impassable(self) -> bool {
        matches!(self, Terrain::Swamp | Terrain::River | Terrain::Sea)
    }

    /// T-TERR-6, T-FORT-4: buildings and the wall admit infantry only.
    pub const fn infantry_only(self) -> bool {
        matches!(self, Terrain::Building | Terrain::Wall)
    }

    /// Cells that count as fortifications for storming grenadiers (T-FORT-5).
    pub const fn is_fortification(self) -> bool {
        matches!(self, Terrain::Wall | Terrain::Breach | Terrain::Redoubt)
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open ground",
            Terrain::SparseForest => "sparse forest",
            Terrain::DenseForest => "dense forest",
            Terrain::Swamp => "swamp",
            Terrain::River => "river",
            Terrain::Ford => "ford",
            Terrain::Sea => "sea",
            Terrain::Hill => "hill",
            Terrain::Building => "building",
            Terrain::Redoubt => "redoubt",
            Terrain::Wall => "fortress wall",
            Terrain::Breach => "breach",
        }
    }
}

/// The battlefield terrain, `Vec`-backed, row-major from the north-west corner.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridMap {
    pub name: String,
    pub width: i32,
    pub height: i32,
    terrain: Vec<Terrain>,
}

impl GridMap {
    /// An all-open field. Sizes are clamped to `0..=MAX_BATTLE_MAP_SIDE`; files are checked with
    /// [`GridMap::check_size`] first, so they never get here with more.
    pub fn open(name: &str, width: i32, height: i32) -> Self {
        let (width, height) = (width.clamp(0, MAX_BATTLE_MAP_SIDE), height.clamp(0, MAX_BATTLE_MAP_SIDE));
        let len = width.unsigned_abs() as usize * height.unsigned_abs() as usize;
        GridMap { name: name.to_string(), width, height, terrain: vec![Terrain::Open; len] }
    }

    /// Checks a battle map's size against the limits of the referee, before anything is allocated.
    pub fn check_size(width: u64, height: u64) -> Result<(), LimitError> {
        Limit::BattleMapSide.check(width.max(height))?;
        Limit::BattleMapCells.check(width.saturating_mul(height))
    }

    /// A map from rows of terrain symbols, north row first.
    pub fn from_rows(name: &str, rows: &[&str]) -> Result<Self, String> {
        let height_len = rows.len();
        let width_len = rows.first().map_or(0, |r| r.chars().count());
        let as_u64 = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        Self::check_size(as_u64(width_len), as_u64(height_len)).map_err(|e| e.to_string())?;
        // Both are at most MAX_BATTLE_MAP_SIDE now.
        let (width, height) = (width_len as i32, height_len as i32);
        let mut terrain = Vec::with_capacity(width_len * height_len);
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != width_len {
                return Err(format!("row {y} has {} cells, the first row has {width}", row.chars().count()));
            }
            for c in row.chars() {
                terrain
                    .push(Terrain::from_symbol(c).ok_or_else(|| format!("unknown terrain symbol `{c}` in row {y}"))?);
            }
        }
        Ok(GridMap { name: name.to_string(), width, height, terrain })
    }

    pub fn contains(&self, cell: Cell) -> bool {
        (0..self.width).contains(&cell.x) && (0..self.height).contains(&cell.y)
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell).then(|| (cell.y * self.width + cell.x) as usize)
    }

    /// Terrain of a cell; outside the map is `None`.
    pub fn terrain(&self, cell: Cell) -> Option<Terrain> {
        self.index(cell).map(|i| self.terrain[i])
    }

    pub fn set(&mut self, cell: Cell, terrain: Terrain) {
        if let Some(i) = self.index(cell) {
            self.terrain[i] = terrain;
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Cell::new(x, y)))
    }

    pub fn is_forest(&self, cell: Cell) -> bool {
        self.terrain(cell).is_some_and(Terrain::is_forest)
    }

    /// Whether a cell lies on the outer edge of the map (a retreat may step off from it, T-END-2).
    pub fn on_edge(&self, cell: Cell) -> bool {
        self.contains(cell) && (cell.x == 0 || cell.y == 0 || cell.x == self.width - 1 || cell.y == self.height - 1)
    }

    /// The rows of symbols, north row first (the map file's own form).
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| (0..self.width).map(|x| self.terrain[(y * self.width + x) as usize].symbol()).collect())
            .collect()
    }
}

/// A river of a map (T-TERR-3): river and ford cells touching one another, diagonals too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct River {
    /// Its first cell, reading the map row by row from the north-west.
    pub first: Cell,
    /// Its fords: groups of orthogonally connected ford cells.
    pub fords: usize,
}

impl GridMap {
    /// T-TERR-3: the rivers of the map with their fords, in the order of their first cells.
    pub fn rivers(&self) -> Vec<River> {
        let water = |c: Cell| matches!(self.terrain(c), Some(Terrain::River | Terrain::Ford));
        let ford = |c: Cell| self.terrain(c) == Some(Terrain::Ford);
        let mut seen = vec![false; self.terrain.len()];
        let mut fords_seen = vec![false; self.terrain.len()];
        let mut rivers = Vec::new();
        for first in self.cells() {
            if !water(first) || self.index(first).is_none_or(|i| seen[i]) {
                continue;
            }
            let mut fords = 0;
            let mut stack = vec![first];
            while let Some(c) = stack.pop() {
                let Some(i) = self.index(c).filter(|i| !seen[*i]) else {
                    continue;
                };
                seen[i] = true;
                if ford(c) && !fords_seen[i] {
                    fords += 1;
                    self.mark_group(c, &ford, &mut fords_seen);
                }
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        let n = Cell::new(c.x + dx, c.y + dy);
                        if water(n) && self.index(n).is_some_and(|j| !seen[j]) {
                            stack.push(n);
                        }
                    }
                }
            }
            rivers.push(River { first, fords });
        }
        rivers
    }

    /// Marks the orthogonally connected group of cells that `member` accepts, from `start`.
    fn mark_group(&self, start: Cell, member: &dyn Fn(Cell) -> bool, marked: &mut [bool]) {
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            let Some(i) = self.index(c).filter(|i| !marked[*i]) else {
                continue;
            };
            marked[i] = true;
            stack.extend(c.neighbours().into_iter().filter(|n| member(*n)));
        }
    }
}

/// The cells a straight line between two cell centres touches, corners included (T-FIRE-6
/// "partial cover = full cover"), without the two end cells, ordered from `from` to `to`.
pub fn cells_between(from: Cell, to: Cell) -> Vec<Cell> {
    let mut out = Vec::new();
    if from == to {
        return out;
    }
    // Doubled coordinates: cell c spans [2c, 2c+2], its centre is 2c+1.
    let (x0, y0) = (2 * i64::from(from.x) + 1, 2 * i64::from(from.y) + 1);
    let (x1, y1) = (2 * i64::from(to.x) + 1, 2 * i64::from(to.y) + 1);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let (cx0, cx1) = (from.x.min(to.x), from.x.max(to.x));
    for cx in cx0..=cx1 {
        // The part of the segment whose X lies in this column, as a closed Y interval.
        let (xa, xb) = ((2 * i64::from(cx)).max(x0.min(x1)), (2 * i64::from(cx) + 2).min(x0.max(x1)));
        let (ylo_num, yhi_num, den) = if dx == 0 {
            (y0.min(y1), y0.max(y1), 1)
        } else {
            // Y(X) = y0 + (X - x0) * dy / dx, scaled by |dx|.
            let den = dx.abs();
            let ya = y0 * den + (xa - x0) * dy * dx.signum();
            let yb = y0 * den + (xb - x0) * dy * dx.signum();
            (ya.min(yb), ya.max(yb), den)
        };
        // Rows r with [2r, 2r+2] (scaled) meeting [ylo, yhi].
        let r_lo = -(-ylo_num).div_euclid(2 * den) - 1;
        let r_hi = yhi_num.div_euclid(2 * den);
        for r in r_lo..=r_hi {
            let cell = Cell::new(cx, r as i32);
            if cell != from && cell != to {
                out.push(cell);
            }
        }
    }
    out.sort_by_key(|c| (c.distance(from), (c.x - from.x).abs() + (c.y - from.y).abs(), c.y, c.x));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_lines_touch_only_the_cells_between() {
        assert_eq!(cells_between(Cell::new(0, 0), Cell::new(0, 3)), vec![Cell::new(0, 1), Cell::new(0, 2)]);
        assert_eq!(cells_between(Cell::new(4, 2), Cell::new(1, 2)), vec![Cell::new(3, 2), Cell::new(2, 2)]);
        assert!(cells_between(Cell::new(0, 0), Cell::new(0, 1)).is_empty());
    }

    #[test]
    fn diagonal_through_corners_touches_both_neighbours() {
        // T-FIRE-6 "partial cover = full cover": the corner cells count.
        let between = cells_between(Cell::new(0, 0), Cell::new(2, 2));
        for c in [Cell::new(1, 0), Cell::new(0, 1), Cell::new(1, 1), Cell::new(2, 1), Cell::new(1, 2)] {
            assert!(between.contains(&c), "{c} missing from {between:?}");
        }
        assert_eq!(between.len(), 5);
    }

    #[test]
    fn knight_line_touches_two_cells() {
        let mut between = cells_between(Cell::new(0, 0), Cell::new(1, 2));
        between.sort();
        assert_eq!(between, vec![Cell::new(0, 1), Cell::new(1, 1)]);
        let mut back = cells_between(Cell::new(1, 2), Cell::new(0, 0));
        back.sort();
        assert_eq!(back, between);
    }

    #[test]
    fn projection_and_aspect() {
        let at = Cell::new(5, 4);
        assert_eq!(Dir::South.project(at, Cell::new(5, 6)), (2, 0));
        assert_eq!(Dir::South.project(at, Cell::new(4, 5)).0, 1);
        assert_eq!(Dir::South.side_of(at, Cell::new(4, 4)), Some(Aspect::Flank));
        assert_eq!(Dir::South.side_of(at, Cell::new(5, 3)), Some(Aspect::Rear));
        assert_eq!(Dir::South.side_of(at, Cell::new(5, 5)), Some(Aspect::Front));
        assert_eq!(Dir::towards(Cell::new(3, 4), Cell::new(5, 4)), Dir::East);
    }

    #[test]
    fn t_terr_3_rivers_and_their_fords() {
        // Two rivers: one with a two-cell ford and a one-cell ford (2 fords), one bending diagonally with none.
        let map = GridMap::from_rows("t", &["~==~~=~", ".......", "~......", ".~.....", "..~~..."])
            .unwrap_or_else(|e| panic!("{e}"));
        let rivers = map.rivers();
        assert_eq!(
            rivers,
            vec![River { first: Cell::new(0, 0), fords: 2 }, River { first: Cell::new(0, 2), fords: 0 }]
        );
        assert!(GridMap::open("t", 5, 5).rivers().is_empty());
    }

    #[test]
    fn map_rows_round_trip() {
        let map = GridMap::from_rows("t", &[".fF", "s~=", "W^B", "R#_"]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(map.rows(), vec![".fF", "s~=", "W^B", "R#_"]);
        assert_eq!(map.terrain(Cell::new(1, 1)), Some(Terrain::River));
        assert_eq!(map.terrain(Cell::new(3, 0)), None);
    }
}
