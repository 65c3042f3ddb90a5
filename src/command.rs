//! Commanding a battle: input actions and panel buttons become [`UiCommand`]s, and those become
//! orders through the session. A person's input never touches rules state any other way.

use crate::input::{Action, Controls, HoveredCell, TypingText};
use crate::screens::{BattleView, Screen};
use crate::session::{AnimBusy, BattleEvents, Session};
use crate::settings::Settings;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::tactical::components::{Phase, Reactions, Status};
use rules::tactical::{Cell, Order, Side, UnitId};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<UiCommand>().init_resource::<TurnTimer>().add_systems(
        Update,
        (actions_to_commands, handle_commands, turn_timer, hand_over)
            .chain()
            .in_set(crate::AppSystems::Logic)
            .run_if(in_state(Screen::Battle)),
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

fn actions_to_commands(
    controls: Query<&ActionState<Action>, With<Controls>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    settings: Res<Settings>,
    hovered: Res<HoveredCell>,
    typing: Res<TypingText>,
    mut out: MessageWriter<UiCommand>,
) {
    let Ok(actions) = controls.single() else { return };
    // A press shorter than a frame (slow software rendering, a busy browser tab) is pressed and
    // released before the action updates; the raw input still saw it go down.
    let quick_key = |a: Action| {
        keys.as_ref().is_some_and(|k| {
            settings.bindings.iter().filter(|b| b.action == a).flat_map(|b| &b.keys).any(|key| k.just_pressed(*key))
        })
    };
    // Keys typed into a text field are text, not orders.
    let pressed = |a: Action| !typing.0 && (actions.just_pressed(&a) || quick_key(a));
    let quick_click = mouse.is_some_and(|m| m.just_pressed(MouseButton::Left));
    if (pressed(Action::Select) || quick_click)
        && let Some(cell) = hovered.0
    {
        out.write(UiCommand::ClickCell(cell));
    }
    let simple = [
        (Action::Cancel, UiCommand::Cancel),
        (Action::Confirm, UiCommand::Confirm),
        (Action::EndTurn, UiCommand::EndTurn),
        (Action::Undo, UiCommand::Undo),
        (Action::TurnLeft, UiCommand::TurnLeft),
        (Action::TurnRight, UiCommand::TurnRight),
        (Action::NextUnit, UiCommand::NextUnit),
        (Action::Skirmish, UiCommand::Skirmish),
        (Action::Reform, UiCommand::Reform),
        (Action::ToggleCounterVolley, UiCommand::Toggle(Reaction::CounterVolley)),
        (Action::ToggleCounterCharge, UiCommand::Toggle(Reaction::CounterCharge)),
        (Action::ToggleIntercept, UiCommand::Toggle(Reaction::Intercept)),
        (Action::Retreat, UiCommand::Ask(Order::Retreat)),
        (Action::Capitulate, UiCommand::Ask(Order::Capitulate)),
    ];
    for (action, command) in simple {
        if pressed(action) {
            out.write(command);
        }
    }
}

fn handle_commands(
    mut commands_in: MessageReader<UiCommand>,
    session: Option<ResMut<Session>>,
    view: Res<State<BattleView>>,
    mut next_view: ResMut<NextState<BattleView>>,
    busy: Res<AnimBusy>,
    mut events: MessageWriter<BattleEvents>,
) {
    let Some(mut session) = session else {
        commands_in.clear();
        return;
    };
    for command in commands_in.read() {
        if *view.get() == BattleView::HandOver {
            if matches!(command, UiCommand::Ready | UiCommand::Confirm) {
                next_view.set(BattleView::Playing);
            }
            continue;
        }
        if let Some(order) = session.confirm.clone() {
            match command {
                UiCommand::Confirm => {
                    session.confirm = None;
                    let _ = session.apply(order, &mut events);
                }
                UiCommand::Cancel => session.confirm = None,
                _ => {}
            }
            continue;
        }
        if matches!(command, UiCommand::Cancel | UiCommand::Deselect) {
            session.selected = None;
            continue;
        }
        if !session.human_turn() || busy.0 {
            continue;
        }
        if let Some(order) = order_for(&mut session, command) {
            let _ = session.apply(order, &mut events);
        }
    }
}

/// Hot-seat: when the turn passes to the other person, hide the board until they are ready.
fn hand_over(
    session: Option<Res<Session>>,
    mut last: Local<Option<(Side, Phase)>>,
    mut next_view: ResMut<NextState<BattleView>>,
) {
    let Some(session) = session else {
        *last = None;
        return;
    };
    let clock = session.battle.clock();
    let now = (clock.active, clock.phase);
    if let Some((side, _)) = *last
        && side != now.0
        && session.hot_seat()
        && clock.phase != Phase::Over
    {
        next_view.set(BattleView::HandOver);
    }
    *last = Some(now);
}

/// The order a command stands for, if any (selection changes are made here directly).
fn order_for(session: &mut Session, command: &UiCommand) -> Option<Order> {
    let ctx = session.ctx();
    let side = ctx.clock.active;
    let selected = session.selected.and_then(|id| ctx.unit(id).cloned()).filter(|u| u.side == side);
    match command {
        UiCommand::ClickCell(cell) => click(session, *cell),
        UiCommand::SelectUnit(id) => {
            if ctx.unit(*id).is_some_and(|u| u.side == side) {
                session.selected = Some(*id);
            }
            None
        }
        UiCommand::EndTurn => Some(if ctx.clock.phase == Phase::Battle { Order::EndTurn } else { Order::EndSetup }),
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
            let next = match session.selected.and_then(|s| mine.iter().position(|m| *m == s)) {
                Some(i) => mine.get((i + 1) % mine.len().max(1)).copied(),
                None => mine.first().copied(),
            };
            session.selected = next;
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
            session.confirm = Some(order.clone());
            None
        }
        UiCommand::Confirm | UiCommand::Cancel | UiCommand::Deselect | UiCommand::Ready => None,
    }
}

/// A click on a cell: select, deploy, place a redoubt, fire or move, as the phase and the
/// selection make sense of it.
fn click(session: &mut Session, cell: Cell) -> Option<Order> {
    let ctx = session.ctx();
    let side = ctx.clock.active;
    let own_here = ctx.at(cell).filter(|u| u.side == side).map(|u| u.id);
    match ctx.clock.phase {
        Phase::Redoubts => Some(Order::PlaceRedoubt { cell }),
        Phase::Deployment => {
            if let Some(id) = own_here {
                session.selected = Some(id);
                return None;
            }
            let facing = ctx.statics.scenario.side(side).edge.opposite();
            let unit = session.selected.filter(|s| ctx.unit(*s).is_some_and(|u| u.side == side)).or_else(|| {
                ctx.units.iter().find(|u| u.side == side && u.status == Status::Undeployed).map(|u| u.id)
            })?;
            // The next unit still to place is selected after this one.
            session.selected = ctx
                .units
                .iter()
                .find(|u| u.side == side && u.status == Status::Undeployed && u.id != unit)
                .map(|u| u.id);
            Some(Order::Deploy { unit, cell, facing })
        }
        Phase::Battle => {
            if let Some(id) = own_here {
                session.selected = Some(id);
                return None;
            }
            let selected =
                session.selected.and_then(|id| ctx.unit(id)).filter(|u| u.side == side && u.status.on_field())?;
            if let Some(enemy) = ctx.at(cell).filter(|e| e.side != side && ctx.visible_to(e, side)) {
                return Some(Order::Fire { unit: selected.id, target: enemy.id });
            }
            let path = ctx.reachable(selected.id).into_iter().find(|r| r.cell == cell).map(|r| r.path);
            match path {
                Some(path) => Some(Order::Move { unit: selected.id, path, exit: false }),
                None if ctx.sides.retreating[side.index()] && cell == selected.cell && ctx.grid.on_edge(cell) => {
                    Some(Order::Move { unit: selected.id, path: Vec::new(), exit: true })
                }
                None => {
                    session.refusal = Some(match ctx.check_move(selected.id, &[cell], false) {
                        Err(e) => e.to_string(),
                        Ok(_) => String::new(),
                    });
                    None
                }
            }
        }
        Phase::Over => None,
    }
}

/// The client's turn timer (T-TURN-2, T-SETUP-1): at time-out the turn ends by an order.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct TurnTimer {
    /// Seconds left, when running.
    pub remaining: Option<f32>,
    key: (u32, Option<Side>, bool),
}

fn turn_timer(
    // Real time: the window sleeps while nobody plays (see `crate::wake`), and virtual time
    // would count at most a quarter second of each second asleep.
    time: Res<Time<Real>>,
    settings: Res<Settings>,
    session: Option<ResMut<Session>>,
    view: Res<State<BattleView>>,
    busy: Res<AnimBusy>,
    mut timer: ResMut<TurnTimer>,
    mut events: MessageWriter<BattleEvents>,
) {
    let Some(mut session) = session else { return };
    let clock = session.battle.clock();
    let human = session.human_turn();
    if !settings.turn_timer || !human || clock.phase == Phase::Over {
        timer.remaining = None;
        return;
    }
    let key = (clock.turn, Some(clock.active), clock.phase == Phase::Battle);
    if timer.key != key || timer.remaining.is_none() {
        timer.key = key;
        let rules = session.battle.scenario().rules.clone();
        timer.remaining = Some(if clock.phase == Phase::Battle {
            session.ctx().turn_seconds() as f32
        } else {
            rules.deployment_seconds as f32
        });
    }
    if *view.get() != BattleView::Playing || busy.0 || session.confirm.is_some() {
        return;
    }
    if let Some(left) = &mut timer.remaining {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            timer.remaining = None;
            let pass = if clock.phase == Phase::Battle { Order::EndTurn } else { Order::EndSetup };
            let _ = session.apply(pass, &mut events);
        }
    }
}
