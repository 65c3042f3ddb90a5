//! The Great War hex map: terrain per hex, river hexsides with bridges, roads, climate, cities,
//! provinces and sea areas.
//!
//! Storage is a flat `Vec` of small `Copy` cells in offset (column, row) order, pointy-top with
//! odd rows shifted right, so a 500,000-hex map is one allocation of a few megabytes. Geometry
//! (neighbours, distances, directions) is `hexx`'s axial maths.

use super::geo::GeoProjection;
pub use super::hex::HexAt;
use crate::data::{DataError, Pos, Step, parse_checked, place};
use crate::limits::{Limit, LimitError};
use crate::path;
use bevy_ecs::prelude::Resource;
use serde::{Deserialize, Serialize};

/// Names of the hexsides in files, in hexx's edge order.
pub const SIDE_NAMES: [&str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];

/// Terrain of a hex (S-TERR, S-SUP-5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Terrain {
    #[default]
    Clear,
    Forest,
    Mountains,
    /// Desert or tropics.
    Desert,
    Northern,
    Marsh,
    Sea,
    Lake,
}

impl Terrain {
    /// Every terrain, in the order of its number in packed saves.
    pub const ALL: [Terrain; 8] = [
        Terrain::Clear,
        Terrain::Forest,
        Terrain::Mountains,
        Terrain::Desert,
        Terrain::Northern,
        Terrain::Marsh,
        Terrain::Sea,
        Terrain::Lake,
    ];

    pub fn from_char(c: char) -> Option<Terrain> {
        Some(match c {
            '.' => Terrain::Clear,
            'f' => Terrain::Forest,
            'm' => Terrain::Mountains,
            'd' => Terrain::Desert,
            'n' => Terrain::Northern,
            's' => Terrain::Marsh,
            '~' => Terrain::Sea,
            'l' => Terrain::Lake,
            _ => return None,
        })
    }

    /// Land units never enter sea or lake hexes.
    pub fn is_water(self) -> bool {
        matches!(self, Terrain::Sea | Terrain::Lake)
    }

    pub fn key(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Forest => "forest",
            Terrain::Mountains => "mountains",
            Terrain::Desert => "desert",
            Terrain::Northern => "northern",
            Terrain::Marsh => "marsh",
            Terrain::Sea => "sea",
            Terrain::Lake => "lake",
        }
    }
}

/// Harsh-climate zone of a hex (S-SUP-5); by default from its terrain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Climate {
    #[default]
    Temperate,
    /// Desert and tropics.
    Desert,
    North,
    Mountain,
}

impl Climate {
    /// Every climate, in the order of its number in packed saves.
    pub const ALL: [Climate; 4] = [Climate::Temperate, Climate::Desert, Climate::North, Climate::Mountain];

    pub fn of(terrain: Terrain) -> Climate {
        match terrain {
            Terrain::Desert => Climate::Desert,
            Terrain::Northern => Climate::North,
            Terrain::Mountains => Climate::Mountain,
            _ => Climate::Temperate,
        }
    }

    pub fn is_harsh(self) -> bool {
        self != Climate::Temperate
    }
}

/// Flags of a hex.
pub mod flag {
    pub const ROAD: u8 = 1;
    pub const CITY: u8 = 2;
    pub const PORT: u8 = 4;
    pub const FORTRESS: u8 = 8;
    /// A main railway runs through the hex: informational, the sources have no rail movement rule
    /// (the rules reference, S-LAND-3).
    pub const RAIL: u8 = 16;
}

/// One hex: ten bytes, no heap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexCell {
    pub terrain: Terrain,
    pub climate: Climate,
    pub flags: u8,
    /// Bit `d` set: a river runs along hexside `d`.
    pub rivers: u8,
    /// Bit `d` set: a bridge crosses the river on hexside `d`.
    pub bridges: u8,
    /// Province index + 1 (0: none).
    pub province: u16,
    /// City index + 1 (0: none).
    pub city: u16,
    /// Sea area index + 1 (0: none).
    pub sea_area: u16,
}

impl HexCell {
    pub fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }

    pub fn river_on(&self, side: u8) -> bool {
        self.rivers & (1 << side) != 0
    }

    pub fn bridge_on(&self, side: u8) -> bool {
        self.bridges & (1 << side) != 0
    }
}

/// A province (S-CITY): owner, capital city, income and manpower.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Province {
    pub id: String,
    pub name: String,
    /// The name in Russian, where the map gives one. Left out of saves and hashes when empty, so
    /// saves of maps that had no Russian names keep their hashes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_ru: String,
    /// Power id of the sovereign.
    pub owner: String,
    /// City id of its capital.
    pub capital: String,
    /// Income per turn.
    #[serde(default)]
    pub gdp: u32,
    /// Manpower per turn by class (class 1, class 2).
    #[serde(default)]
    pub manpower: [u32; 2],
}

/// A city: one or more hexes, maybe a port and/or a fortress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    pub id: String,
    pub name: String,
    /// The name in Russian, where the map gives one. Left out of saves and hashes when empty, so
    /// saves of maps that had no Russian names keep their hashes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_ru: String,
    pub province: String,
    pub hexes: Vec<HexAt>,
    #[serde(default)]
    pub port: bool,
    #[serde(default)]
    pub fortress: bool,
}

/// A sea area (naval war, S-MINE-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaArea {
    pub id: String,
    pub name: String,
    /// The name in Russian, where the map gives one (left out of saves and hashes when empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_ru: String,
    pub hexes: Vec<HexAt>,
}

/// A map file as written by its author.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "GreatWarMap")]
pub struct MapFile {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Terrain of hexes no row string covers.
    #[serde(default)]
    pub terrain: Terrain,
    /// One string per row from the north, one character per hex: `.` clear, `f` forest,
    /// `m` mountains, `d` desert/tropics, `n` northern, `s` marsh, `~` sea, `l` lake. A character
    /// may carry a repeat count before it (`120~3.` = 120 sea hexes, then 3 clear ones), which keeps
    /// a map of half a million hexes small.
    #[serde(default)]
    pub rows: Vec<String>,
    /// The province of every hex, one string per row from the north: runs separated by spaces,
    /// each `COUNT*NUMBER` or just `NUMBER` (a run of one), where NUMBER is the province's place in
    /// `provinces` counting from 1, and 0 means none. Cities also put their hexes in their province.
    #[serde(default)]
    pub province_rows: Vec<String>,
    /// The sea area of every hex, in the same run format as `province_rows` (numbers count in
    /// `sea_areas`); an area's own `hexes` list adds to it.
    #[serde(default)]
    pub sea_area_rows: Vec<String>,
    /// Where the map lies on the globe, for maps drawn from geography.
    #[serde(default)]
    pub projection: Option<GeoProjection>,
    /// River hexsides: a hex and a side (`E`, `SE`, `SW`, `W`, `NW`, `NE`).
    #[serde(default)]
    pub rivers: Vec<(HexAt, String)>,
    /// Bridges, on river hexsides.
    #[serde(default)]
    pub bridges: Vec<(HexAt, String)>,
    /// Roads as chains of adjacent hexes.
    #[serde(default)]
    pub roads: Vec<Vec<HexAt>>,
    /// Main railways as chains of adjacent land hexes: informational, the sources have no rail
    /// movement rule (S-LAND-3 in the rules reference); left out of the file when empty, so older
    /// maps keep their text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub railways: Vec<Vec<HexAt>>,
    /// Climate zones that differ from the terrain's own (S-SUP-5).
    #[serde(default)]
    pub climate: Vec<(Climate, Vec<HexAt>)>,
    #[serde(default)]
    pub provinces: Vec<Province>,
    #[serde(default)]
    pub cities: Vec<City>,
    #[serde(default)]
    pub sea_areas: Vec<SeaArea>,
}

/// The map the rules play on. Read back (from a save) through [`HexMapRaw`], which checks the
/// storage against the sizes and lists before the rules index into it. Written hex by hex, or
/// packed ([`PackedCells`]) when it has more than [`PACKED_ABOVE_HEXES`] hexes.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "HexMapRaw")]
pub struct HexMap {
    pub name: String,
    pub width: u32,
    pub height: u32,
    cells: Vec<HexCell>,
    pub provinces: Vec<Province>,
    pub cities: Vec<City>,
    /// Sea areas; each keeps the `hexes` its file listed, while every hex's cell names its area.
    pub sea_areas: Vec<SeaArea>,
    /// Where the map lies on the globe, if it was drawn from geography (left out of saves and
    /// hashes when there is none, so older saves keep their hashes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection: Option<GeoProjection>,
}

/// A map of more hexes than this is written packed ([`PackedCells`]) in saves and hashed so.
///
/// Written hex by hex, a hex takes at least [`MIN_CELL_BYTES`] bytes of RON (the shortest cell,
/// inline: see the test `a_cell_written_whole_takes_at_least_min_cell_bytes`), so the cells of a
/// map above this count alone make a save larger than [`crate::limits::MAX_FILE_BYTES`]: no save
/// of such a map could ever be read back. Every save that could be read keeps its form, its text
/// and its scenario hash; only the unreadable ones (the grand campaign's 701,250 hexes gave 85 MB)
/// change, to a form of about a megabyte.
pub const PACKED_ABOVE_HEXES: usize = 400_000;

/// The fewest bytes of RON a hex takes when a save writes it whole (see [`PACKED_ABOVE_HEXES`]).
pub const MIN_CELL_BYTES: u64 = 84;

/// The hexes of a large map as a save holds them: one string per field of [`HexCell`], each the
/// runs `COUNT*VALUE` (or `VALUE`, a run of one) of that field over all hexes in storage order
/// (rows from the north, each from the west), separated by spaces. Terrain and climate are
/// written as their place in [`Terrain::ALL`] and [`Climate::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackedCells {
    pub terrain: String,
    pub climate: String,
    pub flags: String,
    pub rivers: String,
    pub bridges: String,
    pub province: String,
    pub city: String,
    pub sea_area: String,
}

/// One field of a cell as a number, and back (`None`: the number is no value of the field).
struct Layer {
    name: &'static str,
    get: fn(&HexCell) -> u32,
    set: fn(&mut HexCell, u32) -> Option<()>,
}

const LAYERS: [Layer; 8] = [
    Layer {
        name: "terrain",
        get: |c| c.terrain as u32,
        set: |c, v| {
            c.terrain = *Terrain::ALL.get(usize::try_from(v).ok()?)?;
            Some(())
        },
    },
    Layer {
        name: "climate",
        get: |c| c.climate as u32,
        set: |c, v| {
            c.climate = *Climate::ALL.get(usize::try_from(v).ok()?)?;
            Some(())
        },
    },
    Layer {
        name: "flags",
        get: |c| u32::from(c.flags),
        set: |c, v| {
            c.flags = u8::try_from(v).ok()?;
            Some(())
        },
    },
    Layer {
        name: "rivers",
        get: |c| u32::from(c.rivers),
        set: |c, v| {
            c.rivers = u8::try_from(v).ok()?;
            Some(())
        },
    },
    Layer {
        name: "bridges",
        get: |c| u32::from(c.bridges),
        set: |c, v| {
            c.bridges = u8::try_from(v).ok()?;
            Some(())
        },
    },
    Layer {
        name: "province",
        get: |c| u32::from(c.province),
        set: |c, v| {
            c.province = u16::try_from(v).ok()?;
            Some(())
        },
    },
    Layer {
        name: "city",
        get: |c| u32::from(c.city),
        set: |c, v| {
            c.city = u16::try_from(v).ok()?;
            Some(())
        },
    },
    Layer {
        name: "sea_area",
        get: |c| u32::from(c.sea_area),
        set: |c, v| {
            c.sea_area = u16::try_from(v).ok()?;
            Some(())
        },
    },
];

impl PackedCells {
    fn layers(&self) -> [&String; 8] {
        [
            &self.terrain,
            &self.climate,
            &self.flags,
            &self.rivers,
            &self.bridges,
            &self.province,
            &self.city,
            &self.sea_area,
        ]
    }

    /// Packs cells.
    pub fn pack(cells: &[HexCell]) -> PackedCells {
        use std::fmt::Write;
        let [terrain, climate, flags, rivers, bridges, province, city, sea_area] = LAYERS.map(|layer| {
            let mut out = String::new();
            let mut run: Option<(u64, u32)> = None;
            let flush = |out: &mut String, (n, v): (u64, u32)| {
                let sep = if out.is_empty() { "" } else { " " };
                // Writing into a String cannot fail.
                let _ = if n == 1 { write!(out, "{sep}{v}") } else { write!(out, "{sep}{n}*{v}") };
            };
            for c in cells {
                let v = (layer.get)(c);
                run = match run {
                    Some((n, w)) if w == v => Some((n + 1, w)),
                    Some(done) => {
                        flush(&mut out, done);
                        Some((1, v))
                    }
                    None => Some((1, v)),
                };
            }
            if let Some(done) = run {
                flush(&mut out, done);
            }
            out
        });
        PackedCells { terrain, climate, flags, rivers, bridges, province, city, sea_area }
    }

    /// Unpacks the cells of a map of `hexes` hexes (a count already checked against the
    /// referee's limits): every field must give exactly that many values, each a value of its
    /// field.
    pub fn unpack(&self, hexes: usize) -> Result<Vec<HexCell>, String> {
        let mut cells = vec![HexCell::default(); hexes];
        for (layer, text) in LAYERS.iter().zip(self.layers()) {
            let mut next = 0usize;
            for token in text.split_ascii_whitespace() {
                let (count, value) = match token.split_once('*') {
                    Some((c, v)) => (c, v),
                    None => ("1", token),
                };
                let bad = |what: &str| format!("packed `{}`: `{token}`: {what}", layer.name);
                let count: usize = count.parse().map_err(|_| bad("the run length is not a number"))?;
                let value: u32 = value.parse().map_err(|_| bad("not a number"))?;
                if count == 0 {
                    return Err(bad("a run of no hexes"));
                }
                let end = next
                    .checked_add(count)
                    .filter(|e| *e <= hexes)
                    .ok_or_else(|| format!("packed `{}` gives more values than the map's {hexes} hexes", layer.name))?;
                for c in &mut cells[next..end] {
                    (layer.set)(c, value).ok_or_else(|| bad("no value of this field"))?;
                }
                next = end;
            }
            if next != hexes {
                return Err(format!("packed `{}` gives {next} values for the map's {hexes} hexes", layer.name));
            }
        }
        Ok(cells)
    }
}

/// A map as a save writes it: the cells whole, or packed when there are many. Field by field as
/// the derived form wrote it before packing existed (`cells` a plain list, `projection` an
/// option left out when none), so the text and the hash of a map written whole do not change.
impl Serialize for HexMap {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let packed = self.cells.len() > PACKED_ABOVE_HEXES;
        let mut s = serializer.serialize_struct("HexMap", 7 + usize::from(self.projection.is_some()))?;
        s.serialize_field("name", &self.name)?;
        s.serialize_field("width", &self.width)?;
        s.serialize_field("height", &self.height)?;
        if packed {
            s.skip_field("cells")?;
            s.serialize_field("packed", &PackedCells::pack(&self.cells))?;
        } else {
            s.serialize_field("cells", &self.cells)?;
            s.skip_field("packed")?;
        }
        s.serialize_field("provinces", &self.provinces)?;
        s.serialize_field("cities", &self.cities)?;
        s.serialize_field("sea_areas", &self.sea_areas)?;
        if self.projection.is_some() {
            s.serialize_field("projection", &self.projection)?;
        } else {
            s.skip_field("projection")?;
        }
        s.end()
    }
}

/// Reads one row of runs (`COUNT*NUMBER` or `NUMBER`, separated by spaces) into `(count, number)`.
fn parse_runs(line: &str) -> Result<Vec<(u32, u32)>, String> {
    let mut runs = Vec::new();
    for token in line.split_ascii_whitespace() {
        let (count, value) = match token.split_once('*') {
            Some((c, v)) => (c, v),
            None => ("1", token),
        };
        let count: u32 = count.parse().map_err(|_| format!("`{token}`: the run length is not a number"))?;
        let value: u32 = value.parse().map_err(|_| format!("`{token}`: not a number"))?;
        if count == 0 {
            return Err(format!("`{token}`: a run of no hexes"));
        }
        runs.push((count, value));
    }
    Ok(runs)
}

/// Reads one terrain row: characters, each maybe preceded by a repeat count.
fn parse_terrain_row(line: &str) -> Result<Vec<(u32, Terrain)>, (usize, String)> {
    let mut out = Vec::new();
    let mut count: Option<u32> = None;
    for (i, ch) in line.chars().enumerate() {
        if let Some(d) = ch.to_digit(10) {
            let c = count.unwrap_or(0).checked_mul(10).and_then(|c| c.checked_add(d));
            count = Some(c.ok_or_else(|| (i, "the repeat count is too large".to_string()))?);
            continue;
        }
        let terrain =
            Terrain::from_char(ch).ok_or_else(|| (i, format!("`{ch}` is not a terrain (use . f m d n s ~ l)")))?;
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err((i, format!("a repeat count of 0 before `{ch}`")));
        }
        out.push((n, terrain));
    }
    if count.is_some() {
        return Err((line.chars().count(), "the row ends with a repeat count and no terrain".into()));
    }
    Ok(out)
}

/// A resolved map as a save holds it, checked before it becomes a [`HexMap`].
#[derive(Deserialize)]
#[serde(rename = "HexMap", deny_unknown_fields)]
struct HexMapRaw {
    name: String,
    width: u32,
    height: u32,
    #[serde(default)]
    cells: Vec<HexCell>,
    /// The cells of a map of more than [`PACKED_ABOVE_HEXES`] hexes, instead of `cells`.
    #[serde(default)]
    packed: Option<PackedCells>,
    provinces: Vec<Province>,
    cities: Vec<City>,
    sea_areas: Vec<SeaArea>,
    #[serde(default)]
    projection: Option<GeoProjection>,
}

impl TryFrom<HexMapRaw> for HexMap {
    type Error = String;

    fn try_from(raw: HexMapRaw) -> Result<Self, String> {
        HexMap::check_size(raw.width, raw.height).map_err(|e| e.to_string())?;
        let hexes = raw.width as usize * raw.height as usize;
        let cells = match (&raw.packed, raw.cells.is_empty()) {
            (Some(packed), true) => packed.unpack(hexes)?,
            (Some(_), false) => return Err("the map gives both `cells` and `packed`".to_string()),
            (None, _) => raw.cells,
        };
        if cells.len() != hexes {
            return Err(format!("the map lists {} hexes for {} × {}", cells.len(), raw.width, raw.height));
        }
        let within = |index: u16, len: usize| usize::from(index) <= len;
        for c in &cells {
            if !within(c.province, raw.provinces.len())
                || !within(c.city, raw.cities.len())
                || !within(c.sea_area, raw.sea_areas.len())
            {
                return Err("a hex names a province, city or sea area the map does not list".to_string());
            }
        }
        Ok(HexMap {
            name: raw.name,
            width: raw.width,
            height: raw.height,
            cells,
            provinces: raw.provinces,
            cities: raw.cities,
            sea_areas: raw.sea_areas,
            projection: raw.projection,
        })
    }
}

impl HexMap {
    /// Checks a map's size against the limits of the referee, before anything is allocated.
    pub fn check_size(width: u32, height: u32) -> Result<(), LimitError> {
        Limit::HexMapSide.check(u64::from(width.max(height)))?;
        Limit::HexMapHexes.check(u64::from(width) * u64::from(height))
    }

    /// A map of one terrain.
    pub fn filled(name: &str, width: u32, height: u32, terrain: Terrain) -> HexMap {
        let cell = HexCell { terrain, climate: Climate::of(terrain), ..HexCell::default() };
        HexMap {
            name: name.to_string(),
            width,
            height,
            cells: vec![cell; (width as usize) * (height as usize)],
            provinces: Vec::new(),
            cities: Vec::new(),
            sea_areas: Vec::new(),
            projection: None,
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn contains(&self, at: HexAt) -> bool {
        at.col >= 0 && at.row >= 0 && (at.col as u32) < self.width && (at.row as u32) < self.height
    }

    /// Index of a hex in the flat storage.
    pub fn index(&self, at: HexAt) -> Option<usize> {
        self.contains(at).then(|| at.row as usize * self.width as usize + at.col as usize)
    }

    pub fn at_index(&self, index: usize) -> HexAt {
        let w = self.width as usize;
        HexAt::new((index % w) as i32, (index / w) as i32)
    }

    pub fn cell(&self, at: HexAt) -> Option<&HexCell> {
        self.index(at).map(|i| &self.cells[i])
    }

    pub fn cell_mut(&mut self, at: HexAt) -> Option<&mut HexCell> {
        self.index(at).map(|i| &mut self.cells[i])
    }

    pub fn terrain(&self, at: HexAt) -> Option<Terrain> {
        self.cell(at).map(|c| c.terrain)
    }

    /// Whether a land unit may stand in the hex.
    pub fn is_land(&self, at: HexAt) -> bool {
        self.cell(at).is_some_and(|c| !c.terrain.is_water())
    }

    /// Whether a land hex touches water: a coast, which battleships bombard (S-NAVAL-13) and
    /// from which heavy guns fire at ships (S-NAVAL-14).
    pub fn is_coast(&self, at: HexAt) -> bool {
        self.is_land(at) && at.neighbours().into_iter().any(|n| self.cell(n).is_some_and(|c| c.terrain.is_water()))
    }

    /// Whether a river runs between two adjacent hexes.
    pub fn river_between(&self, a: HexAt, b: HexAt) -> bool {
        a.side_to(b).is_some_and(|s| self.cell(a).is_some_and(|c| c.river_on(s)))
    }

    /// Whether a bridge crosses between two adjacent hexes.
    pub fn bridge_between(&self, a: HexAt, b: HexAt) -> bool {
        a.side_to(b).is_some_and(|s| self.cell(a).is_some_and(|c| c.bridge_on(s)))
    }

    /// Whether a main railway runs through both of two adjacent hexes.
    pub fn rail_between(&self, a: HexAt, b: HexAt) -> bool {
        a.is_adjacent(b)
            && self.cell(a).is_some_and(|c| c.has(flag::RAIL))
            && self.cell(b).is_some_and(|c| c.has(flag::RAIL))
    }

    /// Whether a road joins two adjacent hexes.
    pub fn road_between(&self, a: HexAt, b: HexAt) -> bool {
        self.cell(a).is_some_and(|c| c.has(flag::ROAD)) && self.cell(b).is_some_and(|c| c.has(flag::ROAD))
    }

    pub fn city_at(&self, at: HexAt) -> Option<&City> {
        self.cell(at).and_then(|c| c.city.checked_sub(1)).map(|i| &self.cities[usize::from(i)])
    }

    /// The province a hex belongs to.
    pub fn province_at(&self, at: HexAt) -> Option<&Province> {
        self.cell(at).and_then(|c| c.province.checked_sub(1)).and_then(|i| self.provinces.get(usize::from(i)))
    }

    /// The sea area a hex belongs to.
    pub fn sea_area_at(&self, at: HexAt) -> Option<&SeaArea> {
        self.cell(at).and_then(|c| c.sea_area.checked_sub(1)).and_then(|i| self.sea_areas.get(usize::from(i)))
    }

    pub fn city_index(&self, id: &str) -> Option<usize> {
        self.cities.iter().position(|c| c.id == id)
    }

    pub fn province_index(&self, id: &str) -> Option<usize> {
        self.provinces.iter().position(|p| p.id == id)
    }

    /// Every hex in storage order.
    pub fn hexes(&self) -> impl Iterator<Item = HexAt> + '_ {
        (0..self.cells.len()).map(|i| self.at_index(i))
    }

    /// Sets a river (and its mirror on the neighbour) on hexside `side` of `at`.
    pub fn set_river(&mut self, at: HexAt, side: u8, bridge: bool) {
        let other = at.neighbour(side);
        let back = (side + 3) % 6;
        if let Some(c) = self.cell_mut(at) {
            c.rivers |= 1 << side;
            if bridge {
                c.bridges |= 1 << side;
            }
        }
        if let Some(c) = self.cell_mut(other) {
            c.rivers |= 1 << back;
            if bridge {
                c.bridges |= 1 << back;
            }
        }
    }

    /// A generated map for benchmarks and soak tests: every terrain in noise-like patches,
    /// river lines with bridges, road lines. Deterministic in `seed`.
    pub fn generate(width: u32, height: u32, seed: u64) -> HexMap {
        let mut map = HexMap::filled("generated", width, height, Terrain::Clear);
        let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Patches of terrain: blocks of 8×8 hexes, each picks one terrain.
        let palette = [
            Terrain::Clear,
            Terrain::Clear,
            Terrain::Clear,
            Terrain::Forest,
            Terrain::Forest,
            Terrain::Mountains,
            Terrain::Marsh,
            Terrain::Desert,
            Terrain::Northern,
            Terrain::Lake,
        ];
        let bw = width.div_ceil(8);
        let bh = height.div_ceil(8);
        let blocks: Vec<Terrain> = (0..bw * bh).map(|_| palette[(next() % palette.len() as u64) as usize]).collect();
        for i in 0..map.cells.len() {
            let at = map.at_index(i);
            let b = (at.row as u32 / 8) * bw + at.col as u32 / 8;
            let terrain = blocks[b as usize];
            map.cells[i] = HexCell { terrain, climate: Climate::of(terrain), ..HexCell::default() };
        }
        // Rivers every 40 columns (running north–south along the west side of a hex), a bridge every 10 rows;
        // roads every 30 rows.
        for col in (20..width as i32).step_by(40) {
            for row in 0..height as i32 {
                map.set_river(HexAt::new(col, row), 3, row % 10 == 0);
            }
        }
        for row in (15..height as i32).step_by(30) {
            for col in 0..width as i32 {
                if let Some(c) = map.cell_mut(HexAt::new(col, row)) {
                    c.flags |= flag::ROAD;
                }
            }
        }
        map
    }

    /// Builds the map from its file, checking every name and hex; errors point where the parser
    /// found the value.
    pub fn from_file(path: &str, text: &str, file: MapFile) -> Result<HexMap, DataError> {
        let err = |at: &[Step<'_>], msg: String| DataError::at(path, place(text, at), msg);
        if file.width == 0 || file.height == 0 {
            return Err(err(&path!["width"], "the map needs a width and a height of at least 1".into()));
        }
        HexMap::check_size(file.width, file.height)
            .map_err(|e| DataError::over_limit(path, place(text, &path!["width"]), e))?;
        // Also keeps the indices below u16::MAX, the hexes' storage.
        for (what, n) in
            [("provinces", file.provinces.len()), ("cities", file.cities.len()), ("sea_areas", file.sea_areas.len())]
        {
            Limit::ListEntries.check_len(n).map_err(|e| DataError::over_limit(path, place(text, &path![what]), e))?;
        }
        if file.rows.len() > file.height as usize {
            return Err(err(&path!["rows"], format!("{} rows for a map {} hexes high", file.rows.len(), file.height)));
        }
        let mut map = HexMap::filled(&file.name, file.width, file.height, file.terrain);
        for (r, line) in file.rows.iter().enumerate() {
            // The opening quote of the row string.
            let pos = || place(text, &path!["rows", r]);
            let runs = parse_terrain_row(line)
                .map_err(|(c, msg)| DataError::at(path, Pos { line: pos().line, col: pos().col + 1 + c }, msg))?;
            let total = runs.iter().try_fold(0u32, |acc, (n, _)| acc.checked_add(*n)).unwrap_or(u32::MAX);
            if total > file.width {
                return Err(DataError::at(
                    path,
                    pos(),
                    format!("row {r} has {total} hexes, the map is {} wide", file.width),
                ));
            }
            let base = r * file.width as usize;
            let mut c = 0usize;
            for (n, terrain) in runs {
                for cell in &mut map.cells[base + c..base + c + n as usize] {
                    *cell = HexCell { terrain, climate: Climate::of(terrain), ..*cell };
                }
                c += n as usize;
            }
        }
        let run_rows = |rows: &[String], what: &'static str, limit: usize| -> Result<Vec<(usize, u16)>, DataError> {
            if rows.len() > file.height as usize {
                return Err(err(&path![what], format!("{} rows for a map {} hexes high", rows.len(), file.height)));
            }
            let mut out = Vec::new();
            for (r, line) in rows.iter().enumerate() {
                let bad = |msg: String| DataError::at(path, place(text, &path![what, r]), msg);
                let runs = parse_runs(line).map_err(|m| bad(format!("{what} row {r}: {m}")))?;
                let mut c = 0u32;
                for (n, v) in runs {
                    if v as usize > limit {
                        return Err(bad(format!("{what} row {r}: number {v}, but the map lists {limit}")));
                    }
                    let end = c
                        .checked_add(n)
                        .filter(|e| *e <= file.width)
                        .ok_or_else(|| bad(format!("{what} row {r} runs past the map's width of {}", file.width)))?;
                    if v > 0 {
                        let base = r * file.width as usize;
                        out.extend((c..end).map(|col| (base + col as usize, v as u16)));
                    }
                    c = end;
                }
            }
            Ok(out)
        };
        if file.provinces.len() >= usize::from(u16::MAX) || file.sea_areas.len() >= usize::from(u16::MAX) {
            return Err(err(&path!["provinces"], "too many provinces or sea areas (at most 65,534)".into()));
        }
        for (i, v) in run_rows(&file.province_rows, "province_rows", file.provinces.len())? {
            if map.cells[i].terrain.is_water() {
                let at = map.at_index(i);
                return Err(err(&path!["province_rows"], format!("hex {at} of province {v} is water")));
            }
            map.cells[i].province = v;
        }
        for (i, v) in run_rows(&file.sea_area_rows, "sea_area_rows", file.sea_areas.len())? {
            if !map.cells[i].terrain.is_water() {
                let at = map.at_index(i);
                return Err(err(&path!["sea_area_rows"], format!("hex {at} of sea area {v} is land")));
            }
            map.cells[i].sea_area = v;
        }
        let side_of = |name: &str, at: HexAt, p: &[Step<'_>]| -> Result<u8, DataError> {
            SIDE_NAMES
                .iter()
                .position(|s| *s == name)
                .map(|i| i as u8)
                .ok_or_else(|| err(p, format!("hexside `{name}` of {at} is not one of E SE SW W NW NE")))
        };
        let check = |at: HexAt, map: &HexMap, p: &[Step<'_>]| -> Result<(), DataError> {
            if map.contains(at) {
                Ok(())
            } else {
                Err(err(p, format!("hex {at} is outside the {}×{} map", map.width, map.height)))
            }
        };
        for (i, (at, side)) in file.rivers.iter().enumerate() {
            check(*at, &map, &path!["rivers", i, 0])?;
            let s = side_of(side, *at, &path!["rivers", i, 1])?;
            map.set_river(*at, s, false);
        }
        for (i, (at, side)) in file.bridges.iter().enumerate() {
            check(*at, &map, &path!["bridges", i, 0])?;
            let s = side_of(side, *at, &path!["bridges", i, 1])?;
            if !map.cell(*at).is_some_and(|c| c.river_on(s)) {
                return Err(err(
                    &path!["bridges", i],
                    format!("the bridge on side {side} of {at} crosses no river (list the river first)"),
                ));
            }
            map.set_river(*at, s, true);
        }
        for (r, road) in file.roads.iter().enumerate() {
            for (i, at) in road.iter().enumerate() {
                check(*at, &map, &path!["roads", r, i])?;
                if i > 0 && !road[i - 1].is_adjacent(*at) {
                    return Err(err(
                        &path!["roads", r, i],
                        format!("road hexes {} and {at} are not adjacent", road[i - 1]),
                    ));
                }
                if let Some(c) = map.cell_mut(*at) {
                    c.flags |= flag::ROAD;
                }
            }
        }
        Limit::ListEntries
            .check_len(file.railways.len())
            .map_err(|e| DataError::over_limit(path, place(text, &path!["railways"]), e))?;
        for (r, line) in file.railways.iter().enumerate() {
            for (i, at) in line.iter().enumerate() {
                check(*at, &map, &path!["railways", r, i])?;
                if i > 0 && !line[i - 1].is_adjacent(*at) {
                    return Err(err(
                        &path!["railways", r, i],
                        format!("railway hexes {} and {at} are not adjacent", line[i - 1]),
                    ));
                }
                if !map.is_land(*at) {
                    return Err(err(&path!["railways", r, i], format!("railway hex {at} is water")));
                }
                if let Some(c) = map.cell_mut(*at) {
                    c.flags |= flag::RAIL;
                }
            }
        }
        for (z, (climate, hexes)) in file.climate.iter().enumerate() {
            for (i, at) in hexes.iter().enumerate() {
                check(*at, &map, &path!["climate", z, 1, i])?;
                if let Some(c) = map.cell_mut(*at) {
                    c.climate = *climate;
                }
            }
        }
        for (i, p) in file.provinces.iter().enumerate() {
            if file.provinces[..i].iter().any(|q| q.id == p.id) {
                return Err(err(&path!["provinces", i, "id"], format!("province `{}` is listed twice", p.id)));
            }
            if !file.cities.iter().any(|c| c.id == p.capital && c.province == p.id) {
                return Err(err(
                    &path!["provinces", i, "capital"],
                    format!("province `{}` names capital `{}`, which is no city of it", p.id, p.capital),
                ));
            }
        }
        for (i, city) in file.cities.iter().enumerate() {
            let province = file.provinces.iter().position(|p| p.id == city.province).ok_or_else(|| {
                err(
                    &path!["cities", i, "province"],
                    format!("city `{}` is in province `{}`, which the map does not list", city.id, city.province),
                )
            })?;
            if city.hexes.is_empty() {
                return Err(err(&path!["cities", i, "hexes"], format!("city `{}` has no hexes", city.id)));
            }
            for (j, at) in city.hexes.iter().enumerate() {
                check(*at, &map, &path!["cities", i, "hexes", j])?;
                if !map.is_land(*at) {
                    return Err(err(&path!["cities", i, "hexes", j], format!("city `{}` hex {at} is water", city.id)));
                }
                let listed = map.cell(*at).map_or(0, |c| c.province);
                if listed != 0 && listed != province as u16 + 1 {
                    let other = file.provinces.get(usize::from(listed) - 1).map_or("?", |p| p.id.as_str());
                    return Err(err(
                        &path!["cities", i, "hexes", j],
                        format!("city `{}` hex {at} lies in province `{other}`, not `{}`", city.id, city.province),
                    ));
                }
                if let Some(c) = map.cell_mut(*at) {
                    c.flags |= flag::CITY;
                    if city.port {
                        c.flags |= flag::PORT;
                    }
                    if city.fortress {
                        c.flags |= flag::FORTRESS;
                    }
                    // Both below u16::MAX: the lists are within the referee's limits.
                    c.city = i as u16 + 1;
                    c.province = province as u16 + 1;
                }
            }
        }
        for (i, area) in file.sea_areas.iter().enumerate() {
            for (j, at) in area.hexes.iter().enumerate() {
                check(*at, &map, &path!["sea_areas", i, "hexes", j])?;
                if map.is_land(*at) {
                    return Err(err(
                        &path!["sea_areas", i, "hexes", j],
                        format!("sea area `{}` hex {at} is land", area.id),
                    ));
                }
                if let Some(c) = map.cell_mut(*at) {
                    c.sea_area = i as u16 + 1;
                }
            }
        }
        map.provinces = file.provinces;
        map.cities = file.cities;
        map.sea_areas = file.sea_areas;
        map.projection = file.projection;
        Ok(map)
    }

    /// Parses a map file's text.
    pub fn parse(path: &str, text: &str) -> Result<HexMap, DataError> {
        let file: MapFile = parse_checked(path, text)?;
        HexMap::from_file(path, text, file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_and_axial_round_trip() {
        for row in -3..7 {
            for col in -3..7 {
                let at = HexAt::new(col, row);
                assert_eq!(HexAt::from_hex(at.hex()), at);
            }
        }
    }

    #[test]
    fn neighbours_are_at_distance_one_and_sides_mirror() {
        let at = HexAt::new(4, 5);
        for (d, n) in at.neighbours().into_iter().enumerate() {
            assert_eq!(at.distance(n), 1);
            assert_eq!(at.side_to(n), Some(d as u8));
            assert_eq!(n.side_to(at), Some(((d + 3) % 6) as u8));
        }
        // Odd rows are shifted east: (4,5)'s north-east neighbour is (5,4).
        assert_eq!(at.neighbour(5), HexAt::new(5, 4));
        assert_eq!(HexAt::new(4, 4).neighbour(5), HexAt::new(4, 3));
    }

    #[test]
    fn rivers_are_set_on_both_hexes() {
        let mut map = HexMap::filled("t", 5, 5, Terrain::Clear);
        let a = HexAt::new(2, 2);
        map.set_river(a, 0, true);
        let b = a.neighbour(0);
        assert!(map.river_between(a, b) && map.river_between(b, a));
        assert!(map.bridge_between(b, a));
    }

    #[test]
    fn bad_terrain_character_reports_its_place() {
        let text = "GreatWarMap(\n  name: \"x\",\n  width: 3,\n  height: 2,\n  rows: [\n    \"..q\",\n  ],\n)";
        let e = HexMap::parse("m.ron", text).unwrap_err();
        assert_eq!((e.line, e.col), (6, 8), "{e}");
        assert!(e.message.contains("`q`"), "{e}");
    }

    const PLACES: &str = "  provinces: [
    (id: \"a\", name: \"A\", owner: \"x\", capital: \"ca\"),
    (id: \"b\", name: \"B\", owner: \"y\", capital: \"cb\"),
  ],
  cities: [
    (id: \"ca\", name: \"CA\", province: \"a\", hexes: [(0, 0)]),
    (id: \"cb\", name: \"CB\", province: \"b\", hexes: [(2, 1)], port: true),
  ],
  sea_areas: [(id: \"s\", name: \"S\", hexes: [])],";

    fn map_text(rows: &str, extra: &str) -> String {
        format!("GreatWarMap(\n  name: \"x\",\n  width: 5,\n  height: 2,\n  rows: [{rows}],\n{PLACES}\n{extra}\n)")
    }

    #[test]
    fn repeat_counts_in_rows_read_like_the_plain_rows() {
        let plain = HexMap::parse("p.ron", &map_text("\"..ff~\", \"...~~\"", "")).unwrap();
        let runs = HexMap::parse("r.ron", &map_text("\"2.2f~\", \"3.2~\"", "")).unwrap();
        assert_eq!(plain, runs);
        assert_eq!(runs.terrain(HexAt::new(3, 0)), Some(Terrain::Forest));
        assert_eq!(runs.terrain(HexAt::new(4, 1)), Some(Terrain::Sea));
        // One hex too many, a count of 0 and a dangling count are errors.
        let e = HexMap::parse("r.ron", &map_text("\"3.2f~\"", "")).unwrap_err();
        assert!(e.message.contains("row 0 has 6 hexes, the map is 5 wide"), "{e}");
        let e = HexMap::parse("r.ron", &map_text("\"0.5f\"", "")).unwrap_err();
        assert!(e.message.contains("repeat count of 0"), "{e}");
        let e = HexMap::parse("r.ron", &map_text("\"4.\", \"5\"", "")).unwrap_err();
        assert!(e.message.contains("ends with a repeat count"), "{e}");
    }

    #[test]
    fn province_and_sea_area_rows_name_every_hex() {
        let rows = "\"...~~\", \"....~\"";
        let m = HexMap::parse(
            "m.ron",
            &map_text(rows, "province_rows: [\"2*1 1 \", \"2*1 2*2\"], sea_area_rows: [\"3*0 2*1\", \"4*0 1\"],"),
        )
        .unwrap();
        let prov = |c, r| m.province_at(HexAt::new(c, r)).map(|p| p.id.as_str());
        assert_eq!([prov(0, 0), prov(1, 0), prov(2, 0), prov(3, 0)], [Some("a"), Some("a"), Some("a"), None]);
        assert_eq!([prov(1, 1), prov(2, 1), prov(3, 1)], [Some("a"), Some("b"), Some("b")]);
        assert_eq!(m.sea_area_at(HexAt::new(4, 1)).map(|s| s.id.as_str()), Some("s"));
        assert_eq!(m.sea_area_at(HexAt::new(2, 0)), None);
        // A province on water, an area on land, a number past the list, a run past the width.
        let bad = |extra: &str| HexMap::parse("m.ron", &map_text(rows, extra)).unwrap_err().message;
        assert!(bad("province_rows: [\"4*1\"],").contains("hex (3, 0) of province 1 is water"));
        assert!(bad("sea_area_rows: [\"1\"],").contains("hex (0, 0) of sea area 1 is land"));
        assert!(bad("province_rows: [\"3\"],").contains("number 3, but the map lists 2"));
        assert!(bad("sea_area_rows: [\"3*0 3*1\"],").contains("runs past the map's width of 5"));
        // A city's hex painted into another province.
        assert!(bad("province_rows: [\"2\"],").contains("city `ca` hex (0, 0) lies in province `b`, not `a`"));
    }

    #[test]
    fn railways_are_chains_of_adjacent_land_hexes() {
        let rows = "\"...~~\", \"....~\"";
        let m = HexMap::parse("m.ron", &map_text(rows, "railways: [[(0, 0), (1, 0), (1, 1), (2, 1)]],")).unwrap();
        assert!(m.rail_between(HexAt::new(1, 0), HexAt::new(1, 1)));
        assert!(!m.rail_between(HexAt::new(0, 0), HexAt::new(2, 1)), "not adjacent");
        assert!(!m.cell(HexAt::new(3, 1)).unwrap().has(flag::RAIL));
        // Without railways the map reads, and writes, as before.
        let plain = HexMap::parse("m.ron", &map_text(rows, "")).unwrap();
        assert!(plain.hexes().all(|h| !plain.cell(h).unwrap().has(flag::RAIL)));
        let bad = |extra: &str| HexMap::parse("m.ron", &map_text(rows, extra)).unwrap_err().message;
        assert!(bad("railways: [[(0, 0), (2, 0)]],").contains("railway hexes (0, 0) and (2, 0) are not adjacent"));
        assert!(bad("railways: [[(2, 0), (3, 0)]],").contains("railway hex (3, 0) is water"));
        assert!(bad("railways: [[(2, 1), (2, 2)]],").contains("outside"));
    }

    /// A map of every kind of cell: terrain, climate, flags, rivers, bridges, places.
    fn varied(width: u32, height: u32) -> HexMap {
        let mut m = HexMap::filled("v", width, height, Terrain::Sea);
        let province = |id: &str| Province {
            id: id.into(),
            name: id.into(),
            name_ru: String::new(),
            owner: "x".into(),
            capital: "c".into(),
            gdp: 1,
            manpower: [1, 1],
        };
        m.provinces = vec![province("a"), province("b")];
        let (hexes, port, fortress) = (vec![HexAt::new(0, 0)], true, false);
        let (id, name, name_ru, province) = ("c".to_string(), "C".to_string(), String::new(), "a".to_string());
        m.cities = vec![City { id, name, name_ru, province, hexes, port, fortress }];
        m.sea_areas = vec![SeaArea { id: "s".into(), name: "S".into(), name_ru: String::new(), hexes: Vec::new() }];
        for (i, c) in m.cells.iter_mut().enumerate() {
            let k = i % 97;
            c.terrain = Terrain::ALL[k % 8];
            c.climate = Climate::ALL[(k / 8) % 4];
            c.flags = (k % 32) as u8;
            c.rivers = if k % 5 == 0 { 0b10_0101 } else { 0 };
            c.bridges = if k % 10 == 0 { 1 } else { 0 };
            c.province = (k % 3) as u16;
            c.city = u16::from(k == 7);
            c.sea_area = u16::from(k > 90);
        }
        m
    }

    #[test]
    fn terrain_and_climate_numbers_are_their_places() {
        for (i, t) in Terrain::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i);
        }
        for (i, c) in Climate::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
    }

    #[test]
    fn packed_cells_read_back_as_written() {
        let m = varied(31, 17);
        let packed = PackedCells::pack(&m.cells);
        assert_eq!(packed.unpack(m.cells.len()).unwrap(), m.cells);
        assert_eq!(PackedCells::pack(&HexMap::filled("s", 4, 3, Terrain::Sea).cells).terrain, "12*6");
    }

    #[test]
    fn a_map_above_the_threshold_is_saved_packed_and_reads_back_equal() {
        // 401 × 1,000 = 401,000 hexes, one more row than the threshold allows whole.
        let big = varied(401, 1_000);
        assert!(big.len() > PACKED_ABOVE_HEXES);
        let text = crate::data::to_ron(&big);
        assert!(text.contains("packed: PackedCells(") && !text.contains("cells:"), "written packed");
        assert!(text.len() < 4 * 1024 * 1024, "{} bytes", text.len());
        let back: HexMap = crate::data::parse_ron("big.ron", &text).unwrap();
        assert_eq!(back, big);
        // A map at the threshold keeps its cells whole (saves that could be read keep their text).
        let whole = HexMap::filled("w", 400, 1_000, Terrain::Clear);
        assert_eq!(whole.len(), PACKED_ABOVE_HEXES);
        let text = crate::data::to_ron(&whole);
        assert!(text.contains("cells: [") && !text.contains("packed"));
    }

    #[test]
    fn a_cell_written_whole_takes_at_least_min_cell_bytes() {
        // The shortest cell, in the most compact RON there is (no names, no spaces, no indent).
        let shortest = HexCell { terrain: Terrain::Sea, climate: Climate::North, ..HexCell::default() };
        let n = 1_000;
        let text = ron::to_string(&vec![shortest; n]).unwrap();
        assert!(text.len() as u64 >= MIN_CELL_BYTES * n as u64, "{} bytes for {n} cells", text.len());
        // So the cells of a map above the threshold alone exceed the file limit.
        assert!(PACKED_ABOVE_HEXES as u64 * MIN_CELL_BYTES > crate::limits::MAX_FILE_BYTES);
    }

    #[test]
    fn hostile_packed_cells_are_refused_with_the_field_named() {
        let good = PackedCells::pack(&varied(5, 4).cells);
        let with = |field: fn(&mut PackedCells) -> &mut String, text: &str| {
            let mut p = good.clone();
            *field(&mut p) = text.to_string();
            p.unpack(20).unwrap_err()
        };
        assert!(with(|p| &mut p.terrain, "21*0").contains("more values than the map's 20 hexes"));
        assert!(with(|p| &mut p.terrain, "19*0").contains("gives 19 values for the map's 20 hexes"));
        assert!(with(|p| &mut p.terrain, "19*0 8").contains("packed `terrain`: `8`: no value of this field"));
        assert!(with(|p| &mut p.climate, "20*4").contains("packed `climate`"));
        assert!(with(|p| &mut p.flags, "20*256").contains("no value of this field"));
        assert!(with(|p| &mut p.province, "0*1 20*0").contains("a run of no hexes"));
        assert!(with(|p| &mut p.city, "99999999999999999999*0").contains("not a number"));
        assert!(with(|p| &mut p.sea_area, "18446744073709551615*0 1").contains("more values"));
        // A packed map that also lists cells, and one whose hexes name a province it lacks.
        let m = varied(5, 4);
        let text = crate::data::to_ron(&m)
            .replace("cells: [", &format!("packed: {},\n  cells: [", crate::data::to_ron(&good)));
        let e = crate::data::parse_ron::<HexMap>("m.ron", &text).unwrap_err();
        assert!(e.message.contains("both `cells` and `packed`"), "{e}");
        let mut p = good.clone();
        p.province = "20*3".into();
        let cells = p.unpack(20).unwrap();
        let raw = HexMapRaw {
            name: "m".into(),
            width: 5,
            height: 4,
            cells: Vec::new(),
            packed: Some(PackedCells::pack(&cells)),
            provinces: m.provinces.clone(),
            cities: m.cities.clone(),
            sea_areas: m.sea_areas.clone(),
            projection: None,
        };
        assert!(HexMap::try_from(raw).unwrap_err().contains("names a province"));
    }

    #[test]
    fn the_projection_travels_with_the_map() {
        let extra =
            "projection: Some((origin: (52, 15), parallels: (35, 65), radius_km: 6371, hex_km: 5, corner_km: (0, 0))),";
        let m = HexMap::parse("m.ron", &map_text("\"5.\", \"5.\"", extra)).unwrap();
        let p = m.projection.unwrap();
        assert_eq!(p.hex_km, 5);
        assert_eq!(p.hex_of(52.0, 15.0), HexAt::new(0, 0));
    }
}
