//! The messages between the umpire server and its clients, defined once for both ends: the
//! live stream of a game (JSON text frames over a WebSocket) and what they carry (a seat's role,
//! where the game stands, its clock). What a client sends is refused whole if it has a field the
//! protocol does not know; a client reads what the server sends with the same types.

pub use ai::Level;
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod lobby;
pub use lobby::*;

/// The reader's language for refusals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    Ru,
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message: the seat's invite token and the last order count the client has.
    Hello {
        token: String,
        #[serde(default)]
        last: Option<u64>,
        #[serde(default)]
        lang: Lang,
        /// The number of the last entry of the written record the client was sent (none: all).
        #[serde(default)]
        mail: Option<u64>,
        /// Send a fresh view after the events of each change (a client that plays on its
        /// view, as the game's own client does); without it, events only.
        #[serde(default)]
        views: bool,
        /// With a fresh view, the events of the orders before it that the server still keeps
        /// for this seat (a page opened again fills its log with them).
        #[serde(default)]
        history: bool,
    },
    /// An order in the engine's own JSON form, with the client's sequence number.
    Order { seq: u64, order: Value },
    /// What an order would do, from what the seat knows.
    Preview { seq: u64, order: Value },
    /// A leader gives a general seat the armies and fleets it commands.
    Assign {
        seq: u64,
        seat: u32,
        #[serde(default)]
        formations: Vec<u32>,
        #[serde(default)]
        fleets: Vec<u32>,
    },
    /// The moderator's actions.
    Moderate { seq: u64, action: ModAction },
    /// A leader's written directive to generals of its power (T-STRAT-3), through the moderator.
    Directive { seq: u64, to: Vec<u32>, text: String },
    /// A chat line: to the seat's alliance or to the moderator (the moderator: to a seat).
    Chat { seq: u64, to: ChatTo, text: String },
    /// The seat's webhook (`crate::webhook`): an `http://` URL, or none to remove it.
    Webhook {
        seq: u64,
        #[serde(default)]
        url: Option<String>,
    },
}

/// Whom a chat line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ChatTo {
    /// Every seat of the writer's alliance (its side in a battle or campaign).
    Alliance,
    Moderator,
    /// One seat (the moderator writes to it).
    Seat(u32),
}

impl ClientMsg {
    pub fn seq(&self) -> Option<u64> {
        match self {
            ClientMsg::Hello { .. } => None,
            ClientMsg::Order { seq, .. }
            | ClientMsg::Preview { seq, .. }
            | ClientMsg::Assign { seq, .. }
            | ClientMsg::Moderate { seq, .. }
            | ClientMsg::Directive { seq, .. }
            | ClientMsg::Chat { seq, .. }
            | ClientMsg::Webhook { seq, .. } => Some(*seq),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum ModAction {
    Pause,
    Resume,
    /// The AI plays the seat's side or power until taken back.
    HandToAi {
        seat: u32,
        level: Level,
    },
    TakeBack {
        seat: u32,
    },
    /// A directive held for the game's delay goes on to its generals now.
    PassOn {
        directive: u64,
    },
    /// The running clock gets this many seconds more (1 to 7 days' worth).
    Extend {
        seconds: u32,
    },
}

/// Where the game stands and whom it waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    pub clock: Clockface,
    pub paused: bool,
    /// The seats the game waits for (the active player's that are not done), by number.
    pub waiting_for: Vec<u32>,
    /// The players the AI plays.
    pub ai: Vec<String>,
    /// The clock the game runs now (T-SETUP-1, T-TURN-2, a phase's deadline) and the time left.
    pub timer: Option<TimerFace>,
    /// The seats with a connection open now, by number (the moderator's table shows them).
    #[serde(default)]
    pub connected: Vec<u32>,
}

impl Status {
    /// The status but for the time left on a running clock (which changes by itself): two
    /// statuses that differ only there are the same news.
    pub fn settled(&self) -> Status {
        let mut s = self.clone();
        if let Some(t) = s.timer.as_mut().filter(|t| t.running) {
            t.left_ms = 0;
        }
        s
    }
}

/// A seat as everyone may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: u32,
    pub role: Role,
    pub name: String,
}

/// What the server sends.
// A message is made, sent (or read) and dropped one at a time: its size is no matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to a hello: the seat, its view and where the game stands.
    /// `view` is `None` when the client resumes after the order count `at` it gave: the events
    /// since follow.
    Welcome {
        game: String,
        /// The game's kind (`battle`, `campaign`, `great_war`) and its scenario's path under the
        /// scenarios folder: a client plays on its own copy of the scenario (a view names its
        /// hash, so a copy of another version is found out).
        kind: String,
        scenario: String,
        /// The highest sequence number of this seat's messages so far: a client that lost count
        /// (a page reloaded) numbers its next message after it.
        last_seq: u64,
        seat: SeatInfo,
        seats: Vec<SeatInfo>,
        seed_commit: String,
        at: u64,
        view: Option<Value>,
        status: Status,
        /// Asked for with `history` and sent with a fresh view: the events of the orders up to
        /// `at` as this seat saw them when they happened, oldest first (the newest the server
        /// keeps, at most `MAX_HISTORY_EVENTS` events).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        history: Vec<Past>,
    },
    /// A fresh view (the client was too far behind to be sent the events it missed).
    View {
        at: u64,
        view: Value,
        status: Status,
    },
    /// The events of order `at` (the `at`-th order of the game) as this seat sees them.
    Events {
        at: u64,
        events: Vec<Value>,
        status: Status,
    },
    /// The seat's own message `seq` was taken; `at` is the game's order count after it;
    /// `applied` when it was an order that went into the log (its events with it), not when the
    /// seat is done and the game waits for its player's other seats.
    Ack {
        seq: u64,
        at: u64,
        events: Vec<Value>,
        applied: bool,
        status: Status,
    },
    /// The game's seats as this seat may know them, when they changed (a leader gave a general
    /// its armies): a general's command is told to its own side and the moderator only.
    Seats {
        seats: Vec<SeatInfo>,
    },
    /// Where the game stands, when that changed without an order (a pause, a seat done).
    Status {
        status: Status,
    },
    Preview {
        seq: u64,
        preview: Value,
    },
    Refused {
        seq: Option<u64>,
        code: String,
        text: String,
    },
    /// An entry of the written record for this seat: `n` is its delivery's number (a client
    /// resumes after the last it was sent), `entry` its place in the record; `deliver_ms`, for
    /// a directive, when it reaches (or reached) its generals.
    Mail {
        n: u64,
        entry: u64,
        kind: String,
        from: Option<u32>,
        to: Vec<u32>,
        text: String,
        sent_ms: i64,
        deliver_ms: Option<i64>,
    },
    /// The game is over: the seed and the whole log, as the engine's save (`umpire replay` checks it).
    Reveal {
        seed: u64,
        seed_commit: String,
        save: String,
        hash: String,
    },
}

/// The events of one past order as a seat saw them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Past {
    pub at: u64,
    pub events: Vec<Value>,
}

/// The most events a welcome's history holds (the newest orders' whole events, up to it).
pub const MAX_HISTORY_EVENTS: usize = 20_000;

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case", deny_unknown_fields)]
pub enum Role {
    /// A battle's or campaign's side, or a Great War power's leader (diplomacy, economy,
    /// research, purchases, directives, and every piece no general of its power holds).
    Player { player: String },
    /// A general of `player`: in the Great War it commands the armies (by formation ID, corps
    /// outside an army too) and fleets its leader assigns (S-ARMY-3: orders go to armies); in a
    /// campaign the armies (by army ID) and their battles; in a battle the formations (by the
    /// battle's formation ID, T-CMD-1). It serves under its player's leader seat.
    General {
        player: String,
        #[serde(default)]
        formations: Vec<u32>,
        #[serde(default)]
        fleets: Vec<u32>,
    },
    /// Sees everything, pauses, extends clocks, hands seats to the AI.
    Moderator,
    /// Sees what one side sees (everything once the game is over).
    Observer { player: String },
}

/// Whom a game's clockface names while it awaits its moderator's ruling.
pub const MODERATOR: &str = "moderator";

impl Role {
    /// Whether a game waiting for `active` (a player, or [`MODERATOR`]: a ruling) waits for
    /// this seat.
    pub fn is_waited_for(&self, active: &str) -> bool {
        self.commands() == Some(active) || (active == MODERATOR && *self == Role::Moderator)
    }

    /// The player (side or power) the seat gives orders for.
    pub fn commands(&self) -> Option<&str> {
        match self {
            Role::Player { player } | Role::General { player, .. } => Some(player),
            Role::Moderator | Role::Observer { .. } => None,
        }
    }

    /// The player whose sight the seat has (`None`: the umpire's).
    pub fn sees_as(&self) -> Option<&str> {
        match self {
            Role::Player { player } | Role::General { player, .. } | Role::Observer { player } => Some(player),
            Role::Moderator => None,
        }
    }

    pub fn is_leader(&self) -> bool {
        matches!(self, Role::Player { .. })
    }
}

/// Where the game stands, for every seat's status line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clockface {
    pub turn: u32,
    /// The phase's string key (`server.phase.battle`).
    pub phase: String,
    pub active: Option<String>,
    pub over: bool,
    pub orders: usize,
}

/// What a timer times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum What {
    Setup,
    Turn,
    Phase,
}

/// A timer as every seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimerFace {
    pub what: What,
    pub running: bool,
    /// When it runs out (the server's milliseconds since the epoch), while it runs.
    pub deadline_ms: Option<i64>,
    /// Milliseconds left when this was sent.
    pub left_ms: i64,
}
