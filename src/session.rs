//! The game being played, for every scene: the engine's game, who plays each player, and the
//! one path by which the interface changes it: [`Session::apply`] (an order through the engine's
//! entry point). Undo, the refusal and confirmation messages, the hand-over between people at
//! one screen and the autosave at each turn are the same for every scene.
//!
//! A scene makes its engine game a [`PlayGame`] and adds `play::plugin_for`; its board and
//! panels read the [`Session`] and send orders through it.

use crate::input::{Controls, KeyBindings, ShellAction, just_pressed};
use crate::saves::{self, SavedGame, SceneSave};
use crate::screens::{Mode, PlayView, Screen};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::texts::Msg;
use rules::{Game, Save};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use crate::saves::Seat;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Leave>()
        .add_message::<SaveToSlot>()
        .init_resource::<LeaveAsked>()
        .add_systems(Update, leave_keys.in_set(crate::AppSystems::Input))
        .add_systems(OnExit(Screen::Playing), |mut asked: ResMut<LeaveAsked>| asked.0 = false)
        .init_resource::<AnimBusy>()
        .init_resource::<HoldScreen>()
        .init_resource::<TurnTimer>()
        .init_resource::<Thinking>()
        .init_resource::<Progress>();
}

/// What the shell needs of a scene's engine game beyond the engine's [`Game`] (built from a
/// scenario and a seed, changed only by orders, saved as scenario + seed + orders + hashes): its
/// mode, the order of its seats, a few facts the shell shows or asks, its AI, and how its save is
/// written inside the envelope (its [`SceneSave`] follows from these).
pub trait PlayGame: Game + rules::view::Sight {
    const MODE: Mode;
    /// Whether the board animates each order before the next is given: the AI then gives at most
    /// one order a frame. A scene that does not (its effects play alongside) takes as many of the
    /// AI's orders in a frame as its thinking slice holds ([`crate::ai_turns`]).
    const ANIMATES_ORDERS: bool = true;
    /// The save as written inside the envelope (it may reference a large scenario by path and
    /// hash instead of embedding it).
    type Body: Serialize + DeserializeOwned;

    /// Every player, in the order of the seats of a save (a battle: red, blue).
    fn seat_order(&self) -> Vec<Self::Player>;
    /// Still setting up (before the first turn of play).
    fn in_setup(&self) -> bool;
    /// A player's name in messages and on the command line (`red`, `blue`).
    fn player_name(player: Self::Player) -> &'static str;
    /// An AI for a player, seeded from the game's seed.
    fn new_ai(player: Self::Player, level: ai::Level, seed: u64) -> Box<AiPlayer<Self>>;
    /// The state in a few words, for the browser's tests (`battle turn 3 blue`).
    fn status_words(&self) -> String;
    /// The turn a game of this scenario starts on (a Great War scenario may open in 1916's turn).
    fn first_turn(&self) -> u32 {
        1
    }
    /// Whether `player`, to move now, has anything to do (the engine's answer): the screen is
    /// not handed over to a person with nothing to do.
    fn has_orders(&self, player: Self::Player) -> bool {
        let _ = player;
        true
    }

    fn to_body(save: &Save<Self>, embed_limit: usize) -> Self::Body;
    fn from_body(name: &str, body: Self::Body) -> Result<Save<Self>, String>;
    /// See [`SceneSave::fetch_first`].
    fn fetch_first(body: &Self::Body) -> Option<saves::FetchFirst> {
        let _ = body;
        None
    }
    /// An envelope of format 1 (written by the battle only, before autosaves per game).
    fn from_format1(name: &str, text: &str) -> Result<SavedGame<Save<Self>>, String> {
        let _ = text;
        Err(format!("{name}: saves of format 1 hold battles only"))
    }

    /// Whether an order is final: once given it cannot be taken back (a retreat, a surrender),
    /// even though no die was thrown.
    fn is_final(order: &Self::Order) -> bool {
        let _ = order;
        false
    }

    /// A refusal's words for the screen. An engine that words its errors in keys of the string
    /// tables gives them here, so they show in the player's language.
    fn refusal(e: &Self::Error) -> Msg {
        Msg::plain(e.to_string())
    }

    /// The string key of the question asked before an order that waits for a "yes"
    /// ([`Session::ask`]).
    fn confirm_key(order: &Self::Order) -> &'static str {
        let _ = order;
        "ui.confirm.order"
    }

    /// Plays an order on a working copy, when the copy then equals the game's own working copy
    /// after it (the AI's worker thread thinks on ahead through its player's orders,
    /// [`crate::ai_turns`]); `false` (the default) when it cannot, or the order ends the
    /// player's stretch (the engine runs its own phases after it).
    fn think_ahead(ctx: &mut Self::Ctx, order: &Self::Order) -> bool {
        let _ = (ctx, order);
        false
    }
}

impl<G: PlayGame> SceneSave for Save<G> {
    const MODE: Mode = G::MODE;
    const ENGINE_NAME: &'static str = G::SAVE_NAME;
    type Body = G::Body;

    fn to_body(&self, embed_limit: usize) -> G::Body {
        G::to_body(self, embed_limit)
    }

    fn from_body(name: &str, body: G::Body) -> Result<Save<G>, String> {
        G::from_body(name, body)
    }

    fn from_engine_text(name: &str, text: &str) -> Result<SavedGame<Save<G>>, String> {
        let save = Save::<G>::from_text(name, text).map_err(|e| e.to_string())?;
        // People on every seat: a plain engine save names no players.
        let players = G::new(&save.scenario, save.seed).seat_order().len();
        Ok(SavedGame {
            mode: G::MODE,
            game: saves::old_game_name(G::scenario_name(&save.scenario)),
            seats: vec![Seat::Human; players],
            save,
        })
    }

    fn from_format1(name: &str, text: &str) -> Result<SavedGame<Save<G>>, String> {
        G::from_format1(name, text)
    }

    fn scenario_name(&self) -> String {
        G::scenario_name(&self.scenario).to_string()
    }

    fn order_count(&self) -> usize {
        self.orders.len()
    }

    fn turn(&self) -> u32 {
        self.checkpoints.last().map_or(0, |c| c.turn)
    }

    fn replay_hash(&self) -> Result<String, String> {
        G::replay(self).map(|g| g.state_hash().to_string()).map_err(|e| e.to_string())
    }

    fn fetch_first(body: &G::Body) -> Option<saves::FetchFirst> {
        G::fetch_first(body)
    }
}

/// An AI opponent of a scene's game: the AI crate's player, held by the session (a resource).
pub type AiPlayer<G> = dyn ai::Player<G> + Send + Sync;

/// Leaving the game in play for the title screen (the top bar's Menu button): while the game
/// is in progress the player is asked first, and the game is autosaved as it stands before it
/// is left, so Continue on the title screen takes it up again.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    Ask,
    Yes,
    No,
}

/// The player is being asked whether to leave the game.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaveAsked(pub bool);

/// Save the game in play to a slot (`saves::SLOTS`); the session's notice says how it went.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SaveToSlot(pub String);

/// Start a new game of a scene.
#[derive(Message, Clone, Debug)]
pub struct StartGame<G: PlayGame> {
    pub scenario: G::Scenario,
    pub seed: u64,
    /// One seat per player, in the game's seat order.
    pub seats: Vec<Seat>,
}

/// Continue a saved game.
#[derive(Message, Clone, Debug)]
pub struct LoadGame<G: PlayGame>(pub SavedGame<Save<G>>);

/// What an order did, for the log and the animations.
#[derive(Message, Clone, Debug)]
pub struct GameEvents<G: PlayGame>(pub Vec<G::Event>);

/// True while the board is still showing what happened; orders wait for it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimBusy(pub bool);

/// A scripted run holds the game's screen for its screenshot (no result screen).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldScreen(pub bool);

/// Where the game in play stands, in the shell's words (for the scripted launch).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// A game is in play.
    pub in_play: bool,
    pub over: bool,
    /// Still setting up.
    pub in_setup: bool,
    /// Turns of play so far, counting from 1 (whatever the scenario's first turn is called).
    pub turn: u32,
    /// The turn of a battle fought inside the game in play (a campaign's), while one is.
    pub inner_battle: Option<u32>,
}

/// Where [`Progress`] is followed; a scene that nests a game (a campaign's battle) corrects it
/// after this.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FollowProgress;

/// An AI is thinking (so the window keeps drawing frames).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thinking(pub bool);

/// The client's turn timer (a scene counts it down; the window wakes to show it).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct TurnTimer {
    /// Seconds left, when running.
    pub remaining: Option<f32>,
    /// What the timer was started for (the scene's key: turn, player, phase).
    pub key: (u32, Option<usize>, bool),
}

/// A seat of a game the umpire server keeps (`crate::net`): the session's game is the seat's
/// view made into a game (`rules::view::Mirror`), orders go to the server instead of the
/// engine, and the server's view after them takes the game's place.
#[derive(Debug)]
pub struct Remote<G: PlayGame> {
    /// Whose eyes the seat has (none: the moderator's, who sees everything).
    pub viewer: Option<G::Player>,
    /// The player the seat gives orders for (none: a moderator's or observer's seat).
    pub commands: Option<G::Player>,
    /// Orders given, for the server (`crate::net` sends them).
    pub outbox: Vec<G::Order>,
    /// Orders sent and not yet answered.
    pub unanswered: usize,
    /// Orders given since the seat's part of the turn began.
    pub given: usize,
    /// The server waits for this seat (its status says so).
    pub waited_for: bool,
    /// The game's order count at the view the session's game is.
    pub at: u64,
    /// The events this seat was sent, as it saw them, in order (the session's game is a view and
    /// has none of its own): the log, the turn's summary and the recap read them.
    pub log: Vec<G::Event>,
    /// The order count whose events the log ends with (an order's events are kept once).
    pub logged: u64,
}

/// UI limit: the events an online seat keeps for its log (the oldest half goes past it).
pub const MAX_REMOTE_EVENTS: usize = 20_000;

impl<G: PlayGame> Remote<G> {
    pub fn new(viewer: Option<G::Player>, commands: Option<G::Player>) -> Remote<G> {
        Remote {
            viewer,
            commands,
            outbox: Vec::new(),
            unanswered: 0,
            given: 0,
            waited_for: false,
            at: 0,
            log: Vec::new(),
            logged: 0,
        }
    }

    /// Events the seat was sent, for its log.
    pub fn keep(&mut self, events: &[G::Event]) {
        if self.log.len() + events.len() > MAX_REMOTE_EVENTS {
            let drop = self.log.len().min(MAX_REMOTE_EVENTS / 2);
            self.log.drain(..drop);
        }
        self.log.extend(events.iter().cloned());
    }

    /// An order given is still on its way (the board waits for the server's answer).
    pub fn busy(&self) -> bool {
        self.unanswered > 0 || !self.outbox.is_empty()
    }
}

/// The game in play.
#[derive(Resource)]
pub struct Session<G: PlayGame> {
    pub game: G,
    pub seats: Vec<Seat>,
    /// The game's name (start date and scenario): its autosaves share it.
    pub name: String,
    ais: Vec<Option<Box<AiPlayer<G>>>>,
    /// Orders before this index can no longer be taken back (a die was thrown, something hidden
    /// revealed, or a turn ended since).
    undo_floor: usize,
    /// Turns handed on since the session began (a scene's selection follows it).
    pub turns_passed: u64,
    /// An order waiting for the player's "yes" (retreat, capitulation, a turn ended with
    /// nothing done).
    pub confirm: Option<G::Order>,
    /// The last refusal, shown to the player.
    pub refusal: Option<Msg>,
    /// The last notice of this game ("Saved to Slot 2"): it belongs to this game only.
    pub notice: Option<String>,
    /// The length of the order log when the player to move began their turn.
    turn_start: usize,
    /// Whether it writes its own autosave each turn (a game nested in another, a campaign's
    /// battle, is saved inside the other's instead).
    pub autosaves: bool,
    /// Every person's seat is one person's (the set-up's "play as" an alliance): no hand-over
    /// between them. Not saved: a loaded game hands over between its people's seats.
    pub one_person: bool,
    /// A seat of a game the server keeps (none: the game is this app's own).
    pub remote: Option<Remote<G>>,
}

impl<G: PlayGame> Session<G> {
    pub fn new(game: G, seats: Vec<Seat>, name: String) -> Session<G> {
        let seed = game.seed();
        let ais = game
            .seat_order()
            .into_iter()
            .zip(&seats)
            .map(|(p, seat)| match seat {
                Seat::Ai(level) => Some(G::new_ai(p, *level, seed)),
                Seat::Human => None,
            })
            .collect();
        let undo_floor = game.orders().len();
        Session {
            game,
            seats,
            name,
            ais,
            undo_floor,
            turns_passed: 0,
            confirm: None,
            refusal: None,
            notice: None,
            turn_start: undo_floor,
            autosaves: true,
            one_person: false,
            remote: None,
        }
    }

    /// A seat of a game the server keeps, on the seat's view made into a game: no AI, no
    /// hand-over, no undo and no autosave here (the server keeps the game and its log).
    pub fn online(game: G, name: String, remote: Remote<G>) -> Session<G> {
        let seats = vec![Seat::Human; game.seat_order().len()];
        let mut session = Session::new(game, seats, name);
        session.autosaves = false;
        session.one_person = true;
        session.remote = Some(remote);
        session
    }

    /// The server's view after an order takes the place of the game (a seat online): the
    /// selection follows a turn handed on, as it does when the engine is this app's.
    pub fn follow_view(&mut self, game: G) {
        let before = (self.game.turn(), self.game.active_player(), self.game.in_setup());
        self.game = game;
        if (self.game.turn(), self.game.active_player(), self.game.in_setup()) != before {
            self.turns_passed += 1;
            self.confirm = None;
            if let Some(r) = self.remote.as_mut() {
                r.given = 0;
            }
        }
    }

    pub fn ctx(&self) -> G::Ctx {
        self.game.ctx()
    }

    /// The game's events as this screen knows them: the game's own, or, online, those the seat
    /// was sent.
    pub fn events(&self) -> &[G::Event] {
        match &self.remote {
            Some(r) => &r.log,
            None => self.game.events(),
        }
    }

    fn index(&self, player: G::Player) -> Option<usize> {
        self.game.seat_order().iter().position(|p| *p == player)
    }

    /// Who plays a player (a person, when the save names no seat for it).
    pub fn seat(&self, player: G::Player) -> Seat {
        self.index(player).and_then(|i| self.seats.get(i)).copied().unwrap_or(Seat::Human)
    }

    /// Whether a person gives the orders now (online: this seat's person, its last order
    /// answered).
    pub fn human_turn(&self) -> bool {
        if let Some(r) = &self.remote {
            return r.commands.is_some() && self.game.active_player() == r.commands && r.waited_for && !r.busy();
        }
        self.game.active_player().is_some_and(|p| self.seat(p) == Seat::Human)
    }

    /// More than one person at this screen: the board is handed over between them.
    pub fn hot_seat(&self) -> bool {
        self.remote.is_none() && !self.one_person && self.seats.iter().filter(|s| **s == Seat::Human).count() > 1
    }

    /// Whose eyes the board uses: the player to move when people share the screen (or, when an
    /// AI moves, the first person's), the one person in solo, all-seeing when the AI plays
    /// every player.
    pub fn viewer(&self) -> Option<G::Player> {
        if let Some(r) = &self.remote {
            return r.viewer;
        }
        let players = self.game.seat_order();
        let humans: Vec<G::Player> = players.iter().copied().filter(|p| self.seat(*p) == Seat::Human).collect();
        match humans.as_slice() {
            [] => None,
            [one] => Some(*one),
            [first, ..] => Some(self.game.active_player().filter(|p| humans.contains(p)).unwrap_or(*first)),
        }
    }

    /// The AI of a player, if it has one.
    pub fn ai_mut(&mut self, player: G::Player) -> Option<&mut Box<AiPlayer<G>>> {
        let i = self.index(player)?;
        self.ais.get_mut(i)?.as_mut()
    }

    /// Takes a player's AI out of the session (to think on a worker thread); [`Session::put_ai`]
    /// gives it back.
    pub fn take_ai(&mut self, player: G::Player) -> Option<Box<AiPlayer<G>>> {
        let i = self.index(player)?;
        self.ais.get_mut(i)?.take()
    }

    /// Gives a player's AI back (or a new one, when its worker was lost).
    pub fn put_ai(&mut self, player: G::Player, ai: Box<AiPlayer<G>>) {
        if let Some(slot) = self.index(player).and_then(|i| self.ais.get_mut(i)) {
            *slot = Some(ai);
        }
    }

    /// Applies an order through the engine's one entry point and reports what happened.
    pub fn apply(&mut self, order: G::Order, events: &mut MessageWriter<GameEvents<G>>) -> Result<(), G::Error> {
        if let Some(r) = self.remote.as_mut() {
            // Online, the server's engine decides: its answer comes back as events and a view.
            self.refusal = None;
            r.outbox.push(order);
            r.given += 1;
            return Ok(());
        }
        let turn = self.game.turn();
        let thrown = self.game.dice_thrown();
        let ends_turn = G::ends_turn(&order);
        let is_final = G::is_final(&order);
        let happened = match self.game.apply(order) {
            Ok(h) => h,
            Err(e) => {
                self.refusal = Some(G::refusal(&e));
                return Err(e);
            }
        };
        self.refusal = None;
        let revealed = happened.iter().any(G::reveals);
        let chance = self.game.dice_thrown() != thrown;
        let turn_over = self.game.turn() != turn || ends_turn;
        if revealed || chance || turn_over || is_final {
            self.undo_floor = self.game.orders().len();
        }
        if turn_over {
            self.turn_start = self.game.orders().len();
            self.turns_passed += 1;
            if self.autosaves {
                self.autosave();
            }
        }
        events.write(GameEvents(happened));
        Ok(())
    }

    /// Asks the player's "yes" before an order, if the engine would take it (a refused order
    /// is refused at once, with the engine's reason, and nothing is asked).
    pub fn ask(&mut self, order: G::Order) {
        match self.game.preview(&order) {
            Ok(_) => {
                self.refusal = None;
                self.confirm = Some(order);
            }
            Err(e) => {
                self.confirm = None;
                self.refusal = Some(G::refusal(&e));
            }
        }
    }

    /// Whether the player to move has given no order yet this turn (in play, not in set-up).
    pub fn nothing_done(&self) -> bool {
        let nothing = match &self.remote {
            Some(r) => r.given == 0,
            None => self.game.orders().len() == self.turn_start,
        };
        !self.game.in_setup() && nothing
    }

    /// Ends the player's turn; a turn in which nothing was done asks first, and ending it again
    /// while asked is the "yes".
    pub fn end_turn(&mut self, events: &mut MessageWriter<GameEvents<G>>) {
        let pass = self.game.pass();
        if self.confirm.as_ref().is_some_and(|o| G::ends_turn(o) && !G::is_final(o)) {
            self.answer(true, events);
        } else if self.nothing_done() {
            self.confirm = Some(pass);
        } else {
            let _ = self.apply(pass, events);
        }
    }

    /// The string key of the question for the order waiting for a "yes".
    pub fn confirm_key(&self) -> Option<&'static str> {
        let order = self.confirm.as_ref()?;
        Some(if G::ends_turn(order) && !G::is_final(order) { "ui.confirm.idle_turn" } else { G::confirm_key(order) })
    }

    /// Answers the question: "yes" gives the order.
    pub fn answer(&mut self, yes: bool, events: &mut MessageWriter<GameEvents<G>>) {
        if let Some(order) = self.confirm.take()
            && yes
        {
            let _ = self.apply(order, events);
        }
    }

    /// Forgets the messages about what was done before (another piece was selected).
    pub fn forget_messages(&mut self) {
        self.refusal = None;
        self.notice = None;
    }

    /// Whether the last order can be taken back (this turn, no die thrown, nothing revealed since).
    pub fn can_undo(&self) -> bool {
        self.remote.is_none() && self.game.orders().len() > self.undo_floor && self.human_turn()
    }

    /// Takes back the last order by replaying the rest.
    pub fn undo(&mut self) -> bool {
        if !self.can_undo() {
            return false;
        }
        let save = self.game.save();
        match G::replay_until(&save, self.game.orders().len() - 1) {
            Ok(g) => {
                self.game = g;
                self.refusal = None;
                true
            }
            Err(e) => {
                self.refusal = Some(Msg::plain(e.to_string()));
                false
            }
        }
    }

    pub fn saved_game(&self) -> SavedGame<Save<G>> {
        SavedGame { mode: G::MODE, game: self.name.clone(), seats: self.seats.clone(), save: self.game.save() }
    }

    /// The autosave of this turn (the game's last turns are kept).
    pub fn autosave(&mut self) {
        if self.remote.is_some() {
            return;
        }
        if let Err(e) = saves::autosave(&self.saved_game(), self.game.turn()) {
            warn!("autosave failed: {e}");
            self.refusal = Some(Msg::plain(crate::storage::describe(&e)));
        }
    }
}

/// The session of a scene's game: starting and loading it, the result screen when it is over,
/// the hand-over between people (the whole play machinery is `play::plugin_for`).
pub fn plugin_for<G: PlayGame>(app: &mut App) {
    app.add_message::<StartGame<G>>()
        .add_message::<LoadGame<G>>()
        .add_message::<GameEvents<G>>()
        .add_systems(Update, (start::<G>, load::<G>).in_set(crate::AppSystems::Logic))
        .add_systems(
            Update,
            (game_over::<G>, pass_for_the_idle::<G>.before(hand_over::<G>), hand_over::<G>)
                .in_set(crate::AppSystems::Logic)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(Update, (leave::<G>, save_to_slot::<G>).in_set(crate::AppSystems::Logic))
        .add_systems(
            Update,
            follow_progress::<G>
                .in_set(FollowProgress)
                .after(crate::AppSystems::Logic)
                .before(crate::AppSystems::Visuals),
        )
        .add_systems(OnExit(Screen::Result), end::<G>)
        .add_systems(OnEnter(Screen::Title), end::<G>);
}

/// Puts a session on screen (a new game, a save opened, a seat online).
pub(crate) fn begin<G: PlayGame>(
    commands: &mut Commands,
    session: Session<G>,
    screen: &mut NextState<Screen>,
    mode: &mut NextState<Mode>,
    view: &mut NextState<PlayView>,
) {
    commands.insert_resource(session);
    NextState::set_if_neq(mode, G::MODE);
    // Set even when a game is on screen already (a save opened over it): the board is rebuilt.
    screen.set(Screen::Playing);
    view.set(PlayView::Playing);
}

fn start<G: PlayGame>(
    mut commands: Commands,
    mut starts: MessageReader<StartGame<G>>,
    mut screen: ResMut<NextState<Screen>>,
    mut mode: ResMut<NextState<Mode>>,
    mut view: ResMut<NextState<PlayView>>,
    one_person: Option<Res<crate::setup::OnePerson>>,
) {
    for s in starts.read() {
        let game = G::new(&s.scenario, s.seed);
        let name = saves::new_game_name(G::scenario_name(game.scenario()));
        let mut session = Session::new(game, s.seats.clone(), name);
        // The set-up's "play as" an alliance: one person on all its seats.
        session.one_person = one_person.as_ref().is_some_and(|o| o.0);
        commands.remove_resource::<crate::setup::OnePerson>();
        begin(&mut commands, session, &mut screen, &mut mode, &mut view);
    }
}

fn load<G: PlayGame>(
    mut commands: Commands,
    mut loads: MessageReader<LoadGame<G>>,
    mut screen: ResMut<NextState<Screen>>,
    mut mode: ResMut<NextState<Mode>>,
    mut view: ResMut<NextState<PlayView>>,
) {
    for LoadGame(saved) in loads.read() {
        match G::replay(&saved.save) {
            Ok(game) => {
                let players = game.seat_order().len();
                if saved.seats.len() != players {
                    warn!(
                        "could not load the save: the game has {players} players, the save names {}",
                        saved.seats.len()
                    );
                    continue;
                }
                let session = Session::new(game, saved.seats.clone(), saved.game.clone());
                begin(&mut commands, session, &mut screen, &mut mode, &mut view);
            }
            Err(e) => warn!("could not load the save: {e}"),
        }
    }
}

/// The result screen follows once the last blow has been shown (a scripted run keeps the game
/// on screen for its screenshot).
fn game_over<G: PlayGame>(
    session: Option<Res<Session<G>>>,
    busy: Res<AnimBusy>,
    hold: Res<HoldScreen>,
    mut screen: ResMut<NextState<Screen>>,
) {
    if let Some(s) = session
        && s.game.is_over()
        && !busy.0
        && !hold.0
    {
        screen.set(Screen::Result);
    }
}

/// People sharing the screen: when the turn passes to another person, hide the board until they
/// are ready.
/// UI limit: idle players passed for in one frame (each pass may reach another idle one; a game
/// has at most 23 players to a phase).
const IDLE_PASSES_PER_FRAME: usize = 64;

/// Hot-seat: a person with nothing to do in their part of this phase (the engine's answer,
/// `has_orders`) passes at once as it begins, by the game's own pass order. The screen is not handed to them, and the person
/// at the screen does not pass for them while the board shows that power's view (which showed
/// the previous person what the idle power sees).
fn pass_for_the_idle<G: PlayGame>(
    mut session: Option<ResMut<Session<G>>>,
    mut checked: Local<Option<(String, usize)>>,
    mut events: MessageWriter<GameEvents<G>>,
) {
    let Some(session) = session.as_deref_mut() else { return };
    // Asked once a state (the engine's answer reads a copy of the game).
    let key = (session.name.clone(), session.game.orders().len());
    if checked.as_ref() == Some(&key) || !session.hot_seat() {
        return;
    }
    *checked = Some(key);
    for _ in 0..IDLE_PASSES_PER_FRAME {
        let Some(now) = session.game.active_player() else { return };
        // Only as their part begins: a person who has acted keeps the screen until they end it.
        let idle = session.hot_seat()
            && session.seat(now) == Seat::Human
            && session.confirm.is_none()
            && session.nothing_done()
            && !session.game.has_orders(now);
        if !idle {
            return;
        }
        let pass = session.game.pass();
        if session.apply(pass, &mut events).is_err() {
            return;
        }
        *checked = Some((session.name.clone(), session.game.orders().len()));
    }
}

fn hand_over<G: PlayGame>(
    session: Option<Res<Session<G>>>,
    mut last: Local<Option<(String, G::Player)>>,
    mut next_view: ResMut<NextState<PlayView>>,
) {
    let Some(session) = session else {
        *last = None;
        return;
    };
    let now = session.game.active_player();
    // The player who moved last in this game (another game begins without a hand-over).
    let before = last.as_ref().filter(|(game, _)| *game == session.name).map(|(_, p)| *p);
    // Nor to a person with nothing to do now (the engine says so; `pass_for_the_idle` passes for
    // them before this runs, so they are seldom met here).
    if let (Some(before), Some(now)) = (before, now)
        && before != now
        && session.hot_seat()
        && session.seat(now) == Seat::Human
        && session.game.has_orders(now)
    {
        next_view.set(PlayView::HandOver);
    }
    // A person passed for (nothing to do) did not take the screen: the next hand-over is judged
    // from the one who had it.
    if let Some(now) = now
        && !(session.hot_seat()
            && session.seat(now) == Seat::Human
            && before != Some(now)
            && !session.game.has_orders(now))
    {
        *last = Some((session.name.clone(), now));
    }
}

fn follow_progress<G: PlayGame>(
    session: Option<Res<Session<G>>>,
    mode: Res<State<Mode>>,
    mut progress: ResMut<Progress>,
) {
    if *mode.get() != G::MODE {
        return;
    }
    let now = session.map_or(Progress::default(), |s| Progress {
        in_play: true,
        over: s.game.is_over(),
        in_setup: s.game.in_setup(),
        turn: (s.game.turn() + 1).saturating_sub(s.game.first_turn()),
        inner_battle: None,
    });
    progress.set_if_neq(now);
}

fn end<G: PlayGame>(mut commands: Commands) {
    commands.remove_resource::<Session<G>>();
}

/// While the player is asked whether to leave: Enter says yes, Esc no.
fn leave_keys(
    asked: Res<LeaveAsked>,
    controls: Query<&ActionState<ShellAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    mut out: MessageWriter<Leave>,
) {
    let Ok(actions) = controls.single() else { return };
    if !asked.0 {
        return;
    }
    if just_pressed(actions, keys.as_deref(), &bindings, ShellAction::Confirm) {
        out.write(Leave::Yes);
    } else if just_pressed(actions, keys.as_deref(), &bindings, ShellAction::Cancel) {
        out.write(Leave::No);
    }
}

fn leave<G: PlayGame>(
    mut asks: MessageReader<Leave>,
    session: Option<ResMut<Session<G>>>,
    mode: Res<State<Mode>>,
    mut asked: ResMut<LeaveAsked>,
    mut screen: ResMut<NextState<Screen>>,
) {
    if *mode.get() != G::MODE {
        return;
    }
    let mut session = session;
    for answer in asks.read() {
        let in_progress = session.as_ref().is_some_and(|s| !s.game.is_over());
        match answer {
            Leave::Ask if in_progress => asked.0 = true,
            Leave::No => asked.0 = false,
            Leave::Ask | Leave::Yes => {
                if let Some(s) = session.as_mut().filter(|_| in_progress) {
                    s.autosave();
                }
                asked.0 = false;
                screen.set(Screen::Title);
            }
        }
    }
}

fn save_to_slot<G: PlayGame>(
    mut saves_asked: MessageReader<SaveToSlot>,
    session: Option<ResMut<Session<G>>>,
    mode: Res<State<Mode>>,
    tr: Res<crate::i18n::Tr>,
) {
    if *mode.get() != G::MODE {
        saves_asked.clear();
        return;
    }
    let Some(mut session) = session else { return };
    for SaveToSlot(slot) in saves_asked.read() {
        if session.remote.is_some() {
            session.notice = Some(tr.t("ui.online.no_save"));
            continue;
        }
        let slot_name = tr.t(&format!("ui.slot.{slot}"));
        session.notice = Some(match saves::save_slot(slot, &session.saved_game()) {
            Ok(()) => tr.f("ui.saved", &[("slot", slot_name)]),
            Err(e) => e,
        });
    }
}
