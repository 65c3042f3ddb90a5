//! The Great War scene: the strategic rules' [`GreatWar`] played on a hex map of Europe.
//!
//! It plugs into the shell as the battle does (see `battle`):
//! - [`PlayGame`] for [`GreatWar`]: the session (undo to the last die, refusals, hand-over between
//!   any number of people, autosave), the AI's turns in slices, the replay viewer and saves come
//!   from [`play::plugin_for`];
//! - its orders by key ([`actions::GwAction`]), bound with [`input::bind`];
//! - a [`CatalogSource`] for its scenarios;
//! - its board (`board`: a chunked bevy_ecs_tilemap hex map with an overview at far zoom),
//!   counters, overlays, camera, panels and commanding, each a plugin that runs in
//!   [`Mode::GreatWar`] only;
//! - its animations, purely visual (nothing waits for them): counters glide to their new hex
//!   (`anim`), and fights, fire, gas, damage, sinkings and losses flash briefly where they
//!   happened (`fx`), at the player's animation speed.

pub mod actions;
pub mod anim;
pub mod army_panel;
pub mod art;
pub mod board;
pub mod camera;
pub mod combat_ahead;
pub mod command;
pub mod counters;
pub mod files;
pub mod fleet_panel;
pub mod fx;
pub mod geometry;
pub mod land_orders;
pub mod land_panels;
pub mod layers;
pub mod legend;
pub mod online;
pub mod overlay;
pub mod page;
pub mod panels;
pub mod political;
pub mod recap;
pub mod save;
pub mod sea_keys;
pub mod sea_orders;
pub mod shapes;
pub mod summary;
pub mod tutorial;

use crate::catalog::{self, CatalogSource, Chosen};
use crate::i18n::Tr;
use crate::input;
use crate::play;
use crate::screens::{Mode, Screen};
use crate::session::{AiPlayer, PlayGame, Seat, Session, StartGame};
use bevy::prelude::*;
use rules::Game;
use rules::strategic::naval::model::Fleet;
use rules::strategic::{Ctx, GreatWar, HexAt, Order, OrderError, Piece, PowerId, SaveGame, Scenario};
use rules::texts::Msg;

pub(super) fn plugin(app: &mut App) {
    play::plugin_for::<GreatWar>(app);
    input::bind::<actions::GwAction>(app);
    catalog::register(
        app,
        CatalogSource {
            mode: Mode::GreatWar,
            paths: files::scenario_paths,
            header: files::scenario_header,
            page: page::scenario_page,
        },
    );
    app.init_resource::<HoveredHex>()
        .init_resource::<Selection>()
        .init_resource::<PickInHand>()
        .add_systems(
            Update,
            catalog::load_chosen(Mode::GreatWar, files::load_scenario)
                .pipe(start_chosen)
                .in_set(crate::AppSystems::Logic)
                .run_if(in_state(Screen::Loading).and_then(files::ready)),
        )
        .add_systems(OnEnter(Screen::Playing), forget_selection)
        .add_plugins((
            command::plugin,
            sea_orders::plugin,
            sea_keys::plugin,
            land_orders::plugin,
            layers::plugin,
            tutorial::plugin,
        ))
        .add_plugins((political::plugin, summary::plugin, recap::plugin, online::plugin));
    // The browser fetches the large scenarios' files when one is chosen.
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, files::fetch_chosen.run_if(in_state(Screen::Loading)))
        .add_systems(OnExit(Screen::Loading), files::forget_download);
}

/// The scene's plugins that draw.
pub(super) fn view_plugin(app: &mut App) {
    app.add_plugins((
        anim::plugin,
        fx::plugin,
        board::plugin,
        counters::plugin,
        overlay::plugin,
        camera::plugin,
        panels::plugin,
        tutorial::view_plugin,
        layers::view_plugin,
        legend::plugin,
        summary::view_plugin,
        recap::view_plugin,
        combat_ahead::view_plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    crate::web::plugin_for::<GreatWar>(app);
}

/// The powers of the shipped scenarios, by the ids the command line names them (`--ai germany`).
/// A scenario's seats are matched to these by id (see [`seats_for`]).
pub const POWERS: &[&str] = &[
    "germany",
    "france",
    "gb",
    "russia",
    "austria_hungary",
    "italy",
    "ottoman",
    "serbia",
    "belgium",
    "netherlands",
    "luxembourg",
    "switzerland",
    "denmark",
    "norway",
    "sweden",
    "spain",
    "portugal",
    "romania",
    "bulgaria",
    "greece",
    "montenegro",
    "albania",
    "usa",
];

/// The Great War as the launch knows it.
pub const SCENE: crate::launch::SceneInfo = crate::launch::SceneInfo {
    mode: Mode::GreatWar,
    players: POWERS,
    check: |path| files::load_scenario(path).map(|_| ()),
};

/// Start a new Great War game.
pub type StartGreatWar = StartGame<GreatWar>;

/// The seats of a scenario's powers. The set-up screen gives one per power in the scenario's order
/// (`names` empty); the command line one per name of [`POWERS`] (`names`), matched here by the
/// power's id. A power without a seat is a person.
pub fn seats_for(scenario: &Scenario, seats: &[Seat], names: &[String]) -> Vec<Seat> {
    scenario
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let at = if names.is_empty() { Some(i) } else { names.iter().position(|n| *n == p.id) };
            at.and_then(|i| seats.get(i)).copied().unwrap_or(Seat::Human)
        })
        .collect()
}

/// How an order is given: at once, or after the player's "yes" under the engine's preview.
#[derive(Debug, Clone, PartialEq)]
pub enum Give {
    Now(Order),
    /// Shown with the engine's preview first; given on "yes".
    AfterPreview(Order),
}

/// The hex under the pointer (set by the board, or by a test).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredHex(pub Option<HexAt>);

/// Whether a land order waits for the click that names its place (`land_orders`): then a
/// click on the map is that order's, not a selection or a move.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PickInHand(pub bool);

/// What a person has in hand: a land piece (a division or a corps), an army, or a fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selected {
    Piece(Piece),
    Army(rules::strategic::FormationId),
    Fleet(u32),
    /// An air squadron (S-AIR), at its base or aboard a transport.
    Squadron(u32),
}

/// The selection, and the turn it was made in.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    pub selected: Option<Selected>,
    /// The session's turns passed when it was made: a phase handed on drops it.
    pub turns_passed: u64,
    /// Fire gas shells instead of high explosive (S-CHEM-3).
    pub gas: bool,
}

impl Selection {
    /// The selection, if it still stands (made in this phase, the piece still the active power's).
    pub fn of(&self, session: &Session<GreatWar>) -> Option<Selected> {
        if self.turns_passed != session.turns_passed {
            return None;
        }
        let ctx = session.ctx();
        let power = ctx.active_power();
        let s = self.selected?;
        owner_of(&ctx, s).filter(|p| *p == power).map(|_| s)
    }

    pub fn set(&mut self, selected: Option<Selected>, session: &Session<GreatWar>) {
        self.selected = selected;
        self.turns_passed = session.turns_passed;
    }
}

/// The power a selection belongs to, if it is still on the map.
pub fn owner_of(ctx: &Ctx, s: Selected) -> Option<PowerId> {
    match s {
        Selected::Piece(p) => {
            // Attached artillery has no counter of its own but fires (S-ARMY-5).
            if ctx.piece_hex(p).is_none() && command::piece_unit(p).is_none_or(|u| ctx.gun_hexes(u).is_empty()) {
                return None;
            }
            ctx.piece_units(p).ok().map(|(power, _)| power)
        }
        Selected::Army(a) => ctx.formation(a).map(|f| f.power),
        Selected::Fleet(id) => fleet(ctx, id).map(|f| f.power),
        Selected::Squadron(id) => sea_orders::squadron(ctx, id).map(|s| s.power),
    }
}

/// A fleet afloat.
pub fn fleet(ctx: &Ctx, id: u32) -> Option<&Fleet> {
    ctx.navy.fleets.iter().find(|f| f.id == id && ctx.navy.ships.iter().any(|s| s.fleet == id && !s.sunk))
}

fn forget_selection(mut selection: ResMut<Selection>) {
    *selection = Selection::default();
}

fn start_chosen(
    In(chosen): In<Option<(Scenario, Chosen)>>,
    mut commands: Commands,
    mut start: MessageWriter<StartGreatWar>,
) {
    if let Some((scenario, chosen)) = chosen {
        commands.remove_resource::<Chosen>();
        let seats = seats_for(&scenario, &chosen.seats, &chosen.seat_names);
        start.write(StartGame { scenario, seed: chosen.seed, seats });
    }
}

/// Names of the Great War's powers in the interface's language.
pub trait GwNames {
    fn power(&self, ctx: &Ctx, power: PowerId) -> String;

    /// A line of the engine with its hexes named by their places on the map (issue 27: "a hex
    /// near Liège", not "(313, 527)").
    fn line(&self, ctx: &Ctx, msg: &Msg) -> String;

    /// A hex by its place on the map, or its coordinates where the map has no place for it.
    fn place(&self, ctx: &Ctx, at: HexAt) -> String;

    /// A unit's name: in the Russian interface its Russian name where the scenario gives one.
    fn unit(&self, ctx: &Ctx, id: rules::strategic::ForceId) -> String;

    /// A corps's or an army's name, likewise.
    fn formation(&self, ctx: &Ctx, id: rules::strategic::FormationId) -> String;
}

impl GwNames for Tr {
    fn power(&self, ctx: &Ctx, power: PowerId) -> String {
        let Some(spec) = ctx.scenario().powers.get(usize::from(power.0)) else { return String::new() };
        let key = files::power_key(&spec.id);
        let named = self.t(&key);
        if named == key { spec.name.clone() } else { named }
    }

    fn line(&self, ctx: &Ctx, msg: &Msg) -> String {
        self.texts.render_placed(msg, &|c, r| ctx.map().place_of(HexAt::new(c, r)))
    }

    fn place(&self, ctx: &Ctx, at: HexAt) -> String {
        self.line(ctx, &Msg::new(rules::texts::PLAIN).hex("text", at))
    }

    fn unit(&self, ctx: &Ctx, id: rules::strategic::ForceId) -> String {
        match ctx.scenario().name_ru(id.0).filter(|_| self.russian()) {
            Some(ru) => ru.to_string(),
            None => ctx.name(id),
        }
    }

    fn formation(&self, ctx: &Ctx, id: rules::strategic::FormationId) -> String {
        match ctx.scenario().name_ru(id.0).filter(|_| self.russian()) {
            Some(ru) => ru.to_string(),
            None => ctx.formation(id).map_or_else(String::new, |f| f.name.clone()),
        }
    }
}

impl PlayGame for GreatWar {
    const MODE: Mode = Mode::GreatWar;
    // Moves and fire show as effects beside the play, not as animations it waits for.
    const ANIMATES_ORDERS: bool = false;
    type Body = save::SaveBody;

    fn refusal(e: &OrderError) -> Msg {
        e.line()
    }

    /// An order is the working copy's `Ctx::apply`, exactly as `GreatWar::apply` plays it
    /// (loaded, applied, stored); the end of a phase runs the engine's phases on the game.
    fn think_ahead(ctx: &mut Ctx, order: &Order) -> bool {
        !matches!(order, Order::EndPhase) && ctx.apply(order).is_ok()
    }

    fn seat_order(&self) -> Vec<PowerId> {
        self.players()
    }

    /// The Great War has no set-up step: the forces stand where the scenario puts them.
    fn in_setup(&self) -> bool {
        false
    }

    fn player_name(player: PowerId) -> &'static str {
        POWERS.get(usize::from(player.0)).copied().unwrap_or("power")
    }

    fn new_ai(player: PowerId, level: ai::Level, seed: u64) -> Box<AiPlayer<GreatWar>> {
        Box::new(ai::great_war::GwAi::new(player, level, seed))
    }

    fn has_orders(&self, player: PowerId) -> bool {
        self.ctx().has_phase_orders(player)
    }

    fn status_words(&self) -> String {
        let clock = self.clock();
        let phase = format!("{:?}", clock.phase).to_lowercase();
        let power = self.scenario().powers.get(usize::from(clock.active)).map_or("", |p| p.id.as_str());
        format!("{phase} turn {} {power}", clock.turn)
    }

    fn first_turn(&self) -> u32 {
        self.scenario().start_turn
    }

    fn to_body(save: &SaveGame, embed_limit: usize) -> save::SaveBody {
        save::to_body(save, embed_limit)
    }

    fn from_body(name: &str, body: save::SaveBody) -> Result<SaveGame, String> {
        save::from_body(name, body)
    }

    fn fetch_first(body: &save::SaveBody) -> Option<crate::saves::FetchFirst> {
        save::fetch_first(body, files::missing)
    }
}
