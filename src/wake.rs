//! The game sleeps when nothing moves: a turn-based screen has no need to redraw 60 times a
//! second. The window updates on input (and every few seconds while idle, see [`winit_settings`]);
//! this plugin asks for full-rate frames only while something moves on its own: an animation
//! plays, the AI thinks, a pan or zoom key is held, and for a few frames after input or a change
//! of screen, so what an input sets going (a screen change, a started battle) finishes at once.
//!
//! egui asks for a redraw whenever its frame has input events, and bevy_egui hands it the state
//! of the modifier keys as an event every frame, so egui alone would keep the window at full
//! rate: [`quiet_egui_input`] drops that event while the modifiers stay as they were.

use crate::input::{Controls, ShellAction as Action};
use crate::screens::{PlayView, Screen};
use crate::session::{AnimBusy, Thinking, TurnTimer};
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::{MouseButtonInput, MouseWheel};
use bevy::prelude::*;
use bevy::window::{CursorMoved, RequestRedraw, WindowResized};
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};
use leafwing_input_manager::prelude::ActionState;
use web_time::Duration;

/// How often an idle window wakes.
pub const IDLE_WAKE: Duration = Duration::from_secs(4);

/// How often it wakes while a turn timer counts down, so the seconds shown keep up.
pub const TIMER_WAKE: Duration = Duration::from_secs(1);

/// Full-rate frames after an input or a change of screen.
const LINGER_FRAMES: u32 = 8;

/// Reactive updates: on input, and every [`IDLE_WAKE`] when nothing happens.
pub fn winit_settings() -> WinitSettings {
    reactive(IDLE_WAKE)
}

fn reactive(wake: Duration) -> WinitSettings {
    WinitSettings { focused_mode: UpdateMode::reactive(wake), unfocused_mode: UpdateMode::reactive_low_power(wake) }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        quiet_egui_input.after(EguiPreUpdateSet::ProcessInput).before(EguiPreUpdateSet::BeginPass),
    )
    .add_systems(Last, keep_awake);
}

/// The actions that move the view for as long as they are held.
const HELD: [Action; 6] =
    [Action::PanUp, Action::PanDown, Action::PanLeft, Action::PanRight, Action::ZoomIn, Action::ZoomOut];

/// Whether anything moves on its own this frame: then the next frame comes at once.
#[allow(clippy::too_many_arguments)]
fn keep_awake(
    busy: Res<AnimBusy>,
    ai: Res<Thinking>,
    screen: Option<Res<State<Screen>>>,
    view: Option<Res<State<PlayView>>>,
    controls: Query<&ActionState<Action>, With<Controls>>,
    mut keys: MessageReader<KeyboardInput>,
    mut buttons: MessageReader<MouseButtonInput>,
    mut wheel: MessageReader<MouseWheel>,
    mut cursor: MessageReader<CursorMoved>,
    mut resized: MessageReader<WindowResized>,
    mut linger: Local<u32>,
    mut redraw: MessageWriter<RequestRedraw>,
    (timer, winit): (Option<Res<TurnTimer>>, Option<ResMut<WinitSettings>>),
) {
    // A running turn timer wakes the window each second; a scripted run stays continuous.
    let wake = if timer.is_some_and(|t| t.remaining.is_some()) { TIMER_WAKE } else { IDLE_WAKE };
    if let Some(mut winit) = winit
        && let UpdateMode::Reactive { wait, .. } = winit.focused_mode
        && wait != wake
    {
        *winit = reactive(wake);
    }
    let input = keys.read().count()
        + buttons.read().count()
        + wheel.read().count()
        + cursor.read().count()
        + resized.read().count()
        > 0;
    let screen_changed =
        screen.as_ref().is_some_and(|s| s.is_changed()) || view.as_ref().is_some_and(|v| v.is_changed());
    if input || screen_changed {
        *linger = LINGER_FRAMES;
    }
    let playing = screen.as_deref().is_some_and(|s| *s.get() == Screen::Playing)
        && view.as_deref().is_some_and(|v| *v.get() == PlayView::Playing);
    let thinking = playing && ai.0;
    let held = controls.iter().any(|a| HELD.iter().any(|h| a.pressed(h)));
    if busy.0 || thinking || held || *linger > 0 {
        *linger = linger.saturating_sub(1);
        redraw.write(RequestRedraw);
    }
}

/// Drops the modifier-keys event bevy_egui writes every frame unless the modifiers changed.
fn quiet_egui_input(mut inputs: Query<&mut EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        let before = *last;
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => {
                let changed = before != Some(*m);
                *last = Some(*m);
                changed
            }
            _ => true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The modifier keys' state reaches egui when it changes, and not every frame.
    #[test]
    fn egui_hears_of_the_modifier_keys_only_when_they_change() {
        let mut app = App::new();
        app.add_systems(Update, quiet_egui_input);
        let ctx = app.world_mut().spawn(EguiInput::default()).id();
        let mut frame = |m: egui::Modifiers| {
            let mut input = app.world_mut().get_mut::<EguiInput>(ctx).expect("the context has an input");
            input.0.events = vec![egui::Event::ModifiersChanged(m), egui::Event::PointerGone];
            app.update();
            app.world().get::<EguiInput>(ctx).expect("the context has an input").0.events.clone()
        };
        let none = egui::Modifiers::NONE;
        let shift = egui::Modifiers::SHIFT;
        assert_eq!(frame(none), vec![egui::Event::ModifiersChanged(none), egui::Event::PointerGone], "first frame");
        assert_eq!(frame(none), vec![egui::Event::PointerGone], "unchanged: dropped, other events kept");
        assert_eq!(frame(shift), vec![egui::Event::ModifiersChanged(shift), egui::Event::PointerGone], "changed");
        assert_eq!(frame(shift), vec![egui::Event::PointerGone], "unchanged again");
    }
}
