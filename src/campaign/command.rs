//! Commanding a campaign: input actions and panel buttons become [`CampaignCommand`]s, and those
//! become orders through the session. A person's input never touches rules state any other way.

use super::actions::CampaignAction;
use super::{ArmySelection, HoveredHex};
use crate::input::{Controls, KeyBindings, ShellAction, TypingText, just_pressed};
use crate::screens::{Mode, PlayView, playing};
use crate::session::{AnimBusy, GameEvents, Session};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::Game;
use rules::campaign::{ArmyId, Campaign, Event, Forces, HexAt, Order};
use rules::tactical::{Side, UnitId};
use std::collections::BTreeMap;

type CampaignEvents = GameEvents<Campaign>;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CampaignCommand>().init_resource::<BattleReport>().init_resource::<FightRequested>().add_systems(
        Update,
        (actions_to_commands, handle_commands, keep_reports)
            .chain()
            .in_set(crate::AppSystems::Logic)
            .run_if(playing(Mode::Campaign)),
    );
}

/// What a person asks for on the campaign map, by key, mouse or panel button.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum CampaignCommand {
    /// Select an army of the side to move in the hex, or march the selected one there.
    ClickHex(HexAt),
    SelectArmy(ArmyId),
    Deselect,
    EndTurn,
    Undo,
    NextArmy,
    ToggleIntercept,
    /// Bring the selected army's special units back to full strength, standing (T-STRAT-10).
    Replenish,
    /// Detach these units of the selected army as a new army.
    Split(Vec<UnitId>),
    /// Detach the second half of the selected army.
    SplitHalf,
    /// Join the selected army to this one (or, without one, to the first other army of its
    /// side in its hex).
    Merge(Option<ArmyId>),
    /// The units that fight the waiting battle, and the redoubts (T-STRAT-5/6/8).
    ChooseForces(Forces),
    /// Go to the battlefield of the waiting battle (both sides have chosen).
    Fight,
    /// Yes: the default forces when choosing, to the battlefield when it waits, "ready" at the
    /// hand-over, close the report.
    Confirm,
    Cancel,
    /// The next player at the screen is ready (hot-seat hand-over).
    Ready,
}

/// A person asked to go to the battlefield (the waiting battle is fought by `battle`).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FightRequested(pub bool);

/// The battle waiting to be fought on the grid (both sides have chosen), if any.
pub fn ready_battle(game: &Campaign) -> Option<&rules::campaign::PendingBattle> {
    game.state().battle.as_ref().filter(|b| b.chooser().is_none())
}

/// The last battle settled or fought, for its dialog: an auto-battle's rounds with their
/// damage, or the result of a battle on the grid, with what followed on the map.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct BattleReport(pub Option<Vec<Event>>);

#[allow(clippy::too_many_arguments)]
fn actions_to_commands(
    shell: Query<&ActionState<ShellAction>, With<Controls>>,
    campaign: Query<&ActionState<CampaignAction>, With<Controls>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    hovered: Res<HoveredHex>,
    typing: Res<TypingText>,
    mut out: MessageWriter<CampaignCommand>,
) {
    let (Ok(shell), Ok(campaign)) = (shell.single(), campaign.single()) else { return };
    let shell_pressed = |a: ShellAction| !typing.0 && just_pressed(shell, keys.as_deref(), &bindings, a);
    let pressed = |a: CampaignAction| !typing.0 && just_pressed(campaign, keys.as_deref(), &bindings, a);
    let quick_click = mouse.is_some_and(|m| m.just_pressed(MouseButton::Left));
    if (shell_pressed(ShellAction::Select) || quick_click)
        && let Some(hex) = hovered.0
    {
        out.write(CampaignCommand::ClickHex(hex));
    }
    for (action, command) in [
        (ShellAction::Cancel, CampaignCommand::Cancel),
        (ShellAction::Confirm, CampaignCommand::Confirm),
        (ShellAction::EndTurn, CampaignCommand::EndTurn),
        (ShellAction::Undo, CampaignCommand::Undo),
    ] {
        if shell_pressed(action) {
            out.write(command);
        }
    }
    for (action, command) in [
        (CampaignAction::NextArmy, CampaignCommand::NextArmy),
        (CampaignAction::ToggleInterceptArmy, CampaignCommand::ToggleIntercept),
        (CampaignAction::SplitArmy, CampaignCommand::SplitHalf),
        (CampaignAction::MergeArmy, CampaignCommand::Merge(None)),
    ] {
        if pressed(action) {
            out.write(command);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn handle_commands(
    mut commands_in: MessageReader<CampaignCommand>,
    session: Option<ResMut<Session<Campaign>>>,
    mut selection: ResMut<ArmySelection>,
    mut report: ResMut<BattleReport>,
    mut fight: ResMut<FightRequested>,
    view: Res<State<PlayView>>,
    mut next_view: ResMut<NextState<PlayView>>,
    busy: Res<AnimBusy>,
    mut events: MessageWriter<CampaignEvents>,
) {
    let Some(mut session) = session else {
        commands_in.clear();
        return;
    };
    for command in commands_in.read() {
        if *view.get() == PlayView::HandOver {
            if matches!(command, CampaignCommand::Ready | CampaignCommand::Confirm) {
                next_view.set(PlayView::Playing);
            }
            continue;
        }
        // The report of a battle is read first: Enter or Esc closes it.
        if report.0.is_some() && matches!(command, CampaignCommand::Confirm | CampaignCommand::Cancel) {
            report.0 = None;
            continue;
        }
        // Enter at a battle both sides have chosen for: to the battlefield (whoever's seat).
        let to_battle = matches!(command, CampaignCommand::Confirm | CampaignCommand::Fight);
        if to_battle && ready_battle(&session.game).is_some() {
            fight.0 = true;
            continue;
        }
        if matches!(command, CampaignCommand::Cancel | CampaignCommand::Deselect) {
            selection.set(None, &session);
            continue;
        }
        if !session.human_turn() || busy.0 {
            continue;
        }
        let mut chosen = selection.of(&session);
        let order = order_for(&mut session, &mut chosen, command);
        selection.set(chosen, &session);
        if let Some(order) = order {
            let _ = session.apply(order, &mut events);
        }
    }
}

/// A battle settled or fought shows its report (the rounds of an auto-battle, the result of a
/// battle on the grid and what followed: losses, prisoners, guns taken, falling back).
fn keep_reports(mut happened: MessageReader<CampaignEvents>, mut report: ResMut<BattleReport>) {
    for GameEvents(events) in happened.read() {
        // A grid battle's result: everything its order did is about it.
        if events.iter().any(|e| matches!(e, Event::BattleWon { .. })) {
            report.0 = Some(events.clone());
            continue;
        }
        // An auto-battle: from the meeting on (the march before it is on the map).
        let start = events.iter().position(|e| matches!(e, Event::BattleJoined { .. }));
        let settled = events.iter().any(|e| matches!(e, Event::AutoBattleWon { .. }));
        if let (Some(start), true) = (start, settled) {
            report.0 = Some(events[start..].to_vec());
        }
    }
}

/// The order a command stands for, if any (selection changes are made here directly).
fn order_for(session: &mut Session<Campaign>, chosen: &mut Option<ArmyId>, command: &CampaignCommand) -> Option<Order> {
    let game = &session.game;
    let side = game.active_player()?;
    let state = game.state();
    // A waiting battle: its chooser picks the forces, then it is fought (see `battle`).
    if let Some(b) = &state.battle {
        return match command {
            CampaignCommand::ChooseForces(forces) => Some(Order::ChooseForces(forces.clone())),
            CampaignCommand::Confirm if b.chooser().is_some() => Some(game.pass()),
            CampaignCommand::Undo => {
                session.undo();
                None
            }
            _ => None,
        };
    }
    let selected = chosen.and_then(|id| state.army(id)).filter(|a| a.side == side).cloned();
    match command {
        CampaignCommand::ClickHex(hex) => {
            let own: Vec<ArmyId> = state.armies_at(*hex, side);
            match selected {
                // A click on the selected army's hex picks the next army there.
                Some(a) if a.at == *hex => {
                    let i = own.iter().position(|id| *id == a.id).unwrap_or(0);
                    *chosen = own.get((i + 1) % own.len().max(1)).copied();
                    None
                }
                Some(a) if game.reach(a.id).iter().any(|(h, _)| h == hex) => {
                    route(game, a.id, *hex).map(|path| Order::Move { army: a.id, path })
                }
                _ if !own.is_empty() => {
                    *chosen = own.first().copied();
                    None
                }
                Some(a) => {
                    session.refusal =
                        game.ctx().check_move(a.id, &[*hex]).err().map(|e| rules::texts::Msg::plain(e.to_string()));
                    None
                }
                None => None,
            }
        }
        CampaignCommand::SelectArmy(id) => {
            if state.army(*id).is_some_and(|a| a.side == side) {
                *chosen = Some(*id);
            }
            None
        }
        CampaignCommand::EndTurn => Some(Order::EndTurn),
        CampaignCommand::Undo => {
            session.undo();
            None
        }
        CampaignCommand::NextArmy => {
            let mine: Vec<ArmyId> = state.armies.iter().filter(|a| a.side == side).map(|a| a.id).collect();
            *chosen = match chosen.and_then(|s| mine.iter().position(|m| *m == s)) {
                Some(i) => mine.get((i + 1) % mine.len().max(1)).copied(),
                None => mine.first().copied(),
            };
            None
        }
        CampaignCommand::ToggleIntercept => selected.map(|a| Order::Intercept { army: a.id, on: !a.intercept }),
        CampaignCommand::Replenish => selected.map(|a| Order::Replenish { army: a.id }),
        CampaignCommand::Split(units) => selected.map(|a| Order::Split { army: a.id, units: units.clone() }),
        CampaignCommand::SplitHalf => {
            selected.map(|a| Order::Split { army: a.id, units: a.units[a.units.len().div_ceil(2)..].to_vec() })
        }
        CampaignCommand::Merge(into) => {
            let army = selected?;
            let into = into.or_else(|| state.armies_at(army.at, side).into_iter().find(|id| *id != army.id))?;
            *chosen = Some(into);
            Some(Order::Merge { army: army.id, into })
        }
        CampaignCommand::ChooseForces(_)
        | CampaignCommand::Fight
        | CampaignCommand::Confirm
        | CampaignCommand::Cancel
        | CampaignCommand::Deselect
        | CampaignCommand::Ready => None,
    }
}

/// The cheapest path of an army to a hex within its reach this turn (the engine's reach, walked
/// back from the hex: each step is to a neighbour whose cost plus the step's is the hex's).
pub fn route(game: &Campaign, army: ArmyId, to: HexAt) -> Option<Vec<HexAt>> {
    let a = game.state().army(army)?;
    let mut costs: BTreeMap<HexAt, u32> = game.reach(army).into_iter().collect();
    costs.insert(a.at, 0);
    let ctx = game.ctx();
    let mut path = vec![to];
    let mut at = to;
    while at != a.at {
        let cost = *costs.get(&at)?;
        let back = at.neighbours().into_iter().find(|n| {
            costs.get(n).is_some_and(|c| {
                (*n == a.at || !game.state().enemy_at(*n, a.side))
                    && ctx.step_cost(*n, at).is_ok_and(|step| c.saturating_add(step) == cost)
            })
        })?;
        if back != a.at {
            path.push(back);
        }
        at = back;
        if path.len() > costs.len() {
            return None;
        }
    }
    path.reverse();
    Some(path)
}

/// The side whose eyes the map uses (see `Session::viewer`): all-seeing when the AI plays both.
pub fn viewer(session: &Session<Campaign>) -> Option<Side> {
    session.viewer()
}
