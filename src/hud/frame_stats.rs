//! Frame time a player can see and a test can read (issue 30): the overlay (F8, off by default)
//! shows the median, 95th percentile and worst of the recent frames; the scripted measurement
//! (`--frame-stats`, or the page's `window.kriegsspielFrameStats` in the browser) pans the board
//! across the whole field and back at three zooms and prints the same figures.
//!
//! A frame's time is the real time between the starts of two frames (`Time<Real>`, never the
//! game clock's clamped one): what a person sees. While the overlay is on the window draws every
//! frame, so the figures are frame times and not the idle waits of the sleeping window.

use crate::help::{HelpAction, help_pressed};
use crate::hud::board::{BoardRoom, BoardView as RoomView, FitBoard};
use crate::i18n::Tr;
use crate::input::{Controls, KeyBindings, TypingText};
use crate::screens::{Menu, Mode, PlayView, Screen};
use crate::session::{AnimBusy, Thinking};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::ActionState;
use std::collections::{HashMap, VecDeque};
use web_time::Instant;

/// How many recent frames the overlay summarises.
pub const RECENT: usize = 240;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameTimes>()
        .init_resource::<FrameStatsOverlay>()
        .init_resource::<ScriptZooms>()
        .init_resource::<LoadClock>()
        .init_resource::<ThinkingFrames>()
        .add_systems(First, (record, record_thinking))
        .add_systems(Update, toggle.in_set(crate::AppSystems::Logic))
        .add_systems(PreUpdate, drive_script)
        .add_systems(OnEnter(Screen::Loading), start_load_clock)
        .add_systems(Update, first_interactive.run_if(in_state(Screen::Playing)))
        .add_systems(EguiPrimaryContextPass, overlay.after(super::PanelsEnd))
        .add_systems(Last, keep_drawing);
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, (script_from_page, report_interactive));
}

/// The page asks for the scripted measurement (`window.kriegsspielFrameStats = FRAMES_PER_LEG`,
/// `web/test.mjs`); its result is reported as `window.kriegsspielFrameStatsResult`, one JSON
/// object per zoom and one for all of them.
#[cfg(target_arch = "wasm32")]
fn script_from_page(mut commands: Commands, script: Option<Res<FrameScript>>, mut reported: Local<bool>) {
    if let Some(frames) = crate::web::take_number("kriegsspielFrameStats") {
        commands.insert_resource(FrameScript::new(frames.clamp(2.0, 10_000.0) as u32));
        *reported = false;
        return;
    }
    let Some(script) = script.filter(|s| s.finished()) else { return };
    if *reported {
        return;
    }
    *reported = true;
    let json = |name: &str, scale: f32, s: FrameSummary| {
        format!(
            "{{\"zoom\":\"{name}\",\"scale\":{scale:.3},\"frames\":{},\"median\":{:.2},\"p95\":{:.2},\"worst\":{:.2}}}",
            s.frames, s.median, s.p95, s.worst
        )
    };
    let mut parts: Vec<String> = script
        .zooms
        .iter()
        .filter_map(|(name, scale, t)| Some(json(name, *scale, summarize(t.iter().copied())?)))
        .collect();
    parts.extend(script.overall().map(|s| json("all", 0.0, s)));
    crate::web::report("kriegsspielFrameStatsResult", &format!("[{}]", parts.join(",")));
}

/// `window.kriegsspielInteractiveMs`: milliseconds from choosing a game to its first frame in play.
#[cfg(target_arch = "wasm32")]
fn report_interactive(clock: Res<LoadClock>) {
    if clock.is_changed()
        && let Some(ms) = clock.interactive_ms
    {
        crate::web::report("kriegsspielInteractiveMs", &format!("{ms:.0}"));
    }
}

/// The recent frames' times, in milliseconds, oldest first.
#[derive(Resource, Default, Debug, Clone)]
pub struct FrameTimes(pub VecDeque<f32>);

impl FrameTimes {
    pub fn push(&mut self, ms: f32) {
        if self.0.len() == RECENT {
            self.0.pop_front();
        }
        self.0.push_back(ms);
    }

    pub fn summary(&self) -> Option<FrameSummary> {
        summarize(self.0.iter().copied())
    }
}

/// Whether the overlay is on show.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameStatsOverlay(pub bool);

/// The median, 95th percentile and worst of some frames' times (milliseconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameSummary {
    pub frames: usize,
    pub median: f32,
    pub p95: f32,
    pub worst: f32,
}

/// The summary of frame times: the median and the 95th percentile are the times at those ranks
/// (rank ⌊q·n⌋ of the sorted times, the last at most), as `web/test.mjs` reads the page's frames.
pub fn summarize(times: impl IntoIterator<Item = f32>) -> Option<FrameSummary> {
    let mut sorted: Vec<f32> = times.into_iter().filter(|t| t.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f32::total_cmp);
    let at = |q: f32| sorted[((q * sorted.len() as f32) as usize).min(sorted.len() - 1)];
    Some(FrameSummary { frames: sorted.len(), median: at(0.5), p95: at(0.95), worst: sorted[sorted.len() - 1] })
}

impl FrameSummary {
    /// `median 12.3 ms, 95th percentile 20.1 ms, worst 33.0 ms (240 frames)`, for logs and tests.
    pub fn line(&self) -> String {
        format!(
            "median {:.1} ms, 95th percentile {:.1} ms, worst {:.1} ms ({} frames)",
            self.median, self.p95, self.worst, self.frames
        )
    }
}

fn record(time: Res<Time<Real>>, mut times: ResMut<FrameTimes>, mut frames: Local<u32>) {
    // The first frames measure the start-up, not a frame.
    *frames = frames.saturating_add(1);
    if *frames > 2 {
        times.push(time.delta_secs() * 1000.0);
    }
}

/// The frames drawn while an AI thought (issue 30: none over 33 ms), and how long it thought in
/// all, in wall time: a scripted run prints them at its end.
#[derive(Resource, Default, Debug, Clone)]
pub struct ThinkingFrames {
    pub times: Vec<f32>,
    pub wall_ms: f64,
}

fn record_thinking(time: Res<Time<Real>>, thinking: Res<Thinking>, mut frames: ResMut<ThinkingFrames>) {
    if thinking.0 {
        let ms = time.delta_secs() * 1000.0;
        frames.times.push(ms);
        frames.wall_ms += f64::from(ms);
    }
}

impl ThinkingFrames {
    /// `the AI thought for 12.3 s of wall time: 400 frames, median …`, when it thought.
    pub fn line(&self) -> Option<String> {
        let s = summarize(self.times.iter().copied())?;
        Some(format!("the AI thought for {:.2} s of wall time: frames {}", self.wall_ms / 1000.0, s.line()))
    }
}

fn toggle(
    controls: Query<&ActionState<HelpAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    mut overlay: ResMut<FrameStatsOverlay>,
) {
    if help_pressed(&controls, keys.as_deref(), &bindings, &typing, HelpAction::ToggleFrameStats) {
        overlay.0 = !overlay.0;
    }
}

fn overlay(mut contexts: EguiContexts, tr: Res<Tr>, on: Res<FrameStatsOverlay>, times: Res<FrameTimes>) -> Result {
    if !on.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let text = match times.summary() {
        Some(s) => tr.f(
            "ui.frame_stats",
            &[
                ("median", format!("{:.1}", s.median)),
                ("p95", format!("{:.1}", s.p95)),
                ("worst", format!("{:.1}", s.worst)),
                ("frames", s.frames.to_string()),
            ],
        ),
        None => tr.t("ui.frame_stats.none"),
    };
    egui::Area::new(egui::Id::new("frame-stats"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -6.0])
        .order(egui::Order::Foreground)
        .interactable(false)
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new(text).monospace());
            });
        });
    Ok(())
}

/// While the overlay is on, or a scripted measurement runs, every frame is drawn.
fn keep_drawing(
    on: Res<FrameStatsOverlay>,
    script: Option<Res<FrameScript>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if on.0 || script.is_some_and(|s| !s.finished()) {
        redraw.write(RequestRedraw);
    }
}

/// The zooms (world units per pixel) a scene's scripted measurement pans at, besides the whole
/// field: a scene registers its own (the Great War: its opening and its closest zoom); others
/// get a third and a ninth of the whole field's.
#[derive(Resource, Default, Debug, Clone)]
pub struct ScriptZooms(pub HashMap<Mode, Vec<f32>>);

/// Registers the zooms of a scene's scripted measurement.
pub fn script_zooms(app: &mut App, mode: Mode, scales: &[f32]) {
    app.init_resource::<ScriptZooms>();
    app.world_mut().resource_mut::<ScriptZooms>().0.insert(mode, scales.to_vec());
}

/// The scripted measurement: fits the board, then at each zoom pans the camera from the
/// field's west edge to its east edge along the middle and back, `frames_per_leg` frames each
/// way, and summarises each zoom's frames.
#[derive(Resource, Debug, Clone)]
pub struct FrameScript {
    pub frames_per_leg: u32,
    step: ScriptStep,
    /// Per zoom: its name, scale and frame times.
    pub zooms: Vec<(String, f32, Vec<f32>)>,
}

#[derive(Debug, Clone, PartialEq)]
enum ScriptStep {
    /// Waiting for the board (a game in play, no AI thinking, nothing animating).
    Waiting,
    /// Asked for the whole field; frames left before it is read.
    Fitting(u32),
    /// Panning: the zoom's index, the frame in it, the field's centre and width.
    Panning {
        zoom: usize,
        frame: u32,
        centre: Vec2,
        width: f32,
    },
    Finished,
}

impl FrameScript {
    pub fn new(frames_per_leg: u32) -> FrameScript {
        FrameScript { frames_per_leg: frames_per_leg.max(2), step: ScriptStep::Waiting, zooms: Vec::new() }
    }

    pub fn finished(&self) -> bool {
        self.step == ScriptStep::Finished
    }

    /// Every zoom's frames together.
    pub fn overall(&self) -> Option<FrameSummary> {
        summarize(self.zooms.iter().flat_map(|(_, _, t)| t.iter().copied()))
    }

    /// The report: a line per zoom and one for all of them.
    pub fn report(&self, scene: &str) -> Vec<String> {
        let mut lines: Vec<String> = self
            .zooms
            .iter()
            .filter_map(|(name, scale, t)| {
                Some(format!("frame stats {scene} {name} (scale {scale:.2}): {}", summarize(t.iter().copied())?.line()))
            })
            .collect();
        if let Some(all) = self.overall() {
            lines.push(format!("frame stats {scene} all zooms: {}", all.line()));
        }
        lines
    }
}

/// Where the camera stands in frame `frame` of a zoom's pan: west to east along the middle, then
/// back (`frames_per_leg` frames each way).
pub fn pan_position(centre: Vec2, width: f32, frame: u32, frames_per_leg: u32) -> Vec2 {
    let legs = frames_per_leg.max(1) as f32;
    let t = frame as f32 / legs;
    let along = if t <= 1.0 { t } else { (2.0 - t).max(0.0) };
    Vec2::new(centre.x - width / 2.0 + width * along, centre.y)
}

#[allow(clippy::too_many_arguments)]
fn drive_script(
    script: Option<ResMut<FrameScript>>,
    screen: Res<State<Screen>>,
    view: Option<Res<State<PlayView>>>,
    menu: Res<State<Menu>>,
    mode: Option<Res<State<Mode>>>,
    (busy, thinking): (Res<AnimBusy>, Res<Thinking>),
    zooms: Res<ScriptZooms>,
    time: Res<Time<Real>>,
    room: Res<BoardRoom>,
    windows: Query<&Window>,
    mut fit: MessageWriter<FitBoard>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut RoomView)>,
) {
    let Some(mut script) = script else { return };
    let playing = *screen.get() == Screen::Playing
        && view.is_some_and(|v| *v.get() == PlayView::Playing)
        && *menu.get() == Menu::None;
    let Some(mode) = mode.map(|m| *m.get()) else { return };
    let frames_per_leg = script.frames_per_leg;
    match script.step.clone() {
        ScriptStep::Waiting => {
            if playing && !busy.0 && !thinking.0 {
                fit.write(FitBoard);
                script.step = ScriptStep::Fitting(6);
            }
        }
        ScriptStep::Fitting(n) if n > 0 => script.step = ScriptStep::Fitting(n - 1),
        ScriptStep::Fitting(_) => {
            let Ok((tf, Projection::Orthographic(o), _)) = cameras.single() else { return };
            let room = room.logical_size(windows.iter().next());
            // `fit_scale` leaves a margin of 4 %: the field is at most the view without it (as
            // wide where its width decides the zoom; a scene keeps its camera over its field).
            let width = room.x * o.scale / 1.04;
            let fitted = o.scale;
            let centre = tf.translation.truncate();
            let mut scales = vec![("whole field".to_string(), fitted)];
            let own = zooms.0.get(&mode).cloned().unwrap_or_else(|| vec![fitted / 3.0, fitted / 9.0]);
            for (i, s) in own.into_iter().enumerate() {
                scales.push((if i == 0 { "opening zoom".to_string() } else { "closest zoom".to_string() }, s));
            }
            script.zooms = scales.into_iter().map(|(n, s)| (n, s, Vec::new())).collect();
            script.step = ScriptStep::Panning { zoom: 0, frame: 0, centre, width: width.max(1.0) };
        }
        ScriptStep::Panning { zoom, frame, centre, width } => {
            if frame > 0
                && let Some((_, _, times)) = script.zooms.get_mut(zoom)
            {
                times.push(time.delta_secs() * 1000.0);
            }
            if frame > 2 * frames_per_leg {
                let next = zoom + 1;
                script.step = if next < script.zooms.len() {
                    ScriptStep::Panning { zoom: next, frame: 0, centre, width }
                } else {
                    ScriptStep::Finished
                };
                return;
            }
            let scale = script.zooms.get(zoom).map_or(1.0, |z| z.1);
            let at = pan_position(centre, width, frame, frames_per_leg);
            for (mut tf, mut projection, mut view) in &mut cameras {
                tf.translation = at.extend(tf.translation.z);
                if let Projection::Orthographic(o) = &mut *projection {
                    o.scale = scale;
                }
                view.fitted = false;
            }
            script.step = ScriptStep::Panning { zoom, frame: frame + 1, centre, width };
        }
        ScriptStep::Finished => {}
    }
}

/// When the game was chosen (the Loading screen began), for the first interactive frame's time.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct LoadClock {
    pub chosen: Option<Instant>,
    /// Milliseconds from choosing a game to its first frame in play, once measured.
    pub interactive_ms: Option<f64>,
}

fn start_load_clock(mut clock: ResMut<LoadClock>) {
    clock.chosen = Some(Instant::now());
    clock.interactive_ms = None;
}

/// The first frame in play after the Loading screen: logged (`web` reports it to the page).
fn first_interactive(mut clock: ResMut<LoadClock>, mode: Option<Res<State<Mode>>>) {
    let Some(chosen) = clock.chosen.take() else { return };
    let ms = chosen.elapsed().as_secs_f64() * 1000.0;
    clock.interactive_ms = Some(ms);
    let scene = mode.map_or("game", |m| m.get().name());
    info!("first frame in play of the {scene}: {ms:.0} ms after it was chosen");
}

/// The resident memory of this process in bytes (Linux: `/proc/self/statm`), when known.
pub fn resident_bytes() -> Option<u64> {
    #[cfg(all(not(target_arch = "wasm32"), target_os = "linux"))]
    {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        pages.checked_mul(4096)
    }
    #[cfg(not(all(not(target_arch = "wasm32"), target_os = "linux")))]
    None
}

/// Prints the resident memory (scripted runs).
pub fn print_memory() {
    if let Some(bytes) = resident_bytes() {
        println!("resident memory: {:.1} MB", bytes as f64 / 1_000_000.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The median and the 95th percentile are the times at ranks ⌊0.5·n⌋ and ⌊0.95·n⌋ of the
    /// sorted frames, as the browser test reads them; the worst is the longest.
    #[test]
    fn the_summary_gives_median_95th_percentile_and_worst() {
        // 1..=20 ms in any order: rank 10 is 11 ms, rank 19 is 20 ms.
        let times: Vec<f32> = (1..=20).rev().map(|t| t as f32).collect();
        let s = summarize(times).expect("frames");
        assert_eq!((s.frames, s.median, s.p95, s.worst), (20, 11.0, 20.0, 20.0));
        // 100 frames of 10 ms and five of 50: the 95th percentile (rank 99) is still 10 ms; six
        // of 50 put it at 50.
        let mut times = vec![10.0; 100];
        times.extend([50.0; 5]);
        assert_eq!(summarize(times.clone()).map(|s| s.p95), Some(10.0));
        times.extend([50.0; 1]);
        assert_eq!(summarize(times).map(|s| (s.p95, s.worst)), Some((50.0, 50.0)));
        assert_eq!(summarize(Vec::new()), None);
        assert_eq!(summarize([f32::NAN, 4.0]).map(|s| s.frames), Some(1), "a NaN is no frame");
    }

    /// The overlay keeps the last RECENT frames.
    #[test]
    fn the_overlay_keeps_the_recent_frames() {
        let mut times = FrameTimes::default();
        for i in 0..RECENT + 10 {
            times.push(i as f32);
        }
        assert_eq!(times.0.len(), RECENT);
        assert_eq!(times.0.front().copied(), Some(10.0));
        assert_eq!(times.summary().map(|s| s.worst), Some((RECENT + 9) as f32));
    }

    /// The scripted pan goes from the west edge to the east edge and back to the west edge.
    #[test]
    fn the_scripted_pan_crosses_the_field_and_comes_back() {
        let (centre, width) = (Vec2::new(100.0, 40.0), 600.0);
        assert_eq!(pan_position(centre, width, 0, 150), Vec2::new(-200.0, 40.0));
        assert_eq!(pan_position(centre, width, 75, 150), Vec2::new(100.0, 40.0));
        assert_eq!(pan_position(centre, width, 150, 150), Vec2::new(400.0, 40.0));
        assert_eq!(pan_position(centre, width, 300, 150), Vec2::new(-200.0, 40.0));
        assert_eq!(pan_position(centre, width, 301, 150), Vec2::new(-200.0, 40.0), "never past the edge");
    }
}
