//! The browser: downloading and opening save files, the ready signal for tests, replaying a save
//! handed over by the page (to compare state hashes with the native build), and fetching the
//! large Great War files when their scenario is chosen.

use crate::catalog::{Chosen, Download, LoadProblem};
use crate::great_war::files;
use crate::i18n::Tr;
use crate::saves::{self, SaveKinds};
use crate::screens::{Mode, Screen};
use crate::session::{PlayGame, Session};
use bevy::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Reported>()
        .add_systems(PostStartup, replay_from_page)
        .add_systems(Update, (signal_ready.run_if(in_state(Screen::Title)), report_screen))
        .add_systems(Update, fetch_chosen.run_if(in_state(Screen::Loading)))
        .add_systems(OnExit(Screen::Loading), |mut commands: Commands| commands.remove_resource::<Download>());
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
    let who = if s.human_turn() { "human" } else { "ai" };
    let now = format!("{} {} {who} {}", G::MODE.name(), s.game.status_words(), s.game.orders().len());
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

/// The gzipped size of files the page can fetch (`window.kriegsspielDataSizes`, read by the page
/// from `data/sizes.json`), when it knows them all.
pub fn download_size(paths: &[&str]) -> Option<u64> {
    let sizes = js_sys::Reflect::get(&window()?.into(), &JsValue::from_str("kriegsspielDataSizes")).ok()?;
    paths.iter().map(|p| js_sys::Reflect::get(&sizes, &JsValue::from_str(p)).ok()?.as_f64().map(|b| b as u64)).sum()
}

/// A number the page set on `window`.
fn number(key: &str) -> Option<f64> {
    js_sys::Reflect::get(&window()?.into(), &JsValue::from_str(key)).ok()?.as_f64()
}

/// The chosen Great War scenario's files that are not in the download: asks the page to fetch
/// them (`kriegsspielFetch`), shows its progress ([`Download`]), keeps them when they have come
/// (the scene then parses the scenario, see `files::ready`), or goes back to the set-up screen
/// with the reason.
fn fetch_chosen(
    chosen: Option<Res<Chosen>>,
    download: Option<ResMut<Download>>,
    tr: Res<Tr>,
    mut problem: ResMut<LoadProblem>,
    mut screen: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(chosen) = chosen.filter(|c| c.mode == Mode::GreatWar) else { return };
    let missing = files::missing(&chosen.path);
    if missing.is_empty() {
        return;
    }
    let Some(w) = window() else { return };
    let Some(mut download) = download else {
        let paths = js_sys::Array::new();
        for p in &missing {
            paths.push(&JsValue::from_str(p));
        }
        let started = js_sys::Reflect::get(&w, &JsValue::from_str("kriegsspielFetch"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .map(|f| f.call1(&w, &paths));
        match started {
            Some(Ok(_)) => {
                commands.insert_resource(Download { received: 0, total: download_size(&missing).unwrap_or(0) })
            }
            _ => {
                let why = tr.f(
                    "ui.download_failed",
                    &[("file", chosen.path.clone()), ("why", "no kriegsspielFetch".to_string())],
                );
                report("kriegsspielProblem", &why);
                problem.0 = Some(why);
                screen.set(Screen::Setup);
            }
        }
        return;
    };
    // The page's progress: bytes come, then the files (an object of texts by path) or an error.
    let received = number("kriegsspielFetchReceived").unwrap_or(0.0) as u64;
    let total = number("kriegsspielFetchTotal").map(|t| t as u64).filter(|t| *t > 0).unwrap_or(download.total);
    if (download.received, download.total) != (received, total) {
        download.received = received;
        download.total = total;
        report("kriegsspielDownload", &format!("{received}/{total}"));
    }
    if let Some(error) = take("kriegsspielFetchError") {
        let why = tr.f("ui.download_failed", &[("file", chosen.path.clone()), ("why", error)]);
        report("kriegsspielProblem", &why);
        problem.0 = Some(why);
        screen.set(Screen::Setup);
        return;
    }
    let Ok(fetched) = js_sys::Reflect::get(&w, &JsValue::from_str("kriegsspielFetched")) else { return };
    if fetched.is_undefined() || fetched.is_null() {
        return;
    }
    let _ = js_sys::Reflect::delete_property(&w, &JsValue::from_str("kriegsspielFetched"));
    for p in missing {
        if let Some(text) = js_sys::Reflect::get(&fetched, &JsValue::from_str(p)).ok().and_then(|t| t.as_string()) {
            files::keep_downloaded(p, text);
        }
    }
}
