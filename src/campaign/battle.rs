//! A battle of the campaign, fought in the battle scene: once both sides have chosen their
//! forces (T-STRAT-5/6/8) the engine's tactical scenario of the battle (after the cut) is played
//! there, by people or the battle AI as the campaign's seats say; when it is over its save goes
//! back to the campaign as the `BattleResult` order (T-STRAT-7, T-STRAT-11) and the map returns.
//!
//! While it is fought the campaign's autosave of the turn holds it (its orders, see `save`), so
//! a campaign saved or autosaved mid-battle reopens in that battle.

pub use super::command::{FightRequested, ready_battle};
use super::save::{self, RunningBattle};
use crate::saves::{OpenSave, Seat};
use crate::screens::{Mode, PlayView, Screen, playing};
use crate::session::{AnimBusy, FollowProgress, GameEvents, Progress, Session};
use bevy::prelude::*;
use rules::Game;
use rules::campaign::{Campaign, Order};
use rules::hash::StateHash;
use rules::tactical::{Battle, Side};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ResumeBattle>()
        .add_systems(Update, (leave_battle, drop_stale).chain().in_set(crate::AppSystems::Input))
        .add_systems(Update, read_running_battles.in_set(crate::AppSystems::Logic))
        .add_systems(
            Update,
            enter_battle
                .in_set(crate::AppSystems::Logic)
                .run_if(playing(Mode::Campaign))
                .run_if(in_state(PlayView::Playing)),
        )
        .add_systems(Update, autosave_running_battle.in_set(crate::AppSystems::Logic).run_if(in_state(Mode::Battle)))
        .add_systems(Update, nested_progress.after(FollowProgress).before(crate::AppSystems::Visuals))
        .add_systems(OnEnter(Screen::Title), forget);
}

/// A battle of the campaign in play in the battle scene.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CampaignBattle {
    /// The campaign's battle number.
    pub number: u32,
}

/// A running battle read from an opened save, waiting for its campaign to be loaded.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct ResumeBattle(pub Option<(StateHash, RunningBattle)>);

/// Whether people sit at this campaign (then one of them says when to go to the battlefield).
fn people_at(session: &Session<Campaign>) -> bool {
    session.seats.contains(&Seat::Human)
}

#[allow(clippy::too_many_arguments)]
fn enter_battle(
    mut commands: Commands,
    session: Option<Res<Session<Campaign>>>,
    busy: Res<AnimBusy>,
    mut fight: ResMut<FightRequested>,
    mut resume: ResMut<ResumeBattle>,
    mut mode: ResMut<NextState<Mode>>,
    mut screen: ResMut<NextState<Screen>>,
    mut view: ResMut<NextState<PlayView>>,
) {
    // Online, the seat's battle follows the server's campaign (`super::online`).
    let Some(session) = session.filter(|s| s.remote.is_none()) else { return };
    let Some(b) = ready_battle(&session.game) else {
        fight.0 = false;
        return;
    };
    let resuming = resume.0.as_ref().is_some_and(|(hash, _)| *hash == session.game.state_hash());
    if busy.0 || !(fight.0 || resuming || !people_at(&session)) {
        return;
    }
    fight.0 = false;
    let Some(scenario) = session.game.battle_scenario() else { return };
    let mut battle = Battle::new(&scenario, b.seed);
    if let Some((_, running)) = resume.0.take().filter(|_| resuming) {
        for order in running.orders {
            if let Err(e) = battle.apply(order) {
                warn!("the saved battle does not continue: {e}");
                break;
            }
        }
    }
    let seats = Side::BOTH.iter().map(|s| session.seat(*s)).collect();
    let name = format!("{}-battle-{}", session.name, b.number);
    let mut fought = Session::<Battle>::new(battle, seats, name);
    // The campaign's autosave holds it (see `autosave_running_battle`).
    fought.autosaves = false;
    commands.insert_resource(fought);
    commands.insert_resource(CampaignBattle { number: b.number });
    mode.set(Mode::Battle);
    screen.set(Screen::Playing);
    view.set(PlayView::Playing);
}

/// The battle is over (and its last blow shown): its result goes to the campaign, the map returns.
#[allow(clippy::too_many_arguments)]
fn leave_battle(
    mut commands: Commands,
    marker: Option<Res<CampaignBattle>>,
    battle: Option<Res<Session<Battle>>>,
    campaign: Option<ResMut<Session<Campaign>>>,
    busy: Res<AnimBusy>,
    state: Res<State<Mode>>,
    mut events: MessageWriter<GameEvents<Campaign>>,
    mut mode: ResMut<NextState<Mode>>,
    mut screen: ResMut<NextState<Screen>>,
    mut view: ResMut<NextState<PlayView>>,
) {
    let (Some(_), Some(battle), Some(mut campaign)) = (marker, battle, campaign) else { return };
    if *state.get() != Mode::Battle || !battle.game.is_over() || busy.0 || campaign.remote.is_some() {
        return;
    }
    let order = Order::BattleResult { save: Box::new(battle.game.save()) };
    if let Err(e) = campaign.apply(order, &mut events) {
        warn!("the campaign refused the battle's result: {e}");
    }
    commands.remove_resource::<Session<Battle>>();
    commands.remove_resource::<CampaignBattle>();
    mode.set(Mode::Campaign);
    screen.set(Screen::Playing);
    view.set(PlayView::Playing);
}

/// A campaign loaded over its running battle leaves neither the marker nor the battle behind
/// (the battle's board would otherwise draw it); a battle session gone takes the marker along.
fn drop_stale(
    mut commands: Commands,
    marker: Option<Res<CampaignBattle>>,
    battle: Option<Res<Session<Battle>>>,
    mode: Res<State<Mode>>,
) {
    if marker.is_none() {
        return;
    }
    if *mode.get() != Mode::Battle {
        commands.remove_resource::<Session<Battle>>();
        commands.remove_resource::<CampaignBattle>();
    } else if battle.is_none() {
        commands.remove_resource::<CampaignBattle>();
    }
}

/// An opened campaign save may hold a battle in progress: kept until the campaign is loaded.
fn read_running_battles(mut opens: MessageReader<OpenSave>, mut resume: ResMut<ResumeBattle>) {
    for open in opens.read().filter(|o| o.mode == Mode::Campaign && !o.replay) {
        resume.0 = save::running_battle(&open.name, &open.text);
    }
}

/// Each turn of the battle, the campaign's autosave of its turn is written with the battle in it.
fn autosave_running_battle(
    marker: Option<Res<CampaignBattle>>,
    battle: Option<Res<Session<Battle>>>,
    campaign: Option<Res<Session<Campaign>>>,
    mut last: Local<Option<(u32, u32)>>,
) {
    let (Some(marker), Some(battle), Some(campaign)) = (marker, battle, campaign) else { return };
    if campaign.remote.is_some() {
        return;
    }
    let now = (marker.number, battle.game.turn());
    if *last == Some(now) {
        return;
    }
    *last = Some(now);
    let running = RunningBattle { orders: battle.game.orders().to_vec() };
    if let Err(e) = save::autosave(&campaign.saved_game(), campaign.game.turn(), Some(running)) {
        warn!("autosave failed: {e}");
    }
}

/// The running battle as a save of the campaign holds it.
pub fn running(battle: &Session<Battle>) -> RunningBattle {
    RunningBattle { orders: battle.game.orders().to_vec() }
}

/// While a battle of the campaign is fought, the launch sees the campaign's turn, and the
/// battle's as the inner battle's.
fn nested_progress(
    marker: Option<Res<CampaignBattle>>,
    battle: Option<Res<Session<Battle>>>,
    campaign: Option<Res<Session<Campaign>>>,
    mut progress: ResMut<Progress>,
) {
    let (Some(_), Some(battle), Some(campaign)) = (marker, battle, campaign) else { return };
    let now = Progress {
        in_play: true,
        over: campaign.game.is_over(),
        in_setup: false,
        turn: campaign.game.turn(),
        inner_battle: Some(battle.game.turn()),
    };
    progress.set_if_neq(now);
}

fn forget(mut commands: Commands, mut resume: ResMut<ResumeBattle>, mut fight: ResMut<FightRequested>) {
    commands.remove_resource::<CampaignBattle>();
    resume.0 = None;
    fight.0 = false;
}
