//! The lobby's requests and answers (HTTP + JSON): the scenarios a game may be made from, a game
//! asked for with its seats and settings, the invites made, a game's public face and the seats a
//! person's tokens open.

use crate::{Level, Role, SeatInfo, Status};
use serde::{Deserialize, Serialize};

/// The three kinds of game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Battle,
    Campaign,
    GreatWar,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Battle => "battle",
            Kind::Campaign => "campaign",
            Kind::GreatWar => "great_war",
        }
    }

    pub fn parse(name: &str) -> Option<Kind> {
        [Kind::Battle, Kind::Campaign, Kind::GreatWar].into_iter().find(|k| k.name() == name)
    }
}

/// One scenario a game may be made from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Its path under the scenarios folder, with `/`.
    pub path: String,
    pub kind: Kind,
}

/// Longest phase deadline: fourteen days, in minutes.
pub const MAX_PHASE_MINUTES: u32 = 14 * 24 * 60;
/// Longest delay of a directive: seven days, in minutes.
pub const MAX_DIRECTIVE_MINUTES: u32 = 7 * 24 * 60;
/// Most the moderator extends a clock by at once: seven days, in seconds.
pub const MAX_EXTEND_SECONDS: u32 = 7 * 24 * 60 * 60;

fn yes() -> bool {
    true
}

/// What a phase's expiry does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Expiry {
    /// The power passes: its phase ends.
    #[default]
    Pass,
    /// The AI plays the rest of the power's phase (and gives it back when the phase ends).
    Ai(Level),
}

/// A game's settings, chosen when it is made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// T-TURN-2 and T-SETUP-1 on the server (on, as the rules have it, unless switched off).
    #[serde(default = "yes")]
    pub battle_clock: bool,
    /// Each Great War (or campaign) phase's deadline, in minutes; none: the game waits.
    #[serde(default)]
    pub phase_minutes: Option<u32>,
    #[serde(default)]
    pub on_expiry: Expiry,
    /// How long a leader's directive waits with the moderator before it is passed on, in
    /// minutes (0: at once); the moderator may pass it on sooner.
    #[serde(default)]
    pub directive_minutes: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { battle_clock: true, phase_minutes: None, on_expiry: Expiry::Pass, directive_minutes: 0 }
    }
}

impl Settings {
    /// The limits: a deadline of 1 minute to 14 days, a delay of at most 7 days.
    pub fn check(&self) -> Result<(), String> {
        if let Some(m) = self.phase_minutes
            && !(1..=MAX_PHASE_MINUTES).contains(&m)
        {
            return Err(format!("a phase deadline is 1 to {MAX_PHASE_MINUTES} minutes, not {m}"));
        }
        if self.directive_minutes > MAX_DIRECTIVE_MINUTES {
            return Err(format!("a directive waits at most {MAX_DIRECTIVE_MINUTES} minutes"));
        }
        Ok(())
    }

    /// The settings a game's record holds (`{}`: the defaults).
    pub fn parse(text: &str) -> Result<Settings, String> {
        let s: Settings = serde_json::from_str(text).map_err(|e| format!("the game's settings: {e}"))?;
        s.check()?;
        Ok(s)
    }
}

/// A seat asked for when a game is made: its role's fields and a display name, in one object
/// (`{"role": "general", "player": "germany", "formations": [201], "name": "Moltke"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeatWire")]
pub struct SeatRequest {
    #[serde(flatten)]
    pub role: Role,
    pub name: String,
    /// The AI plays this player's seat from the start, at this level (the moderator may give
    /// it back to a person: its invite is made all the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<Level>,
}

/// A seat request as sent: every field known, none else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatWire {
    role: String,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    formations: Option<Vec<u32>>,
    #[serde(default)]
    fleets: Option<Vec<u32>>,
    name: String,
    #[serde(default)]
    ai: Option<Level>,
}

impl TryFrom<SeatWire> for SeatRequest {
    type Error = String;

    fn try_from(w: SeatWire) -> Result<SeatRequest, String> {
        let needs = |p: Option<String>| p.ok_or_else(|| format!("a {} seat names its player", w.role));
        let only_generals = w.formations.is_some() || w.fleets.is_some();
        let role = match w.role.as_str() {
            "player" if !only_generals => Role::Player { player: needs(w.player)? },
            "observer" if !only_generals => Role::Observer { player: needs(w.player)? },
            "moderator" if !only_generals && w.player.is_none() => Role::Moderator,
            "general" => Role::General {
                player: needs(w.player)?,
                formations: w.formations.unwrap_or_default(),
                fleets: w.fleets.unwrap_or_default(),
            },
            other => {
                return Err(format!("`{other}` is not a seat of these fields (player, general, moderator, observer)"));
            }
        };
        if w.ai.is_some() && !role.is_leader() {
            return Err("only a player's seat is given to the AI".into());
        }
        Ok(SeatRequest { role, name: w.name, ai: w.ai })
    }
}

/// A game asked for in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub scenario: String,
    /// The seats; omitted: one per player and a moderator.
    #[serde(default)]
    pub seats: Option<Vec<SeatRequest>>,
    /// Clocks, deadlines and the directives' delay; omitted: the rules' defaults.
    #[serde(default)]
    pub settings: Option<Settings>,
}

/// A seat made, with its invite token (shown this once).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Invite {
    pub seat: u32,
    pub role: Role,
    pub name: String,
    pub token: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Created {
    pub game: String,
    pub kind: Kind,
    pub seed_commit: String,
    pub players: Vec<String>,
    pub seats: Vec<Invite>,
}

/// A game as anyone may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    pub game: String,
    pub kind: String,
    pub scenario: String,
    pub seed_commit: String,
    pub seats: Vec<SeatInfo>,
    pub status: Status,
}

/// The tokens a person holds, asked which seats they open.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MyGamesRequest {
    pub tokens: Vec<String>,
}

/// A seat a token opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MySeat {
    pub game: String,
    pub seat: u32,
    pub name: String,
    pub kind: String,
    pub scenario: String,
}
