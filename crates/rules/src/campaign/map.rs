//! The campaign map: a small hex map of ground per hex, river hexsides with fords, villages,
//! fortresses and named places. Hexes are the Great War map's [`HexAt`] (offset columns and rows,
//! pointy-top, odd rows shifted east) with its neighbours and hexside names.

use crate::data::{DataError, Step, parse_ron, place};
use crate::limits::{Limit, LimitError};
use crate::path;
pub use crate::strategic::hexmap::{HexAt, SIDE_NAMES};
use serde::{Deserialize, Serialize};

/// The ground of a campaign hex; it shapes the battlefield generated there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ground {
    Clear,
    Forest,
    Hills,
    Marsh,
    /// Lake or sea: no army enters it.
    Water,
}

impl Ground {
    pub fn from_char(c: char) -> Option<Ground> {
        Some(match c {
            '.' => Ground::Clear,
            'f' => Ground::Forest,
            'h' => Ground::Hills,
            's' => Ground::Marsh,
            '~' => Ground::Water,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Ground::Clear => "open country",
            Ground::Forest => "forest",
            Ground::Hills => "hills",
            Ground::Marsh => "marsh",
            Ground::Water => "water",
        }
    }
}

/// A river along one hexside of `at`, with or without a ford.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiverSide {
    pub at: HexAt,
    /// The hexside: E, SE, SW, W, NW or NE.
    pub side: String,
    #[serde(default)]
    pub ford: bool,
}

/// A named hex (a town, a battlefield).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub at: HexAt,
    pub name: String,
    #[serde(default)]
    pub name_ru: String,
}

/// A campaign map as written in `scenarios/campaign/*.ron` (`CampaignMap(..)`), and as a save
/// embeds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "CampaignMap")]
pub struct CampaignMap {
    pub name: String,
    /// One string per hex row, north first; `.` clear, `f` forest, `h` hills, `s` marsh, `~` water.
    pub rows: Vec<String>,
    #[serde(default)]
    pub rivers: Vec<RiverSide>,
    #[serde(default)]
    pub villages: Vec<HexAt>,
    #[serde(default)]
    pub fortresses: Vec<HexAt>,
    #[serde(default)]
    pub places: Vec<Place>,
}

/// What stands between two neighbouring hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    Open,
    Ford,
    River,
}

impl CampaignMap {
    pub fn parse(path: &str, text: &str) -> Result<CampaignMap, DataError> {
        let map: CampaignMap = parse_ron(path, text)?;
        map.check()
            .map_err(|(at, message, limit)| DataError { limit, ..DataError::at(path, place(text, &at), message) })?;
        Ok(map)
    }

    pub fn width(&self) -> i32 {
        self.rows.first().map_or(0, |r| i32::try_from(r.len()).unwrap_or(i32::MAX))
    }

    pub fn height(&self) -> i32 {
        i32::try_from(self.rows.len()).unwrap_or(i32::MAX)
    }

    pub fn contains(&self, h: HexAt) -> bool {
        (0..self.width()).contains(&h.col) && (0..self.height()).contains(&h.row)
    }

    /// The ground of a hex; `None` off the map.
    pub fn ground(&self, h: HexAt) -> Option<Ground> {
        if !self.contains(h) {
            return None;
        }
        let row = self.rows.get(usize::try_from(h.row).ok()?)?;
        row.as_bytes().get(usize::try_from(h.col).ok()?).and_then(|b| Ground::from_char(char::from(*b)))
    }

    /// Whether an army may stand in a hex.
    pub fn passable(&self, h: HexAt) -> bool {
        self.ground(h).is_some_and(|g| g != Ground::Water)
    }

    pub fn has_village(&self, h: HexAt) -> bool {
        self.villages.contains(&h)
    }

    pub fn has_fortress(&self, h: HexAt) -> bool {
        self.fortresses.contains(&h)
    }

    pub fn place_name(&self, h: HexAt) -> Option<&str> {
        self.places.iter().find(|p| p.at == h).map(|p| p.name.as_str())
    }

    /// The river (and ford) on the hexside between two neighbouring hexes.
    pub fn crossing(&self, a: HexAt, b: HexAt) -> Crossing {
        let on =
            |r: &RiverSide, x: HexAt, y: HexAt| r.at == x && side_index(&r.side).is_some_and(|d| x.neighbour(d) == y);
        match self.rivers.iter().find(|r| on(r, a, b) || on(r, b, a)) {
            None => Crossing::Open,
            Some(r) if r.ford => Crossing::Ford,
            Some(_) => Crossing::River,
        }
    }

    /// The hexsides of a hex that carry a river, as hexside indices.
    pub fn river_sides(&self, h: HexAt) -> Vec<u8> {
        (0..6u8).filter(|d| self.crossing(h, h.neighbour(*d)) != Crossing::Open).collect()
    }

    /// Every hex of the map, row by row.
    pub fn hexes(&self) -> impl Iterator<Item = HexAt> + '_ {
        (0..self.height()).flat_map(move |row| (0..self.width()).map(move |col| HexAt::new(col, row)))
    }

    fn check(&self) -> Result<(), (Vec<Step<'static>>, String, Option<Limit>)> {
        let limit = |at: Vec<Step<'static>>, e: LimitError| (at, e.to_string(), Some(e.limit));
        let fail = |at: Vec<Step<'static>>, m: String| Err((at, m, None));
        Limit::HexMapSide.check_len(self.rows.len()).map_err(|e| limit(path!["rows"].to_vec(), e))?;
        let width = self.rows.first().map_or(0, String::len);
        Limit::HexMapSide.check_len(width).map_err(|e| limit(path!["rows", 0].to_vec(), e))?;
        if self.rows.is_empty() || width == 0 {
            return fail(path!["rows"].to_vec(), "the map has no hexes".to_string());
        }
        for (i, row) in self.rows.iter().enumerate() {
            if row.len() != width || !row.is_ascii() {
                return fail(
                    path!["rows", i].to_vec(),
                    format!("row {i} has {} hexes, the first row has {width}", row.chars().count()),
                );
            }
            if let Some(c) = row.chars().find(|c| Ground::from_char(*c).is_none()) {
                return fail(path!["rows", i].to_vec(), format!("unknown ground `{c}` in row {i} (. f h s ~)"));
            }
        }
        for list in [self.rivers.len(), self.villages.len(), self.fortresses.len(), self.places.len()] {
            Limit::ListEntries.check_len(list).map_err(|e| limit(Vec::new(), e))?;
        }
        for (i, r) in self.rivers.iter().enumerate() {
            let Some(d) = side_index(&r.side) else {
                return fail(
                    path!["rivers", i, "side"].to_vec(),
                    format!("`{}` is not a hexside ({})", r.side, SIDE_NAMES.join(", ")),
                );
            };
            if !self.contains(r.at) || !self.contains(r.at.neighbour(d)) {
                return fail(
                    path!["rivers", i, "at"].to_vec(),
                    format!("the river at {} side {} is not between two hexes of the map", r.at, r.side),
                );
            }
        }
        for (field, list) in [("villages", &self.villages), ("fortresses", &self.fortresses)] {
            for (i, h) in list.iter().enumerate() {
                if !self.passable(*h) {
                    return fail(vec![Step::Field(field), Step::Index(i)], format!("{h} is off the map or water"));
                }
            }
        }
        for (i, p) in self.places.iter().enumerate() {
            if !self.contains(p.at) {
                return fail(path!["places", i, "at"].to_vec(), format!("{} at {} is off the map", p.name, p.at));
            }
        }
        Ok(())
    }
}

/// The index of a hexside name.
pub fn side_index(name: &str) -> Option<u8> {
    SIDE_NAMES.iter().position(|s| *s == name).and_then(|i| u8::try_from(i).ok())
}
