//! `umpire map`: what lies at a place on a Great War map drawn from geography, and the map's counts.

use crate::Failure;
use rules::data::read_text;
use rules::strategic::HexMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand)]
pub enum MapCommand {
    /// Print as JSON what lies at a latitude and longitude: hex, terrain, province, owner, city, fortress.
    Info {
        map: PathBuf,
        /// LAT,LON in degrees, north and east positive (e.g. `48.58,7.75`).
        #[arg(long, allow_hyphen_values = true, value_parser = parse_lat_lon)]
        at: (f64, f64),
    },
    /// Print as JSON the hexes, land and sea, and the provinces, land hexes and cities of every power.
    Stats { map: PathBuf },
}

/// Reads `LAT,LON`.
pub fn parse_lat_lon(s: &str) -> Result<(f64, f64), String> {
    let (lat, lon) = s.split_once(',').ok_or_else(|| format!("`{s}`: expected LAT,LON (e.g. 48.58,7.75)"))?;
    let num = |v: &str| v.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    let (lat, lon) = (num(lat), num(lon));
    match (lat, lon) {
        (Some(lat), Some(lon)) if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon) => Ok((lat, lon)),
        _ => Err(format!("`{s}`: latitude must be within ±90 and longitude within ±180 degrees")),
    }
}

fn load(path: &Path) -> Result<HexMap, Failure> {
    let text = read_text(path)?;
    Ok(HexMap::parse(&path.to_string_lossy(), &text)?)
}

pub fn run(command: MapCommand) -> Result<(), Failure> {
    match command {
        MapCommand::Info { map, at } => {
            let m = load(&map)?;
            let info = m.place_at(at.0, at.1).map_err(|e| Failure(format!("{}: {e}", map.display())))?;
            println!("{}", serde_json::to_string_pretty(&info).unwrap_or_default());
        }
        MapCommand::Stats { map } => {
            let m = load(&map)?;
            println!("{}", serde_json::to_string_pretty(&stats(&m)).unwrap_or_default());
        }
    }
    Ok(())
}

#[derive(Serialize, Default)]
struct PowerStats {
    provinces: usize,
    land_hexes: usize,
    cities: usize,
    fortresses: usize,
    ports: usize,
    gdp: u64,
    manpower: [u64; 2],
}

#[derive(Serialize)]
struct Stats {
    name: String,
    width: u32,
    height: u32,
    hexes: usize,
    land: usize,
    sea: usize,
    lake: usize,
    provinces: usize,
    cities: usize,
    /// Land hexes in no province.
    land_without_province: usize,
    powers: BTreeMap<String, PowerStats>,
}

fn stats(m: &HexMap) -> Stats {
    let mut powers: BTreeMap<String, PowerStats> = BTreeMap::new();
    for p in &m.provinces {
        let s = powers.entry(p.owner.clone()).or_default();
        s.provinces += 1;
        s.gdp += u64::from(p.gdp);
        s.manpower[0] += u64::from(p.manpower[0]);
        s.manpower[1] += u64::from(p.manpower[1]);
    }
    for c in &m.cities {
        let owner = m.provinces.iter().find(|p| p.id == c.province).map(|p| p.owner.clone());
        if let Some(s) = owner.and_then(|o| powers.get_mut(&o)) {
            s.cities += 1;
            s.fortresses += usize::from(c.fortress);
            s.ports += usize::from(c.port);
        }
    }
    let (mut land, mut sea, mut lake, mut orphan) = (0, 0, 0, 0);
    for at in m.hexes() {
        match m.terrain(at) {
            Some(rules::strategic::Terrain::Sea) => sea += 1,
            Some(rules::strategic::Terrain::Lake) => lake += 1,
            _ => {
                land += 1;
                match m.province_at(at).and_then(|p| powers.get_mut(&p.owner)) {
                    Some(s) => s.land_hexes += 1,
                    None => orphan += 1,
                }
            }
        }
    }
    Stats {
        name: m.name.clone(),
        width: m.width,
        height: m.height,
        hexes: m.len(),
        land,
        sea,
        lake,
        provinces: m.provinces.len(),
        cities: m.cities.len(),
        land_without_province: orphan,
        powers,
    }
}
