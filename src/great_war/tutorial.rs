//! The Great War's tutorial, as short as the battle's: Germany on the test front
//! (`scenarios/great_war/test_front.ron`, turn 4 of 1916) against France and Great Britain at the
//! AI's first level, with instructions on screen that move on when the player has done each
//! step — select an army, move, attack, fire the guns, end a turn. The steps are read off the
//! game as it stands (the selection, its events and orders, the clock), never off the clicks, so
//! any way of giving the order counts.

use super::{Selected, Selection, StartGreatWar};
use crate::hud::rules::RuleLinks;
use crate::i18n::Tr;
use crate::screens::{Mode, Screen};
use crate::session::{Seat, StartGame};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::strategic::event::EventKind;
use rules::strategic::{GreatWar, Order, Piece, PowerId};

type GwSession = crate::session::Session<GreatWar>;

/// The tutorial's scenario.
pub const SCENARIO: &str = "scenarios/great_war/test_front.ron";
/// Its dice (fixed, so the instructions always match what happens).
pub const SEED: u64 = 1916;
/// The power the player commands (the scenario's first).
pub const PLAYER: PowerId = PowerId(0);

pub use crate::help::StartGwTutorial;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<StartGwTutorial>()
        .add_systems(Update, (start, advance).chain().in_set(crate::AppSystems::Logic))
        .add_systems(OnExit(Screen::Playing), leave);
}

pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        panel
            .run_if(in_state(Screen::Playing))
            .run_if(in_state(Mode::GreatWar))
            .run_if(resource_exists::<GwTutorial>)
            .after(crate::hud::PanelsBegin)
            .before(crate::hud::PanelsEnd),
    );
}

/// The steps, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    SelectArmy,
    Move,
    Attack,
    Fire,
    EndTurn,
    Done,
}

impl Step {
    pub const ALL: [Step; 6] = [Step::SelectArmy, Step::Move, Step::Attack, Step::Fire, Step::EndTurn, Step::Done];

    pub fn key(self) -> &'static str {
        match self {
            Step::SelectArmy => "select",
            Step::Move => "move",
            Step::Attack => "attack",
            Step::Fire => "fire",
            Step::EndTurn => "end_turn",
            Step::Done => "done",
        }
    }

    fn next(self) -> Step {
        Step::ALL.iter().copied().find(|s| *s > self).unwrap_or(Step::Done)
    }
}

/// The tutorial in progress.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GwTutorial {
    pub step: Step,
}

fn start(mut commands: Commands, mut starts: MessageReader<StartGwTutorial>, mut war: MessageWriter<StartGreatWar>) {
    if starts.read().count() == 0 {
        return;
    }
    match super::files::load_scenario(SCENARIO) {
        Ok(scenario) => {
            let mut seats = vec![Seat::Ai(ai::Level::Recruit); scenario.powers.len()];
            if let Some(s) = seats.get_mut(usize::from(PLAYER.0)) {
                *s = Seat::Human;
            }
            war.write(StartGame { scenario, seed: SEED, seats });
            commands.insert_resource(GwTutorial { step: Step::SelectArmy });
        }
        Err(e) => warn!("the Great War tutorial cannot start: {e}"),
    }
}

/// Whether the step is done, read off the game (and, for the first, the selection).
fn done(step: Step, session: &GwSession, selected: Option<Selected>) -> bool {
    let ctx = session.ctx();
    let mine = |id| ctx.force(id).is_some_and(|f| f.power == PLAYER);
    let events = session.events();
    match step {
        Step::SelectArmy => {
            matches!(selected, Some(Selected::Army(a)) if ctx.formation(a).is_some_and(|f| f.power == PLAYER))
        }
        Step::Move => events.iter().any(|e| matches!(e.kind, EventKind::Moved { unit, .. } if mine(unit))),
        // S-COMBAT-8: a target named, or own troops in contact (contact is battle).
        Step::Attack => {
            session.game.orders().iter().any(|o| match o {
                Order::Attack { piece: Piece::Unit(u), .. } => mine(*u),
                Order::Attack { piece: Piece::Corps(c), .. } => ctx.formation(*c).is_some_and(|f| f.power == PLAYER),
                _ => false,
            }) || ctx.forces.iter().any(|f| {
                f.power == PLAYER && f.kind.is_combatant() && f.hex().is_some_and(|h| ctx.next_to_enemy(PLAYER, h))
            })
        }
        Step::Fire => session.game.orders().iter().any(|o| matches!(o, Order::Fire { unit, .. } if mine(*unit))),
        Step::EndTurn => ctx.clock.turn > ctx.scenario().start_turn,
        Step::Done => false,
    }
}

fn advance(tutorial: Option<ResMut<GwTutorial>>, session: Option<Res<GwSession>>, selection: Res<Selection>) {
    let (Some(mut tutorial), Some(session)) = (tutorial, session) else { return };
    let selected = selection.of(&session);
    // Several steps may be done at once (a move that ends in contact, say).
    while tutorial.step != Step::Done && done(tutorial.step, &session, selected) {
        tutorial.step = tutorial.step.next();
    }
}

fn leave(mut commands: Commands) {
    commands.remove_resource::<GwTutorial>();
}

/// The instructions of the step in hand, over the board.
fn panel(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    tutorial: Res<GwTutorial>,
    mut links: RuleLinks,
    mut screen: ResMut<NextState<Screen>>,
    room: Res<crate::hud::board::BoardRoom>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let step = tutorial.step;
    let number = Step::ALL.iter().position(|s| *s == step).unwrap_or(0) + 1;
    let steps = Step::ALL.len() - 1;
    let width = (ctx.viewport_rect().width() * 0.32).clamp(260.0, 420.0);
    // In the board's top corner, clear of the panels.
    let corner = crate::hud::board::room_in_points(&room, &ctx).min + egui::vec2(8.0, 8.0);
    egui::Window::new(tr.t("gw.tutorial.title"))
        .id(egui::Id::new("gw-tutorial-window"))
        .collapsible(true)
        .resizable(false)
        .default_width(width)
        .pivot(egui::Align2::LEFT_TOP)
        .fixed_pos(corner)
        .frame(egui::Frame::window(&ctx.global_style()).fill(egui::Color32::from_rgb(52, 46, 30)))
        .show(&ctx, |ui| {
            ui.set_max_width(width);
            let title = if step == Step::Done {
                tr.t("gw.tutorial.done.title")
            } else {
                tr.f(
                    "ui.tutorial.step",
                    &[
                        ("n", number.to_string()),
                        ("of", steps.to_string()),
                        ("what", tr.t(&format!("gw.tutorial.{}.title", step.key()))),
                    ],
                )
            };
            ui.label(egui::RichText::new(title).strong().size(17.0));
            for line in tr.t(&format!("gw.tutorial.{}.text", step.key())).split('\n') {
                links.line(ui, line, tr.lang, crate::hud::rules::plain);
            }
            let leave = if step == Step::Done { "ui.tutorial.finish" } else { "ui.tutorial.leave" };
            if ui.button(tr.t(leave)).clicked() {
                screen.set(Screen::Title);
            }
        });
    Ok(())
}
