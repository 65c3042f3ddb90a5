//! War at sea, the dice tables (S-NAVAL, S-SUB, S-MINE, S-AIR): each a pure function of the
//! pips, tested statistically.

use super::model::ShipType;
use crate::dice::{PipRange, Pips};

/// S-NAVAL-8: the pips that hit, by firer class − target class (d ≤ −2 as −1); `None` = automatic.
pub fn surface_hit(d: i32) -> Option<PipRange> {
    match d {
        i32::MIN..=-1 => Some(PipRange(6, 6)),
        0 => Some(PipRange(5, 6)),
        1 => Some(PipRange(4, 6)),
        2 => Some(PipRange(3, 6)),
        3 => Some(PipRange(2, 6)),
        _ => None,
    }
}

/// S-NAVAL-14: coastal artillery destroys the target on these pips; `None` = no roll, destroyed.
pub fn coastal_hit(kind: ShipType) -> Option<PipRange> {
    match kind {
        ShipType::Battleship => Some(PipRange(6, 6)),
        ShipType::Battlecruiser => Some(PipRange(5, 6)),
        ShipType::LightCruiser => Some(PipRange(4, 6)),
        ShipType::Destroyer => Some(PipRange(3, 6)),
        ShipType::Gunboat => Some(PipRange(2, 6)),
        _ => None,
    }
}

/// S-SUB-2: the stealth test passes on these pips, by submarines − ASW ships; `Ok(true)` automatic
/// pass, `Ok(false)` automatic fail.
pub fn stealth(s: i32) -> Result<bool, PipRange> {
    match s {
        5.. => Ok(true),
        3..=4 => Err(PipRange(2, 6)),
        1..=2 => Err(PipRange(3, 6)),
        0 => Err(PipRange(4, 6)),
        -2..=-1 => Err(PipRange(5, 6)),
        -4..=-3 => Err(PipRange(6, 6)),
        _ => Ok(false),
    }
}

/// Rounds `n × num / den` half up (S-SUB-3, S-MINE-2, S-AIR-3 resolutions).
pub fn share_half_up(n: u32, num: u32, den: u32) -> u32 {
    (2 * n * num + den) / (2 * den)
}

/// S-SUB-3: submarines lost after a failed stealth test, from the survival d6.
pub fn submarines_lost(pips: Pips, boats: u32) -> u32 {
    match pips {
        6 => 0,
        5 => share_half_up(boats, 1, 4),
        3 | 4 => share_half_up(boats, 1, 2),
        2 => share_half_up(boats, 3, 4),
        _ => boats,
    }
}

/// S-SUB-4: a submarine that passed sinks its ship on 3–6.
pub const TORPEDO_HIT: PipRange = PipRange(3, 6);

/// S-MINE-2: a fleet loses half its ships on these pips, by the number of mines (1–3).
pub fn mine_loss(mines: u8) -> Option<PipRange> {
    match mines {
        0 => None,
        1 => Some(PipRange(1, 2)),
        2 => Some(PipRange(1, 3)),
        _ => Some(PipRange(1, 4)),
    }
}

/// S-AIR-2: bombers hit on these pips by bombing − class; `None` = automatic; no attack below 0.
pub fn bomb_hit(d: i32) -> Option<Option<PipRange>> {
    match d {
        i32::MIN..=-1 => None,
        0 => Some(Some(PipRange(5, 6))),
        1 => Some(Some(PipRange(4, 6))),
        2 => Some(Some(PipRange(3, 6))),
        3 => Some(Some(PipRange(2, 6))),
        _ => Some(None),
    }
}

/// S-AIR-3: aircraft lost after an attack, from the survival d6.
pub fn aircraft_lost(pips: Pips, aircraft: u32) -> u32 {
    match pips {
        5 | 6 => 0,
        4 => share_half_up(aircraft, 1, 4),
        2 | 3 => share_half_up(aircraft, 1, 2),
        _ => share_half_up(aircraft, 3, 4),
    }
}
