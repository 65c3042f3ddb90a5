//! Builds the Great War map of Europe from Natural Earth land (TopoJSON) and hand-made 1914 tables.
//!
//! Deterministic: the same inputs give a byte-identical map (no hash-map order, no clock, no
//! threads; floating-point steps run in one fixed order).
//!
//! Steps: (1) every hex whose centre lies on Natural Earth land is land, the rest sea (even–odd
//! scanline fill of the projected rings, one scan per hex row); (2) terrain polygons of the data
//! (mountains, forests, marshes, lakes) paint the hexes whose centres they hold, in file order;
//! (3) each land hex goes to the province of its nearest seed point (capital or boundary seed,
//! distance on the projected plane); (4) cities take their hex (the nearest land hex to their
//! latitude and longitude) and, when larger, the nearest land hexes around it, all in their province;
//! (5) sea areas take the sea hexes nearest their seeds by sea; (6) roads and railways become chains
//! of adjacent land hexes between their places; (7) rivers become the hexsides between the hexes on
//! their two banks, cities keeping to one bank; (8) bridges go where a road or railway crosses a river
//! and on the river sides of cities. The full map and its theatre cuts are written from one build.

pub mod campaign;
pub mod features;
pub mod names;
pub mod oob;
pub mod topo;

use features::{RiverRow, Routes, SeaAreaRow};

use rules::strategic::geo::GeoProjection;
use rules::strategic::hexmap::{HexAt, Terrain};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// A point in degrees: (latitude, longitude).
pub type LatLon = (f64, f64);

/// The map's frame: projection and size (`maps/data/frame_1914.ron`).
#[derive(Clone, Debug, Deserialize)]
pub struct Frame {
    pub name: String,
    pub width: u32,
    pub height: u32,
    pub projection: GeoProjection,
    /// Lines of the map file's header comment (sources and licences).
    #[serde(default)]
    pub header: Vec<String>,
}

/// One power's house factors (`maps/data/powers_1914.ron`).
#[derive(Clone, Debug, Deserialize)]
pub struct PowerRow {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    /// GDP per head in 1913, 1990 international dollars (Maddison Project), rounded.
    pub gdp_per_head: u32,
    /// Class-1 and class-2 manpower points per million inhabitants (house values).
    pub manpower_per_million: [u32; 2],
}

/// One 1914 province (`maps/data/provinces_1914.ron`).
#[derive(Clone, Debug, Deserialize)]
pub struct ProvinceRow {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    pub owner: String,
    /// City id of its capital (listed in the cities table).
    pub capital: String,
    /// Population about 1910, thousands (census figures, rounded).
    pub population_k: u32,
    /// GDP per head where the region's own figure differs from its owner's (Maddison, 1913).
    #[serde(default)]
    pub gdp_per_head: Option<u32>,
    /// Extra seed points besides the capital, placed so that nearest-seed borders follow 1914's.
    #[serde(default)]
    pub seeds: Vec<LatLon>,
}

/// One city (`maps/data/cities_1914.ron`).
#[derive(Clone, Debug, Deserialize)]
pub struct CityRow {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    pub province: String,
    pub at: LatLon,
    /// Hexes: 1 for most, more for the largest cities.
    #[serde(default = "one")]
    pub size: u32,
    #[serde(default)]
    pub port: bool,
    #[serde(default)]
    pub fortress: bool,
}

fn one() -> u32 {
    1
}

/// A terrain polygon (`maps/data/terrain_1914.ron`).
#[derive(Clone, Debug, Deserialize)]
pub struct TerrainArea {
    pub name: String,
    pub terrain: Terrain,
    pub points: Vec<LatLon>,
    /// The points are a line, not an outline: every hex it passes through takes the terrain, water
    /// included (straits narrower than a hex: the Bosporus, the Dardanelles).
    #[serde(default)]
    pub line: bool,
}

/// Every hex a polyline passes through, in order (samples every 500 m, so no hex is skipped).
fn line_hexes(p: &GeoProjection, points: &[LatLon]) -> Vec<HexAt> {
    let mut out: Vec<HexAt> = Vec::new();
    let projected: Vec<(f64, f64)> = points.iter().map(|(lat, lon)| p.project(*lat, *lon)).collect();
    for pair in projected.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let steps = ((x1 - x0).hypot(y1 - y0) / 500.0).ceil().max(1.0) as u32;
        for k in 0..=steps {
            let t = f64::from(k) / f64::from(steps);
            let at = p.hex_of_xy(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
            if out.last() != Some(&at) {
                out.push(at);
            }
        }
    }
    out
}

/// Everything the map is built from.
pub struct Inputs {
    pub frame: Frame,
    /// Natural Earth land rings as (longitude, latitude).
    pub land: Vec<topo::Ring>,
    pub powers: Vec<PowerRow>,
    pub provinces: Vec<ProvinceRow>,
    pub cities: Vec<CityRow>,
    pub terrain: Vec<TerrainArea>,
    pub seas: Vec<SeaAreaRow>,
    pub rivers: Vec<RiverRow>,
    pub routes: Routes,
    pub cuts: Vec<CutRow>,
}

/// A theatre cut (`maps/data/cuts_1914.ron`): the hexes of the full map that cover a box of
/// latitude and longitude, written to their own file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutRow {
    /// File name, in the folder of the full map.
    pub file: String,
    pub name: String,
    /// Southern and northern latitude.
    pub lat: (f64, f64),
    /// Western and eastern longitude.
    pub lon: (f64, f64),
}

/// The built map, before writing.
pub struct Built {
    pub terrain: Vec<Terrain>,
    /// Province number (1-based) of every hex, 0 for none.
    pub province: Vec<u16>,
    /// Hexes of every city, in city order.
    pub city_hexes: Vec<Vec<HexAt>>,
    /// Sea area number (1-based) of every hex, 0 for none.
    pub sea_area: Vec<u16>,
    /// River hexsides, each once (sides E, SE, SW), and those of them that a bridge crosses.
    pub rivers: BTreeSet<(HexAt, u8)>,
    pub bridges: BTreeSet<(HexAt, u8)>,
    pub roads: Vec<Vec<HexAt>>,
    pub railways: Vec<Vec<HexAt>>,
}

/// Even–odd fill: every hex whose centre lies inside an odd number of the rings.
pub(crate) fn fill(frame: &Frame, rings: &[Vec<LatLon>], mut paint: impl FnMut(usize)) {
    let p = &frame.projection;
    let (w, h) = (frame.width as usize, frame.height as usize);
    // Crossings of every row's centre line, bucketed by row.
    let mut crossings: Vec<Vec<f64>> = vec![Vec::new(); h];
    let row_y = |r: usize| p.hex_centre(HexAt::new(0, r as i32)).1;
    let row_h = f64::from(p.hex_km) * 1000.0 * 0.866_025_403_784_438_6;
    let top = f64::from(p.corner_km.1) * 1000.0;
    for ring in rings {
        let pts: Vec<(f64, f64)> = ring.iter().map(|(lat, lon)| p.project(*lat, *lon)).collect();
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let (lo, hi) = if a.1 < b.1 { (a.1, b.1) } else { (b.1, a.1) };
            // Rows whose centre line y satisfies lo <= y < hi.
            let first = ((top - hi) / row_h).ceil().max(0.0);
            let last = ((top - lo) / row_h).floor().min(h as f64 - 1.0);
            if first.is_nan() || last.is_nan() || first > last {
                continue;
            }
            let rows = crossings.iter_mut().enumerate().take(last as usize + 1).skip(first as usize);
            for (r, xs) in rows {
                let y = row_y(r);
                if y >= lo && y < hi {
                    xs.push(a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1));
                }
            }
        }
    }
    for (r, xs) in crossings.iter_mut().enumerate() {
        xs.sort_by(f64::total_cmp);
        let mut k = 0;
        for c in 0..w {
            let x = p.hex_centre(HexAt::new(c as i32, r as i32)).0;
            while k < xs.len() && xs[k] < x {
                k += 1;
            }
            if k % 2 == 1 {
                paint(r * w + c);
            }
        }
    }
}

/// Builds the hexes.
pub fn build(inputs: &Inputs) -> Result<Built, String> {
    let frame = &inputs.frame;
    let p = &frame.projection;
    let (w, h) = (frame.width as usize, frame.height as usize);
    let n = w.checked_mul(h).ok_or("the map is too large")?;
    let mut terrain = vec![Terrain::Sea; n];
    let land: Vec<Vec<LatLon>> = inputs
        .land
        .iter()
        .filter(|ring| ring.iter().any(|(lon, lat)| (-45.0..=75.0).contains(lon) && (20.0..=85.0).contains(lat)))
        .map(|ring| ring.iter().map(|(lon, lat)| (*lat, *lon)).collect())
        .collect();
    fill(frame, &land, |i| terrain[i] = Terrain::Clear);
    for area in &inputs.terrain {
        if area.line {
            for at in line_hexes(p, &area.points) {
                if at.col >= 0 && at.row >= 0 && (at.col as usize) < w && (at.row as usize) < h {
                    terrain[at.row as usize * w + at.col as usize] = area.terrain;
                }
            }
            continue;
        }
        let ring = std::slice::from_ref(&area.points);
        fill(frame, ring, |i| {
            // Lakes may cover land; other terrain only changes land.
            if area.terrain == Terrain::Lake || !terrain[i].is_water() {
                terrain[i] = area.terrain;
            }
        });
    }
    // Seeds: every province's capital and boundary seeds, projected.
    let mut seeds: Vec<(f64, f64, u16)> = Vec::new();
    for (i, prov) in inputs.provinces.iter().enumerate() {
        let number = u16::try_from(i + 1).map_err(|_| "too many provinces")?;
        let capital =
            inputs.cities.iter().find(|c| c.id == prov.capital && c.province == prov.id).ok_or_else(|| {
                format!("province `{}` names capital `{}`, which is no city of it", prov.id, prov.capital)
            })?;
        for (lat, lon) in std::iter::once(&capital.at).chain(&prov.seeds) {
            let (x, y) = p.project(*lat, *lon);
            seeds.push((x, y, number));
        }
    }
    if seeds.is_empty() {
        return Err("no provinces".into());
    }
    let mut province = vec![0u16; n];
    for i in 0..n {
        if terrain[i].is_water() {
            continue;
        }
        let (x, y) = p.hex_centre(HexAt::new((i % w) as i32, (i / w) as i32));
        let mut best = (f64::INFINITY, 0u16);
        for (sx, sy, number) in &seeds {
            let d = (sx - x) * (sx - x) + (sy - y) * (sy - y);
            if d < best.0 {
                best = (d, *number);
            }
        }
        province[i] = best.1;
    }
    let mut city_hexes = Vec::new();
    let mut taken = vec![false; n];
    for city in &inputs.cities {
        let number = inputs
            .provinces
            .iter()
            .position(|q| q.id == city.province)
            .ok_or_else(|| format!("city `{}` is in province `{}`, which is not listed", city.id, city.province))?;
        let centre = p.hex_of(city.at.0, city.at.1);
        let (cx, cy) = p.project(city.at.0, city.at.1);
        // Candidates: free land hexes within 6 hexes, nearest first (ties by row, then column).
        let mut near: Vec<(f64, HexAt)> = Vec::new();
        for dr in -6..=6 {
            for dc in -6..=6 {
                let at = HexAt::new(centre.col + dc, centre.row + dr);
                if at.col < 0 || at.row < 0 || at.col as usize >= w || at.row as usize >= h {
                    continue;
                }
                let i = at.row as usize * w + at.col as usize;
                if terrain[i].is_water() || taken[i] {
                    continue;
                }
                let (x, y) = p.hex_centre(at);
                near.push(((x - cx).hypot(y - cy), at));
            }
        }
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // The city's own hex is the hex of its coordinates: where the coast at 5 km puts that hex in
        // the sea (a port on the shore, an island smaller than a hex), the hex becomes land.
        let inside = centre.col >= 0 && centre.row >= 0 && (centre.col as usize) < w && (centre.row as usize) < h;
        if inside {
            let i = centre.row as usize * w + centre.col as usize;
            if terrain[i].is_water() && !taken[i] {
                // The land terrain around it (Archangel's northern climate), else clear.
                let around = centre.neighbours().into_iter().find_map(|n| {
                    let inside = n.col >= 0 && n.row >= 0 && (n.col as usize) < w && (n.row as usize) < h;
                    inside.then(|| terrain[n.row as usize * w + n.col as usize]).filter(|t| !t.is_water())
                });
                terrain[i] = around.unwrap_or(Terrain::Clear);
                near.insert(0, (0.0, centre));
            }
        }
        let first = near.first().ok_or_else(|| format!("city `{}` has no land hex near {:?}", city.id, city.at))?.1;
        // The city grows from its first hex through adjacent free land, nearest first.
        let mut hexes = vec![first];
        while hexes.len() < city.size as usize {
            let next = near.iter().find(|(_, at)| !hexes.contains(at) && hexes.iter().any(|hx| hx.is_adjacent(*at)));
            match next {
                Some((_, at)) => hexes.push(*at),
                None => break,
            }
        }
        for at in &hexes {
            let i = at.row as usize * w + at.col as usize;
            taken[i] = true;
            province[i] = (number + 1) as u16;
        }
        city_hexes.push(hexes);
    }
    let sea_area = features::sea_areas(frame, &terrain, &inputs.seas)?;
    // Roads and railways run between the first hexes of their cities.
    let place = |id: &str| {
        inputs
            .cities
            .iter()
            .position(|c| c.id == id)
            .and_then(|i| city_hexes[i].first().copied())
            .or_else(|| inputs.routes.waypoints.iter().find(|w| w.id == id).map(|w| p.hex_of(w.at.0, w.at.1)))
    };
    let mut roads = Vec::new();
    for route in &inputs.routes.roads {
        roads.extend(features::route_chains(frame, &terrain, route, place)?);
    }
    let mut railways = Vec::new();
    for route in &inputs.routes.railways {
        railways.extend(features::route_chains(frame, &terrain, route, place)?);
    }
    let mut rivers = BTreeSet::new();
    let city_points: Vec<(LatLon, Vec<HexAt>)> =
        inputs.cities.iter().zip(&city_hexes).map(|(c, h)| (c.at, h.clone())).collect();
    for river in &inputs.rivers {
        if river.points.len() < 2 {
            return Err(format!("river `{}` needs at least two points", river.id));
        }
        rivers.extend(features::river_sides(frame, &terrain, river, &city_points));
    }
    // Bridges: where a road or railway crosses a river, and on every river side of a city hex.
    let mut bridges = BTreeSet::new();
    for chain in roads.iter().chain(&railways) {
        for pair in chain.windows(2) {
            if let Some(side) = pair[0].side_to(pair[1]) {
                let key = features::normal_side(pair[0], side);
                if rivers.contains(&key) {
                    bridges.insert(key);
                }
            }
        }
    }
    for at in city_hexes.iter().flatten() {
        for side in 0..6 {
            let key = features::normal_side(*at, side);
            if rivers.contains(&key) {
                bridges.insert(key);
            }
        }
    }
    Ok(Built { terrain, province, city_hexes, sea_area, rivers, bridges, roads, railways })
}

fn terrain_char(t: Terrain) -> char {
    match t {
        Terrain::Clear => '.',
        Terrain::Forest => 'f',
        Terrain::Mountains => 'm',
        Terrain::Desert => 'd',
        Terrain::Northern => 'n',
        Terrain::Marsh => 's',
        Terrain::Sea => '~',
        Terrain::Lake => 'l',
    }
}

fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        if ch == '"' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('"');
    out
}

/// GDP (house points: billions of 1990 international dollars) and manpower of a province.
pub fn economy(prov: &ProvinceRow, powers: &[PowerRow]) -> Result<(u32, [u32; 2]), String> {
    let power = powers
        .iter()
        .find(|p| p.id == prov.owner)
        .ok_or_else(|| format!("province `{}` belongs to `{}`, which the powers table lacks", prov.id, prov.owner))?;
    let pop = u64::from(prov.population_k);
    let per_head = prov.gdp_per_head.unwrap_or(power.gdp_per_head);
    let gdp = (pop * u64::from(per_head) + 500_000) / 1_000_000;
    let man = |k: u32| (pop * u64::from(k) + 500) / 1000;
    let fit = |v: u64| u32::try_from(v).map_err(|_| format!("province `{}`: numbers too large", prov.id));
    Ok((fit(gdp.max(1))?, [fit(man(power.manpower_per_million[0]))?, fit(man(power.manpower_per_million[1]))?]))
}

/// The hexes a map file covers: all of the frame, or a theatre cut of it.
#[derive(Clone, Debug)]
pub struct Window {
    pub name: String,
    /// The full map's hex that is the file's hex (0, 0); its row is even.
    pub first: HexAt,
    pub width: u32,
    pub height: u32,
    /// Extra header lines.
    pub header: Vec<String>,
}

impl Window {
    /// The whole frame.
    pub fn full(frame: &Frame) -> Window {
        Window {
            name: frame.name.clone(),
            first: HexAt::new(0, 0),
            width: frame.width,
            height: frame.height,
            header: Vec::new(),
        }
    }

    /// The hexes of the frame that cover a cut's box of latitude and longitude (its edges sampled
    /// every 0.05°, as the conic's parallels are curves).
    pub fn cut(frame: &Frame, cut: &CutRow) -> Result<Window, String> {
        let p = &frame.projection;
        let (mut c0, mut r0, mut c1, mut r1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        let steps = 200;
        for k in 0..=steps {
            let f = f64::from(k) / f64::from(steps);
            let lat = cut.lat.0 + (cut.lat.1 - cut.lat.0) * f;
            let lon = cut.lon.0 + (cut.lon.1 - cut.lon.0) * f;
            for (la, lo) in [(lat, cut.lon.0), (lat, cut.lon.1), (cut.lat.0, lon), (cut.lat.1, lon)] {
                let at = p.hex_of(la, lo);
                (c0, r0, c1, r1) = (c0.min(at.col), r0.min(at.row), c1.max(at.col), r1.max(at.row));
            }
        }
        // An even first row keeps the odd rows shifted east, as in the full map.
        r0 -= r0 & 1;
        let (c0, r0) = (c0.max(0), r0.max(0));
        let (c1, r1) = (c1.min(frame.width as i32 - 1), r1.min(frame.height as i32 - 1));
        if c0 > c1 || r0 > r1 {
            return Err(format!("cut `{}` lies off the map", cut.file));
        }
        Ok(Window {
            name: cut.name.clone(),
            first: HexAt::new(c0, r0),
            width: (c1 - c0 + 1) as u32,
            height: (r1 - r0 + 1) as u32,
            header: vec![format!(
                "Theatre cut of europe_1914.ron: lat {}..{}, lon {}..{}; its hex (0, 0) is the full map's ({}, {}).",
                cut.lat.0, cut.lat.1, cut.lon.0, cut.lon.1, c0, r0
            )],
        })
    }

    fn holds(&self, at: HexAt) -> bool {
        let (c, r) = (at.col - self.first.col, at.row - self.first.row);
        c >= 0 && r >= 0 && (c as u32) < self.width && (r as u32) < self.height
    }

    /// The file's coordinates of a full-map hex.
    fn local(&self, at: HexAt) -> HexAt {
        HexAt::new(at.col - self.first.col, at.row - self.first.row)
    }

    /// Full-map indices of one of the window's rows.
    fn row(&self, frame: &Frame, r: u32) -> std::ops::Range<usize> {
        let start = (self.first.row as usize + r as usize) * frame.width as usize + self.first.col as usize;
        start..start + self.width as usize
    }
}

/// Writes `COUNT*N` runs of a row of numbers (trailing zeros left out).
fn write_runs(s: &mut String, row: &[u16]) {
    let end = row.iter().rposition(|v| *v != 0).map_or(0, |e| e + 1);
    let mut parts = Vec::new();
    let mut i = 0;
    while i < end {
        let v = row[i];
        let run = row[i..end].iter().take_while(|x| **x == v).count();
        parts.push(if run > 1 { format!("{run}*{v}") } else { v.to_string() });
        i += run;
    }
    let _ = writeln!(s, "    \"{}\",", parts.join(" "));
}

/// Writes hex chains, one a line.
fn write_chains(s: &mut String, what: &str, chains: &[Vec<HexAt>]) {
    let _ = writeln!(s, "  {what}: [");
    for chain in chains {
        let list: Vec<String> = chain.iter().map(|h| format!("({},{})", h.col, h.row)).collect();
        let _ = writeln!(s, "    [{}],", list.join(","));
    }
    let _ = writeln!(s, "  ],");
}

/// Splits chains into the runs of hexes inside a window, in its coordinates.
fn clip_chains(window: &Window, chains: &[Vec<HexAt>]) -> Vec<Vec<HexAt>> {
    let mut out = Vec::new();
    for chain in chains {
        let mut run: Vec<HexAt> = Vec::new();
        for at in chain {
            if window.holds(*at) {
                run.push(window.local(*at));
            } else if !run.is_empty() {
                out.push(std::mem::take(&mut run));
            }
        }
        out.push(run);
    }
    out.retain(|c| c.len() > 1);
    out
}

/// Writes the map file of a window.
pub fn write(inputs: &Inputs, built: &Built, window: &Window) -> Result<String, String> {
    let frame = &inputs.frame;
    let p = &frame.projection;
    let mut s = String::new();
    for line in frame.header.iter().chain(&window.header) {
        let _ = writeln!(s, "// {line}");
    }
    // Provinces with land in the window keep their order; a province whose capital lies outside
    // takes its first city inside as capital, and one without any city inside is merged below.
    let rows: Vec<std::ops::Range<usize>> = (0..window.height).map(|r| window.row(frame, r)).collect();
    let mut present = vec![false; inputs.provinces.len() + 1];
    let mut seas_present = vec![false; inputs.seas.len() + 1];
    for range in &rows {
        for i in range.clone() {
            present[usize::from(built.province[i])] = true;
            seas_present[usize::from(built.sea_area[i])] = true;
        }
    }
    let cities: Vec<(usize, Vec<HexAt>)> = built
        .city_hexes
        .iter()
        .enumerate()
        .map(|(i, hexes)| (i, hexes.iter().filter(|h| window.holds(**h)).map(|h| window.local(*h)).collect()))
        .filter(|(_, hexes): &(usize, Vec<HexAt>)| !hexes.is_empty())
        .collect();
    let mut provinces: Vec<(usize, String)> = Vec::new();
    let mut number = vec![0u16; inputs.provinces.len() + 1];
    for (i, prov) in inputs.provinces.iter().enumerate() {
        if !present[i + 1] {
            continue;
        }
        let kept = |id: &str| cities.iter().any(|(c, _)| inputs.cities[*c].id == id);
        let capital = if kept(&prov.capital) {
            Some(prov.capital.clone())
        } else {
            cities.iter().map(|(c, _)| &inputs.cities[*c]).find(|c| c.province == prov.id).map(|c| c.id.clone())
        };
        if let Some(capital) = capital {
            provinces.push((i, capital));
            number[i + 1] = u16::try_from(provinces.len()).map_err(|_| "too many provinces")?;
        }
    }
    // A province left out (its land at the cut's edge, its cities outside) joins the kept province of
    // the same owner whose city inside lies nearest its capital, so every land hex keeps its owner.
    for (i, prov) in inputs.provinces.iter().enumerate() {
        if !present[i + 1] || number[i + 1] != 0 {
            continue;
        }
        let Some(capital) = inputs.cities.iter().find(|c| c.id == prov.capital) else { continue };
        let (cx, cy) = p.project(capital.at.0, capital.at.1);
        let nearest = cities
            .iter()
            .map(|(c, _)| &inputs.cities[*c])
            .filter_map(|c| {
                let q = inputs.provinces.iter().position(|q| q.id == c.province)?;
                (number[q + 1] != 0 && inputs.provinces[q].owner == prov.owner).then_some((c, q))
            })
            .min_by(|(a, _), (b, _)| {
                let d = |c: &CityRow| {
                    let (x, y) = p.project(c.at.0, c.at.1);
                    (x - cx).hypot(y - cy)
                };
                d(a).total_cmp(&d(b))
            });
        if let Some((_, q)) = nearest {
            number[i + 1] = number[q + 1];
        }
    }
    let cities: Vec<(usize, Vec<HexAt>)> = cities
        .into_iter()
        .filter(|(c, _)| provinces.iter().any(|(q, _)| inputs.provinces[*q].id == inputs.cities[*c].province))
        .collect();
    let mut sea_number = vec![0u16; inputs.seas.len() + 1];
    let mut seas = Vec::new();
    for (i, sea) in inputs.seas.iter().enumerate() {
        if seas_present[i + 1] {
            seas.push(sea);
            sea_number[i + 1] = u16::try_from(seas.len()).map_err(|_| "too many sea areas")?;
        }
    }
    let _ = writeln!(s, "GreatWarMap(");
    let _ = writeln!(s, "  name: {},", quoted(&window.name));
    let _ = writeln!(s, "  width: {},\n  height: {},\n  terrain: Sea,", window.width, window.height);
    let first = if window.first == HexAt::new(0, 0) {
        String::new()
    } else {
        format!(", first_hex: ({}, {})", window.first.col, window.first.row)
    };
    let _ = writeln!(
        s,
        "  projection: Some((origin: ({}, {}), parallels: ({}, {}), radius_km: {}, hex_km: {}, corner_km: ({}, {}){first})),",
        p.origin.0, p.origin.1, p.parallels.0, p.parallels.1, p.radius_km, p.hex_km, p.corner_km.0, p.corner_km.1
    );
    let _ = writeln!(s, "  rows: [");
    for range in &rows {
        let row = &built.terrain[range.clone()];
        let mut line = String::new();
        let mut i = 0;
        // Trailing sea is the default terrain and left out.
        let end = row.iter().rposition(|t| *t != Terrain::Sea).map_or(0, |e| e + 1);
        while i < end {
            let t = row[i];
            let run = row[i..end].iter().take_while(|x| **x == t).count();
            if run > 1 {
                let _ = write!(line, "{run}");
            }
            line.push(terrain_char(t));
            i += run;
        }
        let _ = writeln!(s, "    \"{line}\",");
    }
    let _ = writeln!(s, "  ],\n  province_rows: [");
    for range in &rows {
        let row: Vec<u16> = built.province[range.clone()].iter().map(|v| number[usize::from(*v)]).collect();
        write_runs(&mut s, &row);
    }
    let _ = writeln!(s, "  ],\n  sea_area_rows: [");
    for range in &rows {
        let row: Vec<u16> = built.sea_area[range.clone()].iter().map(|v| sea_number[usize::from(*v)]).collect();
        write_runs(&mut s, &row);
    }
    let _ = writeln!(s, "  ],\n  provinces: [");
    for (i, capital) in &provinces {
        let prov = &inputs.provinces[*i];
        let (gdp, man) = economy(prov, &inputs.powers)?;
        let _ = writeln!(
            s,
            "    (id: {}, name: {}, name_ru: {}, owner: {}, capital: {}, gdp: {gdp}, manpower: ({}, {})),",
            quoted(&prov.id),
            quoted(&prov.name),
            quoted(&prov.name_ru),
            quoted(&prov.owner),
            quoted(capital),
            man[0],
            man[1]
        );
    }
    let _ = writeln!(s, "  ],\n  cities: [");
    for (c, hexes) in &cities {
        let city = &inputs.cities[*c];
        let list: Vec<String> = hexes.iter().map(|h| format!("({}, {})", h.col, h.row)).collect();
        let mut extra = String::new();
        if city.port {
            extra.push_str(", port: true");
        }
        if city.fortress {
            extra.push_str(", fortress: true");
        }
        let _ = writeln!(
            s,
            "    (id: {}, name: {}, name_ru: {}, province: {}, hexes: [{}]{extra}),",
            quoted(&city.id),
            quoted(&city.name),
            quoted(&city.name_ru),
            quoted(&city.province),
            list.join(", ")
        );
    }
    let _ = writeln!(s, "  ],\n  sea_areas: [");
    for sea in &seas {
        let _ = writeln!(
            s,
            "    (id: {}, name: {}, name_ru: {}, hexes: []),",
            quoted(&sea.id),
            quoted(&sea.name),
            quoted(&sea.name_ru)
        );
    }
    let _ = writeln!(s, "  ],");
    // River hexsides and bridges, eight to a line; a side counts where both its hexes are inside.
    for (what, set) in [("rivers", &built.rivers), ("bridges", &built.bridges)] {
        let sides: Vec<String> = set
            .iter()
            .filter(|(at, side)| window.holds(*at) && window.holds(at.neighbour(*side)))
            .map(|(at, side)| {
                let l = window.local(*at);
                format!("(({},{}),{})", l.col, l.row, quoted(rules::strategic::hexmap::SIDE_NAMES[usize::from(*side)]))
            })
            .collect();
        let _ = writeln!(s, "  {what}: [");
        for chunk in sides.chunks(8) {
            let _ = writeln!(s, "    {},", chunk.join(", "));
        }
        let _ = writeln!(s, "  ],");
    }
    write_chains(&mut s, "roads", &clip_chains(window, &built.roads));
    let railways = clip_chains(window, &built.railways);
    if !railways.is_empty() {
        write_chains(&mut s, "railways", &railways);
    }
    let _ = writeln!(s, ")");
    Ok(s)
}

/// Reads a RON data table.
pub fn read_table<T: for<'de> Deserialize<'de>>(path: &std::path::Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&text)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks the tables' ids: no duplicates.
fn check_ids(inputs: &Inputs) -> Result<(), String> {
    let lists: [(&str, Vec<&str>); 5] = [
        ("province", inputs.provinces.iter().map(|q| q.id.as_str()).collect()),
        ("city", inputs.cities.iter().map(|q| q.id.as_str()).collect()),
        ("sea area", inputs.seas.iter().map(|q| q.id.as_str()).collect()),
        ("river", inputs.rivers.iter().map(|q| q.id.as_str()).collect()),
        ("waypoint", inputs.routes.waypoints.iter().map(|q| q.id.as_str()).collect()),
    ];
    for (what, ids) in lists {
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].contains(id) {
                return Err(format!("{what} `{id}` is listed twice"));
            }
        }
    }
    Ok(())
}

/// Builds and writes the full map in one step.
pub fn generate(inputs: &Inputs) -> Result<String, String> {
    check_ids(inputs)?;
    let built = build(inputs)?;
    write(inputs, &built, &Window::full(&inputs.frame))
}

/// Builds the map once and writes the full map and every cut: (file name or `None` for the full
/// map, text).
pub fn generate_all(inputs: &Inputs) -> Result<Vec<(Option<String>, String)>, String> {
    check_ids(inputs)?;
    let built = build(inputs)?;
    let mut out = vec![(None, write(inputs, &built, &Window::full(&inputs.frame))?)];
    for cut in &inputs.cuts {
        let window = Window::cut(&inputs.frame, cut)?;
        out.push((Some(cut.file.clone()), write(inputs, &built, &window)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::strategic::HexMap;

    fn inputs() -> Inputs {
        let frame = Frame {
            name: "Test".into(),
            width: 40,
            height: 30,
            projection: GeoProjection {
                origin: (52, 15),
                parallels: (35, 65),
                radius_km: 6_371,
                hex_km: 5,
                corner_km: (-100, 60),
                first_hex: (0, 0),
            },
            header: vec!["test".into()],
        };
        // An island from 51.6°N to 52.4°N, 14°E to 16°E, with a lake polygon inside.
        let land = vec![vec![(14.0, 51.6), (16.0, 51.6), (16.0, 52.4), (14.0, 52.4), (14.0, 51.6)]];
        let powers = vec![
            PowerRow {
                id: "a".into(),
                name: "A".into(),
                name_ru: "А".into(),
                gdp_per_head: 3000,
                manpower_per_million: [1, 2],
            },
            PowerRow {
                id: "b".into(),
                name: "B".into(),
                name_ru: "Б".into(),
                gdp_per_head: 1000,
                manpower_per_million: [1, 1],
            },
        ];
        let prov = |id: &str, owner: &str, capital: &str, seeds: Vec<LatLon>| ProvinceRow {
            id: id.into(),
            name: id.into(),
            name_ru: id.into(),
            owner: owner.into(),
            capital: capital.into(),
            population_k: 2_500,
            gdp_per_head: None,
            seeds,
        };
        let city = |id: &str, province: &str, at: LatLon, size: u32| CityRow {
            id: id.into(),
            name: id.into(),
            name_ru: id.into(),
            province: province.into(),
            at,
            size,
            port: false,
            fortress: size == 1,
        };
        Inputs {
            frame,
            land,
            powers,
            provinces: vec![prov("west", "a", "w", vec![(52.3, 14.9)]), prov("east", "b", "e", vec![])],
            cities: vec![city("w", "west", (52.0, 14.5), 3), city("e", "east", (52.0, 15.6), 1)],
            terrain: vec![TerrainArea {
                name: "lake".into(),
                terrain: Terrain::Lake,
                points: vec![(51.9, 14.9), (51.9, 15.1), (52.1, 15.1), (52.1, 14.9)],
                line: false,
            }],
            seas: Vec::new(),
            rivers: Vec::new(),
            routes: Routes::default(),
            cuts: Vec::new(),
        }
    }

    #[test]
    fn the_same_inputs_give_the_same_bytes_and_the_map_loads() {
        let a = generate(&inputs()).unwrap();
        let b = generate(&inputs()).unwrap();
        assert_eq!(a, b);
        let map = HexMap::parse("t.ron", &a).unwrap();
        let p = map.projection.unwrap();
        let at = |lat, lon| p.hex_of(lat, lon);
        // Land and sea on either side of the coast at 14°E (a degree is about 68 km here).
        assert!(map.is_land(at(52.0, 14.1)) && !map.is_land(at(52.0, 13.9)));
        assert_eq!(map.terrain(at(52.0, 15.0)), Some(Terrain::Lake));
        // Nearest seed: the west's extra seed at 52.3°N 14.9°E takes the hexes around it.
        let owner = |lat, lon| map.province_at(at(lat, lon)).map(|q| q.owner.clone());
        assert_eq!(owner(52.0, 14.3), Some("a".into()));
        assert_eq!(owner(52.3, 15.0), Some("a".into()));
        assert_eq!(owner(51.8, 15.8), Some("b".into()));
        // Cities: three hexes for the larger, in their province; the economy from the population.
        assert_eq!(map.cities[0].hexes.len(), 3);
        assert!(map.cities[0].hexes.iter().all(|h| map.province_at(*h).is_some_and(|q| q.id == "west")));
        assert_eq!((map.provinces[0].gdp, map.provinces[0].manpower), (8, [3, 5]));
        assert_eq!((map.provinces[1].gdp, map.provinces[1].manpower), (3, [3, 3]));
    }

    #[test]
    fn a_strait_line_opens_a_chain_of_adjacent_sea_hexes_across_the_land() {
        let mut i = inputs();
        i.terrain.push(TerrainArea {
            name: "strait".into(),
            terrain: Terrain::Sea,
            points: vec![(52.5, 15.3), (51.5, 15.35)],
            line: true,
        });
        let text = generate(&i).unwrap();
        let map = HexMap::parse("t.ron", &text).unwrap();
        let p = map.projection.unwrap();
        let chain = line_hexes(&p, &[(52.5, 15.3), (51.5, 15.35)]);
        assert!(chain.len() > 20);
        assert!(chain.windows(2).all(|w| w[0].is_adjacent(w[1])));
        assert!(chain.iter().all(|h| map.terrain(*h) == Some(Terrain::Sea)));
        // Land on both banks, 7 km away.
        assert!(map.is_land(p.hex_of(52.0, 15.2)) && map.is_land(p.hex_of(52.0, 15.46)));
    }

    fn river(id: &str, points: Vec<LatLon>) -> RiverRow {
        RiverRow { id: id.into(), name: id.into(), name_ru: id.into(), points }
    }

    #[test]
    fn a_river_separates_its_banks_and_a_city_on_it_keeps_to_one_bank() {
        let mut i = inputs();
        // Flowing south along 15.5°E: its left bank is the east. City "r" (three hexes) stands 700 m
        // west of it and keeps to the west bank; a railway from "w" to "e" crosses it on a bridge.
        i.rivers.push(river("r", vec![(52.35, 15.5), (51.65, 15.5)]));
        let mut r = i.cities[0].clone();
        (r.id, r.at, r.size, r.fortress) = ("r".into(), (52.2, 15.49), 3, false);
        i.cities.push(r);
        i.routes.railways.push(features::Route { name: "w–e".into(), via: vec!["w".into(), "e".into()] });
        let text = generate(&i).unwrap();
        let map = HexMap::parse("t.ron", &text).unwrap();
        let p = map.projection.unwrap();
        // Every straight east–west line across the river crosses one river hexside.
        for lat in [51.8, 51.9, 52.0, 52.1, 52.2, 52.3] {
            let (a, b) = (p.hex_of(lat, 15.3), p.hex_of(lat, 15.7));
            let line: Vec<HexAt> = a.hex().line_to(b.hex()).map(HexAt::from_hex).collect();
            let crossings = line.windows(2).filter(|w| map.river_between(w[0], w[1])).count();
            assert_eq!(crossings, 1, "at {lat}°N");
        }
        // West of the river, beside it, and far from it: no river hexside between neighbours.
        let far = p.hex_of(52.0, 14.4);
        assert!(far.neighbours().iter().all(|n| !map.river_between(far, *n)));
        let city = &map.cities[map.city_index("r").unwrap()];
        assert_eq!(city.hexes.len(), 3);
        for h in &city.hexes {
            assert!(p.latlon_of(*h).1 < 15.6, "city hex {h} east of the river");
            assert!(city.hexes.iter().all(|g| !map.river_between(*h, *g)));
        }
        assert!(city.hexes.iter().any(|h| h.neighbours().iter().any(|n| map.bridge_between(*h, *n))));
        // The railway runs on land (split by the lake), each chain adjacent, over a bridge.
        let rail = |h: HexAt| map.cell(h).is_some_and(|c| c.has(rules::strategic::hexmap::flag::RAIL));
        assert!(rail(p.hex_of(52.0, 14.5)) && rail(p.hex_of(52.0, 15.6)));
        assert!(!rail(p.hex_of(52.0, 15.0)), "the lake carries no railway");
        let bridges = map.hexes().filter(|h| h.neighbours().iter().any(|n| map.bridge_between(*h, *n))).count();
        assert!(bridges >= 2, "{bridges}");
    }

    #[test]
    fn sea_areas_cover_every_sea_hex_by_distance_over_the_sea() {
        let mut i = inputs();
        let sea =
            |id: &str, seeds: Vec<LatLon>| SeaAreaRow { id: id.into(), name: id.into(), name_ru: id.into(), seeds };
        i.seas = vec![sea("west", vec![(52.0, 13.7)]), sea("east", vec![(52.0, 16.3)])];
        let map = HexMap::parse("t.ron", &generate(&i).unwrap()).unwrap();
        let p = map.projection.unwrap();
        let area = |lat, lon| map.sea_area_at(p.hex_of(lat, lon)).map(|s| s.id.clone());
        assert_eq!(area(52.0, 13.6), Some("west".into()));
        assert_eq!(area(52.0, 16.4), Some("east".into()));
        assert_eq!(area(52.0, 15.0), None, "the lake is in no sea area");
        assert_eq!(area(52.0, 14.5), None, "land");
        for h in map.hexes() {
            assert_eq!(map.terrain(h) == Some(Terrain::Sea), map.sea_area_at(h).is_some(), "{h}");
        }
        i.seas[0].seeds.push((52.0, 14.5));
        assert!(generate(&i).unwrap_err().contains("seed (52, 14.5) is not on a sea hex"));
    }

    #[test]
    fn a_cut_keeps_the_hexes_of_the_map_and_finds_places_by_latitude_and_longitude() {
        let mut i = inputs();
        i.rivers.push(river("r", vec![(52.35, 15.5), (51.65, 15.5)]));
        i.cuts.push(CutRow { file: "cut.ron".into(), name: "Cut".into(), lat: (51.8, 52.2), lon: (14.8, 15.8) });
        let out = generate_all(&i).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].0.as_deref(), Some("cut.ron"));
        let (map, cut) = (HexMap::parse("t.ron", &out[0].1).unwrap(), HexMap::parse("c.ron", &out[1].1).unwrap());
        let first = cut.projection.unwrap().first_hex;
        assert!(first.1 % 2 == 0 && first != (0, 0));
        assert!(cut.len() < map.len() / 2);
        for (lat, lon) in [(52.0, 15.0), (52.0, 15.6), (51.9, 15.45), (52.1, 15.55), (51.85, 15.3)] {
            let mut a = map.place_at(lat, lon).unwrap();
            let b = cut.place_at(lat, lon).unwrap();
            assert_eq!(b.hex, HexAt::new(a.hex.col - first.0, a.hex.row - first.1));
            a.hex = b.hex;
            assert_eq!(a, b, "{lat}, {lon}");
        }
        // "w" lies outside the cut: its province has no city inside and its land there joins the
        // nearest kept province of its owner, or none where its owner keeps no province inside.
        assert!(cut.city_index("w").is_none() && cut.city_index("e").is_some());
        assert_eq!(cut.provinces.len(), 1);
    }

    #[test]
    fn a_province_without_its_capital_is_refused() {
        let mut i = inputs();
        i.provinces[0].capital = "e".into();
        assert!(generate(&i).unwrap_err().contains("names capital `e`"));
    }
}
