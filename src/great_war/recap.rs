//! The others' moves again (issue 27): when a person's turn comes after the other powers have
//! moved, the turn summary offers to show their moves one by one as this person saw them — a
//! line from where the piece stood to where it went, the camera on it, the log's words beside —
//! with "next" and "skip". What is shown is the engine's sight: the pieces' first places are
//! those of the person's view when their turn ended (`Ctx::view`), and only the moves the
//! person may see (`Ctx::seen`) are replayed; a hidden submarine's voyage (S-SUB-5) is not.

use super::geometry::{HEX_H, hex_to_world};
use crate::hud::log::LookAt;
use crate::i18n::Tr;
use crate::screens::{Mode, Screen};
use crate::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::strategic::event::{Event, EventKind};
use rules::strategic::{Ctx, GreatWar, HexAt, PowerId};
use rules::texts::Msg;
use rules::view::Viewer;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    // The camera's `LookAt` is the shell's (hud::log); registered here too for a headless app.
    app.init_resource::<Recap>()
        .init_resource::<FollowAi>()
        .add_message::<RecapCommand>()
        .add_message::<LookAt>()
        .add_systems(
            Update,
            play.in_set(crate::AppSystems::Logic).run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing))),
        )
        .add_systems(OnExit(Screen::Playing), forget);
}

pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        bar.run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing))).after(crate::hud::PanelsEnd),
    )
    .add_systems(
        Update,
        mark.in_set(crate::AppSystems::Visuals).run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing))),
    );
}

/// UI limit: the moves one replay shows at most (the first ones); a turn of the grand campaign
/// moves hundreds of pieces.
pub const RECAP_MAX: usize = 400;
/// Seconds each move is shown before the next.
pub const STEP_SECONDS: f32 = 0.9;

/// What a piece is, for its place before the others moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mover {
    Unit(rules::strategic::ForceId),
    Fleet(u32),
}

/// Where the pieces the person could see stood when their turn ended.
pub type Places = BTreeMap<Mover, HexAt>;

/// The places of the pieces `viewer` sees (its view, not the umpire's state).
pub fn places_seen(ctx: &Ctx, viewer: PowerId) -> Places {
    let view = ctx.view(Viewer::Player(viewer));
    let units = view.forces.iter().filter_map(|f| Some((Mover::Unit(f.id), f.hex()?)));
    let fleets = view.navy.fleets.iter().map(|f| (Mover::Fleet(f.id), f.at));
    units.chain(fleets).collect()
}

/// One move of another power as the person saw it: from where the piece stood (when the person
/// saw it there) to where it went, with the log's line.
#[derive(Clone, Debug, PartialEq)]
pub struct RecapStep {
    pub from: Option<HexAt>,
    pub to: HexAt,
    pub line: Msg,
}

/// The moves of the powers other than `viewer` in `events` (those since the person's turn
/// ended), as `viewer` sees them by the engine's sight, from the places in `before`.
pub fn steps(ctx: &Ctx, viewer: PowerId, before: &Places, events: &[Event]) -> Vec<RecapStep> {
    steps_on(ctx, viewer, &mut before.clone(), events)
}

/// [`steps`], with `at` the places so far, moved on by `events` (for a log read as it grows).
pub fn steps_on(ctx: &Ctx, viewer: PowerId, at: &mut Places, events: &[Event]) -> Vec<RecapStep> {
    let power_of = |m: Mover| match m {
        Mover::Unit(u) => ctx.force(u).map(|f| f.power),
        Mover::Fleet(f) => ctx.navy.fleet(f).map(|f| f.power),
    };
    let mut out = Vec::new();
    for seen in ctx.seen(Viewer::Player(viewer), events) {
        let Some(e) = seen.event() else { continue };
        let (mover, to) = match e.kind {
            EventKind::Moved { unit, to, .. } => (Mover::Unit(unit), to),
            EventKind::FleetMoved { fleet, to } => (Mover::Fleet(fleet), to),
            _ => continue,
        };
        let from = at.insert(mover, to);
        if power_of(mover).is_none_or(|p| p == viewer) || from == Some(to) {
            continue;
        }
        if out.len() < RECAP_MAX {
            out.push(RecapStep { from, to, line: e.line.clone() });
        }
    }
    out
}

/// Whether the camera follows the others' moves while the AI plays them (the AI bar's box; on
/// unless the person turns it off).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowAi(pub bool);

impl Default for FollowAi {
    fn default() -> Self {
        Self(true)
    }
}

/// The camera on the others' moves as the AI plays them (issue 27: "no camera following"): the
/// log is read as it grows, through the engine's sight like the replay, and the camera goes to
/// the newest move the person may see, at most one every [`STEP_SECONDS`] so each can be seen.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LiveFollow {
    /// Whether the others are moving (the places are followed from the person's turn's end).
    pub on: bool,
    /// The events read so far.
    pub mark: usize,
    pub places: Places,
    /// The newest move not yet looked at.
    pub pending: Option<HexAt>,
    /// Seconds before the camera moves again.
    pub wait: f32,
}

impl LiveFollow {
    /// Starts following from the places the person saw and the log's length when their turn ended.
    pub fn start(&mut self, places: Places, mark: usize) {
        *self = Self { on: true, mark, places, pending: None, wait: 0.0 };
    }

    /// Reads the log's new events (`events` is the whole log; the state is asked of `ctx` only
    /// when there are some), and after `dt` seconds answers where the camera goes now, if anywhere.
    pub fn step(&mut self, ctx: impl FnOnce() -> Ctx, viewer: PowerId, events: &[Event], dt: f32) -> Option<HexAt> {
        if !self.on {
            return None;
        }
        if let Some(new) = events.get(self.mark..).filter(|e| !e.is_empty()) {
            if let Some(last) = steps_on(&ctx(), viewer, &mut self.places, new).last() {
                self.pending = Some(last.to);
            }
            self.mark = events.len();
        }
        self.wait = (self.wait - dt).max(0.0);
        if self.wait > 0.0 {
            return None;
        }
        let to = self.pending.take()?;
        self.wait = STEP_SECONDS;
        Some(to)
    }
}

/// The replay on offer and how far it has gone.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Recap {
    /// Where the pieces the person saw stood when their turn ended.
    pub before: Places,
    pub steps: Vec<RecapStep>,
    /// The step on show while playing.
    pub at: usize,
    pub playing: bool,
    /// Seconds left on the step on show.
    pub left: f32,
}

/// What the person asks of the replay (the summary's and the bar's buttons).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecapCommand {
    Start,
    Next,
    Skip,
}

fn forget(mut recap: ResMut<Recap>) {
    *recap = Recap::default();
}

/// Takes the person's commands and shows each step in turn: the camera goes to its place.
/// While it plays, the turn summary gives way (its window asks `Recap::playing`) and comes back after.
fn play(
    time: Res<Time<Real>>,
    mut asked: MessageReader<RecapCommand>,
    mut recap: ResMut<Recap>,
    mut looks: MessageWriter<LookAt>,
) {
    let mut shown = None;
    for c in asked.read() {
        match c {
            RecapCommand::Start if !recap.steps.is_empty() => {
                recap.playing = true;
                recap.at = 0;
                shown = Some(0);
            }
            RecapCommand::Next if recap.playing => {
                recap.at += 1;
                shown = Some(recap.at);
            }
            RecapCommand::Skip if recap.playing => {
                recap.at = recap.steps.len();
                shown = Some(recap.at);
            }
            _ => {}
        }
    }
    if !recap.playing {
        return;
    }
    if shown.is_none() {
        recap.left -= time.delta_secs().min(0.25);
        if recap.left <= 0.0 {
            recap.at += 1;
            shown = Some(recap.at);
        }
    }
    let Some(i) = shown else { return };
    match recap.steps.get(i) {
        Some(step) => {
            looks.write(LookAt { at: hex_to_world(step.to), size: HEX_H });
            recap.left = STEP_SECONDS;
        }
        // The end: the summary shows again, to read at leisure or to watch once more.
        None => recap.playing = false,
    }
}

/// The line of the step on show: from where it stood to where it went.
#[derive(Component)]
struct RecapMark;

fn mark(mut commands: Commands, recap: Res<Recap>, marks: Query<Entity, With<RecapMark>>) {
    if !recap.is_changed() {
        return;
    }
    marks.iter().for_each(|e| commands.entity(e).despawn());
    let Some(step) = recap.steps.get(recap.at).filter(|_| recap.playing) else { return };
    let Some(from) = step.from else { return };
    let (a, b) = (hex_to_world(from), hex_to_world(step.to));
    let d = b - a;
    let colour = Color::srgb(1.0, 0.85, 0.2);
    commands.spawn((
        Name::new("Recap move"),
        RecapMark,
        Sprite::from_color(colour, Vec2::new(d.length(), (HEX_H * 0.12).max(2.0))),
        Transform::from_translation(((a + b) / 2.0).extend(6.0)).with_rotation(Quat::from_rotation_z(d.to_angle())),
    ));
    commands.spawn((
        Name::new("Recap start"),
        RecapMark,
        Sprite::from_color(colour, Vec2::splat(HEX_H * 0.3)),
        Transform::from_translation(a.extend(6.0)),
    ));
}

/// The bar under the top bar while the replay plays: which move, its words, next and skip.
fn bar(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<GreatWar>>>,
    recap: Res<Recap>,
    mut asked: MessageWriter<RecapCommand>,
) -> Result {
    use super::GwNames;
    let Some(session) = session else { return Ok(()) };
    let Some(step) = recap.steps.get(recap.at).filter(|_| recap.playing) else { return Ok(()) };
    let ctx = session.ctx();
    let egui_ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("gw-recap")).anchor(egui::Align2::CENTER_TOP, [0.0, 40.0]).show(egui_ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.set_max_width(520.0);
            let n = recap.steps.len();
            ui.label(
                egui::RichText::new(
                    tr.f("gw.recap.progress", &[("at", (recap.at + 1).to_string()), ("of", n.to_string())]),
                )
                .strong(),
            );
            ui.label(tr.line(&ctx, &step.line));
            ui.horizontal(|ui| {
                if ui.button(tr.t("gw.recap.next")).clicked() {
                    asked.write(RecapCommand::Next);
                }
                if ui.button(tr.t("gw.recap.skip")).clicked() {
                    asked.write(RecapCommand::Skip);
                }
            });
        });
    });
    Ok(())
}
