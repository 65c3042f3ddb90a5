//! What happened while I waited (issue 27): when a person's turn comes again after the other
//! powers have moved, a window sums up what they did — powers entering the war, provinces that
//! changed hands, battles, encirclements, ships lost, units destroyed — each line with "»" to
//! bring the camera to its place, and a replay of their moves (`recap`). Everything comes from
//! the engine's event log as the person sees it (the engine's sight).

use super::GwNames;
use super::geometry::{HEX_H, hex_to_world};
use crate::hud::log::LookAt;
use crate::i18n::Tr;
use crate::screens::{Mode, Screen};
use crate::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::strategic::event::{Event, EventKind};
use rules::strategic::{Ctx, GreatWar, HexAt};
use rules::texts::Msg;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TurnSummary>()
        .init_resource::<WholeLog>()
        .add_systems(
            Update,
            // After every order of the frame (the person's, the AI's, a pass for the idle), so a
            // turn that comes back to the person is summed up in the frame it comes.
            // The camera on the others' moves after the summary has marked where the turn ended.
            (follow, follow_live)
                .chain()
                .in_set(crate::AppSystems::Visuals)
                .run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing))),
        )
        .add_systems(
            Update,
            toggle_whole_log
                .in_set(crate::AppSystems::Input)
                .run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing))),
        )
        .add_systems(OnExit(Screen::Playing), forget);
}

/// The whole log (the shell's "whole log" key, L): every event of the game in a tall window,
/// grouped by turn, each with "»" to its place.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeLog(pub bool);

/// Events the whole log shows at most (the newest).
const WHOLE_LOG_EVENTS: usize = 5_000;

fn toggle_whole_log(
    controls: Query<
        &leafwing_input_manager::prelude::ActionState<crate::input::ShellAction>,
        With<crate::input::Controls>,
    >,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<crate::input::KeyBindings>,
    typing: Res<crate::input::TypingText>,
    mut open: ResMut<WholeLog>,
) {
    let Ok(actions) = controls.single() else { return };
    if !typing.0
        && crate::input::just_pressed(actions, keys.as_deref(), &bindings, crate::input::ShellAction::ToggleLog)
    {
        open.0 = !open.0;
    }
}

pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (window, progress, whole_log)
            .run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing)))
            .after(crate::hud::PanelsEnd),
    );
}

/// Where the other powers stand while the AI moves: the power thinking, its place among the AI
/// powers that take part in the phase, and their number ("Austria-Hungary thinking — 7 of 22").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiProgress {
    pub power: rules::strategic::PowerId,
    pub at: usize,
    pub of: usize,
}

/// The AI's progress through the phase, when an AI gives the orders now.
pub fn ai_progress(session: &Session<GreatWar>) -> Option<AiProgress> {
    use rules::Game;
    let power = session.game.active_player()?;
    if !matches!(session.seat(power), crate::session::Seat::Ai(_)) {
        return None;
    }
    let ctx = session.ctx();
    let ais: Vec<rules::strategic::PowerId> = session
        .game
        .players()
        .into_iter()
        .filter(|p| matches!(session.seat(*p), crate::session::Seat::Ai(_)) && !ctx.idle(*p))
        .collect();
    let at = ais.iter().position(|p| *p == power)? + 1;
    Some(AiProgress { power, at, of: ais.len() })
}

/// The AI's progress bar, and "faster" (the AI thinks more of each frame).
fn progress(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<GreatWar>>>,
    pace: Option<ResMut<crate::ai_turns::AiPace>>,
    mut follow: ResMut<super::recap::FollowAi>,
) -> Result {
    let (Some(session), Some(mut pace)) = (session, pace) else { return Ok(()) };
    let Some(p) = ai_progress(&session) else { return Ok(()) };
    let ctx = session.ctx();
    let egui_ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("gw-ai-progress")).anchor(egui::Align2::CENTER_TOP, [0.0, 40.0]).show(
        egui_ctx,
        |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let phase = tr.t(ctx.clock.phase.key());
                let text = tr.f(
                    "gw.ai.progress",
                    &[
                        ("power", tr.power(&ctx, p.power)),
                        ("phase", phase),
                        ("at", p.at.to_string()),
                        ("of", p.of.to_string()),
                    ],
                );
                ui.label(text);
                ui.add(egui::ProgressBar::new(p.at as f32 / p.of.max(1) as f32).desired_width(320.0));
                ui.horizontal(|ui| {
                    let mut fast = pace.0 > 1;
                    if ui.checkbox(&mut fast, tr.t("gw.ai.faster")).changed() {
                        pace.0 = if fast { crate::ai_turns::FAST_PACE } else { 1 };
                    }
                    ui.checkbox(&mut follow.0, tr.t("gw.ai.follow"));
                });
            });
        },
    );
    Ok(())
}

/// What a line of the summary tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SummaryKind {
    Entry,
    Province,
    Battle,
    Encirclement,
    Ship,
    Loss,
}

/// One line of the summary: the engine's words and where it happened, if known.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryItem {
    pub kind: SummaryKind,
    pub line: Msg,
    pub place: Option<HexAt>,
}

/// Lines of one kind shown at most; the rest are counted in one line.
pub const PER_KIND: usize = 12;

/// The summary of `events` (those since the person's last turn), in the order of their kinds.
pub fn summary(ctx: &Ctx, events: &[Event]) -> Vec<SummaryItem> {
    let mut items: Vec<SummaryItem> = Vec::new();
    // A battle's place: the hex of the first unit its losses name that still stands on the map.
    let mut battle: Option<usize> = None;
    for e in events {
        let unit_hex = |u| ctx.force(u).and_then(|f| f.hex());
        let item = |kind, place| SummaryItem { kind, line: e.line.clone(), place };
        match &e.kind {
            // An entry leads to the power's capital, a sinking to where the ship went down.
            EventKind::EntersWar { power } => items.push(item(SummaryKind::Entry, capital_of_power(ctx, *power))),
            EventKind::Sunk { at, .. } => items.push(item(SummaryKind::Ship, Some(*at))),
            EventKind::Occupied { province, .. } => {
                items.push(item(SummaryKind::Province, capital_of(ctx, province)));
            }
            EventKind::Engagement { .. } => {
                battle = Some(items.len());
                items.push(item(SummaryKind::Battle, None));
            }
            EventKind::Health { unit, .. } | EventKind::Morale { unit, .. } => {
                if let Some(b) = battle.and_then(|b| items.get_mut(b)).filter(|b| b.place.is_none()) {
                    b.place = unit_hex(*unit);
                }
            }
            EventKind::Destroyed { .. } | EventKind::Dispersed { .. } => {
                let place = battle.and_then(|b| items.get(b)).and_then(|b| b.place);
                items.push(item(SummaryKind::Loss, place));
            }
            EventKind::Encircled { unit, .. } => items.push(item(SummaryKind::Encirclement, unit_hex(*unit))),
            EventKind::Phase { .. } => battle = None,
            _ => {}
        }
    }
    items.sort_by_key(|i| i.kind);
    let mut shown: Vec<SummaryItem> = Vec::new();
    for kind in [
        SummaryKind::Entry,
        SummaryKind::Province,
        SummaryKind::Battle,
        SummaryKind::Encirclement,
        SummaryKind::Ship,
        SummaryKind::Loss,
    ] {
        let of_kind: Vec<&SummaryItem> = items.iter().filter(|i| i.kind == kind).collect();
        shown.extend(of_kind.iter().take(PER_KIND).map(|i| (*i).clone()));
        if of_kind.len() > PER_KIND {
            let more = Msg::new("gw.summary.more").arg("n", of_kind.len() - PER_KIND);
            shown.push(SummaryItem { kind, line: more, place: None });
        }
    }
    shown
}

/// A province's capital hex (where the camera goes for its change of hands).
/// The first hex of a power's capital city (the engine's capital, S-CITY-4's surrender rule).
fn capital_of_power(ctx: &Ctx, power: rules::strategic::PowerId) -> Option<HexAt> {
    let province = ctx.capital_of(power)?;
    capital_of(ctx, &ctx.map().provinces.get(province)?.id)
}

fn capital_of(ctx: &Ctx, province: &str) -> Option<HexAt> {
    let map = ctx.map();
    let p = map.provinces.iter().find(|p| p.id == province)?;
    map.cities.get(map.city_index(&p.capital)?)?.hexes.first().copied()
}

/// The summary on show, and where in the log the person's last turn ended.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct TurnSummary {
    /// Events up to here were seen by the person (the log's length when their turn ended).
    pub mark: usize,
    /// Whether a person gave the orders in the last frame.
    pub was_human: bool,
    pub items: Vec<SummaryItem>,
    pub turn: u32,
    pub open: bool,
}

fn forget(mut summary: ResMut<TurnSummary>, mut whole: ResMut<WholeLog>) {
    *summary = TurnSummary::default();
    whole.0 = false;
}

fn whole_log(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<GreatWar>>>,
    mut open: ResMut<WholeLog>,
    mut links: crate::hud::rules::RuleLinks,
    mut looks: MessageWriter<LookAt>,
) -> Result {
    if !open.0 {
        return Ok(());
    }
    let Some(session) = session else { return Ok(()) };
    let ctx = session.ctx();
    let events = session.events();
    let lines =
        super::panels::log_lines(&tr, &ctx, session.viewer(), &events[events.len().saturating_sub(WHOLE_LOG_EVENTS)..]);
    let egui_ctx = contexts.ctx_mut()?;
    let mut still = true;
    egui::Window::new(tr.t("gw.whole_log"))
        .id(egui::Id::new("gw-whole-log"))
        .open(&mut still)
        .resizable(true)
        .default_size([560.0, 620.0])
        .show(egui_ctx, |ui| crate::hud::log::log_column(ui, "gw-whole-log", &tr, &lines, &mut links, &mut looks));
    open.0 = still;
    Ok(())
}

/// Marks the log when a person's turn ends, and sums up the others' turns when it comes again,
/// as the person sees them (the engine's sight: `Ctx::seen`), with the replay of their moves
/// (`recap`) on offer.
fn follow(
    session: Option<Res<Session<GreatWar>>>,
    mut summary: ResMut<TurnSummary>,
    mut recap: ResMut<super::recap::Recap>,
) {
    let Some(session) = session else { return };
    let human = session.human_turn();
    if human == summary.was_human {
        return;
    }
    summary.was_human = human;
    let events = session.events();
    let ctx = session.ctx();
    let viewer = session.viewer();
    if !human {
        summary.mark = events.len();
        summary.open = false;
        *recap = super::recap::Recap {
            before: viewer.map(|v| super::recap::places_seen(&ctx, v)).unwrap_or_default(),
            ..Default::default()
        };
        return;
    }
    let since = events.get(summary.mark.min(events.len())..).unwrap_or(&[]);
    let seen: Vec<Event> =
        ctx.seen(rules::view::Viewer::of(viewer), since).into_iter().filter_map(|s| s.event().cloned()).collect();
    summary.items = summary_or_nothing(&ctx, &seen);
    summary.turn = ctx.clock.turn;
    recap.steps = viewer.map(|v| super::recap::steps(&ctx, v, &recap.before, since)).unwrap_or_default();
    recap.playing = false;
    summary.open = !summary.items.is_empty() || !recap.steps.is_empty();
}

/// While the AI moves the others, the camera follows what the person may see of it.
fn follow_live(
    time: Res<Time<Real>>,
    session: Option<Res<Session<GreatWar>>>,
    follow: Res<super::recap::FollowAi>,
    (summary, recap): (Res<TurnSummary>, Res<super::recap::Recap>),
    mut live: Local<super::recap::LiveFollow>,
    mut looks: MessageWriter<LookAt>,
) {
    let Some(session) = session else { return };
    let events = session.events();
    // Another game (or the same one loaded again): what was followed was another log.
    if session.is_added() || live.mark > events.len() {
        live.on = false;
    }
    let (Some(viewer), false) = (session.viewer(), session.human_turn()) else {
        live.on = false;
        return;
    };
    if !live.on {
        live.start(recap.before.clone(), summary.mark.min(events.len()));
    }
    if !follow.0 {
        live.mark = events.len();
        live.pending = None;
        return;
    }
    if let Some(to) = live.step(|| session.ctx(), viewer, events, time.delta_secs().min(0.25)) {
        looks.write(LookAt { at: hex_to_world(to), size: HEX_H });
    }
}

fn summary_or_nothing(ctx: &Ctx, events: &[Event]) -> Vec<SummaryItem> {
    if events.is_empty() { Vec::new() } else { summary(ctx, events) }
}

fn window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<GreatWar>>>,
    mut summary: ResMut<TurnSummary>,
    mut looks: MessageWriter<LookAt>,
    (recap, mut replay): (Res<super::recap::Recap>, MessageWriter<super::recap::RecapCommand>),
) -> Result {
    if !summary_shown(&summary, &recap) {
        return Ok(());
    }
    let Some(session) = session else { return Ok(()) };
    let ctx = session.ctx();
    let egui_ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut look = None;
    egui::Window::new(tr.f("gw.summary.title", &[("turn", summary.turn.to_string())]))
        .id(egui::Id::new("gw-turn-summary"))
        .collapsible(false)
        .resizable(true)
        .default_width(420.0)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .show(egui_ctx, |ui| {
            egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                let mut last = None;
                for item in &summary.items {
                    if last != Some(item.kind) {
                        ui.label(egui::RichText::new(tr.t(kind_key(item.kind))).strong());
                        last = Some(item.kind);
                    }
                    ui.horizontal_wrapped(|ui| {
                        match item.place {
                            Some(at) => {
                                if ui.button("»").on_hover_text(tr.place(&ctx, at)).clicked() {
                                    look = Some(at);
                                }
                            }
                            None => {
                                ui.add_space(22.0);
                            }
                        }
                        ui.label(tr.line(&ctx, &item.line));
                    });
                }
            });
            if summary.items.is_empty() {
                ui.label(tr.t("gw.summary.quiet"));
            }
            ui.separator();
            ui.horizontal(|ui| {
                if !recap.steps.is_empty()
                    && ui
                        .button(tr.f("gw.recap.watch", &[("n", recap.steps.len().to_string())]))
                        .on_hover_text(tr.t("gw.recap.hint"))
                        .clicked()
                {
                    replay.write(super::recap::RecapCommand::Start);
                }
                if ui.button(tr.t("gw.summary.close")).clicked() {
                    open = false;
                }
            });
        });
    if let Some(at) = look {
        looks.write(LookAt { at: hex_to_world(at), size: HEX_H });
    }
    summary.open = open;
    Ok(())
}

/// The heading of a kind of line.
pub fn kind_key(kind: SummaryKind) -> &'static str {
    match kind {
        SummaryKind::Entry => "gw.summary.entries",
        SummaryKind::Province => "gw.summary.provinces",
        SummaryKind::Battle => "gw.summary.battles",
        SummaryKind::Encirclement => "gw.summary.encirclements",
        SummaryKind::Ship => "gw.summary.ships",
        SummaryKind::Loss => "gw.summary.losses",
    }
}

/// Whether the summary's window shows: open, and not while the others' moves are replayed
/// (it gives way to the replay and comes back after).
pub fn summary_shown(summary: &TurnSummary, recap: &super::recap::Recap) -> bool {
    summary.open && !recap.playing
}
