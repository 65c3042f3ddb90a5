//! Playing a seat of a game the umpire server keeps (`kriegsspiel-server`), natively and in the
//! browser: one client over a WebSocket (a thread of its own natively, the page's socket in the
//! browser) and the messages of the `wire` crate, the server's own.
//!
//! A seat joins by its invite (`http://HOST:PORT/?game=ID&seat=TOKEN`). The server sends the
//! seat's view and, after every change, the events the seat may see and its fresh view; the
//! session's game is that view made into a game (`rules::view::Mirror`), so the scene, its
//! previews (computed here, on what the seat knows), log and cards are those of a game at one
//! screen. Orders go to the server with a sequence number; a lost connection is taken up again by
//! itself, the orders not yet answered are sent again under their numbers (the server answers a
//! repeat with its first answer: nothing is lost or given twice), and the view resumes.

pub mod bar;
pub mod command;
#[cfg(not(target_arch = "wasm32"))]
pub mod http;
#[cfg(target_arch = "wasm32")]
#[path = "http_web.rs"]
pub mod http;
#[cfg(not(target_arch = "wasm32"))]
mod link;
#[cfg(target_arch = "wasm32")]
#[path = "link_web.rs"]
mod link;
pub mod menu;
pub mod notify;
pub mod rulings;
pub mod table;

use crate::screens::{Mode, PlayView, Screen};
use crate::session::{GameEvents, PlayGame, Remote, Session};
use bevy::prelude::*;
use rules::texts::Msg;
use serde_json::Value;
use wire::{ClientMsg, Lang, Role, SeatInfo, ServerMsg, Status};

pub use link::Link;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<JoinOnline>()
        .init_resource::<OnlineKinds>()
        .init_resource::<command::Roster>()
        .init_resource::<rulings::Rulings>()
        .init_resource::<command::SeatCommand>()
        .add_systems(
            Update,
            (join, pump, remember_joined, command::follow_command).chain().in_set(crate::AppSystems::Input),
        )
        .add_systems(OnEnter(Screen::Title), leave);
    #[cfg(target_arch = "wasm32")]
    app.add_systems(PostStartup, join_from_link);
}

/// What draws: the title screen's window and the seat's bar.
pub(super) fn view_plugin(app: &mut App) {
    app.add_plugins((menu::plugin, bar::plugin, table::plugin, notify::plugin));
}

/// The kinds of game this build plays online (each scene that does adds its own).
#[derive(Resource, Default, Debug, Clone)]
pub struct OnlineKinds(pub Vec<&'static str>);

/// A scene's game played online: its kind on the server, its scenario by the server's path, and
/// what it makes of the events its seat is sent.
pub trait OnlineGame: PlayGame + rules::view::Mirror {
    /// The server's name of this kind of game (`battle`).
    const KIND: &'static str;
    /// The scenario at `path` under the scenarios folder (the server's path of it).
    fn load_online(path: &str) -> Result<Self::Scenario, String>;
    /// An event as the seat saw it, for the log and the board (none: hidden from the seat).
    fn open(seen: Self::SeenEvent) -> Option<Self::Event>;
    /// The view made into a game; `last`, the game of the view before it, may lend what they
    /// share (the Great War's map is not copied again for each view).
    /// Whether the scenario at `path` (the server's path) can be read now: the browser may still
    /// be fetching a large one's files (the seat waits for them, its messages kept).
    fn ready(path: &str) -> bool {
        let _ = path;
        true
    }
    /// What the game leaves to its moderator and the question it waits on, in the reader's
    /// words, for the moderator's table (none: nothing).
    fn rulings(&self, tr: &crate::i18n::Tr) -> rulings::Rulings {
        let _ = tr;
        rulings::Rulings::default()
    }
    /// The server's name of a player of this game (`red`; a Great War power's scenario ID).
    fn player_id(&self, player: Self::Player) -> String {
        Self::player_name(player).to_string()
    }
    fn mirror(
        scenario: &Self::Scenario,
        last: Option<&Self>,
        view: &Self::View,
    ) -> Result<Self, rules::view::ViewError> {
        let _ = last;
        Self::from_view(scenario, view)
    }
}

/// A scenario's path as a server names it: plain names under the scenarios folder, a `.ron` file
/// (one that climbs out of the folder or names a hidden file is refused).
///
/// ```
/// use kriegsspiel::net::plain_scenario_path;
///
/// assert!(plain_scenario_path("great_war/test_front.ron"));
/// assert!(!plain_scenario_path("../secrets.ron") && !plain_scenario_path("a//b.ron") && !plain_scenario_path("x.txt"));
/// ```
pub fn plain_scenario_path(path: &str) -> bool {
    let plain = |part: &str| {
        !part.is_empty()
            && !part.starts_with('.')
            && part.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
    };
    path.len() <= 128 && path.ends_with(".ron") && path.split('/').all(plain)
}

/// The file of a scenario the server names by its path under the scenarios folder (`scenarios/`
/// and the path), or why the path is refused (one that climbs out of the folder, names a hidden
/// file or is no `.ron` file).
pub fn scenario_file(path: &str) -> Result<String, String> {
    if !plain_scenario_path(path) {
        return Err(format!("`{path:.128}` is not a scenario's path"));
    }
    Ok(format!("scenarios/{path}"))
}

/// An order in the engine's JSON form, for the moderator's table (the server reads it back).
pub fn order_json<O: serde::Serialize>(order: &O) -> Value {
    serde_json::to_value(order).unwrap_or(Value::Null)
}

/// A scene's part of playing online.
pub fn plugin_for<G: OnlineGame>(app: &mut App) {
    app.init_resource::<OnlineKinds>();
    app.world_mut().resource_mut::<OnlineKinds>().0.push(G::KIND);
    app.add_systems(Update, follow::<G>.after(pump).in_set(crate::AppSystems::Input));
    app.add_systems(Update, rulings::follow::<G>.after(crate::AppSystems::Input));
}

/// What the connection's side reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    Open,
    Text(String),
    Closed(String),
}

/// A seat's invite link: the server, the game and the seat's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLink {
    /// `http://HOST:PORT` or `https://HOST:PORT`.
    pub server: String,
    pub game: String,
    pub token: String,
}

/// Longest game ID and token the lobby makes.
const MAX_ID: usize = 64;

fn plain_hex(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_ID && text.bytes().all(|b| b.is_ascii_hexdigit())
}

impl SeatLink {
    /// Reads an invite: its link (`http://HOST:PORT/?game=ID&seat=TOKEN`), or its code
    /// (`ID/TOKEN`) on the server `server` names.
    ///
    /// ```
    /// use kriegsspiel::net::SeatLink;
    ///
    /// let i = SeatLink::parse("http://127.0.0.1:8080/?game=ab12&seat=00ff", "").expect("a link");
    /// assert_eq!((i.server.as_str(), i.game.as_str(), i.token.as_str()), ("http://127.0.0.1:8080", "ab12", "00ff"));
    /// assert_eq!(i.live_url(), "ws://127.0.0.1:8080/api/games/ab12/live");
    /// let code = SeatLink::parse("ab12/00ff", "https://example.org").expect("a code");
    /// assert_eq!(code.live_url(), "wss://example.org/api/games/ab12/live");
    /// assert!(SeatLink::parse("http://h/?game=../x&seat=00", "").is_err());
    /// ```
    pub fn parse(text: &str, server: &str) -> Result<SeatLink, String> {
        let text = text.trim();
        let (server, game, token) = if let Some((base, query)) = text.split_once('?') {
            let mut game = None;
            let mut token = None;
            for pair in query.split('&') {
                match pair.split_once('=') {
                    Some(("game", v)) => game = Some(v),
                    Some(("seat", v)) => token = Some(v),
                    _ => {}
                }
            }
            let (Some(game), Some(token)) = (game, token) else {
                return Err("the link names no game and seat (?game=…&seat=…)".into());
            };
            (base.trim_end_matches('/').to_string(), game, token)
        } else {
            let Some((game, token)) = text.split_once('/') else {
                return Err("an invite is a link (http://…/?game=…&seat=…) or a code (GAME/SEAT)".into());
            };
            (server.trim().trim_end_matches('/').to_string(), game, token)
        };
        let origin = server.strip_prefix("http://").or_else(|| server.strip_prefix("https://"));
        match origin {
            Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', '@', ' ']) => {}
            _ => return Err(format!("`{server}` is not a server's address (http://HOST:PORT)")),
        }
        if !plain_hex(game) || !plain_hex(token) {
            return Err("the game and seat of an invite are hexadecimal codes".into());
        }
        Ok(SeatLink { server, game: game.to_string(), token: token.to_string() })
    }

    /// The game's live stream.
    pub fn live_url(&self) -> String {
        let ws = if let Some(rest) = self.server.strip_prefix("https://") {
            format!("wss://{rest}")
        } else {
            format!("ws://{}", self.server.strip_prefix("http://").unwrap_or(&self.server))
        };
        format!("{ws}/api/games/{}/live", self.game)
    }

    /// The seat's link, to send a friend (the server serves the game at it).
    pub fn link(&self) -> String {
        format!("{}/?game={}&seat={}", self.server, self.game, self.token)
    }
}

/// Join a game's seat by its invite.
#[derive(Message, Clone, Debug)]
pub struct JoinOnline(pub SeatLink);

/// Where the connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conn {
    Connecting,
    Live,
    /// Lost; taken up again by itself.
    Lost(String),
    /// The server refused the seat (a bad invite, a game of another version): no retry.
    Failed(String),
}

/// A seat's name as the server gives it, in the reader's language where it is a side's
/// (`red`) or the moderator's.
pub fn seat_words(tr: &crate::i18n::Tr, name: &str) -> String {
    let keys = if name == "moderator" {
        vec!["ui.table.role_moderator".to_string()]
    } else {
        // A battle's or campaign's side, or a Great War power, by its ID.
        vec![format!("side.{name}"), format!("gw.power.{name}")]
    };
    keys.iter()
        .map(|k| (k, tr.t(k)))
        .find(|(k, named)| named != *k)
        .map_or_else(|| name.to_string(), |(_, named)| named)
}

/// An entry of the written record as this seat was sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub entry: u64,
    /// `chat` or `directive`.
    pub kind: String,
    pub from: Option<u32>,
    pub to: Vec<u32>,
    pub text: String,
    pub sent_ms: i64,
    /// A directive's delivery to its generals (the moderator may hold it until then).
    pub deliver_ms: Option<i64>,
}

/// UI limit: letters kept on screen (the oldest go first; the server keeps them all).
const MAX_LETTERS: usize = 500;

/// Longest wait between two tries to connect again, in seconds.
const MAX_RETRY: f64 = 8.0;

/// The seat online.
#[derive(Resource)]
pub struct Online {
    pub invite: SeatLink,
    link: Option<Link>,
    pub conn: Conn,
    /// This seat and every seat of the game, as the server names them.
    pub seat: Option<SeatInfo>,
    pub seats: Vec<SeatInfo>,
    /// How many times the server told the seats anew (a leader gave a general its command).
    pub seats_told: u64,
    /// The game's kind and scenario, once welcomed.
    pub kind: String,
    pub scenario: String,
    pub status: Option<Status>,
    /// When the status came (the app's real time, in seconds): its clock counts down from then.
    pub status_at: f64,
    /// The game's order count this seat has been sent up to.
    pub at: u64,
    /// The order count of the last view the seat was sent (its game is that view's).
    pub view_at: Option<u64>,
    mail: u64,
    next_seq: u64,
    /// Messages sent and not yet answered (orders, chat, the moderator's actions), by sequence
    /// number: sent again, under it, after a reconnect.
    pending: Vec<(u64, ClientMsg)>,
    /// The written record the seat was sent: directives and chat, in order of delivery.
    pub letters: Vec<Letter>,
    /// The server's last refusal of this seat's messages, in its words.
    pub refused: Option<String>,
    /// Messages of the game for its scene (`follow`): views, events, answers.
    inbox: Vec<ServerMsg>,
    tries: u32,
    retry_at: f64,
    /// Entries of the written record (directives, chat) not yet read.
    pub unread: usize,
    /// The game's whole log once it is over (the engine's save) and the hash the server says it
    /// replays to, until the scene keeps it (`follow`).
    pub revealed: Option<(String, String)>,
    lang: Lang,
}

impl Online {
    pub fn new(invite: SeatLink, lang: Lang) -> Online {
        Online {
            invite,
            link: None,
            conn: Conn::Connecting,
            seat: None,
            seats: Vec::new(),
            seats_told: 0,
            kind: String::new(),
            scenario: String::new(),
            status: None,
            status_at: 0.0,
            at: 0,
            view_at: None,
            mail: 0,
            next_seq: 1,
            pending: Vec::new(),
            letters: Vec::new(),
            refused: None,
            inbox: Vec::new(),
            tries: 0,
            retry_at: 0.0,
            unread: 0,
            revealed: None,
            lang,
        }
    }

    fn send(&self, msg: &ClientMsg) {
        if let (Some(link), Ok(text)) = (&self.link, serde_json::to_string(msg)) {
            link.send(text);
        }
    }

    /// Sends a message made with its sequence number (now, or once connected again).
    fn ask(&mut self, make: impl FnOnce(u64) -> ClientMsg) {
        let seq = self.next_seq;
        self.next_seq += 1;
        let msg = make(seq);
        if self.conn == Conn::Live {
            self.send(&msg);
        }
        self.pending.push((seq, msg));
    }

    /// An order in the engine's JSON form (a scene's orders go through its session; the
    /// moderator's table sends the moderator's own).
    pub fn order(&mut self, order: Value) {
        self.ask(|seq| ClientMsg::Order { seq, order });
    }

    /// A chat line (to the seat's side, to the moderator, or from the moderator to a seat).
    pub fn chat(&mut self, to: wire::ChatTo, text: String) {
        self.ask(|seq| ClientMsg::Chat { seq, to, text });
    }

    /// A leader's written directive to general seats of its side (T-STRAT-3).
    pub fn directive(&mut self, to: Vec<u32>, text: String) {
        self.ask(|seq| ClientMsg::Directive { seq, to, text });
    }

    /// A leader gives one of its general seats the armies (corps outside an army) and fleets it
    /// commands (S-ARMY-3), in place of what it held.
    pub fn assign(&mut self, seat: u32, formations: Vec<u32>, fleets: Vec<u32>) {
        self.ask(|seq| ClientMsg::Assign { seq, seat, formations, fleets });
    }

    /// One of the moderator's actions.
    pub fn moderate(&mut self, action: wire::ModAction) {
        self.ask(|seq| ClientMsg::Moderate { seq, action });
    }

    /// Orders sent and not yet answered.
    pub fn unanswered(&self) -> usize {
        self.pending.iter().filter(|(_, m)| matches!(m, ClientMsg::Order { .. })).count()
    }

    /// The seat cannot be played (its scenario's files did not come): said, and not tried again.
    pub fn fail(&mut self, why: String) {
        self.conn = Conn::Failed(why);
        self.link = None;
    }

    /// Breaks the connection as a network fault would (it is taken up again by itself).
    pub fn cut(&self) {
        if let Some(link) = &self.link {
            link.cut();
        }
    }

    /// Whether the server waits for this seat.
    pub fn waits_for_me(&self) -> bool {
        let (Some(seat), Some(status)) = (&self.seat, &self.status) else { return false };
        status.waiting_for.contains(&seat.seat)
    }

    fn connect(&mut self) {
        self.link = Some(Link::open(&self.invite.live_url()));
        // Resuming: after the order count this seat has, and the written record it was sent.
        let last = (self.seat.is_some()).then_some(self.at);
        self.send(&ClientMsg::Hello {
            token: self.invite.token.clone(),
            last,
            lang: self.lang,
            mail: Some(self.mail),
            views: true,
            // A fresh view comes with the orders before it, for the log (a page opened again).
            history: true,
        });
    }

    fn lost(&mut self, why: String, now: f64) {
        self.link = None;
        if matches!(self.conn, Conn::Failed(_)) {
            return;
        }
        let wait = (0.5 * 2f64.powi(i32::try_from(self.tries.min(8)).unwrap_or(8))).min(MAX_RETRY);
        self.tries += 1;
        self.retry_at = now + wait;
        self.conn = Conn::Lost(why);
    }

    /// A message of the connection; those of the game go to its scene.
    fn take(&mut self, msg: ServerMsg, now: f64) {
        match msg {
            ServerMsg::Welcome {
                ref kind,
                ref scenario,
                ref seat,
                ref seats,
                at,
                last_seq,
                ref status,
                ref view,
                ..
            } => {
                if view.is_some() {
                    self.view_at = Some(at);
                }
                self.conn = Conn::Live;
                self.tries = 0;
                self.kind = kind.clone();
                self.scenario = scenario.clone();
                self.seat = Some(seat.clone());
                self.seats = seats.clone();
                self.at = at;
                self.status = Some(status.clone());
                self.status_at = now;
                // Numbered after the seat's last message, then the unanswered ones again.
                self.next_seq = self.next_seq.max(last_seq.saturating_add(1));
                for (_, msg) in &self.pending {
                    self.send(msg);
                }
                self.inbox.push(msg);
            }
            ServerMsg::View { at, ref status, .. } | ServerMsg::Events { at, ref status, .. } => {
                if matches!(msg, ServerMsg::View { .. }) {
                    self.view_at = Some(at);
                }
                self.at = self.at.max(at);
                self.status = Some(status.clone());
                self.status_at = now;
                self.inbox.push(msg);
            }
            ServerMsg::Ack { seq, at, ref status, .. } => {
                self.pending.retain(|(q, _)| *q != seq);
                self.at = self.at.max(at);
                self.status = Some(status.clone());
                self.status_at = now;
                self.inbox.push(msg);
            }
            ServerMsg::Refused { seq: Some(seq), ref text, .. } => {
                self.pending.retain(|(q, _)| *q != seq);
                self.refused = Some(text.clone());
                self.inbox.push(msg);
            }
            // Refused before the welcome (a bad invite): the seat cannot be joined.
            ServerMsg::Refused { seq: None, text, .. } if self.seat.is_none() => {
                self.conn = Conn::Failed(text);
            }
            ServerMsg::Refused { seq: None, text, .. } => {
                self.inbox.push(ServerMsg::Refused { seq: None, code: String::new(), text });
            }
            ServerMsg::Status { status } => {
                self.status = Some(status);
                self.status_at = now;
            }
            // A leader gave a general its command: this seat's role, and the others', as told.
            ServerMsg::Seats { seats } => {
                let mine = self.seat.as_ref().map(|s| s.seat);
                if let Some(me) = seats.iter().find(|s| Some(s.seat) == mine) {
                    self.seat = Some(me.clone());
                }
                self.seats = seats;
                self.seats_told += 1;
            }
            ServerMsg::Mail { n, entry, kind, from, to, text, sent_ms, deliver_ms } => {
                self.mail = self.mail.max(n);
                // A delivery seen before (a directive's copy to the moderator, then to its
                // generals) is the same letter.
                match self.letters.iter_mut().find(|l| l.entry == entry) {
                    Some(l) => l.deliver_ms = deliver_ms,
                    None => {
                        if self.letters.len() >= MAX_LETTERS {
                            self.letters.remove(0);
                        }
                        self.letters.push(Letter { entry, kind, from, to, text, sent_ms, deliver_ms });
                        self.unread += 1;
                    }
                }
            }
            ServerMsg::Reveal { save, hash, .. } => self.revealed = Some((save, hash)),
            ServerMsg::Preview { .. } => {}
        }
    }

    /// Seconds left on the game's running clock, counted down since the status came.
    pub fn clock_left(&self, now: f64) -> Option<f64> {
        let timer = self.status.as_ref()?.timer.as_ref()?;
        let left = timer.left_ms as f64 / 1000.0;
        Some(if timer.running { (left - (now - self.status_at)).max(0.0) } else { left })
    }
}

/// A seat joined is remembered with its number and name (the title's list of games).
fn remember_joined(online: Option<Res<Online>>, mut settings: ResMut<crate::settings::Settings>) {
    let Some(online) = online.filter(|o| o.is_changed()) else { return };
    let Some(seat) = &online.seat else { return };
    let link = online.invite.link();
    let known = settings.seats.iter().find(|k| k.link == link);
    if known.is_none_or(|k| k.seat != Some(seat.seat) || k.name != seat.name) {
        let seat = crate::settings::KnownSeat { link, seat: Some(seat.seat), name: seat.name.clone() };
        menu::remember(&mut settings, seat);
    }
}

fn join(
    mut commands: Commands,
    mut joins: MessageReader<JoinOnline>,
    tr: Res<crate::i18n::Tr>,
    mut settings: ResMut<crate::settings::Settings>,
) {
    for JoinOnline(invite) in joins.read() {
        let lang = if tr.russian() { Lang::Ru } else { Lang::En };
        if settings.server != invite.server {
            settings.server = invite.server.clone();
        }
        commands.insert_resource(Online::new(invite.clone(), lang));
    }
}

/// Connects (again), and takes what the connection brought.
fn pump(online: Option<ResMut<Online>>, time: Res<Time<Real>>, kinds: Res<OnlineKinds>) {
    let Some(mut online) = online else { return };
    let now = time.elapsed_secs_f64();
    let due = match &online.conn {
        Conn::Connecting => online.link.is_none(),
        Conn::Lost(_) => online.link.is_none() && now >= online.retry_at,
        Conn::Live | Conn::Failed(_) => false,
    };
    if due {
        online.connect();
    }
    let Some(link) = &online.link else { return };
    for event in link.poll() {
        match event {
            LinkEvent::Open => {}
            LinkEvent::Text(text) => match serde_json::from_str::<ServerMsg>(&text) {
                Ok(ServerMsg::Welcome { kind, .. }) if !kinds.0.contains(&kind.as_str()) => {
                    online.conn = Conn::Failed(format!("this build plays no `{kind}` online"));
                    online.link = None;
                    return;
                }
                Ok(msg) => online.take(msg, now),
                Err(e) => warn!("the server sent what this client does not read ({e}): {text:.200}"),
            },
            LinkEvent::Closed(why) => {
                online.lost(why, now);
                return;
            }
        }
    }
}

fn leave(mut commands: Commands) {
    commands.remove_resource::<Online>();
}

/// The name an online game's saves go under.
pub fn saved_name(game: &str) -> String {
    format!("online-{game}")
}

/// Replays the log the server revealed and keeps it as the game's save when it reaches the
/// server's hash (a log that does not is refused, said, and not kept).
fn keep_revealed<G: OnlineGame>(game: &str, text: &str, hash: &str) -> Result<(), String> {
    let save = rules::Save::<G>::from_text("revealed", text).map_err(|e| e.to_string())?;
    let replayed = G::replay(&save).map_err(|e| e.to_string())?;
    let reached = replayed.state_hash().to_string();
    if reached != hash {
        return Err(format!("the log replays to {reached}, not to the server's {hash:.32}"));
    }
    let seats = vec![crate::saves::Seat::Human; replayed.seat_order().len()];
    let saved = crate::saves::SavedGame { mode: G::MODE, game: saved_name(game), seats, save };
    crate::saves::autosave(&saved, replayed.turn()).map_err(|e| crate::storage::describe(&e))
}

/// The player a seat gives orders for, and whose eyes it has.
fn seat_player<G: OnlineGame>(game: &G, role: &Role) -> (Option<G::Player>, Option<G::Player>) {
    let find = |name: Option<&str>| game.seat_order().into_iter().find(|p| Some(game.player_id(*p).as_str()) == name);
    (find(role.sees_as()), find(role.commands()))
}

/// The screen, mode and view a session is put on screen with.
pub(crate) type Screens<'w> =
    (ResMut<'w, NextState<Screen>>, ResMut<'w, NextState<Mode>>, ResMut<'w, NextState<PlayView>>);

/// The scene's part: the seat's view made into the session's game, the events of each change to
/// the scene, refusals as the engine's are shown, and the orders given to the server.
#[allow(clippy::too_many_arguments)]
fn follow<G: OnlineGame>(
    mut commands: Commands,
    online: Option<ResMut<Online>>,
    mut session: Option<ResMut<Session<G>>>,
    mut scenario: Local<Option<(String, G::Scenario)>>,
    mut events: MessageWriter<GameEvents<G>>,
    (mut screen, mut mode, mut view): Screens,
    tr: Res<crate::i18n::Tr>,
) {
    let Some(mut online) = online else { return };
    if online.kind != G::KIND || !G::ready(&online.scenario) {
        return;
    }
    let mut inbox = std::mem::take(&mut online.inbox).into_iter();
    while let Some(msg) = inbox.next() {
        let (fresh, past) = match msg {
            ServerMsg::Welcome { view: Some(view), history, .. } => (view, history),
            ServerMsg::View { view, .. } => (view, Vec::new()),
            ServerMsg::Events { events: seen, at, .. } | ServerMsg::Ack { events: seen, at, .. } => {
                let remote = session.as_deref_mut().and_then(|s| s.remote.as_mut());
                // Each order's events once: an order answered across a reconnect comes back
                // with the events the resumed stream gave already.
                if seen.is_empty() || remote.as_ref().is_some_and(|r| at <= r.logged) {
                    continue;
                }
                let happened = opened::<G>(seen);
                if let Some(r) = remote {
                    r.logged = at;
                    r.keep(&happened);
                }
                if !happened.is_empty() {
                    events.write(GameEvents(happened));
                }
                continue;
            }
            ServerMsg::Refused { text, .. } => {
                if let Some(s) = session.as_deref_mut() {
                    s.refusal = Some(Msg::plain(text));
                }
                continue;
            }
            _ => continue,
        };
        // The scenario, read once: the seat's own copy of it (the view names its hash).
        if scenario.as_ref().is_none_or(|(path, _)| *path != online.scenario) {
            match G::load_online(&online.scenario) {
                Ok(s) => *scenario = Some((online.scenario.clone(), s)),
                Err(e) => {
                    online.conn = Conn::Failed(e);
                    online.link = None;
                    return;
                }
            }
        }
        let Some((_, scenario)) = scenario.as_ref() else { return };
        let game = match serde_json::from_value::<G::View>(fresh).map_err(|e| e.to_string()).and_then(|v| {
            let last = session.as_deref().filter(|s| s.remote.is_some()).map(|s| &s.game);
            G::mirror(scenario, last, &v).map_err(|e| e.to_string())
        }) {
            Ok(game) => game,
            Err(e) => {
                online.conn = Conn::Failed(e);
                online.link = None;
                return;
            }
        };
        // The orders before a fresh view, for the log (none are shown again on the board).
        let logged = past.last().map_or(0, |p| p.at);
        let earlier = opened::<G>(past.into_iter().flat_map(|p| p.events).collect());
        match session.as_deref_mut().filter(|s| s.remote.is_some()) {
            Some(s) => {
                s.follow_view(game);
                if let Some(r) = s.remote.as_mut().filter(|r| r.log.is_empty()) {
                    r.keep(&earlier);
                    r.logged = r.logged.max(logged);
                }
            }
            None => {
                let Some(seat) = online.seat.clone() else { continue };
                let (viewer, commands_for) = seat_player(&game, &seat.role);
                let name = format!("{} · {}", online.invite.game, seat.name);
                let mut remote = Remote::new(viewer, commands_for);
                remote.keep(&earlier);
                remote.logged = logged;
                let fresh = Session::online(game, name, remote);
                crate::session::begin(&mut commands, fresh, &mut screen, &mut mode, &mut view);
                // The new session is in place next frame; what came after its view follows it.
                online.inbox = inbox.collect();
                return;
            }
        }
    }
    let Some(s) = session.as_deref_mut().filter(|s| s.remote.is_some()) else { return };
    // The game is over: its whole log, checked against the server's hash, is kept as this
    // game's save (a replay of it opens from the title).
    if let Some((text, hash)) = online.revealed.take() {
        let kept = keep_revealed::<G>(&online.invite.game, &text, &hash);
        s.notice = Some(match kept {
            Ok(()) => tr.t("ui.online.log_kept"),
            Err(e) => tr.f("ui.online.log_bad", &[("why", e)]),
        });
    }
    let waited = online.waits_for_me();
    let outbox = s.remote.as_mut().map(|r| std::mem::take(&mut r.outbox)).unwrap_or_default();
    for order in outbox {
        match serde_json::to_value(&order) {
            Ok(v) => online.order(v),
            Err(e) => s.refusal = Some(Msg::plain(e.to_string())),
        }
    }
    if let Some(r) = s.remote.as_mut() {
        r.unanswered = online.unanswered();
        r.waited_for = waited;
        r.at = online.view_at.unwrap_or(0);
    }
}

/// Events as the seat was sent them, those it may see (a hidden one says nothing, and one this
/// client does not read is left out).
fn opened<G: OnlineGame>(seen: Vec<Value>) -> Vec<G::Event> {
    seen.into_iter().filter_map(|v| serde_json::from_value::<G::SeenEvent>(v).ok()).filter_map(G::open).collect()
}

#[cfg(target_arch = "wasm32")]
/// A seat's link opened the page (`/?game=ID&seat=TOKEN`): the game joins that seat, on the
/// server that served the page. A link the game cannot read is said on the page's console.
fn join_from_link(mut join: MessageWriter<JoinOnline>) {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return };
    let (Ok(origin), Ok(search)) = (location.origin(), location.search()) else { return };
    if !search.contains("game=") {
        return;
    }
    match SeatLink::parse(&format!("{origin}/{search}"), "") {
        Ok(invite) => {
            join.write(JoinOnline(invite));
        }
        Err(e) => warn!("the page's link is not a seat's: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn welcome(seat: u32, last_seq: u64, at: u64) -> ServerMsg {
        let info = SeatInfo { seat, role: Role::Player { player: "red".into() }, name: "red".into() };
        let status = Status {
            clock: wire::Clockface {
                turn: 0,
                phase: "server.phase.redoubts".into(),
                active: Some("red".into()),
                over: false,
                orders: 0,
            },
            paused: false,
            waiting_for: vec![seat],
            ai: Vec::new(),
            timer: None,
            connected: vec![seat],
        };
        ServerMsg::Welcome {
            game: "ab".into(),
            kind: "battle".into(),
            scenario: "open_field.ron".into(),
            last_seq,
            seat: info.clone(),
            seats: vec![info],
            seed_commit: String::new(),
            at,
            view: None,
            status,
            history: Vec::new(),
        }
    }

    fn online() -> Online {
        let link = SeatLink::parse("http://127.0.0.1:7914/?game=ab&seat=00ff", "").expect("a link");
        Online::new(link, Lang::En)
    }

    /// A page reloaded numbers its messages after the seat's last (the server refuses an old
    /// number), a server's count at the end of the numbers does not overflow, and what was sent
    /// and not answered stays for the reconnect, an answer or refusal taking it off.
    #[test]
    fn sequence_numbers_go_on_after_the_seats_last_and_unanswered_messages_wait() {
        let mut o = online();
        o.take(welcome(0, 41, 3), 0.0);
        assert_eq!((o.conn.clone(), o.at, o.next_seq), (Conn::Live, 3, 42));
        assert!(o.waits_for_me());
        o.order(Value::from("EndSetup"));
        o.chat(wire::ChatTo::Alliance, "hold".into());
        assert_eq!((o.unanswered(), o.pending.len()), (1, 2), "a chat line is no order");
        let status = match welcome(0, 0, 4) {
            ServerMsg::Welcome { status, .. } => status,
            _ => unreachable!(),
        };
        o.take(ServerMsg::Ack { seq: 42, at: 4, events: Vec::new(), applied: true, status }, 1.0);
        assert_eq!((o.unanswered(), o.pending.len(), o.at), (0, 1, 4));
        o.take(ServerMsg::Refused { seq: Some(43), code: "x".into(), text: "no".into() }, 1.0);
        assert!(o.pending.is_empty());
        assert_eq!(o.refused.as_deref(), Some("no"));
        let mut lied = online();
        lied.take(welcome(0, u64::MAX, 0), 0.0);
        assert_eq!(lied.next_seq, u64::MAX);
    }

    /// A revealed log that does not replay to the server's hash, or is no save, is not kept
    /// (and says why); the hash checked is the replayed game's.
    #[test]
    fn a_revealed_log_is_kept_only_when_it_replays_to_the_servers_hash() {
        use rules::Game;
        use rules::tactical::Battle;
        let scenario = crate::battle::files::load_scenario("scenarios/open_field.ron").expect("a battle");
        let mut game = Battle::new(&scenario, 9);
        game.apply(game.pass()).expect("a pass");
        let text = game.save().to_text();
        let why = keep_revealed::<Battle>("ab", &text, "0000000000000000").expect_err("another hash");
        assert!(why.contains(&game.state_hash().to_string()), "{why}");
        assert!(keep_revealed::<Battle>("ab", "not a save", &game.state_hash().to_string()).is_err());
    }

    /// Refused before the welcome (a bad token): the seat cannot be played and is not tried
    /// again; a loss after it is tried again, sooner first, never more than MAX_RETRY apart.
    #[test]
    fn a_refused_hello_fails_and_a_lost_connection_is_tried_again_with_a_growing_wait() {
        let mut o = online();
        o.take(ServerMsg::Refused { seq: None, code: "bad_token".into(), text: "no such seat".into() }, 0.0);
        assert_eq!(o.conn, Conn::Failed("no such seat".into()));
        o.lost("closed".into(), 0.0);
        assert!(matches!(o.conn, Conn::Failed(_)), "a failed seat is not tried again");
        let mut o = online();
        o.take(welcome(0, 0, 0), 0.0);
        let mut waits = Vec::new();
        for _ in 0..8 {
            o.lost("cut".into(), 100.0);
            waits.push(o.retry_at - 100.0);
        }
        assert_eq!(waits[0], 0.5);
        assert!(waits.windows(2).all(|w| w[0] <= w[1]), "{waits:?}");
        assert_eq!(*waits.last().unwrap_or(&0.0), MAX_RETRY);
        // Mail: each entry once, however often delivered; the oldest go past the cap.
        for i in 0..(MAX_LETTERS as u64 + 3) {
            let mail = |n| ServerMsg::Mail {
                n,
                entry: i,
                kind: "chat".into(),
                from: Some(1),
                to: vec![0],
                text: format!("{i}"),
                sent_ms: 0,
                deliver_ms: None,
            };
            o.take(mail(2 * i + 1), 0.0);
            o.take(mail(2 * i + 2), 0.0);
        }
        assert_eq!(o.letters.len(), MAX_LETTERS);
        assert_eq!(o.letters[0].entry, 3);
        assert_eq!(o.unread, MAX_LETTERS + 3);
    }
}
