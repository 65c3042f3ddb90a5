//! Limits of the referee: the largest files, maps and counts this program accepts.
//!
//! These are NOT rule numbers (the rules' own limits, such as the units a side may field or the
//! ships of a fleet, live in the data files and are checked with their rule IDs). They only keep
//! a hostile or broken file from making the program allocate without bound, overflow its
//! arithmetic or work for minutes: every size and count read from a file is checked against
//! them BEFORE anything is allocated for it. Each is far above anything a real game uses.

use std::fmt;

/// A file is read whole into memory; no game file is anywhere near this (a save of a long
/// Great War game on a large map is a few megabytes).
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;
/// How deep values may nest in a file (the shipped files nest at most 6 levels); the parser
/// refuses deeper nesting before it can exhaust the stack.
pub const MAX_NESTING: usize = 64;
/// Width or height of a battle map, in cells (the shipped maps are 20 × 14).
pub const MAX_BATTLE_MAP_SIDE: i32 = 256;
/// Cells of a battle map.
pub const MAX_BATTLE_MAP_CELLS: u64 = 65_536;
/// Width or height of a Great War map, in hexes.
pub const MAX_HEX_MAP_SIDE: u32 = 8_192;
/// Hexes of a Great War map (the benchmark map has 500,000).
pub const MAX_HEX_MAP_HEXES: u64 = 4_000_000;
/// Largest absolute value of a cell or hex coordinate anywhere in a file (orders included), so
/// that no sum or difference of coordinates can overflow.
pub const MAX_COORDINATE: i32 = 1_000_000;
/// Units of a battle scenario, both sides together.
pub const MAX_BATTLE_UNITS: u64 = 10_000;
/// Land units (forces) of a Great War scenario.
pub const MAX_FORCES: u64 = 10_000;
/// Entries of any other list of a scenario or map (corps, fleets, cities, formations' units…):
/// some checks compare entries pairwise, and this keeps them to a fraction of a second.
pub const MAX_LIST_ENTRIES: u64 = 10_000;
/// Ships of one fleet as written in a scenario, before S-NAVAL-1 scales historical lists.
pub const MAX_SHIPS_PER_FLEET: u64 = 10_000;
/// Largest magnitude of any number in a data table or a Great War scenario or map (house
/// values, money, manpower…): the rules add and multiply such numbers, and this keeps every sum
/// far from overflowing.
pub const MAX_FILE_NUMBER: u64 = 1_000_000;
/// Orders in an order list or a save.
pub const MAX_ORDERS: u64 = 1_000_000;

/// Which limit of the referee a file exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    FileBytes,
    BattleMapSide,
    BattleMapCells,
    HexMapSide,
    HexMapHexes,
    Coordinate,
    BattleUnits,
    Forces,
    ListEntries,
    ShipsPerFleet,
    FileNumber,
    Orders,
}

impl Limit {
    pub const ALL: [Limit; 12] = [
        Limit::FileBytes,
        Limit::BattleMapSide,
        Limit::BattleMapCells,
        Limit::HexMapSide,
        Limit::HexMapHexes,
        Limit::Coordinate,
        Limit::BattleUnits,
        Limit::Forces,
        Limit::ListEntries,
        Limit::ShipsPerFleet,
        Limit::FileNumber,
        Limit::Orders,
    ];

    /// The largest value allowed.
    pub const fn max(self) -> u64 {
        match self {
            Limit::FileBytes => MAX_FILE_BYTES,
            Limit::BattleMapSide => MAX_BATTLE_MAP_SIDE as u64,
            Limit::BattleMapCells => MAX_BATTLE_MAP_CELLS,
            Limit::HexMapSide => MAX_HEX_MAP_SIDE as u64,
            Limit::HexMapHexes => MAX_HEX_MAP_HEXES,
            Limit::Coordinate => MAX_COORDINATE as u64,
            Limit::BattleUnits => MAX_BATTLE_UNITS,
            Limit::Forces => MAX_FORCES,
            Limit::ListEntries => MAX_LIST_ENTRIES,
            Limit::ShipsPerFleet => MAX_SHIPS_PER_FLEET,
            Limit::FileNumber => MAX_FILE_NUMBER,
            Limit::Orders => MAX_ORDERS,
        }
    }

    /// What is counted, for messages.
    pub const fn what(self) -> &'static str {
        match self {
            Limit::FileBytes => "bytes in the file",
            Limit::BattleMapSide => "cells on a side of a battle map",
            Limit::BattleMapCells => "cells in a battle map",
            Limit::HexMapSide => "hexes on a side of a Great War map",
            Limit::HexMapHexes => "hexes in a Great War map",
            Limit::Coordinate => "coordinate of a cell or hex",
            Limit::BattleUnits => "units in a battle scenario",
            Limit::Forces => "land units in a Great War scenario",
            Limit::ListEntries => "entries in one list",
            Limit::ShipsPerFleet => "ships in one fleet",
            Limit::FileNumber => "size of a number in a data table, a Great War scenario or a save's rules",
            Limit::Orders => "orders in a list",
        }
    }

    /// Checks a count against the limit.
    pub fn check(self, found: u64) -> Result<(), LimitError> {
        if found > self.max() { Err(LimitError { limit: self, found }) } else { Ok(()) }
    }

    /// Checks a count given as `usize`.
    pub fn check_len(self, found: usize) -> Result<(), LimitError> {
        self.check(u64::try_from(found).unwrap_or(u64::MAX))
    }
}

/// A file asked for more than a limit of the referee allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub struct LimitError {
    pub limit: Limit,
    /// What the file asked for (saturated at `u64::MAX`).
    pub found: u64,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let found = if self.found == u64::MAX { "more".to_string() } else { self.found.to_string() };
        let max = self.limit.max();
        let sign = if matches!(self.limit, Limit::Coordinate | Limit::FileNumber) { "±" } else { "" };
        write!(
            f,
            "{}: {found} is over {REFEREE_LIMIT} {sign}{max} (a limit of this program, not a rule)",
            self.limit.what()
        )
    }
}

/// The words every limit message carries, so a message that came back through the parser as
/// text can be told apart (see [`LimitError::recognise`]).
const REFEREE_LIMIT: &str = "the referee's limit of";

impl LimitError {
    /// The limit a message names, if it is a limit message (errors raised inside the parser come
    /// back as text with the parser's position).
    pub fn recognise(message: &str) -> Option<Limit> {
        if !message.contains(REFEREE_LIMIT) {
            return None;
        }
        Limit::ALL.into_iter().find(|l| message.contains(&format!("{}: ", l.what())))
    }
}

/// Checks one coordinate of a cell or hex.
pub fn check_coordinate(value: i32) -> Result<i32, LimitError> {
    if value.unsigned_abs() > MAX_COORDINATE.unsigned_abs() {
        Err(LimitError { limit: Limit::Coordinate, found: u64::from(value.unsigned_abs()) })
    } else {
        Ok(value)
    }
}

/// Checks every number of a value read from a file against [`MAX_FILE_NUMBER`].
pub fn check_numbers<T: serde::Serialize>(value: &T) -> Result<(), LimitError> {
    // Read back as a plain RON value, whose numbers can be walked whatever the type.
    let Ok(text) = ron::to_string(value) else { return Ok(()) };
    let Ok(plain) = ron::from_str::<ron::Value>(&text) else { return Ok(()) };
    walk_numbers(&plain)
}

fn walk_numbers(value: &ron::Value) -> Result<(), LimitError> {
    match value {
        ron::Value::Number(n) => {
            let size = n.into_f64().abs();
            if size.is_nan() || size > MAX_FILE_NUMBER as f64 {
                let found = if size.is_finite() && size < u64::MAX as f64 { size as u64 } else { u64::MAX };
                return Err(LimitError { limit: Limit::FileNumber, found });
            }
            Ok(())
        }
        ron::Value::Map(m) => m.iter().try_for_each(|(k, v)| walk_numbers(k).and_then(|()| walk_numbers(v))),
        ron::Value::Seq(s) => s.iter().try_for_each(walk_numbers),
        ron::Value::Option(Some(v)) => walk_numbers(v),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_checked_at_the_boundary() {
        for limit in Limit::ALL {
            assert_eq!(limit.check(limit.max()), Ok(()), "{limit:?}");
            let e = limit.check(limit.max() + 1).unwrap_err();
            assert_eq!(e.limit, limit);
            assert!(e.to_string().contains(&limit.max().to_string()), "{e}");
            assert_eq!(LimitError::recognise(&e.to_string()), Some(limit), "{e}");
        }
        assert_eq!(check_coordinate(MAX_COORDINATE), Ok(MAX_COORDINATE));
        assert_eq!(check_coordinate(-MAX_COORDINATE), Ok(-MAX_COORDINATE));
        assert!(check_coordinate(MAX_COORDINATE + 1).is_err());
        assert!(check_coordinate(i32::MIN).is_err());
        let max = MAX_FILE_NUMBER as i64;
        assert_eq!(check_numbers(&vec![(1, Some(max)), (-max, None)]), Ok(()));
        assert_eq!(check_numbers(&[max + 1]).map_err(|e| e.limit), Err(Limit::FileNumber));
        assert_eq!(check_numbers(&[Some(-max - 1)]).map_err(|e| e.found), Err(MAX_FILE_NUMBER + 1));
    }
}
