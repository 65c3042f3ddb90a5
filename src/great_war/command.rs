//! Commanding the Great War: input actions and panel buttons become [`UiCommand`]s, and those
//! become orders through the session's one door. Orders that lead into a fight (an attack, a
//! move next to the enemy, a bombardment or gas, a fleet sailing at the enemy) wait for the
//! player's "yes" while the engine's preview of them is shown.

use super::actions::GwAction;
use super::sea_orders::{self, SeaCommand, SeaHand};
use super::{Give, HoveredHex, Selected, Selection, fleet};
use crate::input::{Controls, KeyBindings, ShellAction, TypingText, just_pressed};
use crate::screens::{Mode, PlayView, playing};
use crate::session::{AnimBusy, GameEvents, Session};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::Game;
use rules::strategic::query::{army_moves, army_of, pieces_at, pieces_on_map};
use rules::strategic::{Ctx, ForceId, FormationId, GreatWar, HexAt, Order, Phase, Piece, PowerId};
use rules::texts::Msg;

type GwEvents = GameEvents<GreatWar>;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<UiCommand>().add_systems(
        Update,
        (actions_to_commands, handle_commands).chain().in_set(crate::AppSystems::Logic).run_if(playing(Mode::GreatWar)),
    );
}

/// What a person asks for, by key, mouse or panel button.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum UiCommand {
    /// Select what stands on the hex, or send the selection there (move, attack, fire, sail).
    ClickHex(HexAt),
    Select(Selected),
    Deselect,
    EndPhase,
    Undo,
    NextPiece,
    WholeArmy,
    ToggleGas,
    Fortify,
    /// An order given from a panel (research, upgrade, stances…).
    Give(Order),
    /// A pick or an order from the fleet panel (see `sea_orders`).
    Sea(SeaCommand),
    Confirm,
    Cancel,
    /// The next player at the screen is ready (hot-seat hand-over).
    Ready,
}

#[allow(clippy::too_many_arguments)]
fn actions_to_commands(
    shell: Query<&ActionState<ShellAction>, With<Controls>>,
    gw: Query<&ActionState<GwAction>, With<Controls>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    hovered: Res<HoveredHex>,
    typing: Res<TypingText>,
    mut out: MessageWriter<UiCommand>,
) {
    let (Ok(shell), Ok(gw)) = (shell.single(), gw.single()) else { return };
    let shell_pressed = |a: ShellAction| !typing.0 && just_pressed(shell, keys.as_deref(), &bindings, a);
    let pressed = |a: GwAction| !typing.0 && just_pressed(gw, keys.as_deref(), &bindings, a);
    let quick_click = mouse.is_some_and(|m| m.just_pressed(MouseButton::Left));
    if (shell_pressed(ShellAction::Select) || quick_click)
        && let Some(at) = hovered.0
    {
        out.write(UiCommand::ClickHex(at));
    }
    let commands = [
        (ShellAction::Cancel, UiCommand::Cancel),
        (ShellAction::Confirm, UiCommand::Confirm),
        (ShellAction::EndTurn, UiCommand::EndPhase),
        (ShellAction::Undo, UiCommand::Undo),
    ];
    for (action, command) in commands {
        if shell_pressed(action) {
            out.write(command);
        }
    }
    let orders = [
        (GwAction::NextPiece, UiCommand::NextPiece),
        (GwAction::WholeArmy, UiCommand::WholeArmy),
        (GwAction::ToggleGas, UiCommand::ToggleGas),
        (GwAction::Fortify, UiCommand::Fortify),
    ];
    for (action, command) in orders {
        if pressed(action) {
            out.write(command);
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn handle_commands(
    mut commands_in: MessageReader<UiCommand>,
    pick_in_hand: Res<super::PickInHand>,
    session: Option<ResMut<Session<GreatWar>>>,
    mut selection: ResMut<Selection>,
    view: Res<State<PlayView>>,
    mut next_view: ResMut<NextState<PlayView>>,
    busy: Res<AnimBusy>,
    mut events: MessageWriter<GwEvents>,
    mut hand: ResMut<SeaHand>,
    seat: Res<crate::net::command::SeatCommand>,
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
        // A refusal stands until the player does something else, not for the rest of the phase.
        if matches!(
            command,
            UiCommand::ClickHex(_)
                | UiCommand::Select(_)
                | UiCommand::NextPiece
                | UiCommand::WholeArmy
                | UiCommand::Cancel
                | UiCommand::Deselect
        ) {
            session.refusal = None;
        }
        match command {
            UiCommand::Cancel | UiCommand::Deselect => {
                selection.set(None, &session);
                *hand = SeaHand::default();
                continue;
            }
            UiCommand::ToggleGas => {
                selection.gas = !selection.gas;
                continue;
            }
            _ => {}
        }
        if !session.human_turn() || busy.0 {
            continue;
        }
        // A click while a land order waits for its place is that order's (`land_orders`).
        if matches!(command, UiCommand::ClickHex(_)) && pick_in_hand.0 {
            continue;
        }
        let before = selection.of(&session);
        let mut chosen = before;
        let order = order_for(&mut session, &mut chosen, selection.gas, &mut hand, command);
        // Online, a general selects the pieces it holds, a leader those its generals do not
        // (S-ARMY-3): the server would refuse their orders.
        if let Some(s) = chosen.filter(|s| Some(*s) != before)
            && !seat.may_order(holder(&session.ctx(), s))
        {
            chosen = before;
            let general = seat.0.as_ref().is_some_and(|h| h.general);
            session.refusal =
                Some(Msg::new(if general { "ui.command.not_yours_general" } else { "ui.command.not_yours_leader" }));
        }
        selection.set(chosen, &session);
        match order {
            Some(Give::Now(order)) => {
                let _ = session.apply(order, &mut events);
            }
            Some(Give::AfterPreview(order)) => match session.game.preview(&order) {
                Ok(_) => session.confirm = Some(order),
                Err(e) => session.refusal = Some(e.line()),
            },
            None => {}
        }
    }
}

/// The order a command stands for, if any (selection changes are made here directly).
fn order_for(
    session: &mut Session<GreatWar>,
    chosen: &mut Option<Selected>,
    gas: bool,
    hand: &mut SeaHand,
    command: &UiCommand,
) -> Option<Give> {
    let ctx = session.ctx();
    let power = ctx.active_power();
    match command {
        UiCommand::ClickHex(at) => click(session, &ctx, chosen, gas, hand, *at),
        UiCommand::Select(s) => {
            if super::owner_of(&ctx, *s) == Some(power) {
                *chosen = Some(*s);
            }
            None
        }
        UiCommand::EndPhase => Some(Give::Now(session.game.pass())),
        UiCommand::Undo => {
            session.undo();
            None
        }
        UiCommand::NextPiece => {
            // In the Fire phase, Tab goes through the guns that may fire, attached ones included.
            let order = tab_order(&ctx, power);
            let now = chosen.and_then(|s| order.iter().position(|q| *q == s));
            *chosen = match now {
                Some(i) => order.get((i + 1) % order.len().max(1)).copied(),
                None => order.first().copied(),
            };
            None
        }
        UiCommand::WholeArmy => {
            if let Some(Selected::Piece(p)) = *chosen
                && let Some(army) = army_of(&ctx, p)
            {
                *chosen = Some(Selected::Army(army));
            }
            None
        }
        UiCommand::Fortify => match *chosen {
            Some(Selected::Piece(piece)) => Some(Give::Now(Order::Fortify { piece })),
            _ => None,
        },
        UiCommand::Give(order) => Some(Give::Now(order.clone())),
        UiCommand::Sea(c) => sea_orders::command(session, *chosen, hand, c),
        UiCommand::Deselect | UiCommand::Cancel | UiCommand::Confirm | UiCommand::Ready | UiCommand::ToggleGas => None,
    }
}

/// What holds a selected piece for the seats online (S-ARMY-3, `query::order_formation`).
pub fn holder(ctx: &Ctx, s: Selected) -> crate::net::command::Holder {
    use crate::net::command::Holder;
    let formation = match s {
        Selected::Piece(p) => rules::strategic::query::order_formation(ctx, p),
        Selected::Army(a) => Some(a),
        Selected::Fleet(f) => return Holder::Fleet(f),
        Selected::Squadron(_) => None,
    };
    formation.map_or(Holder::Leader, |f| Holder::Formation(f.0))
}

/// Own fleets on a hex, by ID.
pub fn fleets_at(ctx: &Ctx, power: PowerId, at: HexAt) -> Vec<u32> {
    ctx.navy
        .fleets
        .iter()
        .filter(|f| f.power == power && f.at == at && fleet(ctx, f.id).is_some())
        .map(|f| f.id)
        .collect()
}

/// A click on a hex: select what stands there, or send the selection there, as the phase and
/// the selection make sense of it.
fn click(
    session: &mut Session<GreatWar>,
    ctx: &Ctx,
    chosen: &mut Option<Selected>,
    gas: bool,
    hand: &mut SeaHand,
    at: HexAt,
) -> Option<Give> {
    let power = ctx.active_power();
    let phase = ctx.clock.phase;
    // In the Fire phase a click on own troops selects the guns that fire from there, attached
    // ones included (S-ARMY-5); elsewhere, or where none is ready, the pieces that stand there.
    let guns: Vec<Piece> = ctx.guns_ready_at(power, at).into_iter().map(Piece::Unit).collect();
    let pieces = if guns.is_empty() { pieces_at(ctx, power, at) } else { guns };
    // S-ARMY-3: a corps of an army takes its orders from the army, so the army comes first and
    // the corps (to fortify, or to look at) on the next click.
    let mut own: Vec<Selected> = Vec::new();
    for piece in pieces {
        if let Some(army) = army_of(ctx, piece).filter(|_| matches!(piece, Piece::Corps(_)))
            && !own.contains(&Selected::Army(army))
        {
            own.push(Selected::Army(army));
        }
        own.push(Selected::Piece(piece));
    }
    let own: Vec<Selected> = own
        .into_iter()
        .chain(fleets_at(ctx, power, at).into_iter().map(Selected::Fleet))
        .chain(rules::strategic::query::squadrons_at(ctx, power, at).into_iter().map(Selected::Squadron))
        .collect();
    if let Some(give) = sea_orders::click(session, ctx, *chosen, hand, at, !own.is_empty()) {
        return give;
    }
    // A click on own pieces selects them, the next one on each click.
    if !own.is_empty() {
        let next = match chosen.and_then(|s| own.iter().position(|o| *o == s)) {
            Some(i) => own[(i + 1) % own.len()],
            None => own[0],
        };
        // An artillery piece in the Fire phase fires at own-held hexes only by mistake: select.
        *chosen = Some(next);
        return None;
    }
    let selected = (*chosen)?;
    let refuse = |session: &mut Session<GreatWar>, why: Msg| {
        session.refusal = Some(why);
        None
    };
    match selected {
        Selected::Piece(piece) => {
            if phase == Phase::Fire {
                let unit = match piece {
                    Piece::Unit(unit) => unit,
                    // A corps fires with its own or its army's attached guns: the first ready
                    // one in range.
                    Piece::Corps(c) => match first_gun_in_range(ctx, power, c, at) {
                        Some(gun) => {
                            *chosen = Some(Selected::Piece(Piece::Unit(gun)));
                            gun
                        }
                        None => return refuse(session, Msg::new("gw.why.corps_fires")),
                    },
                };
                return Some(Give::AfterPreview(Order::Fire { unit, target: at, gas }));
            }
            let from = ctx.piece_hex(piece)?;
            let enemy_here = ctx.enemy_on(power, at);
            if enemy_here && from.is_adjacent(at) {
                return Some(Give::AfterPreview(Order::Attack { piece, target: at }));
            }
            match ctx.destinations(piece).into_iter().find(|(h, _, _)| *h == at) {
                Some((_, _, path)) => {
                    let order = Order::Move { piece, path };
                    // A move that ends next to the enemy starts a fight, and one into a neutral's
                    // land brings it into the war (issue 27): both are shown first.
                    let enters = session.game.preview(&order).is_ok_and(|p| !p.enters_war.is_empty());
                    if ctx.next_to_enemy(power, at) || enters {
                        Some(Give::AfterPreview(order))
                    } else {
                        Some(Give::Now(order))
                    }
                }
                // Not reachable: the engine says why, for the straight line there.
                None => {
                    let path = line(from, at);
                    match session.game.preview(&Order::Move { piece, path }) {
                        Err(e) => refuse(session, e.line()),
                        Ok(_) => None,
                    }
                }
            }
        }
        Selected::Army(army) if phase == Phase::Fire => match first_gun_in_range(ctx, power, army, at) {
            Some(gun) => {
                *chosen = Some(Selected::Piece(Piece::Unit(gun)));
                Some(Give::AfterPreview(Order::Fire { unit: gun, target: at, gas }))
            }
            None => refuse(session, Msg::new("gw.why.corps_fires")),
        },
        // A click on an enemy is no move: an army in contact fights it as a whole in the Combat
        // phase (S-ARMY-11), its corps name no targets of their own (S-ARMY-3); one not in
        // contact must be moved up first.
        Selected::Army(army) if ctx.enemy_on(power, at) => {
            let corps = ctx.formation(army).map(|f| f.corps.clone()).unwrap_or_default();
            let touching = corps.iter().any(|c| ctx.piece_hex(Piece::Corps(*c)).is_some_and(|h| h.is_adjacent(at)));
            let name = ctx.formation(army).map(|f| f.name.clone()).unwrap_or_default();
            let why = if touching { "gw.why.army_in_contact" } else { "gw.why.army_not_adjacent" };
            refuse(session, Msg::new(why).arg("army", name).arg("hex", at))
        }
        Selected::Army(army) => {
            let moves = army_moves(ctx, army, at);
            if moves.is_empty() {
                return refuse(session, Msg::new("gw.why.army_cannot_reach"));
            }
            Some(Give::AfterPreview(Order::MoveArmy { army, moves }))
        }
        Selected::Fleet(id) => {
            let f = fleet(ctx, id)?;
            if phase == Phase::Fire {
                return Some(Give::AfterPreview(Order::Bombard { fleet: id, target: at }));
            }
            let path = sea_path(ctx, id, at).unwrap_or_else(|| line(f.at, at));
            let order = Order::MoveFleet { fleet: id, path };
            // A voyage that may meet the enemy (an interception reaches far, S-NAVAL-12) is
            // shown first: its preview has more than one outcome.
            let meets = session.game.preview(&order).is_ok_and(|p| p.outcomes.len() > 1 || !p.engagements.is_empty());
            if meets { Some(Give::AfterPreview(order)) } else { Some(Give::Now(order)) }
        }
        // A squadron strikes only at ships (`sea_orders::click`).
        Selected::Squadron(_) => None,
    }
}

/// The first gun ready to fire (by ID) whose range reaches `at`, of a corps (attached to it or to
/// its army) or of an army (attached to it or to one of its corps).
fn first_gun_in_range(ctx: &Ctx, power: PowerId, formation: FormationId, at: HexAt) -> Option<ForceId> {
    let mut within = vec![formation];
    within.extend(ctx.formation(formation).map(|f| f.corps.clone()).unwrap_or_default());
    within.extend(army_of(ctx, Piece::Corps(formation)));
    ctx.guns_ready(power).into_iter().find(|g| {
        let Some(f) = ctx.force(*g) else { return false };
        let belongs = match f.place {
            rules::strategic::state::Place::Attached(x) => within.contains(&x),
            _ => f.member.corps.is_some_and(|c| within.contains(&c)),
        };
        belongs && ctx.check_fire_range(*g).is_some_and(|(_, reach)| reach.contains(&at))
    })
}

/// What Tab goes through: in the Fire phase the guns a person can fire now (attached ones
/// included); otherwise every piece that takes orders of its own, an army for its corps (S-ARMY-3).
pub fn tab_order(ctx: &Ctx, power: PowerId) -> Vec<Selected> {
    if ctx.clock.phase == Phase::Fire {
        let guns: Vec<Selected> = ctx.guns_ready(power).into_iter().map(|g| Selected::Piece(Piece::Unit(g))).collect();
        if !guns.is_empty() {
            return guns;
        }
    }
    let mut out: Vec<Selected> = Vec::new();
    for piece in pieces_on_map(ctx, power) {
        let s = match army_of(ctx, piece).filter(|_| matches!(piece, Piece::Corps(_))) {
            Some(army) => Selected::Army(army),
            None => Selected::Piece(piece),
        };
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The hexes of a straight line from `from` (excluded) to `to`, for the engine to judge.
pub fn line(from: HexAt, to: HexAt) -> Vec<HexAt> {
    let mut path = Vec::new();
    let mut at = from;
    // Step by step to the neighbour nearest the goal (at most the distance's steps).
    for _ in 0..from.distance(to).min(64) {
        let Some(next) = at.neighbours().into_iter().min_by_key(|n| (n.distance(to), *n)) else { break };
        path.push(next);
        at = next;
    }
    path
}

/// The way fleet `id` sails to `to` this phase, as the engine walks it (S-NAVAL-4, S-CITY-2:
/// [`rules::strategic::query::fleet_reach`]), asked by the power to act.
pub fn sea_path(ctx: &Ctx, id: u32, to: HexAt) -> Option<Vec<HexAt>> {
    rules::strategic::query::fleet_reach(ctx, rules::view::Viewer::Player(ctx.active_power()), id).path(to)
}

/// A unit's own id when the piece is a single unit.
pub fn piece_unit(piece: Piece) -> Option<ForceId> {
    match piece {
        Piece::Unit(u) => Some(u),
        Piece::Corps(_) => None,
    }
}
