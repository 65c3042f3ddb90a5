//! A peace offer (S-CITY-4) as the state keeps it, apart from the rules in [`super::diplomacy`]
//! so that `state` names it without a circle.

use super::ids::PowerId;
use serde::{Deserialize, Serialize};

/// A standing offer of peace (S-CITY-4): to whom, and which provinces change sovereign. Every
/// other province one of the two occupies of the other's is returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeaceOffer {
    pub to: PowerId,
    /// Province indices, sorted: each owned by one of the two and occupied by the other; the
    /// occupier becomes its sovereign.
    pub cede: Vec<u16>,
}
