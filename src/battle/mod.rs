//! The Napoleonic battle scene: the tactical rules' [`Battle`] played on a square-cell board.
//!
//! It plugs into the shell at these points (a Great War or campaign scene implements the same):
//! - [`PlayGame`] for its engine game (on top of the engine's `rules::Game`): the session, the
//!   AI's turns, the replay viewer, saves and autosaves come from [`play::plugin_for`];
//! - [`ActionSet`](crate::input::ActionSet) for its orders ([`actions::BattleAction`]), bound
//!   with [`input::bind`];
//! - a [`CatalogSource`] for its scenarios (headers at start, parsed on the loading screen);
//! - its board (`board`), panels (`panels`) and commanding (`command`), each a plugin that runs
//!   in its own [`Mode`] only.

pub mod actions;
pub mod board;
pub mod card;
pub mod command;
pub mod files;
pub mod legend;
pub mod melee;
pub mod online;
pub mod page;
pub mod panels;
pub mod save;
pub mod tooltip;
pub mod tutorial;

use crate::catalog::{self, CatalogSource, Chosen};
use crate::i18n::Tr;
use crate::input;
use crate::play;
use crate::saves;
use crate::screens::{Mode, Screen};
use crate::session::{AiPlayer, PlayGame, Session, StartGame};
use bevy::prelude::*;
use rules::tactical::components::Phase;
use rules::tactical::{Battle, Cell, Ctx, Order, SaveGame, Scenario, Side, UnitId};

pub(super) fn plugin(app: &mut App) {
    play::plugin_for::<Battle>(app);
    online::plugin(app);
    input::bind::<actions::BattleAction>(app);
    catalog::register(
        app,
        CatalogSource {
            mode: Mode::Battle,
            paths: files::scenario_paths,
            header: files::scenario_header,
            page: page::scenario_page,
        },
    );
    app.init_resource::<HoveredCell>()
        .init_resource::<Selection>()
        .add_systems(
            Update,
            catalog::load_chosen(Mode::Battle, files::load_scenario)
                .pipe(start_chosen)
                .in_set(crate::AppSystems::Logic)
                .run_if(in_state(Screen::Loading)),
        )
        .add_systems(OnEnter(Screen::Playing), forget_selection)
        .add_plugins((command::plugin, tutorial::plugin, tooltip::plugin));
}

/// The scene's plugins that draw (the board and the panels).
pub(super) fn view_plugin(app: &mut App) {
    app.add_plugins((
        board::plugin,
        panels::plugin,
        legend::plugin,
        melee::view_plugin,
        tutorial::view_plugin,
        tooltip::view_plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    crate::web::plugin_for::<Battle>(app);
}

/// The battle as the launch knows it.
pub const SCENE: crate::launch::SceneInfo = crate::launch::SceneInfo {
    mode: Mode::Battle,
    players: &["red", "blue"],
    check: |path| files::load_scenario(path).map(|_| ()),
};

/// Start a new battle.
pub type StartBattle = StartGame<Battle>;

/// The cell under the pointer (set by the board, or by a test).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredCell(pub Option<Cell>);

/// The unit the player has selected, and the turn it was selected in.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    pub unit: Option<UnitId>,
    /// The session's turns passed when it was selected: a turn handed on drops the selection.
    pub turns_passed: u64,
}

impl Selection {
    /// The selected unit, if it is still to be commanded (on the field or still to deploy, and
    /// selected this turn).
    pub fn of(&self, session: &Session<Battle>) -> Option<UnitId> {
        let id = self.unit?;
        if self.turns_passed != session.turns_passed {
            return None;
        }
        let ctx = session.ctx();
        ctx.unit(id)
            .is_some_and(|u| u.status.on_field() || u.status == rules::tactical::Status::Undeployed)
            .then_some(id)
    }

    pub fn set(&mut self, unit: Option<UnitId>, session: &Session<Battle>) {
        self.unit = unit;
        self.turns_passed = session.turns_passed;
    }
}

fn forget_selection(mut selection: ResMut<Selection>) {
    *selection = Selection::default();
}

fn start_chosen(
    In(chosen): In<Option<(Scenario, Chosen)>>,
    mut commands: Commands,
    mut start: MessageWriter<StartBattle>,
) {
    if let Some((scenario, chosen)) = chosen {
        commands.remove_resource::<Chosen>();
        start.write(StartGame { scenario, seed: chosen.seed, seats: chosen.seats });
    }
}

/// Names of the battle's players and pieces in the interface's language.
pub trait BattleNames {
    fn side(&self, side: Side) -> String;
    /// A unit's name in this language.
    fn unit(&self, ctx: &Ctx, id: UnitId) -> String;
    /// An army's name (the scenario's, in this language).
    fn army(&self, ctx: &Ctx, side: Side) -> String;
}

impl BattleNames for Tr {
    fn side(&self, side: Side) -> String {
        self.t(&format!("side.{}", side.name()))
    }

    fn unit(&self, ctx: &Ctx, id: UnitId) -> String {
        ctx.name_in(id, self.russian())
    }

    fn army(&self, ctx: &Ctx, side: Side) -> String {
        let spec = ctx.statics.scenario.side(side);
        if self.russian() && !spec.name_ru.is_empty() { spec.name_ru.clone() } else { spec.name.clone() }
    }
}

impl PlayGame for Battle {
    const MODE: Mode = Mode::Battle;
    type Body = save::SaveBody;

    fn seat_order(&self) -> Vec<Side> {
        Side::BOTH.to_vec()
    }

    fn in_setup(&self) -> bool {
        matches!(self.clock().phase, Phase::Redoubts | Phase::Deployment)
    }

    fn player_name(player: Side) -> &'static str {
        player.name()
    }

    fn new_ai(player: Side, level: ai::Level, seed: u64) -> Box<AiPlayer<Battle>> {
        Box::new(ai::Ai::new(player, level, seed))
    }

    fn status_words(&self) -> String {
        let clock = self.clock();
        let phase = format!("{:?}", clock.phase).to_lowercase();
        format!("{phase} turn {} {}", clock.turn, clock.active.name())
    }

    fn to_body(save: &SaveGame, embed_limit: usize) -> save::SaveBody {
        save::to_body(save, embed_limit)
    }

    fn from_body(name: &str, body: save::SaveBody) -> Result<SaveGame, String> {
        save::from_body(name, body)
    }

    fn from_format1(name: &str, text: &str) -> Result<saves::SavedGame<SaveGame>, String> {
        save::from_format1(name, text)
    }

    /// T-END-2: the retreat is final; T-FORT-7: so is a capitulation.
    fn is_final(order: &Order) -> bool {
        matches!(order, Order::Retreat | Order::Capitulate)
    }

    fn confirm_key(order: &Order) -> &'static str {
        match order {
            Order::Capitulate => "ui.confirm.capitulate",
            Order::Retreat => "ui.confirm.retreat",
            _ => "ui.confirm.order",
        }
    }
}
