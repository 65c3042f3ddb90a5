//! The Great War's land, economy and diplomacy orders beyond moving, attacking and firing:
//! forming corps, armies and batteries (S-ARMY-2, S-ART-5), joining, detaching and attaching,
//! reserves (S-ARMY-6, S-ARMY-8), gas cylinders (S-CHEM-1), retreat (S-ARMY-7, S-ARMY-15),
//! supply priority (S-SUP-4), purchases, restoring (S-LOSS-1) and peace (S-CITY-4).
//!
//! Orders that need a place start a [`Pick`]: the next click on the map says where (a hex to
//! detach to, the corps to join, the city to raise a unit in…), and a click while forming a
//! group adds the pieces on the hex to it. Every order goes through the session's one door
//! (`Session::apply`); one that throws dice or starts a fight (gas, a reserve committed next to
//! the enemy) waits for "yes" under the engine's preview first. The engine's refusal, with its
//! reason, is shown as every refusal is.

use super::command::{UiCommand, line};
use super::{PickInHand, Selected, Selection};
use crate::i18n::Tr;
use crate::input::{self, ActionSet, Controls, KeyBindings, TypingText, just_pressed};
use crate::screens::{Mode, PlayView, playing};
use crate::session::{AnimBusy, GameEvents, Session};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use rules::strategic::purchase::Recruit;
use rules::strategic::query::{army_of, pieces_at};
use rules::strategic::state::FormationKind;
use rules::strategic::{Ctx, ForceId, FormationId, GreatWar, HexAt, Order, Piece, PowerId};
use rules::texts::Msg;
use serde::{Deserialize, Serialize};

type GwSession = Session<GreatWar>;

pub(super) fn plugin(app: &mut App) {
    input::bind::<LandAction>(app);
    app.init_resource::<LandPick>().add_message::<LandCommand>().add_systems(
        Update,
        (keys_to_commands, land_commands)
            .chain()
            .after(super::command::handle_commands)
            .in_set(crate::AppSystems::Logic)
            .run_if(playing(Mode::GreatWar)),
    );
}

/// The land orders a player gives by key.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum LandAction {
    /// Retreat the selected engaged piece or army: the next click names where (S-ARMY-15).
    Retreat,
    /// Start forming a corps (from a division), a battery (from a gun) or an army (from a
    /// corps) with the selection; clicks add the pieces on a hex (S-ARMY-2, S-ART-5).
    Gather,
}

impl ActionSet for LandAction {
    const KEYED: &'static [LandAction] = &[LandAction::Retreat, LandAction::Gather];

    fn name(self) -> &'static str {
        match self {
            LandAction::Retreat => "GwRetreat",
            LandAction::Gather => "GwGather",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        match self {
            LandAction::Retreat => &[KeyCode::KeyR],
            LandAction::Gather => &[KeyCode::KeyC],
        }
    }
}

/// What a group being gathered becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// 2–4 land units (S-ARMY-2).
    Corps,
    /// 2–4 corps (S-ARMY-2).
    Army,
    /// Three heavy artillery divisions (S-ART-5).
    Battery,
}

/// What the next click on the map means.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// Clicks add the pieces on a hex to a new corps, army or battery (and take them out again).
    Gather { kind: GroupKind, units: Vec<ForceId>, corps: Vec<FormationId> },
    /// The corps the unit joins.
    JoinCorps(ForceId),
    /// The free hex next to its corps the unit is detached to.
    DetachTo(ForceId),
    /// The corps (or, `army`, the army of the corps) the artillery attaches to.
    Attach { unit: ForceId, army: bool },
    /// The army (by one of its corps) whose reserve the unit goes into.
    Reserve(ForceId),
    /// The free hex next to its army the reserve comes onto.
    Commit(ForceId),
    /// The own hex a gas cylinder is placed on.
    Cylinder,
    /// The hex the cylinder on `from` is released at.
    ReleaseGas { from: HexAt },
    /// Where the piece (or the whole army) retreats to.
    Retreat(Selected),
    /// The city hex (a port for a ship) the unit is raised at.
    Recruit(Recruit),
}

/// The pick in hand, the name a new group gets, and the right panel's tab.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct LandPick {
    pub pick: Option<Pick>,
    /// The session's turns passed when the pick was made: a phase handed on drops it.
    pub turns_passed: u64,
    /// The name of the corps or army being formed (editable in the panel).
    pub name: String,
    /// The right panel's tab.
    pub tab: Tab,
    /// The peace offer being written: the provinces ceded, by id.
    pub cede: Vec<String>,
}

/// The right panel's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    #[default]
    Army,
    Economy,
    Diplomacy,
}

impl LandPick {
    /// The pick, if it still stands (made in this phase).
    pub fn of(&self, session: &GwSession) -> Option<&Pick> {
        self.pick.as_ref().filter(|_| self.turns_passed == session.turns_passed)
    }

    fn start(&mut self, pick: Pick, session: &GwSession) {
        self.pick = Some(pick);
        self.turns_passed = session.turns_passed;
    }
}

/// What a person asks for from the land panels or keys.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum LandCommand {
    /// Start a pick (a panel button).
    Start(Pick),
    /// Retreat the selection (R): a pick of where to.
    Retreat,
    /// Form a group with the selection (C).
    Gather,
    /// Give the gathered group's order.
    Form,
    /// Drop the pick.
    Cancel,
}

fn keys_to_commands(
    actions: Query<&ActionState<LandAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    mut out: MessageWriter<LandCommand>,
) {
    let Ok(actions) = actions.single() else { return };
    for (action, command) in [(LandAction::Retreat, LandCommand::Retreat), (LandAction::Gather, LandCommand::Gather)] {
        if !typing.0 && just_pressed(actions, keys.as_deref(), &bindings, action) {
            out.write(command);
        }
    }
}

/// What a click or a command comes to.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Give(Order),
    Preview(Order),
    /// The pick changed or stays; nothing is ordered.
    Keep,
    /// The interface cannot make an order of it (the engine refuses orders itself).
    Refuse(Msg),
}

#[allow(clippy::too_many_arguments)]
fn land_commands(
    mut commands_in: MessageReader<LandCommand>,
    mut ui_in: MessageReader<UiCommand>,
    session: Option<ResMut<GwSession>>,
    mut pick: ResMut<LandPick>,
    mut in_hand: ResMut<PickInHand>,
    selection: Res<Selection>,
    tr: Res<Tr>,
    view: Res<State<PlayView>>,
    busy: Res<AnimBusy>,
    mut events: MessageWriter<GameEvents<GreatWar>>,
) {
    let Some(mut session) = session else {
        commands_in.clear();
        ui_in.clear();
        in_hand.set_if_neq(PickInHand(false));
        return;
    };
    if pick.pick.is_some() && pick.turns_passed != session.turns_passed {
        pick.pick = None;
    }
    let clicks: Vec<HexAt> = ui_in
        .read()
        .filter_map(|c| match c {
            UiCommand::ClickHex(at) => Some(*at),
            UiCommand::Cancel => {
                pick.pick = None;
                None
            }
            _ => None,
        })
        .collect();
    let commands: Vec<LandCommand> = commands_in.read().cloned().collect();
    if *view.get() != PlayView::HandOver && session.human_turn() && !busy.0 && session.confirm.is_none() {
        take_commands(&mut session, &mut pick, &selection, &tr, commands, clicks, &mut events);
    }
    in_hand.set_if_neq(PickInHand(pick.of(&session).is_some()));
}

fn take_commands(
    session: &mut GwSession,
    pick: &mut LandPick,
    selection: &Selection,
    tr: &Tr,
    commands: Vec<LandCommand>,
    clicks: Vec<HexAt>,
    events: &mut MessageWriter<GameEvents<GreatWar>>,
) {
    for command in commands {
        let ctx = session.ctx();
        let step = match command {
            LandCommand::Cancel => {
                pick.pick = None;
                Step::Keep
            }
            LandCommand::Start(p) => {
                pick.name = default_name(tr, &ctx, &p);
                pick.start(p, session);
                Step::Keep
            }
            LandCommand::Retreat => match selection.of(session) {
                Some(s @ (Selected::Piece(_) | Selected::Army(_))) => {
                    pick.start(Pick::Retreat(s), session);
                    Step::Keep
                }
                _ => Step::Refuse(Msg::new("gw.land.select_first")),
            },
            LandCommand::Gather => match selection.of(session).and_then(|s| gather_from(&ctx, s)) {
                Some(p) => {
                    pick.name = default_name(tr, &ctx, &p);
                    pick.start(p, session);
                    Step::Keep
                }
                None => Step::Refuse(Msg::new("gw.land.gather_what")),
            },
            LandCommand::Form => match pick.of(session) {
                Some(Pick::Gather { kind, units, corps }) => form_order(*kind, units, corps, &pick.name),
                _ => Step::Keep,
            },
        };
        give(session, pick, step, events);
    }
    for at in clicks {
        let Some(mut p) = pick.of(session).cloned() else { continue };
        let ctx = session.ctx();
        let step = click(&ctx, &mut p, at);
        pick.pick = Some(p);
        give(session, pick, step, events);
    }
}

/// Gives an order through the session's one door (or asks for "yes" under its preview); a
/// given order ends the pick, a refused one keeps it for another try.
fn give(session: &mut GwSession, pick: &mut LandPick, step: Step, events: &mut MessageWriter<GameEvents<GreatWar>>) {
    match step {
        Step::Give(order) => {
            if session.apply(order, events).is_ok() {
                pick.pick = None;
            }
        }
        Step::Preview(order) => {
            session.ask(order);
            if session.confirm.is_some() {
                pick.pick = None;
            }
        }
        Step::Keep => {}
        Step::Refuse(why) => session.refusal = Some(why),
    }
}

/// The group the selection starts: a corps from an independent division, a battery from a gun,
/// an army from a corps in none.
pub fn gather_from(ctx: &Ctx, s: Selected) -> Option<Pick> {
    match s {
        Selected::Piece(Piece::Unit(u)) => {
            let f = ctx.force(u)?;
            let kind = if f.kind.is_artillery() { GroupKind::Battery } else { GroupKind::Corps };
            Some(Pick::Gather { kind, units: vec![u], corps: Vec::new() })
        }
        Selected::Piece(Piece::Corps(c)) if army_of(ctx, Piece::Corps(c)).is_none() => {
            Some(Pick::Gather { kind: GroupKind::Army, units: Vec::new(), corps: vec![c] })
        }
        _ => None,
    }
}

/// The order that forms the gathered group; the engine judges its size and places.
fn form_order(kind: GroupKind, units: &[ForceId], corps: &[FormationId], name: &str) -> Step {
    match kind {
        GroupKind::Corps => Step::Give(Order::FormCorps { name: name.to_string(), units: units.to_vec() }),
        GroupKind::Army => Step::Give(Order::FormArmy { name: name.to_string(), corps: corps.to_vec() }),
        GroupKind::Battery => match <[ForceId; 3]>::try_from(units) {
            Ok(units) => Step::Give(Order::FormBattery { units }),
            // The order itself holds exactly three: fewer or more cannot be written.
            Err(_) => Step::Refuse(Msg::new("gw.land.battery_three").arg("n", units.len())),
        },
    }
}

/// A new corps or army's name: the next number among the power's.
fn default_name(tr: &Tr, ctx: &Ctx, pick: &Pick) -> String {
    let power = ctx.active_power();
    let count = |kind: FormationKind| ctx.formations.iter().filter(|f| f.power == power && f.kind == kind).count() + 1;
    match pick {
        Pick::Gather { kind: GroupKind::Corps, .. } => {
            tr.f("gw.land.corps_name", &[("n", count(FormationKind::Corps).to_string())])
        }
        Pick::Gather { kind: GroupKind::Army, .. } => {
            tr.f("gw.land.army_name", &[("n", count(FormationKind::Army).to_string())])
        }
        _ => String::new(),
    }
}

/// Own independent units on a hex that may join a group of this kind, by ID.
fn free_units_at(ctx: &Ctx, power: PowerId, at: HexAt, artillery: bool) -> Vec<ForceId> {
    let mut v: Vec<ForceId> = ctx
        .at(at)
        .iter()
        .filter_map(|u| ctx.force(*u))
        .filter(|f| f.power == power && f.member.corps.is_none() && f.member.army.is_none())
        .filter(|f| if artillery { f.kind.is_artillery() && f.member.battery.is_none() } else { f.kind.is_combatant() })
        .map(|f| f.id)
        .collect();
    v.sort();
    v
}

/// The own corps on a hex.
fn corps_at(ctx: &Ctx, power: PowerId, at: HexAt) -> Option<FormationId> {
    pieces_at(ctx, power, at).into_iter().find_map(|p| match p {
        Piece::Corps(c) => Some(c),
        Piece::Unit(_) => None,
    })
}

/// A click on a hex while a pick is in hand.
fn click(ctx: &Ctx, pick: &mut Pick, at: HexAt) -> Step {
    let power = ctx.active_power();
    let no_corps = || Step::Refuse(Msg::new("gw.land.no_corps_at").arg("hex", at));
    match pick {
        Pick::Gather { kind: GroupKind::Army, corps, .. } => {
            match corps_at(ctx, power, at) {
                Some(c) if corps.contains(&c) => corps.retain(|x| *x != c),
                Some(c) => corps.push(c),
                None => return no_corps(),
            }
            Step::Keep
        }
        Pick::Gather { kind, units, .. } => {
            let here = free_units_at(ctx, power, at, *kind == GroupKind::Battery);
            if here.is_empty() {
                return Step::Refuse(Msg::new("gw.land.none_to_gather").arg("hex", at));
            }
            // The next unit of the hex not yet listed; when all are, the click takes them out.
            match here.iter().find(|u| !units.contains(u)) {
                Some(u) => units.push(*u),
                None => units.retain(|u| !here.contains(u)),
            }
            Step::Keep
        }
        Pick::JoinCorps(unit) => match corps_at(ctx, power, at) {
            Some(corps) => Step::Give(Order::JoinCorps { unit: *unit, corps }),
            None => no_corps(),
        },
        Pick::DetachTo(unit) => Step::Give(Order::Detach { piece: Piece::Unit(*unit), to: Some(at) }),
        Pick::Attach { unit, army } => match corps_at(ctx, power, at) {
            Some(c) => {
                let formation = if *army { army_of(ctx, Piece::Corps(c)).unwrap_or(c) } else { c };
                Step::Give(Order::Attach { unit: *unit, formation })
            }
            None => no_corps(),
        },
        Pick::Reserve(unit) => match corps_at(ctx, power, at).and_then(|c| army_of(ctx, Piece::Corps(c))) {
            Some(army) => Step::Give(Order::AssignReserve { unit: *unit, army }),
            None => Step::Refuse(Msg::new("gw.land.no_army_at").arg("hex", at)),
        },
        Pick::Commit(unit) => {
            let order = Order::CommitReserve { unit: *unit, to: at };
            // S-ARMY-8: next to the enemy the reserve joins the fight at once: shown first.
            if ctx.next_to_enemy(power, at) { Step::Preview(order) } else { Step::Give(order) }
        }
        Pick::Cylinder => Step::Give(Order::PlaceCylinder { at }),
        Pick::ReleaseGas { from } => Step::Preview(Order::ReleaseGas { from: *from, target: at }),
        Pick::Retreat(s) => {
            retreat_order(ctx, *s, at).map_or_else(|| Step::Refuse(Msg::new("gw.land.no_retreat")), Step::Give)
        }
        Pick::Recruit(r) => Step::Give(Order::Recruit { unit: r.clone(), at }),
    }
}

/// The retreat of a piece, or of an army as a whole (S-ARMY-7), towards `to`: the piece (or the
/// army's first corps) goes to `to`, every other corps of the army as far the same way. Where
/// no path is found the straight line is sent, so that the engine says why it is refused.
pub fn retreat_order(ctx: &Ctx, s: Selected, to: HexAt) -> Option<Order> {
    let power = ctx.active_power();
    let army = match s {
        Selected::Army(a) => Some(a),
        Selected::Piece(p @ Piece::Corps(_)) => army_of(ctx, p),
        Selected::Piece(Piece::Unit(_)) => None,
        // Fleets (and whatever else is not a land piece) do not retreat on land.
        _ => return None,
    };
    let pieces: Vec<Piece> = match (s, army) {
        (_, Some(a)) => {
            ctx.formation(a)?.corps.iter().map(|c| Piece::Corps(*c)).filter(|p| ctx.piece_hex(*p).is_some()).collect()
        }
        (Selected::Piece(p), None) => vec![p],
        _ => return None,
    };
    let lead = ctx.piece_hex(*pieces.first()?)?;
    let delta = to.hex() - lead.hex();
    let mut ends: Vec<HexAt> = Vec::new();
    let mut moves = Vec::new();
    for piece in pieces {
        let from = ctx.piece_hex(piece)?;
        let goal = HexAt::from_hex(from.hex() + delta);
        let path = retreat_path(ctx, power, from, goal, &ends).unwrap_or_else(|| line(from, goal));
        ends.extend(path.last().copied());
        moves.push((piece, path));
    }
    Some(Order::Retreat { moves })
}

/// The shortest way of at most [`RETREAT_HEXES`](rules::strategic::army::RETREAT_HEXES) land hexes from `from` to `to` that a retreat
/// may pass (the engine's walk, [`rules::strategic::query::retreat_reach`]), ending on a free hex
/// not already taken by another piece's retreat (`taken`).
pub fn retreat_path(ctx: &Ctx, power: PowerId, from: HexAt, to: HexAt, taken: &[HexAt]) -> Option<Vec<HexAt>> {
    use rules::strategic::query::{retreat_may_pass, retreat_reach};
    if to == from || !retreat_may_pass(ctx, power, to) || taken.contains(&to) || !ctx.at(to).is_empty() {
        return None;
    }
    retreat_reach(ctx, power, from, |_| true).path(to)
}

/// Own pieces that may retreat this phase, as the engine finds them engaged
/// (`query::engaged_pieces`, S-ARMY-7, S-ARMY-15); an army's corps are listed as the army.
pub fn engaged_pieces(ctx: &Ctx, power: PowerId) -> Vec<Selected> {
    let mut out: Vec<Selected> = Vec::new();
    for piece in rules::strategic::query::engaged_pieces(ctx, power) {
        let s = match army_of(ctx, piece) {
            Some(a) if matches!(piece, Piece::Corps(_)) => Selected::Army(a),
            _ => Selected::Piece(piece),
        };
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The key of a pick's hint in the string tables.
pub fn pick_key(pick: &Pick) -> &'static str {
    match pick {
        Pick::Gather { kind: GroupKind::Corps, .. } => "gw.pick.corps",
        Pick::Gather { kind: GroupKind::Army, .. } => "gw.pick.army",
        Pick::Gather { kind: GroupKind::Battery, .. } => "gw.pick.battery",
        Pick::JoinCorps(_) => "gw.pick.join",
        Pick::DetachTo(_) => "gw.pick.detach",
        Pick::Attach { army: false, .. } => "gw.pick.attach_corps",
        Pick::Attach { army: true, .. } => "gw.pick.attach_army",
        Pick::Reserve(_) => "gw.pick.reserve",
        Pick::Commit(_) => "gw.pick.commit",
        Pick::Cylinder => "gw.pick.cylinder",
        Pick::ReleaseGas { .. } => "gw.pick.release",
        Pick::Retreat(_) => "gw.pick.retreat",
        Pick::Recruit(_) => "gw.pick.recruit",
    }
}
