//! Sea areas, rivers on hexsides, roads and railways: the features drawn over the land and sea.

use crate::{Frame, LatLon};
use rules::strategic::geo::GeoProjection;
use rules::strategic::hexmap::{HexAt, Terrain};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A sea area (`maps/data/sea_areas_1914.ron`): its sea hexes are those nearer (in hexes, by sea)
/// to one of its seeds than to any other area's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaAreaRow {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    pub seeds: Vec<LatLon>,
}

/// A river (`maps/data/rivers_1914.ron`): a polyline from upstream to its mouth (or the river it
/// joins), so that its left bank lies to the left looking downstream.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiverRow {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    pub points: Vec<LatLon>,
}

/// A named point a road or railway passes through that is no city of the map.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waypoint {
    pub id: String,
    pub at: LatLon,
}

/// A road or railway: city ids or waypoint ids in order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    pub name: String,
    pub via: Vec<String>,
}

/// `maps/data/routes_1914.ron`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Routes {
    #[serde(default)]
    pub waypoints: Vec<Waypoint>,
    #[serde(default)]
    pub roads: Vec<Route>,
    #[serde(default)]
    pub railways: Vec<Route>,
}

fn inside(frame: &Frame, at: HexAt) -> bool {
    at.col >= 0 && at.row >= 0 && (at.col as u32) < frame.width && (at.row as u32) < frame.height
}

fn index(frame: &Frame, at: HexAt) -> usize {
    at.row as usize * frame.width as usize + at.col as usize
}

/// Sea area number (1-based, 0 none) of every hex: a breadth-first search by sea from every
/// area's seeds at once (areas in file order, so ties go to the earlier area); sea hexes it does
/// not reach (enclosed lagoons) take the area of the nearest seed in a straight line.
pub fn sea_areas(frame: &Frame, terrain: &[Terrain], seas: &[SeaAreaRow]) -> Result<Vec<u16>, String> {
    let p = &frame.projection;
    let mut area = vec![0u16; terrain.len()];
    let mut queue = VecDeque::new();
    let mut seeds = Vec::new();
    let mut bad = Vec::new();
    for (i, sea) in seas.iter().enumerate() {
        let number = u16::try_from(i + 1).map_err(|_| "too many sea areas")?;
        for (lat, lon) in &sea.seeds {
            let at = p.hex_of(*lat, *lon);
            if !inside(frame, at) || terrain[index(frame, at)] != Terrain::Sea {
                bad.push(format!("sea area `{}`: seed ({lat}, {lon}) is not on a sea hex", sea.id));
                continue;
            }
            seeds.push((p.project(*lat, *lon), number));
            if area[index(frame, at)] == 0 {
                area[index(frame, at)] = number;
                queue.push_back(at);
            }
        }
    }
    if !bad.is_empty() {
        return Err(bad.join("; "));
    }
    while let Some(at) = queue.pop_front() {
        let number = area[index(frame, at)];
        for n in at.neighbours() {
            if inside(frame, n) && terrain[index(frame, n)] == Terrain::Sea && area[index(frame, n)] == 0 {
                area[index(frame, n)] = number;
                queue.push_back(n);
            }
        }
    }
    for (i, t) in terrain.iter().enumerate() {
        if *t != Terrain::Sea || area[i] != 0 {
            continue;
        }
        let at = HexAt::new((i % frame.width as usize) as i32, (i / frame.width as usize) as i32);
        let (x, y) = p.hex_centre(at);
        let nearest = seeds.iter().min_by(|a, b| {
            let d = |((sx, sy), _): &&((f64, f64), u16)| (sx - x).hypot(sy - y);
            d(a).total_cmp(&d(b))
        });
        area[i] = nearest.map_or(0, |(_, n)| *n);
    }
    Ok(area)
}

/// Every hex a projected polyline passes through, in order, each adjacent to the next.
pub fn line_hexes_xy(p: &GeoProjection, points: &[(f64, f64)]) -> Vec<HexAt> {
    let mut out: Vec<HexAt> = Vec::new();
    let push = |out: &mut Vec<HexAt>, at: HexAt| {
        // Samples 500 m apart never skip a hex (three hexes meet at a corner, all adjacent), but a
        // gap is closed step by step all the same.
        while let Some(&last) = out.last() {
            if last == at || last.is_adjacent(at) {
                break;
            }
            let step = last.neighbours().into_iter().min_by_key(|n| (n.distance(at), *n));
            match step {
                Some(s) => out.push(s),
                None => break,
            }
        }
        if out.last() != Some(&at) {
            out.push(at);
        }
    };
    if let [only] = points {
        push(&mut out, p.hex_of_xy(only.0, only.1));
    }
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let steps = ((x1 - x0).hypot(y1 - y0) / 500.0).ceil().max(1.0) as u32;
        for k in 0..=steps {
            let t = f64::from(k) / f64::from(steps);
            push(&mut out, p.hex_of_xy(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t));
        }
    }
    out
}

/// Where a point lies against a polyline: distance to its nearest point, the side (true: left,
/// looking along the line) and whether that nearest point is one of the line's two ends.
struct Against {
    distance: f64,
    left: bool,
    at_end: bool,
}

fn against(line: &[(f64, f64)], q: (f64, f64)) -> Against {
    let cross = |a: (f64, f64), b: (f64, f64)| a.0 * b.1 - a.1 * b.0;
    let unit = |v: (f64, f64)| {
        let l = v.0.hypot(v.1).max(1e-9);
        (v.0 / l, v.1 / l)
    };
    let mut best = Against { distance: f64::INFINITY, left: true, at_end: true };
    let last = line.len().saturating_sub(2);
    for (i, pair) in line.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let d = (b.0 - a.0, b.1 - a.1);
        let len2 = (d.0 * d.0 + d.1 * d.1).max(1e-9);
        let t = (((q.0 - a.0) * d.0 + (q.1 - a.1) * d.1) / len2).clamp(0.0, 1.0);
        let near = (a.0 + d.0 * t, a.1 + d.1 * t);
        let distance = (q.0 - near.0).hypot(q.1 - near.1);
        if distance >= best.distance {
            continue;
        }
        let rel = (q.0 - near.0, q.1 - near.1);
        let (left, at_end) = if t > 0.0 && t < 1.0 {
            (cross(d, rel) >= 0.0, false)
        } else if (t == 0.0 && i == 0) || (t == 1.0 && i == last) {
            (cross(d, rel) >= 0.0, true)
        } else {
            // At an inner vertex the side is taken against the bisector of the two segments.
            let (prev, next) = if t == 0.0 { (line[i - 1], b) } else { (a, line[i + 2]) };
            let (u, v) = (unit((near.0 - prev.0, near.1 - prev.1)), unit((next.0 - near.0, next.1 - near.1)));
            (cross((u.0 + v.0, u.1 + v.1), rel) >= 0.0, false)
        };
        best = Against { distance, left, at_end };
    }
    best
}

/// A hexside written once: from the hex whose side is E, SE or SW.
pub fn normal_side(at: HexAt, side: u8) -> (HexAt, u8) {
    if side < 3 { (at, side) } else { (at.neighbour(side), side - 3) }
}

/// The hexsides of a river: between every two adjacent land hexes within a hex of the line whose
/// centres lie on opposite banks. Hexes of a city near the river all take the bank of the city's
/// own coordinates, so a city on a river lies on one bank and the river bends round it.
pub fn river_sides(
    frame: &Frame,
    terrain: &[Terrain],
    river: &RiverRow,
    cities: &[(LatLon, Vec<HexAt>)],
) -> BTreeSet<(HexAt, u8)> {
    let p = &frame.projection;
    let hex_m = f64::from(p.hex_km) * 1000.0;
    let line: Vec<(f64, f64)> = river.points.iter().map(|(lat, lon)| p.project(*lat, *lon)).collect();
    let mut near: BTreeMap<HexAt, (bool, bool)> = BTreeMap::new();
    let mut candidates = BTreeSet::new();
    for at in line_hexes_xy(p, &line) {
        for n in at.neighbours() {
            candidates.extend(n.neighbours());
        }
    }
    for at in candidates {
        if !inside(frame, at) {
            continue;
        }
        let a = against(&line, p.hex_centre(at));
        if a.distance <= hex_m * 1.01 {
            near.insert(at, (a.left, a.at_end));
        }
    }
    for (point, hexes) in cities {
        let a = against(&line, p.project(point.0, point.1));
        if a.distance <= hex_m * 1.5 && !a.at_end {
            for at in hexes {
                near.insert(*at, (a.left, false));
            }
            // The river bends round the city: the hexes next to it join the corridor on their own
            // bank, so a city hex moved across the river still has the river beside it.
            for n in hexes.iter().flat_map(|h| h.neighbours()) {
                if inside(frame, n) && !near.contains_key(&n) {
                    let b = against(&line, p.hex_centre(n));
                    near.insert(n, (b.left, b.at_end));
                }
            }
        }
    }
    let mut sides = BTreeSet::new();
    for (at, (left, at_end)) in &near {
        if *at_end || terrain[index(frame, *at)].is_water() {
            continue;
        }
        for (side, n) in at.neighbours().into_iter().enumerate() {
            let Some((other_left, other_end)) = near.get(&n) else { continue };
            if !other_end && other_left != left && !terrain[index(frame, n)].is_water() {
                sides.insert(normal_side(*at, side as u8));
            }
        }
    }
    sides
}

/// A route's chains of adjacent land hexes (split where the straight line between two of its
/// points crosses water: a ferry or a lake).
pub fn route_chains(
    frame: &Frame,
    terrain: &[Terrain],
    route: &Route,
    place: impl Fn(&str) -> Option<HexAt>,
) -> Result<Vec<Vec<HexAt>>, String> {
    let p = &frame.projection;
    let mut points = Vec::new();
    for id in &route.via {
        let at = place(id).ok_or_else(|| format!("route `{}` passes `{id}`, no city or waypoint", route.name))?;
        points.push(p.hex_centre(at));
    }
    let mut chains = Vec::new();
    let mut chain: Vec<HexAt> = Vec::new();
    for at in line_hexes_xy(p, &points) {
        if inside(frame, at) && !terrain[index(frame, at)].is_water() {
            chain.push(at);
        } else if !chain.is_empty() {
            chains.push(std::mem::take(&mut chain));
        }
    }
    chains.push(chain);
    chains.retain(|c| c.len() > 1);
    Ok(chains)
}
