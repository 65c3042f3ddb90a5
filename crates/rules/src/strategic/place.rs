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

/// A land hex this many hexes from a town or nearer is named "near" it (house value of the
/// interface); a sea hex, "off" a port town within [`OFF_TOWN_HEXES`].
pub const NEAR_TOWN_HEXES: u32 = 12;
pub const OFF_TOWN_HEXES: u32 = 3;

impl HexMap {
    /// A hex as a person names it, from the map's places (issue 27: towns, not coordinates):
    /// the town it is part of, a hex "near" the nearest town, the sea "off" a coastal town, its
    /// sea area, or a hex in its province; `None` off the map's places. Names come in both languages (`name_ru`).
    ///
    /// ```
    /// use rules::strategic::hexmap::{HexMap, Terrain};
    /// use rules::strategic::{HexAt, testkit::german_city};
    /// let map = german_city(HexMap::filled("m", 30, 10, Terrain::Clear), (5, 5));
    /// assert_eq!(map.place_of(HexAt::new(5, 5)).map(|m| m.english()), Some("Stadt".to_string()));
    /// assert_eq!(map.place_of(HexAt::new(17, 5)).map(|m| m.english()), Some("a hex near Stadt".to_string()));
    /// assert_eq!(map.place_of(HexAt::new(18, 5)), None, "13 hexes away, in no province");
    /// ```
    pub fn place_of(&self, at: HexAt) -> Option<crate::texts::Msg> {
        use crate::texts::Msg;
        let cell = self.cell(at)?;
        let town = |c: &super::hexmap::City| Msg::new(crate::texts::PLAIN).local("text", &c.name, &c.name_ru);
        let nearest = self
            .cities
            .iter()
            .filter_map(|c| c.hexes.iter().map(|h| h.distance(at)).min().map(|d| (d, c)))
            .min_by_key(|(d, _)| *d);
        if let Some((0, c)) = nearest {
            return Some(town(c));
        }
        if cell.terrain.is_water() {
            if let Some((_, c)) = nearest.filter(|(d, c)| *d <= OFF_TOWN_HEXES && c.port) {
                return Some(Msg::new("gw.place.off").msg("town", town(c)));
            }
            let sea = self.sea_area_at(at)?;
            return Some(Msg::new(crate::texts::PLAIN).local("text", &sea.name, &sea.name_ru));
        }
        if let Some((_, c)) = nearest.filter(|(d, _)| *d <= NEAR_TOWN_HEXES) {
            return Some(Msg::new("gw.place.near").msg("town", town(c)));
        }
        let province = self.province_at(at)?;
        Some(Msg::new("gw.place.in").local("province", &province.name, &province.name_ru))
    }
}
