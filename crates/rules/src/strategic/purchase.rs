//! What a power may buy and why a purchase is refused: the data of an order (issue 12), kept
//! apart from the rules in [`super::economy`] so that `order` names them without a circle.

use super::hex::HexAt;
use super::naval::model::ShipType;
use serde::{Deserialize, Serialize};

/// A unit to raise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recruit {
    /// An infantry division of manpower class 1 or 2, 1914 model (upgraded by `Upgrade`).
    /// Mountain (S-LAND-5) and elite (S-LAND-6) divisions are class 1.
    Infantry {
        class: u8,
        #[serde(default)]
        mountain: bool,
        #[serde(default)]
        elite: bool,
    },
    /// A cavalry division of class 1 or 2 (S-LAND-8).
    Cavalry { class: u8 },
    /// A tank battalion of the power's own types (S-LAND-9).
    Tank(String),
    /// A heavy artillery division of the power's own guns (S-ART-1).
    Artillery(String),
    /// One ship, a fleet of its own in a port (S-NAVAL-1).
    Ship(ShipType),
    /// An air squadron of a type of the aviation file (S-AIR).
    Squadron(String),
}

/// Why a purchase is refused (typed; the state is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum PurchaseError {
    #[error("{what} costs {price}, the treasury holds {left}")]
    Money { what: String, price: i64, left: i64 },
    #[error("{what} needs {need} class-{class} manpower, {left} are left")]
    Manpower { what: String, class: u8, need: u32, left: u32 },
    #[error("{what} appears on a free hex of an own city (a port for ships); {at} is not one")]
    Place { what: String, at: HexAt },
    #[error("{0} is not for sale to this power")]
    NotForSale(String),
    #[error("{what}: {power} may not raise it (S-LAND-5: France, Germany, Austria-Hungary, Italy)")]
    Mountain { what: String, power: String },
    #[error("elite units cannot exceed the {limit} the power had at the start (S-LAND-6)")]
    EliteLimit { limit: usize },
    #[error("manpower classes are 1 and 2; mountain and elite divisions are class 1")]
    Class,
}
