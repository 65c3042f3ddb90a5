//! The sea orders a player gives by key (rebindable in the settings like every action): the
//! selected fleet's intercept stance, a mine, a flotilla's patrol of the lane of its sea area and
//! a reconnaissance flight. Each key sends the command the fleet panel's button sends.

use super::command::UiCommand;
use super::sea_orders::SeaCommand;
use super::{Selected, Selection, fleet};
use crate::input::{self, ActionSet, Controls, KeyBindings, TypingText, just_pressed};
use crate::screens::{Mode, playing};
use crate::session::Session;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use rules::strategic::{Ctx, GreatWar, Order};
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    input::bind::<SeaAction>(app);
    // Before the scene's commands are read (`command`, in `Logic`), in the same frame.
    app.add_systems(Update, keys_to_commands.in_set(crate::AppSystems::Input).run_if(playing(Mode::GreatWar)));
}

/// What a player can order at sea by key in the Great War.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum SeaAction {
    /// Turn the selected fleet's intercept stance on or off (S-NAVAL-12).
    Intercept,
    /// The selected fleet's minelayers lay a mine (S-MINE-1).
    LayMine,
    /// The selected flotilla patrols the sea lane of its area (S-NAVAL-15).
    Patrol,
    /// The selected reconnaissance squadron flies (S-AIR-1).
    Reconnaissance,
}

impl ActionSet for SeaAction {
    const KEYED: &'static [SeaAction] =
        &[SeaAction::Intercept, SeaAction::LayMine, SeaAction::Patrol, SeaAction::Reconnaissance];

    fn name(self) -> &'static str {
        match self {
            SeaAction::Intercept => "GwIntercept",
            SeaAction::LayMine => "GwLayMine",
            SeaAction::Patrol => "GwPatrol",
            SeaAction::Reconnaissance => "GwReconnaissance",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            SeaAction::Intercept => &[KeyI],
            SeaAction::LayMine => &[KeyM],
            SeaAction::Patrol => &[KeyP],
            SeaAction::Reconnaissance => &[KeyO],
        }
    }
}

/// The command a key stands for, given what is selected.
fn command_for(ctx: &Ctx, selected: Option<Selected>, action: SeaAction) -> Option<UiCommand> {
    match (action, selected?) {
        (SeaAction::Intercept, Selected::Fleet(id)) => {
            let f = fleet(ctx, id)?;
            Some(UiCommand::Give(Order::FleetStance {
                fleet: id,
                intercept: !f.intercept,
                withdraw: f.withdraw,
                transports_first: f.transports_first,
                targets: ctx.ship_targets(id),
            }))
        }
        (SeaAction::LayMine, Selected::Fleet(id)) => Some(UiCommand::Give(Order::LayMine { fleet: id })),
        (SeaAction::Patrol, Selected::Fleet(id)) => {
            // The lane of the flotilla's sea area; without one the engine says why (lane 0).
            let area = ctx.map().cell(fleet(ctx, id)?.at).map_or(0, |c| c.sea_area);
            let lane = ctx.navy.lanes.iter().position(|l| l.area + 1 == area).unwrap_or(0);
            Some(UiCommand::Give(Order::Patrol { flotilla: id, lane: u32::try_from(lane).ok()? }))
        }
        (SeaAction::Reconnaissance, Selected::Squadron(_)) => Some(UiCommand::Sea(SeaCommand::Reconnaissance)),
        _ => None,
    }
}

fn keys_to_commands(
    actions: Query<&ActionState<SeaAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    session: Option<Res<Session<GreatWar>>>,
    selection: Res<Selection>,
    mut out: MessageWriter<UiCommand>,
) {
    let (Ok(actions), Some(session)) = (actions.single(), session) else { return };
    if typing.0 {
        return;
    }
    let selected = selection.of(&session);
    for action in SeaAction::KEYED {
        if just_pressed(actions, keys.as_deref(), &bindings, *action)
            && let Some(command) = command_for(&session.ctx(), selected, *action)
        {
            out.write(command);
        }
    }
}
