//! What lies at a place on the globe or in a hex: the answer of `umpire map info --at LAT,LON`,
//! found through the map's recorded projection ([`super::geo`]).

use super::hex::HexAt;
use super::hexmap::{Climate, HexMap, SIDE_NAMES, flag};
use serde::Serialize;

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
