//! Commanding a battle: input actions and panel buttons become [`UiCommand`]s, and those become
//! orders through the session. A person's input never touches rules state any other way.

use super::actions::BattleAction;
use super::{HoveredCell, Selection};
use crate::input::{Controls, KeyBindings, ShellAction, TypingText, just_pressed};
use crate::screens::{Mode, PlayView, playing};
use crate::session::{AnimBusy, GameEvents, LeaveAsked, Session, TurnTimer};
use crate::settings::Settings;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::tactical::components::{Phase, Reactions, Status};
use rules::tactical::{Battle, Cell, Order, UnitId};

type BattleEvents = GameEvents<Battle>;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<UiCommand>().add_systems(
        Update,
        (actions_to_commands, handle_commands, turn_timer)
            .chain()
            .in_set(crate::AppSystems::Logic)
            .run_if(playing(Mode::Battle)),
    );
}

/// Which standing reaction order to switch (T-FIRE-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    CounterVolley,
    CounterCharge,
    Intercept,
}

/// What a person asks for, by key, mouse or panel button.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum UiCommand {
    /// Select the unit on the cell, or send the selected one there (move, fire, deploy).
    ClickCell(Cell),
    SelectUnit(UnitId),
    Deselect,
    EndTurn,
    Undo,
    TurnLeft,
    TurnRight,
    NextUnit,
    Skirmish,
    Reform,
    Toggle(Reaction),
    /// An order that needs a "yes" first (retreat, capitulation).
    Ask(Order),
    Confirm,
    Cancel,
    /// The next player at the screen is ready (hot-seat hand-over).
    Ready,
}

#[allow(clippy::too_many_arguments)]
fn actions_to_commands(
    shell: Query<&ActionState<ShellAction>, With<Controls>>,
    battle: Query<&ActionState<BattleAction>, With<Controls>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    hovered: Res<HoveredCell>,
    typing: Res<TypingText>,
    mut out: MessageWriter<UiCommand>,
) {
    let (Ok(shell), Ok(battle)) = (shell.single(), battle.single()) else { return };
    // Keys typed into a text field are text, not orders.
    let shell_pressed = |a: ShellAction| !typing.0 && just_pressed(shell, keys.as_deref(), &bindings, a);
    let pressed = |a: BattleAction| !typing.0 && just_pressed(battle, keys.as_deref(), &bindings, a);
    // A click shorter than a frame still counts (see `input::just_pressed`).
    let quick_click = mouse.is_some_and(|m| m.just_pressed(MouseButton::Left));
    if (shell_pressed(ShellAction::Select) || quick_click)
        && let Some(cell) = hovered.0
    {
        out.write(UiCommand::ClickCell(cell));
    }
    let shell_commands = [
        (ShellAction::Cancel, UiCommand::Cancel),
        (ShellAction::Confirm, UiCommand::Confirm),
        (ShellAction::EndTurn, UiCommand::EndTurn),
        (ShellAction::Undo, UiCommand::Undo),
    ];
    for (action, command) in shell_commands {
        if shell_pressed(action) {
            out.write(command);
        }
    }
    let orders = [
        (BattleAction::TurnLeft, UiCommand::TurnLeft),
        (BattleAction::TurnRight, UiCommand::TurnRight),
        (BattleAction::NextUnit, UiCommand::NextUnit),
        (BattleAction::Skirmish, UiCommand::Skirmish),
        (BattleAction::Reform, UiCommand::Reform),
        (BattleAction::ToggleCounterVolley, UiCommand::Toggle(Reaction::CounterVolley)),
        (BattleAction::ToggleCounterCharge, UiCommand::Toggle(Reaction::CounterCharge)),
        (BattleAction::ToggleIntercept, UiCommand::Toggle(Reaction::Intercept)),
        (BattleAction::Retreat, UiCommand::Ask(Order::Retreat)),
        (BattleAction::Capitulate, UiCommand::Ask(Order::Capitulate)),
    ];
    for (action, command) in orders {
        if pressed(action) {
            out.write(command);
        }
    }
}

fn handle_commands(
    mut commands_in: MessageReader<UiCommand>,
    session: Option<ResMut<Session<Battle>>>,
    mut selection: ResMut<Selection>,
    view: Res<State<PlayView>>,
    mut next_view: ResMut<NextState<PlayView>>,
    busy: Res<AnimBusy>,
    mut events: MessageWriter<BattleEvents>,
) {
    let Some(mut session) = session else {
        commands_in.clear();
        return;
    };
    for command in commands_in.read() {
        if *view.get() == PlayView::HandOver {
            if matches!(command, UiCommand::Ready | UiCommand::Confirm) {
                next_view.set(PlayView::Playing);
            }
            continue;
        }
        if session.confirm.is_some() {
            match command {
                UiCommand::Confirm => session.answer(true, &mut events),
                UiCommand::Cancel => session.answer(false, &mut events),
                // Space again ends a turn in which nothing was done.
                UiCommand::EndTurn => session.end_turn(&mut events),
                _ => {}
            }
            continue;
        }
        if matches!(command, UiCommand::Cancel | UiCommand::Deselect) {
            selection.set(None, &session);
            continue;
        }
        if !session.human_turn() || busy.0 {
            continue;
        }
        if *command == UiCommand::EndTurn {
            session.end_turn(&mut events);
            continue;
        }
        let before = selection.of(&session);
        let mut chosen = Chosen { unit: before };
        let order = order_for(&mut session, &mut chosen, command);
        selection.set(chosen.unit, &session);
        // What was said about the unit selected before is stale once another one is chosen.
        if chosen.unit != before {
            session.forget_messages();
        }
        if let Some(order) = order {
            let _ = session.apply(order, &mut events);
        }
    }
}

/// The unit a command works on, changed by selecting commands.
struct Chosen {
    unit: Option<UnitId>,
}

/// The order a command stands for, if any (selection changes are made here directly).
fn order_for(session: &mut Session<Battle>, chosen: &mut Chosen, command: &UiCommand) -> Option<Order> {
    let ctx = session.ctx();
    let side = ctx.clock.active;
    let selected = chosen.unit.and_then(|id| ctx.unit(id).cloned()).filter(|u| u.side == side);
    match command {
        UiCommand::ClickCell(cell) => click(session, chosen, *cell),
        UiCommand::SelectUnit(id) => {
            if ctx.unit(*id).is_some_and(|u| u.side == side) {
                chosen.unit = Some(*id);
            }
            None
        }
        UiCommand::EndTurn => None,
        UiCommand::Undo => {
            session.undo();
            None
        }
        UiCommand::TurnLeft | UiCommand::TurnRight => selected.map(|u| Order::Turn {
            unit: u.id,
            facing: if *command == UiCommand::TurnLeft { u.facing.left() } else { u.facing.right() },
        }),
        UiCommand::NextUnit => {
            let mine: Vec<UnitId> = ctx
                .units
                .iter()
                .filter(|u| u.side == side && matches!(u.status, Status::Active | Status::Undeployed))
                .map(|u| u.id)
                .collect();
            let next = match chosen.unit.and_then(|s| mine.iter().position(|m| *m == s)) {
                Some(i) => mine.get((i + 1) % mine.len().max(1)).copied(),
                None => mine.first().copied(),
            };
            chosen.unit = next;
            None
        }
        UiCommand::Skirmish => selected.map(|u| Order::Skirmish { unit: u.id, on: u.skirmish.is_none() }),
        UiCommand::Reform => selected.map(|u| Order::Reform { unit: u.id }),
        UiCommand::Toggle(which) => selected.map(|u| {
            let r = u.reactions;
            let reactions = match which {
                Reaction::CounterVolley => Reactions { counter_volley: !r.counter_volley, ..r },
                Reaction::CounterCharge => Reactions { counter_charge: !r.counter_charge, ..r },
                Reaction::Intercept => Reactions { intercept: !r.intercept, ..r },
            };
            Order::SetReactions { unit: u.id, reactions }
        }),
        UiCommand::Ask(order) => {
            session.ask(order.clone());
            None
        }
        UiCommand::Confirm | UiCommand::Cancel | UiCommand::Deselect | UiCommand::Ready => None,
    }
}

/// A click on a cell: select, deploy, place a redoubt, fire or move, as the phase and the
/// selection make sense of it.
fn click(session: &mut Session<Battle>, chosen: &mut Chosen, cell: Cell) -> Option<Order> {
    let ctx = session.ctx();
    let side = ctx.clock.active;
    let own_here = ctx.at(cell).filter(|u| u.side == side).map(|u| u.id);
    match ctx.clock.phase {
        Phase::Redoubts => Some(Order::PlaceRedoubt { cell }),
        Phase::Deployment => {
            if let Some(id) = own_here {
                chosen.unit = Some(id);
                return None;
            }
            let facing = ctx.statics.scenario.side(side).edge.opposite();
            let unit = chosen.unit.filter(|s| ctx.unit(*s).is_some_and(|u| u.side == side)).or_else(|| {
                ctx.units.iter().find(|u| u.side == side && u.status == Status::Undeployed).map(|u| u.id)
            })?;
            // The next unit still to place is selected after this one.
            chosen.unit = ctx
                .units
                .iter()
                .find(|u| u.side == side && u.status == Status::Undeployed && u.id != unit)
                .map(|u| u.id);
            Some(Order::Deploy { unit, cell, facing })
        }
        Phase::Battle => {
            let selected = chosen.unit.and_then(|id| ctx.unit(id)).filter(|u| u.side == side && u.status.on_field());
            // T-END-2: in a retreat, a click on the selected unit's own cell, or on an edge cell
            // in its reach, leaves the field; the engine says whether it may (and why not).
            if let Some(u) = selected.filter(|_| ctx.sides.retreating[side.index()]) {
                if cell == u.cell {
                    return match ctx.check_move(u.id, &[], true) {
                        Ok(plan) => Some(Order::Move { unit: u.id, path: plan.path, exit: true }),
                        Err(e) => {
                            session.refusal = Some(rules::texts::Msg::plain(e.to_string()));
                            None
                        }
                    };
                }
                if own_here.is_none()
                    && let Ok(reach) = ctx.check_reach(u.id, cell)
                    && let Ok(plan) = ctx.check_move(u.id, &reach.path, true)
                {
                    return Some(Order::Move { unit: u.id, path: plan.path, exit: true });
                }
            }
            if let Some(id) = own_here {
                chosen.unit = Some(id);
                return None;
            }
            let selected = selected?;
            if let Some(enemy) = ctx.at(cell).filter(|e| e.side != side && ctx.visible_to(e, side)) {
                return Some(Order::Fire { unit: selected.id, target: enemy.id });
            }
            // Out of reach: the engine names what really stops the move.
            match ctx.check_reach(selected.id, cell) {
                Ok(r) => Some(Order::Move { unit: selected.id, path: r.path, exit: false }),
                Err(e) => {
                    session.refusal = Some(rules::texts::Msg::plain(e.to_string()));
                    None
                }
            }
        }
        Phase::Over => None,
    }
}

fn turn_timer(
    // Real time: the window sleeps while nobody plays (see `crate::wake`), and virtual time
    // would count at most a quarter second of each second asleep.
    time: Res<Time<Real>>,
    settings: Res<Settings>,
    session: Option<ResMut<Session<Battle>>>,
    view: Res<State<PlayView>>,
    (busy, leaving): (Res<AnimBusy>, Res<LeaveAsked>),
    mut timer: ResMut<TurnTimer>,
    mut events: MessageWriter<BattleEvents>,
) {
    let Some(mut session) = session else { return };
    let clock = session.game.clock();
    let human = session.human_turn();
    let setting_up = matches!(clock.phase, Phase::Redoubts | Phase::Deployment);
    // T-TURN-2: 20 s a turn (15 s in small battles); T-SETUP-1: 2 minutes for the whole set-up
    // of both sides together. The AI's seat is never timed out: no turn clock runs for it, and
    // the set-up clock waits while it sets up.
    // Online, the server runs the clocks (the seat's bar shows them).
    if !settings.turn_timer || clock.phase == Phase::Over || (!human && !setting_up) || session.remote.is_some() {
        timer.remaining = None;
        return;
    }
    let key = if setting_up { (0, None, false) } else { (clock.turn, Some(clock.active.index()), true) };
    if timer.key != key || timer.remaining.is_none() {
        timer.key = key;
        let ctx = session.ctx();
        timer.remaining = Some(if setting_up { ctx.setup_seconds() } else { ctx.turn_seconds() } as f32);
    }
    // The clock stops while a question waits for the player.
    if !human || *view.get() != PlayView::Playing || busy.0 || session.confirm.is_some() || leaving.0 {
        return;
    }
    if let Some(left) = &mut timer.remaining {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            // Run out in set-up, it stays out for the other side too (one clock for both).
            timer.remaining = setting_up.then_some(0.0);
            let pass = Order::pass_in(clock.phase);
            let _ = session.apply(pass, &mut events);
        }
    }
}
