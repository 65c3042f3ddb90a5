//! Campaign maps of the Napoleonic campaign layer (`CampaignMap(..)`, rules digest T-STRAT) built
//! by the same tool and from the same inputs as the 1914 map, at a campaign scale: Natural Earth
//! land (the rest is sea), the terrain areas of `terrain_1914.ron` and of the campaign's frame
//! (forest → forest, marsh → marsh, mountains and uplands → hills, lakes and sea → water, by the
//! hex's centre), the rivers of `rivers_1914.ron` it names and its own, and its places.
//!
//! A river runs along the hexsides whose two hex centres it separates (the segment between the
//! centres crosses the river's line on the projected plane); a hexside is a ford (a bridge or
//! crossing point of the period) when one of its hexes holds a crossing point of the frame.
//! Deterministic: no hash-map order, the floating-point steps in one fixed order.

use crate::features::RiverRow;
use crate::{Frame, LatLon, TerrainArea, fill};
use rules::strategic::geo::GeoProjection;
use rules::strategic::hexmap::{HexAt, Terrain};
use serde::Deserialize;
use std::fmt::Write as _;

/// What a place is on the campaign map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum PlaceKind {
    /// A town: a village on the battlefield (T-TERR).
    Village,
    /// A town with walls or works: a fortress battle (T-FORT).
    Fortress,
    /// A name only (a height, a field).
    Name,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceRow {
    pub name: String,
    pub name_ru: String,
    pub at: LatLon,
    pub kind: PlaceKind,
}

/// A campaign map's frame (`maps/data/campaign_*.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "CampaignFrame")]
pub struct CampaignFrame {
    pub name: String,
    /// The map file, from the repository root.
    pub file: String,
    pub width: u32,
    pub height: u32,
    pub projection: GeoProjection,
    /// The map file's header comment.
    pub header: Vec<String>,
    /// Ids of `rivers_1914.ron` that run on this map.
    #[serde(default)]
    pub rivers_1914: Vec<String>,
    /// Rivers of this map alone.
    #[serde(default)]
    pub rivers: Vec<RiverRow>,
    /// Bridges and crossing points: the river sides of their hexes are fords.
    #[serde(default)]
    pub crossings: Vec<LatLon>,
    /// Terrain areas of this map, painted after those of `terrain_1914.ron`.
    #[serde(default)]
    pub areas: Vec<TerrainArea>,
    pub places: Vec<PlaceRow>,
}

/// The hexsides E, SE and SW of every hex, by index in `HexAt::neighbour`.
const EAST_SIDES: [(u8, &str); 3] = [(0, "E"), (1, "SE"), (2, "SW")];

fn ground_char(t: Terrain) -> char {
    match t {
        Terrain::Forest => 'f',
        Terrain::Mountains => 'h',
        Terrain::Marsh => 's',
        Terrain::Sea | Terrain::Lake => '~',
        Terrain::Clear | Terrain::Desert | Terrain::Northern => '.',
    }
}

/// Whether segments ab and cd cross (touching does not count).
fn cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |o: (f64, f64), u: (f64, f64), v: (f64, f64)| (u.0 - o.0) * (v.1 - o.1) - (u.1 - o.1) * (v.0 - o.0);
    orient(a, b, c) * orient(a, b, d) < 0.0 && orient(c, d, a) * orient(c, d, b) < 0.0
}

/// Writes the campaign map of `frame` from Natural Earth `land` (rings of (longitude, latitude)),
/// the 1914 terrain areas and rivers.
pub fn build(
    frame: &CampaignFrame,
    land: &[crate::topo::Ring],
    terrain_1914: &[TerrainArea],
    rivers_1914: &[RiverRow],
) -> Result<String, String> {
    let p = &frame.projection;
    let (w, h) = (frame.width as usize, frame.height as usize);
    if w == 0 || h == 0 || w > 1000 || h > 1000 {
        return Err(format!("{}: a campaign map is 1 to 1000 hexes a side", frame.file));
    }
    let grid = Frame {
        name: frame.name.clone(),
        width: frame.width,
        height: frame.height,
        projection: *p,
        header: Vec::new(),
    };
    let mut terrain = vec![Terrain::Sea; w * h];
    let (lat0, lon0) = p.latlon_of(HexAt::new(0, 0));
    let (lat1, lon1) = p.latlon_of(HexAt::new(frame.width as i32 - 1, frame.height as i32 - 1));
    let near = |lon: f64, lat: f64| {
        (lon0.min(lon1) - 10.0..=lon0.max(lon1) + 10.0).contains(&lon)
            && (lat0.min(lat1) - 10.0..=lat0.max(lat1) + 10.0).contains(&lat)
    };
    let rings: Vec<Vec<LatLon>> = land
        .iter()
        .filter(|ring| ring.iter().any(|(lon, lat)| near(*lon, *lat)))
        .map(|ring| ring.iter().map(|(lon, lat)| (*lat, *lon)).collect())
        .collect();
    fill(&grid, &rings, |i| terrain[i] = Terrain::Clear);
    for area in terrain_1914.iter().chain(&frame.areas).filter(|a| !a.line) {
        fill(&grid, std::slice::from_ref(&area.points), |i| {
            if area.terrain == Terrain::Lake || !terrain[i].is_water() {
                terrain[i] = area.terrain;
            }
        });
    }
    let inside = |at: HexAt| at.col >= 0 && at.row >= 0 && (at.col as usize) < w && (at.row as usize) < h;
    let index = |at: HexAt| at.row as usize * w + at.col as usize;
    let mut places = Vec::new();
    for place in &frame.places {
        let at = p.hex_of(place.at.0, place.at.1);
        if !inside(at) {
            return Err(format!("{}: {} at {:?} is off the map ({at})", frame.file, place.name, place.at));
        }
        if let Some((_, other, _)) = places.iter().find(|(h, _, _)| *h == at) {
            return Err(format!("{}: {} and {other} fall in one hex {at}", frame.file, place.name));
        }
        // A town stands on land: a coastal town's hex is land whatever its centre.
        if terrain[index(at)].is_water() || terrain[index(at)] == Terrain::Marsh {
            terrain[index(at)] = Terrain::Clear;
        }
        places.push((at, place.name.clone(), place));
    }
    let mut rivers: Vec<&RiverRow> = Vec::new();
    for id in &frame.rivers_1914 {
        let r = rivers_1914
            .iter()
            .find(|r| &r.id == id)
            .ok_or_else(|| format!("{}: no river `{id}` in rivers_1914.ron", frame.file))?;
        rivers.push(r);
    }
    rivers.extend(&frame.rivers);
    let fords: Vec<HexAt> = frame.crossings.iter().map(|(lat, lon)| p.hex_of(*lat, *lon)).collect();
    let mut sides: Vec<(HexAt, &str, bool, &str)> = Vec::new();
    for river in &rivers {
        let line: Vec<(f64, f64)> = river.points.iter().map(|(lat, lon)| p.project(*lat, *lon)).collect();
        for row in 0..h {
            for col in 0..w {
                let at = HexAt::new(col as i32, row as i32);
                for (dir, side) in EAST_SIDES {
                    let n = at.neighbour(dir);
                    if !inside(n) || terrain[index(at)].is_water() || terrain[index(n)].is_water() {
                        continue;
                    }
                    let (a, b) = (p.hex_centre(at), p.hex_centre(n));
                    if line.windows(2).any(|s| cross(a, b, s[0], s[1]))
                        && !sides.iter().any(|x| x.0 == at && x.1 == side)
                    {
                        let ford = fords.contains(&at) || fords.contains(&n);
                        sides.push((at, side, ford, river.name.as_str()));
                    }
                }
            }
        }
    }
    let mut s = String::new();
    for line in &frame.header {
        let _ = writeln!(s, "// {line}");
    }
    let _ = writeln!(s, "// Ground: . open country  f forest  h hills  s marsh  ~ sea or lake.");
    let _ = writeln!(s, "CampaignMap(\n  name: {:?},\n  rows: [", frame.name);
    for row in terrain.chunks(w) {
        let _ = writeln!(s, "    \"{}\",", row.iter().map(|t| ground_char(*t)).collect::<String>());
    }
    let _ = writeln!(s, "  ],\n  rivers: [");
    let mut last = "";
    for (at, side, ford, name) in &sides {
        if *name != last {
            let _ = writeln!(s, "    // {name}");
            last = name;
        }
        let ford = if *ford { ", ford: true" } else { "" };
        let _ = writeln!(s, "    (at: ({}, {}), side: \"{side}\"{ford}),", at.col, at.row);
    }
    let list = |kind: PlaceKind| {
        places
            .iter()
            .filter(|(_, _, p)| p.kind == kind)
            .map(|(at, _, _)| format!("({}, {})", at.col, at.row))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        s,
        "  ],\n  villages: [{}],\n  fortresses: [{}],\n  places: [",
        list(PlaceKind::Village),
        list(PlaceKind::Fortress)
    );
    for (at, name, place) in &places {
        let _ = writeln!(s, "    (at: ({}, {}), name: {name:?}, name_ru: {:?}),", at.col, at.row, place.name_ru);
    }
    let _ = writeln!(s, "  ],\n)");
    Ok(s)
}
