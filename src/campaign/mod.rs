//! The Napoleonic campaign scene: the campaign rules' [`Campaign`] played on a hex map, its
//! battles fought in the battle scene (or settled by auto-battle, shown round by round).
//!
//! It plugs into the shell as the battle scene does: [`PlayGame`] for the engine's game (session,
//! AI turns, replay viewer, saves and autosaves from [`play::plugin_for`]); its own
//! [`ActionSet`](crate::input::ActionSet) ([`actions::CampaignAction`]); a [`CatalogSource`] for
//! the campaigns in `scenarios/campaign/`; its map (`board`, `labels`), panels (`panels`),
//! commanding (`command`) and the way into a battle and back (`battle`), each a plugin that runs
//! in [`Mode::Campaign`] only (the battle itself runs in [`Mode::Battle`]).

pub mod actions;
pub mod ai;
pub mod battle;
pub mod board;
pub mod command;
pub mod files;
pub mod labels;
pub mod legend;
pub mod online;
pub mod page;
pub mod panels;
pub mod save;

use crate::catalog::{self, CatalogSource, Chosen};
use crate::i18n::Tr;
use crate::input;
use crate::play;
use crate::screens::{Mode, Screen};
use crate::session::{AiPlayer, PlayGame, Session, StartGame};
use bevy::prelude::*;
use rules::campaign::{ArmyId, Campaign, CampaignSave, CampaignScenario, HexAt};
use rules::tactical::Side;

pub(super) fn plugin(app: &mut App) {
    play::plugin_for::<Campaign>(app);
    input::bind::<actions::CampaignAction>(app);
    catalog::register(
        app,
        CatalogSource {
            mode: Mode::Campaign,
            paths: files::scenario_paths,
            header: files::scenario_header,
            page: page::scenario_page,
        },
    );
    app.init_resource::<HoveredHex>()
        .init_resource::<ArmySelection>()
        .add_systems(
            Update,
            catalog::load_chosen(Mode::Campaign, files::load_scenario)
                .pipe(start_chosen)
                .in_set(crate::AppSystems::Logic)
                .run_if(in_state(Screen::Loading)),
        )
        .add_plugins((command::plugin, battle::plugin, legend::plugin, online::plugin));
}

/// The scene's plugins that draw (the map, its labels and the panels).
pub(super) fn view_plugin(app: &mut App) {
    app.add_plugins((board::plugin, labels::plugin, panels::plugin));
    #[cfg(target_arch = "wasm32")]
    crate::web::plugin_for::<Campaign>(app);
}

/// The campaign as the launch knows it.
pub const SCENE: crate::launch::SceneInfo = crate::launch::SceneInfo {
    mode: Mode::Campaign,
    players: &["red", "blue"],
    check: |path| files::load_scenario(path).map(|_| ()),
};

/// Start a new campaign.
pub type StartCampaign = StartGame<Campaign>;

/// The hex under the pointer (set by the map, or by a test).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredHex(pub Option<HexAt>);

/// The army the player has selected, and the turn it was selected in.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmySelection {
    pub army: Option<ArmyId>,
    /// The session's turns passed when it was selected: a turn handed on drops the selection.
    pub turns_passed: u64,
}

impl ArmySelection {
    /// The selected army, if it still stands and belongs to the side giving orders this turn.
    pub fn of(&self, session: &Session<Campaign>) -> Option<ArmyId> {
        let id = self.army?;
        if self.turns_passed != session.turns_passed {
            return None;
        }
        let side = rules::Game::active_player(&session.game)?;
        session.game.state().army(id).is_some_and(|a| a.side == side).then_some(id)
    }

    pub fn set(&mut self, army: Option<ArmyId>, session: &Session<Campaign>) {
        self.army = army;
        self.turns_passed = session.turns_passed;
    }
}

fn start_chosen(
    In(chosen): In<Option<(CampaignScenario, Chosen)>>,
    mut commands: Commands,
    mut start: MessageWriter<StartCampaign>,
) {
    if let Some((scenario, chosen)) = chosen {
        commands.remove_resource::<Chosen>();
        start.write(StartGame { scenario, seed: chosen.seed, seats: chosen.seats });
    }
}

/// Names of the campaign's sides, armies, units and places in the interface's language.
pub trait CampaignNames {
    fn side_of(&self, scenario: &CampaignScenario, side: Side) -> String;
    /// A hex: its place name (in this language) or its coordinates.
    fn hex(&self, scenario: &CampaignScenario, at: HexAt) -> String;
}

impl CampaignNames for Tr {
    fn side_of(&self, scenario: &CampaignScenario, side: Side) -> String {
        let spec = scenario.side(side);
        let name = if self.russian() && !spec.name_ru.is_empty() { &spec.name_ru } else { &spec.name };
        format!("{name} ({})", self.t(&format!("side.{}", side.name())))
    }

    fn hex(&self, scenario: &CampaignScenario, at: HexAt) -> String {
        match scenario.map.places.iter().find(|p| p.at == at) {
            Some(p) if self.russian() && !p.name_ru.is_empty() => p.name_ru.clone(),
            Some(p) => p.name.clone(),
            None => at.to_string(),
        }
    }
}

impl PlayGame for Campaign {
    const MODE: Mode = Mode::Campaign;
    type Body = save::SaveBody;

    fn seat_order(&self) -> Vec<Side> {
        Side::BOTH.to_vec()
    }

    fn in_setup(&self) -> bool {
        false
    }

    fn player_name(player: Side) -> &'static str {
        player.name()
    }

    fn new_ai(player: Side, level: ::ai::Level, seed: u64) -> Box<AiPlayer<Campaign>> {
        Box::new(ai::CampaignAi::new(player, level, seed))
    }

    fn status_words(&self) -> String {
        let side = rules::Game::active_player(self).map_or("none", Side::name);
        let battle = if self.state().battle.is_some() { " battle" } else { "" };
        format!("campaign turn {} {side}{battle}", rules::Game::turn(self))
    }

    fn to_body(save: &CampaignSave, _embed_limit: usize) -> save::SaveBody {
        save::to_body(save, None)
    }

    fn from_body(name: &str, body: save::SaveBody) -> Result<CampaignSave, String> {
        save::from_body(name, body)
    }
}
