//! Geographic projection of a Great War map: where a latitude and longitude fall on the hex grid.
//!
//! Maps drawn from real geography (`maps/europe_1914.ron`) record their projection so that tools
//! (`umpire map info --at LAT,LON`, the map generator) find the hex of a place. The rules never use
//! it: it only translates between the globe and hexes. Parameters are whole numbers so that the map
//! stays `Eq` and hashes bit-identically; the maths is `f64`.

use super::hexmap::{Climate, HexAt, HexMap, SIDE_NAMES, flag};
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

/// The projection of a map: Lambert conformal conic on a sphere, then a grid of pointy-top hexes
/// (odd rows shifted half a hex east, row 0 in the north).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GeoProjection {
    /// Latitude and longitude of the projection's origin, whole degrees (north and east positive).
    pub origin: (i32, i32),
    /// The two standard parallels, whole degrees.
    pub parallels: (i32, i32),
    /// Radius of the sphere in kilometres.
    pub radius_km: u32,
    /// Width of a hex across its flats (the distance between neighbouring hex centres), kilometres.
    pub hex_km: u32,
    /// Projected easting and northing of the centre of hex (0, 0) of the full grid, kilometres.
    pub corner_km: (i32, i32),
    /// For a cut of a larger map: the hex of the full grid that is this map's hex (0, 0) (its row
    /// even, so odd rows stay shifted east). Left out when (0, 0), so maps and saves without it keep
    /// their text and hashes.
    #[serde(default, skip_serializing_if = "is_origin")]
    pub first_hex: (i32, i32),
}

fn is_origin(at: &(i32, i32)) -> bool {
    *at == (0, 0)
}

/// √3 / 2: the distance between hex rows as a share of the hex width.
const ROW_SHARE: f64 = 0.866_025_403_784_438_6;

impl GeoProjection {
    fn cone(&self) -> (f64, f64, f64) {
        let p1 = f64::from(self.parallels.0).to_radians();
        let p2 = f64::from(self.parallels.1).to_radians();
        let t = |p: f64| (FRAC_PI_4 + p / 2.0).tan();
        let n = if self.parallels.0 == self.parallels.1 {
            p1.sin()
        } else {
            (p1.cos() / p2.cos()).ln() / (t(p2) / t(p1)).ln()
        };
        let f = p1.cos() * t(p1).powf(n) / n;
        let r = f64::from(self.radius_km) * 1000.0;
        let rho0 = r * f / t(f64::from(self.origin.0).to_radians()).powf(n);
        (n, r * f, rho0)
    }

    /// Projected easting and northing in metres of a latitude and longitude in degrees.
    pub fn project(&self, lat: f64, lon: f64) -> (f64, f64) {
        let (n, rf, rho0) = self.cone();
        let rho = rf / (FRAC_PI_4 + lat.to_radians() / 2.0).tan().powf(n);
        let theta = n * (lon - f64::from(self.origin.1)).to_radians();
        (rho * theta.sin(), rho0 - rho * theta.cos())
    }

    /// Latitude and longitude in degrees of projected metres (the inverse of [`Self::project`]).
    pub fn unproject(&self, x: f64, y: f64) -> (f64, f64) {
        let (n, rf, rho0) = self.cone();
        let dy = rho0 - y;
        let rho = n.signum() * x.hypot(dy);
        let theta = if n < 0.0 { (-x).atan2(-dy) } else { x.atan2(dy) };
        let lat = 2.0 * (rf / rho).powf(1.0 / n).atan() - FRAC_PI_2;
        (lat.to_degrees(), f64::from(self.origin.1) + (theta / n).to_degrees())
    }

    /// Projected metres of the centre of a hex.
    pub fn hex_centre(&self, at: HexAt) -> (f64, f64) {
        let at = HexAt::new(at.col + self.first_hex.0, at.row + self.first_hex.1);
        let w = f64::from(self.hex_km) * 1000.0;
        let shift = if at.row & 1 == 1 { 0.5 } else { 0.0 };
        (
            f64::from(self.corner_km.0) * 1000.0 + (f64::from(at.col) + shift) * w,
            f64::from(self.corner_km.1) * 1000.0 - f64::from(at.row) * w * ROW_SHARE,
        )
    }

    /// The hex whose area holds projected metres `(x, y)`.
    pub fn hex_of_xy(&self, x: f64, y: f64) -> HexAt {
        let w = f64::from(self.hex_km) * 1000.0;
        let r = (f64::from(self.corner_km.1) * 1000.0 - y) / (w * ROW_SHARE);
        let q = (x - f64::from(self.corner_km.0) * 1000.0) / w - r / 2.0;
        // Cube rounding: round all three coordinates, then fix the one that moved most.
        let s = -q - r;
        let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
        let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
        if dq > dr && dq > ds {
            rq = -rr - rs;
        } else if dr > ds {
            rr = -rq - rs;
        }
        let at = HexAt::from_hex(Hex::new(rq as i32, rr as i32));
        HexAt::new(at.col - self.first_hex.0, at.row - self.first_hex.1)
    }

    /// The hex of a latitude and longitude in degrees (maybe outside the map).
    pub fn hex_of(&self, lat: f64, lon: f64) -> HexAt {
        let (x, y) = self.project(lat, lon);
        self.hex_of_xy(x, y)
    }

    /// Latitude and longitude of the centre of a hex.
    pub fn latlon_of(&self, at: HexAt) -> (f64, f64) {
        let (x, y) = self.hex_centre(at);
        self.unproject(x, y)
    }
}

/// What lies at a place on the globe: the answer of `umpire map info --at LAT,LON`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlaceInfo {
    /// The hex (column, row).
    pub hex: HexAt,
    /// Terrain key (`clear`, `sea`, …).
    pub terrain: &'static str,
    pub land: bool,
    /// Province id and name, if the hex belongs to one.
    pub province: Option<String>,
    pub province_name: Option<String>,
    /// Power id of the province's owner (July 1914 on the Europe map).
    pub owner: Option<String>,
    /// City id and name, if the hex is part of a city.
    pub city: Option<String>,
    pub city_name: Option<String>,
    pub port: bool,
    pub fortress: bool,
    /// Sea area id, if any.
    pub sea_area: Option<String>,
    /// Hexsides (`E`, `SE`, `SW`, `W`, `NW`, `NE`) a river runs along, and those a bridge crosses.
    pub rivers: Vec<&'static str>,
    pub bridges: Vec<&'static str>,
    pub road: bool,
    /// A main railway runs through the hex (not used by the rules yet).
    pub railway: bool,
    /// Climate zone (S-SUP-5): `temperate`, `desert`, `north` or `mountain`.
    pub climate: &'static str,
}

/// Why a place cannot be looked up.
#[derive(Clone, Debug, PartialEq)]
pub enum PlaceError {
    /// The map records no projection.
    NoProjection,
    /// The place lies off the map (its hex would be this one).
    OffMap(HexAt),
}

impl std::fmt::Display for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlaceError::NoProjection => write!(f, "the map records no projection (it is not drawn from geography)"),
            PlaceError::OffMap(at) => write!(f, "the place lies off the map (hex {at})"),
        }
    }
}

impl HexMap {
    /// What lies at a latitude and longitude in degrees.
    pub fn place_at(&self, lat: f64, lon: f64) -> Result<PlaceInfo, PlaceError> {
        let projection = self.projection.as_ref().ok_or(PlaceError::NoProjection)?;
        let at = projection.hex_of(lat, lon);
        self.hex_info(at).ok_or(PlaceError::OffMap(at))
    }

    /// What lies in a hex (None off the map).
    pub fn hex_info(&self, at: HexAt) -> Option<PlaceInfo> {
        let cell = self.cell(at)?;
        let province = self.province_at(at);
        let city = self.city_at(at);
        Some(PlaceInfo {
            hex: at,
            terrain: cell.terrain.key(),
            land: !cell.terrain.is_water(),
            province: province.map(|p| p.id.clone()),
            province_name: province.map(|p| p.name.clone()),
            owner: province.map(|p| p.owner.clone()),
            city: city.map(|c| c.id.clone()),
            city_name: city.map(|c| c.name.clone()),
            port: cell.has(flag::PORT),
            fortress: cell.has(flag::FORTRESS),
            sea_area: self.sea_area_at(at).map(|s| s.id.clone()),
            rivers: (0..6u8).filter(|d| cell.river_on(*d)).map(|d| SIDE_NAMES[usize::from(d)]).collect(),
            bridges: (0..6u8).filter(|d| cell.bridge_on(*d)).map(|d| SIDE_NAMES[usize::from(d)]).collect(),
            road: cell.has(flag::ROAD),
            railway: cell.has(flag::RAIL),
            climate: match cell.climate {
                Climate::Temperate => "temperate",
                Climate::Desert => "desert",
                Climate::North => "north",
                Climate::Mountain => "mountain",
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn europe() -> GeoProjection {
        GeoProjection {
            origin: (52, 15),
            parallels: (35, 65),
            radius_km: 6_371,
            hex_km: 5,
            corner_km: (-2_150, 2_200),
            first_hex: (0, 0),
        }
    }

    #[test]
    fn project_and_unproject_round_trip() {
        let p = europe();
        for (lat, lon) in [(52.0, 15.0), (38.7, -9.1), (55.75, 37.6), (71.1, 25.8), (35.3, 25.1)] {
            let (x, y) = p.project(lat, lon);
            let (la, lo) = p.unproject(x, y);
            assert!((la - lat).abs() < 1e-9 && (lo - lon).abs() < 1e-9, "{lat},{lon} -> {la},{lo}");
        }
        // The origin projects to (0, 0); the standard parallels have true scale: one degree of
        // longitude on 35°N is 111.2 km × cos 35° ≈ 91.1 km.
        let (x, y) = p.project(52.0, 15.0);
        assert!(x.abs() < 1e-6 && y.abs() < 1e-6);
        let (x1, _) = p.project(35.0, 15.0);
        let (x2, _) = p.project(35.0, 16.0);
        assert!(((x2 - x1) / 1000.0 - 91.09).abs() < 0.2, "{}", (x2 - x1) / 1000.0);
    }

    #[test]
    fn every_hex_centre_falls_in_its_own_hex_and_the_edges_split_right() {
        let p = europe();
        for row in 0..6 {
            for col in 0..6 {
                let at = HexAt::new(col, row);
                let (x, y) = p.hex_centre(at);
                assert_eq!(p.hex_of_xy(x, y), at);
                assert_eq!(p.hex_of(p.latlon_of(at).0, p.latlon_of(at).1), at);
                // 2.4 km east of the centre is still this hex (half the width is 2.5 km), 2.6 km east
                // is the eastern neighbour.
                assert_eq!(p.hex_of_xy(x + 2_400.0, y), at);
                assert_eq!(p.hex_of_xy(x + 2_600.0, y), at.neighbour(0));
            }
        }
    }

    #[test]
    fn a_cut_of_the_map_finds_the_same_places_offset_by_its_first_hex() {
        let full = europe();
        let cut = GeoProjection { first_hex: (300, 400), ..full };
        for (lat, lon) in [(52.52, 13.40), (48.86, 2.35), (54.71, 20.51)] {
            let (a, b) = (full.hex_of(lat, lon), cut.hex_of(lat, lon));
            assert_eq!(b, HexAt::new(a.col - 300, a.row - 400));
            assert_eq!(cut.hex_centre(b), full.hex_centre(a));
            let ((la, lo), (lb, lob)) = (full.latlon_of(a), cut.latlon_of(b));
            assert!((la - lb).abs() < 1e-9 && (lo - lob).abs() < 1e-9);
        }
    }
}
