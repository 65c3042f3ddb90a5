//! The browser: downloading and opening save files, the ready signal for tests, replaying a save
//! handed over by the page (to compare state hashes with the native build), and the page's
//! fetching of files not in the download (a scene asks, see `great_war::files`).

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

/// In a game: its mode, its state, who moves and how many orders its log holds
/// ("battle battle turn 3 blue ai 12").
fn report_game<G: PlayGame>(mode: Res<State<Mode>>, session: Option<Res<Session<G>>>, mut last: ResMut<Reported>) {
    let Some(s) = session.filter(|_| *mode.get() == G::MODE) else { return };
    // Online: whose move by the server, the server's order count, and the hash of the seat's
    // view (`kriegsspielViewHash`: a page reloaded resumes at the same one).
    let who = match (&s.remote, s.human_turn()) {
        (_, true) => "human",
        (Some(_), false) => "waiting",
        (None, false) => "ai",
    };
    let count = s.remote.as_ref().map_or(s.game.orders().len() as u64, |r| r.at);
    let now = format!("{} {} {who} {count}", G::MODE.name(), s.game.status_words());
    if last.0 != now {
        if s.remote.is_some() {
            let viewer = rules::view::Viewer::of(s.viewer());
            report("kriegsspielViewHash", &G::view_hash(&s.game.view(viewer)).to_string());
        }
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
    if let Ok(f) = js_sys::Reflect::get(&w, &JsValue::from_str("kriegsspielPickFile"))
        && let Some(f) = f.dyn_ref::<js_sys::Function>()
    {
        let _ = f.call0(&w);
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

/// The gzipped size of files the page can fetch (`window.kriegsspielDataSizes`, read by the page
/// from `data/sizes.json`), when it knows them all.
pub fn download_size(paths: &[&str]) -> Option<u64> {
    let sizes = js_sys::Reflect::get(&window()?.into(), &JsValue::from_str("kriegsspielDataSizes")).ok()?;
    paths.iter().map(|p| js_sys::Reflect::get(&sizes, &JsValue::from_str(p)).ok()?.as_f64().map(|b| b as u64)).sum()
}

/// A number the page set on `window`, taken off it (once).
pub fn take_number(key: &str) -> Option<f64> {
    let n = number(key)?;
    if let Some(w) = window() {
        let _ = js_sys::Reflect::delete_property(&w, &JsValue::from_str(key));
    }
    Some(n)
}

/// A number the page set on `window`.
fn number(key: &str) -> Option<f64> {
    js_sys::Reflect::get(&window()?.into(), &JsValue::from_str(key)).ok()?.as_f64()
}

/// Asks the page to fetch files (`kriegsspielFetch`, see `web/index.html`): whether it could.
pub fn start_fetch(paths: &[&str]) -> bool {
    let Some(w) = window() else { return false };
    let list = js_sys::Array::new();
    for p in paths {
        list.push(&JsValue::from_str(p));
    }
    js_sys::Reflect::get(&w, &JsValue::from_str("kriegsspielFetch"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|f| f.call1(&w, &list).is_ok())
}

/// The page's fetch so far: bytes received, and bytes to come (0 when not known).
pub fn fetch_progress() -> (u64, u64) {
    let received = number("kriegsspielFetchReceived").unwrap_or(0.0) as u64;
    let total = number("kriegsspielFetchTotal").unwrap_or(0.0) as u64;
    (received, total)
}

/// Why the page's fetch failed, once.
pub fn take_fetch_error() -> Option<String> {
    take("kriegsspielFetchError")
}

/// The fetched files' texts, once they have all come (and once).
pub fn take_fetched(paths: &[&str]) -> Option<Vec<(String, String)>> {
    let w = window()?;
    let fetched = js_sys::Reflect::get(&w, &JsValue::from_str("kriegsspielFetched")).ok()?;
    if fetched.is_undefined() || fetched.is_null() {
        return None;
    }
    let _ = js_sys::Reflect::delete_property(&w, &JsValue::from_str("kriegsspielFetched"));
    let texts = paths
        .iter()
        .filter_map(|p| {
            let text = js_sys::Reflect::get(&fetched, &JsValue::from_str(p)).ok()?.as_string()?;
            Some((p.to_string(), text))
        })
        .collect();
    Some(texts)
}
