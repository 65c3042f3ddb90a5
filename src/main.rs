//! Kriegsspiel: start the game, or a scripted battle for checks and bug reports.

use bevy::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use clap::Parser;
use kriegsspiel::launch::Launch;

fn main() -> AppExit {
    // The browser has no command line (and so no need for clap's parser in the download).
    #[cfg(not(target_arch = "wasm32"))]
    let launch = {
        let mut launch = Launch::parse();
        launch.find_files();
        launch
    };
    #[cfg(target_arch = "wasm32")]
    let launch = Launch::interactive();
    if let Err(e) = launch.check(&kriegsspiel::scenes()) {
        eprintln!("error: {e}");
        return AppExit::error();
    }
    // A scripted run plays through at full rate; a person's game sleeps when nothing moves. The
    // browser build keeps the browser's own frame pacing (requestAnimationFrame, paused in hidden
    // tabs) until the sleeping window is checked there: its loading and test hooks tick per frame.
    let winit = if cfg!(target_arch = "wasm32") || kriegsspiel::launch::holding(Some(&launch)) {
        bevy::winit::WinitSettings::continuous()
    } else {
        kriegsspiel::wake::winit_settings()
    };
    #[cfg(not(target_arch = "wasm32"))]
    let data_dir = launch.use_data_dir();
    let mut app = App::new();
    let window = WindowPlugin {
        primary_window: Some(Window {
            title: "Kriegsspiel".to_string(),
            resolution: (1280, 720).into(),
            canvas: Some("#kriegsspiel".to_string()),
            fit_canvas_to_parent: true,
            ..default()
        }),
        ..default()
    };
    #[cfg(not(target_arch = "wasm32"))]
    let plugins = DefaultPlugins
        .set(window)
        .set(bevy::log::LogPlugin { filter: "warn,kriegsspiel=info".to_string(), ..default() });
    // The browser logs to the page's console through a fixed filter of its own: Bevy's
    // pattern-matching filter is half a megabyte of the download.
    #[cfg(target_arch = "wasm32")]
    let plugins = {
        kriegsspiel::console_log::install();
        kriegsspiel::console_log::WebPlugins(window)
    };
    app.add_plugins(plugins)
        .insert_resource(ClearColor(Color::srgb(0.16, 0.15, 0.13)))
        .insert_resource(launch)
        .insert_resource(winit)
        .add_plugins((kriegsspiel::logic_plugin, kriegsspiel::view_plugin));
    // Natively the AI thinks on a thread of its own: the frames never wait for it
    // (`KRIEGSSPIEL_AI_IN_FRAMES=1`: in slices of the frames, as in the browser, to compare).
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("KRIEGSSPIEL_AI_IN_FRAMES").is_none() {
        app.insert_resource(kriegsspiel::ai_turns::AiThread);
    }
    let exit = app.run();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(dir) = data_dir {
        dir.finish();
    }
    exit
}
