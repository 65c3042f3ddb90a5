//! The unit under the pointer, described beside it in a tooltip (the shell's `hud::card`), in
//! play and in the replay viewer; and the unit clicked in the replay viewer, whose whole card the
//! viewer shows.

use super::HoveredCell;
use super::card::unit_card;
use crate::i18n::Tr;
use crate::replay::ReplayView;
use crate::screens::{Mode, PlayView, Screen};
use crate::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use rules::tactical::{Battle, UnitId};

/// The unit picked in the replay viewer (its card is shown).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayPick(pub Option<UnitId>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ReplayPick>()
        .add_systems(
            Update,
            pick_in_replay
                .in_set(crate::AppSystems::Logic)
                .run_if(in_state(Screen::Replay))
                .run_if(in_state(Mode::Battle)),
        )
        .add_systems(OnExit(Screen::Replay), |mut pick: ResMut<ReplayPick>| pick.0 = None);
}

pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, tooltip.run_if(in_state(Mode::Battle)).after(crate::hud::PanelsEnd));
}

/// A click on a unit in the replay viewer shows its card.
fn pick_in_replay(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    hovered: Res<HoveredCell>,
    view: Option<Res<ReplayView<Battle>>>,
    mut pick: ResMut<ReplayPick>,
) {
    let (Some(mouse), Some(view), Some(cell)) = (mouse, view, hovered.0) else { return };
    if mouse.just_pressed(MouseButton::Left) {
        pick.0 = view.game.ctx().at(cell).map(|u| u.id);
    }
}

/// The unit under the pointer, described beside it (the board's own units and the enemies it
/// can see), in play and in the replay viewer.
fn tooltip(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    screen: Res<State<Screen>>,
    view: Option<Res<State<PlayView>>>,
    session: Option<Res<Session<Battle>>>,
    replay: Option<Res<ReplayView<Battle>>>,
    hovered: Res<HoveredCell>,
) -> Result {
    let Some(cell) = hovered.0 else { return Ok(()) };
    let in_play = *screen.get() == Screen::Playing && view.is_some_and(|v| *v.get() == PlayView::Playing);
    if !in_play && *screen.get() != Screen::Replay {
        return Ok(());
    }
    let session = session.filter(|_| in_play);
    let Some(battle) = super::board::shown(session.as_deref(), replay.as_deref()) else { return Ok(()) };
    let ctx = battle.ctx();
    let viewer = super::board::viewer(session.as_deref());
    let Some(u) = ctx.at(cell).filter(|u| viewer.is_none_or(|v| ctx.visible_to(u, v))) else { return Ok(()) };
    if let Some(card) = unit_card(&tr, &ctx, u.id) {
        crate::hud::card::pointer_card(contexts.ctx_mut()?, &card, 8);
    }
    Ok(())
}
