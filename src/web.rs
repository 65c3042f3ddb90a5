//! The browser: downloading and opening save files, the ready signal for tests, and replaying
//! a save handed over by the page (to compare state hashes with the native build).

use crate::saves::{self, SaveKinds};
use crate::screens::{Mode, Screen};
use crate::session::{PlayGame, Session};
use bevy::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Reported>()
        .add_systems(PostStartup, replay_from_page)
        .add_systems(Update, (signal_ready.run_if(in_state(Screen::Title)), report_screen));
}

/// The browser's hooks of a scene's game (the state report).
pub fn plugin_for<G: PlayGame>(app: &mut App) {
    app.add_systems(Update, report_game::<G>.after(report_screen).run_if(in_state(Screen::Playing)));
}

/// What `window.kriegsspielState` says.
#[derive(Resource, Default)]
pub struct Reported(String);

/// `window.kriegsspielState`: the screen ("title"), for the page's tests; a game in play is
/// reported by its scene (see [`report_game`]).
fn report_screen(screen: Res<State<Screen>>, mut last: ResMut<Reported>) {
    if *screen.get() == Screen::Playing {
        return;
    }
    let now = format!("{:?}", screen.get()).to_lowercase();
    if last.0 != now {
        report("kriegsspielState", &now);
        last.0 = now;
    }
}

/// In a game: its mode, its state and who moves ("battle battle turn 3 blue ai").
fn report_game<G: PlayGame>(mode: Res<State<Mode>>, session: Option<Res<Session<G>>>, mut last: ResMut<Reported>) {
    let Some(s) = session.filter(|_| *mode.get() == G::MODE) else { return };
    let who = if s.human_turn() { "human" } else { "ai" };
    let now = format!("{} {} {who}", G::MODE.name(), s.game.status_words());
    if last.0 != now {
        report("kriegsspielState", &now);
        last.0 = now;
    }
}

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// Sets `window[key]` and logs it, for the page and its tests.
pub fn report(key: &str, value: &str) {
    if let Some(w) = window() {
        let _ = js_sys::Reflect::set(&w, &JsValue::from_str(key), &JsValue::from_str(value));
    }
    web_sys::console::log_1(&JsValue::from_str(&format!("{key}: {value}")));
}

fn take(key: &str) -> Option<String> {
    let w = window()?;
    let value = js_sys::Reflect::get(&w, &JsValue::from_str(key)).ok()?;
    let text = value.as_string()?;
    let _ = js_sys::Reflect::delete_property(&w, &JsValue::from_str(key));
    Some(text)
}

/// Offers a text file for download.
pub fn download(name: &str, text: &str) {
    let Some(document) = window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let props = web_sys::BlobPropertyBag::new();
    props.set_type("text/plain");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &props) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = document.create_element("a").map(|e| e.unchecked_into::<web_sys::HtmlAnchorElement>()) {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Opens the page's file picker (its text arrives in `window.kriegsspielPickedFile`).
pub fn pick_file() {
    let Some(w) = window() else { return };
    if let Ok(f) = js_sys::Reflect::get(&w, &JsValue::from_str("kriegsspielPickFile")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call0(&w);
        }
    }
}

/// The text of the file the player picked, once.
pub fn take_picked_file() -> Option<String> {
    take("kriegsspielPickedFile")
}

/// The title screen is on: the game is ready (after a few frames, so it has been drawn).
fn signal_ready(mut frames: Local<u32>) {
    *frames += 1;
    if *frames == 3 {
        report("kriegsspielReady", "true");
    }
}

/// A save the page passed in (`?replay=FILE`): replay it through its scene and report its final
/// state hash.
fn replay_from_page(kinds: Res<SaveKinds>) {
    let Some(text) = take("kriegsspielReplayText") else { return };
    let name = "replay.ron";
    let hash = saves::mode_of(name, &text, &kinds)
        .and_then(|mode| kinds.get(mode))
        .and_then(|kind| (kind.replay_hash)(name, &text))
        .unwrap_or_else(|e| format!("error: {e}"));
    report("kriegsspielReplayHash", &hash);
}
