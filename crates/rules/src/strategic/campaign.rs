//! The scenario's campaign blocks: a neutral power's entry into the war, the calendar, and the
//! victory conditions (issue 12). Every block is optional and left out of saves and hashes when
//! absent, so scenarios and saves written before them keep their hashes.

use serde::{Deserialize, Serialize};

/// House rule: when a neutral power enters the war. Until then its units take no orders and no
/// other power's land unit may enter its land (unless `when_invaded`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The turn it enters at the start of (its Preparation phase); `None`: no set turn.
    #[serde(default)]
    pub turn: Option<u32>,
    /// Its land may be entered by a land unit of a power at war of the other alliance, and it
    /// enters the war (in its own alliance) at once when that happens; otherwise, and for its own
    /// alliance's powers, its land is closed.
    #[serde(default)]
    pub when_invaded: bool,
}

/// Turn length (the rules leave it to the scenario): the date of the scenario's first turn
/// (`start_turn`) and how many months each turn lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calendar {
    pub year: i32,
    /// 1–12.
    pub month: u8,
    /// 1–12.
    pub months_per_turn: u8,
}

/// A year and month.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Date {
    pub year: i32,
    pub month: u8,
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NAMES: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let name = NAMES.get(usize::from(self.month.clamp(1, 12) - 1)).copied().unwrap_or("?");
        write!(f, "{name} {}", self.year)
    }
}

impl Calendar {
    /// The date of `turn`, counting from the scenario's `start_turn` at the calendar's date.
    pub fn date(&self, start_turn: u32, turn: u32) -> Date {
        let months = i64::from(turn.saturating_sub(start_turn)) * i64::from(self.months_per_turn)
            + i64::from(self.month.clamp(1, 12) - 1);
        let year = i64::from(self.year) + months.div_euclid(12);
        Date { year: i32::try_from(year).unwrap_or(i32::MAX), month: (months.rem_euclid(12) + 1) as u8 }
    }

    /// The turn in which a date falls (for scenario builders turning historical dates into entry
    /// turns); `None` before the first turn.
    pub fn turn_of(&self, start_turn: u32, date: Date) -> Option<u32> {
        let months = (i64::from(date.year) - i64::from(self.year)) * 12 + i64::from(date.month)
            - i64::from(self.month.clamp(1, 12));
        if months < 0 {
            return None;
        }
        u32::try_from(months / i64::from(self.months_per_turn.max(1))).ok()?.checked_add(start_turn)
    }
}

/// House rules of victory: surrender, the alliance's win, and victory points at the turn limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// A power surrenders when the enemy holds its capital province and at least this share (in
    /// percent, of the provinces it owned at the start, by count) of its provinces.
    pub surrender_share_percent: u32,
    /// A power also surrenders from national exhaustion: no manpower of either class, money 0 or
    /// less and no land unit left (all dispersed or destroyed) at the end of an Upkeep.
    #[serde(default)]
    pub exhaustion: bool,
    /// Victory points of a province not listed in `vp`.
    #[serde(default)]
    pub province_vp: u32,
    /// Victory points of named provinces (by province id).
    #[serde(default)]
    pub vp: Vec<(String, u32)>,
}

impl Victory {
    /// Victory points of a province.
    pub fn points(&self, province: &str) -> u32 {
        self.vp.iter().find(|(p, _)| p == province).map_or(self.province_vp, |(_, n)| *n)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Every power of the other alliance that went to war has surrendered.
    Surrender { winner: u8 },
    /// The turn limit: the alliance with more victory points wins (`winner` none: a draw).
    Points { winner: Option<u8>, points: [u64; 2] },
}

impl Outcome {
    pub fn winner(&self) -> Option<u8> {
        match self {
            Outcome::Surrender { winner } => Some(*winner),
            Outcome::Points { winner, .. } => *winner,
        }
    }
}
