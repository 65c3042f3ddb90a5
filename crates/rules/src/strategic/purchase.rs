//! What a power may buy and why a purchase is refused: the data of an order (issue 12), kept
//! apart from the rules in [`super::economy`] so that `order` names them without a circle.

use super::hex::HexAt;
use super::naval::model::ShipType;
use crate::texts::Msg;
use serde::{Deserialize, Serialize};
use std::fmt;

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

/// What a regular class-1 division may be converted into (order `Convert`): mountain infantry
/// (S-LAND-5: «улучшены из обычной пехотной дивизии 1-й очереди») or an elite unit (S-LAND-6:
/// «улучшения из обычной пехотной дивизии 1-й очереди»; elite cavalry likewise, S-LAND-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Conversion {
    Mountain,
    Elite,
}

/// Why a purchase is refused (typed; the state is unchanged). `Display` gives the English of
/// [`PurchaseError::line`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PurchaseError {
    Money { what: Msg, price: i64, left: i64 },
    Manpower { what: Msg, class: u8, need: u32, left: u32 },
    Place { what: Msg, at: HexAt },
    NotForSale(Msg),
    Mountain { what: Msg, power: Msg },
    EliteLimit { limit: usize },
    Class,
}

impl PurchaseError {
    /// Why, in keys of the string tables.
    pub fn line(&self) -> Msg {
        use PurchaseError as E;
        match self {
            E::Money { what, price, left } => {
                Msg::new("gw.err.buy.money").msg("what", what.clone()).arg("price", price).arg("left", left)
            }
            E::Manpower { what, class, need, left } => Msg::new("gw.err.buy.manpower")
                .msg("what", what.clone())
                .arg("class", class)
                .arg("need", need)
                .arg("left", left),
            E::Place { what, at } => Msg::new("gw.err.buy.place").msg("what", what.clone()).hex("at", at),
            E::NotForSale(what) => Msg::new("gw.err.buy.not_for_sale").msg("what", what.clone()),
            E::Mountain { what, power } => {
                Msg::new("gw.err.buy.mountain").msg("what", what.clone()).msg("power", power.clone())
            }
            E::EliteLimit { limit } => Msg::new("gw.err.buy.elite_limit").arg("limit", limit),
            E::Class => Msg::new("gw.err.buy.class"),
        }
    }
}

impl fmt::Display for PurchaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.line().fmt(f)
    }
}

impl std::error::Error for PurchaseError {}
