//! The tutorial: a small hot-seat battle (`scenarios/tutorial.ron`) with instructions on screen
//! that move on when the player has done each step — move, fire, morale, melee, hand-over. The
//! steps are read off the game as it stands (its events, the rules window, the hand-over), never
//! off the clicks, so any way of giving the order counts.

use super::StartBattle;
use crate::help::StartTutorial;
use crate::hud::rules::RuleLinks;
use crate::i18n::Tr;
use crate::rules_ref::RulesWindow;
use crate::screens::{Mode, PlayView, Screen};
use crate::session::{Seat, Session, StartGame};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::tactical::{Battle, Event, Side};

/// The tutorial's scenario.
pub const SCENARIO: &str = "scenarios/tutorial.ron";
/// Its dice (fixed, so the instructions always match what happens).
pub const SEED: u64 = 1813;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (start, advance).chain().in_set(crate::AppSystems::Logic))
        .add_systems(OnExit(Screen::Playing), leave);
}

pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        panel
            .run_if(in_state(Screen::Playing))
            .run_if(in_state(Mode::Battle))
            .run_if(resource_exists::<Tutorial>)
            .after(crate::hud::PanelsBegin)
            .before(crate::hud::PanelsEnd),
    );
}

/// The steps, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Move,
    Fire,
    Morale,
    Melee,
    HandOver,
    Done,
}

impl Step {
    pub const ALL: [Step; 6] = [Step::Move, Step::Fire, Step::Morale, Step::Melee, Step::HandOver, Step::Done];

    pub fn key(self) -> &'static str {
        match self {
            Step::Move => "move",
            Step::Fire => "fire",
            Step::Morale => "morale",
            Step::Melee => "melee",
            Step::HandOver => "hand_over",
            Step::Done => "done",
        }
    }

    fn next(self) -> Step {
        Step::ALL.iter().copied().find(|s| *s > self).unwrap_or(Step::Done)
    }
}

/// The tutorial in progress.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tutorial {
    pub step: Step,
    /// The hand-over screen has shown (the last step ends when it is passed).
    handed_over: bool,
}

fn start(mut commands: Commands, mut starts: MessageReader<StartTutorial>, mut battle: MessageWriter<StartBattle>) {
    if starts.read().count() == 0 {
        return;
    }
    match super::files::load_scenario(SCENARIO) {
        Ok(scenario) => {
            battle.write(StartGame { scenario, seed: SEED, seats: vec![Seat::Human, Seat::Human] });
            commands.insert_resource(Tutorial { step: Step::Move, handed_over: false });
        }
        Err(e) => warn!("the tutorial cannot start: {e}"),
    }
}

/// Whether the step is done, read off the game.
fn done(step: Step, tutorial: &Tutorial, game: &Battle, rules: &RulesWindow, view: PlayView) -> bool {
    let red = |id| game.ctx().unit(id).is_some_and(|u| u.side == Side::Red);
    let events = game.events();
    match step {
        Step::Move => events.iter().any(|e| matches!(e, Event::Moved { unit, .. } if red(*unit))),
        Step::Fire => events.iter().any(|e| matches!(e, Event::Fired { firer, .. } if red(*firer))),
        Step::Morale => rules.open && rules.entry.as_deref().is_some_and(|id| id.starts_with("T-MORALE")),
        Step::Melee => {
            let ctx = game.ctx();
            ctx.units.iter().any(|u| u.side == Side::Red && ctx.in_contact(u))
                || events.iter().any(|e| matches!(e, Event::Contact { unit, .. } if red(*unit)))
        }
        Step::HandOver => tutorial.handed_over && view == PlayView::Playing && game.clock().active == Side::Blue,
        Step::Done => false,
    }
}

fn advance(
    tutorial: Option<ResMut<Tutorial>>,
    session: Option<Res<Session<Battle>>>,
    rules: Res<RulesWindow>,
    view: Option<Res<State<PlayView>>>,
) {
    let (Some(mut tutorial), Some(session)) = (tutorial, session) else { return };
    let view = view.map_or(PlayView::Playing, |v| *v.get());
    if view == PlayView::HandOver && tutorial.step == Step::HandOver {
        tutorial.handed_over = true;
    }
    // Several steps may be done at once (a fire that already opened the rules, say).
    while tutorial.step != Step::Done && done(tutorial.step, &tutorial, &session.game, &rules, view) {
        tutorial.step = tutorial.step.next();
    }
}

fn leave(mut commands: Commands) {
    commands.remove_resource::<Tutorial>();
}

/// The instructions of the step in hand, over the board.
fn panel(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    tutorial: Res<Tutorial>,
    mut links: RuleLinks,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let step = tutorial.step;
    let number = Step::ALL.iter().position(|s| *s == step).unwrap_or(0) + 1;
    let steps = Step::ALL.len() - 1;
    let width = (ctx.viewport_rect().width() * 0.42).clamp(260.0, 460.0);
    egui::Window::new(tr.t("ui.tutorial.title"))
        .id(egui::Id::new("tutorial-window"))
        .collapsible(true)
        .resizable(false)
        .default_width(width)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 30.0])
        .frame(egui::Frame::window(&ctx.global_style()).fill(egui::Color32::from_rgb(52, 46, 30)))
        .show(&ctx, |ui| {
            ui.set_max_width(width);
            if step == Step::Done {
                ui.label(egui::RichText::new(tr.t("ui.tutorial.done.title")).strong().size(17.0));
            } else {
                ui.label(
                    egui::RichText::new(tr.f(
                        "ui.tutorial.step",
                        &[
                            ("n", number.to_string()),
                            ("of", steps.to_string()),
                            ("what", tr.t(&format!("ui.tutorial.{}.title", step.key()))),
                        ],
                    ))
                    .strong()
                    .size(17.0),
                );
            }
            for line in tr.t(&format!("ui.tutorial.{}.text", step.key())).split('\n') {
                links.line(ui, line, tr.lang, crate::hud::rules::plain);
            }
            ui.horizontal(|ui| {
                if ui
                    .button(tr.t(if step == Step::Done { "ui.tutorial.finish" } else { "ui.tutorial.leave" }))
                    .clicked()
                {
                    screen.set(Screen::Title);
                }
            });
        });
    Ok(())
}
