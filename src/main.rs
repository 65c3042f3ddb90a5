//! Kriegsspiel: the game. Presentation only; the rules live in the `rules` crate.

mod board;
mod session;

use bevy::prelude::*;
use clap::Parser;
use rules::tactical::{Battle, Scenario};
use session::Session;
use std::path::PathBuf;

/// Command-line launch options.
#[derive(Parser, Debug)]
#[command(name = "kriegsspiel", about = "Kriegsspiel: Napoleonic battles and the Great War")]
struct Launch {
    /// Scenario to open.
    #[arg(long, default_value = "scenarios/open_field.ron")]
    scenario: PathBuf,
    /// Seed for the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Save a screenshot here once the field is drawn, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
}

/// Where to save the scripted screenshot.
#[derive(Resource)]
struct ScreenshotTo(PathBuf);

/// Frames to wait for the first full render, then for the screenshot to be written.
const SHOT_AT_FRAME: u32 = 20;
const EXIT_AT_FRAME: u32 = 60;

fn scripted_screenshot(
    mut commands: Commands,
    to: Res<ScreenshotTo>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if *frame == SHOT_AT_FRAME {
        commands
            .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
            .observe(bevy::render::view::screenshot::save_to_disk(to.0.clone()));
    }
    if *frame >= EXIT_AT_FRAME && to.0.exists() {
        exit.write(AppExit::Success);
    }
}

fn main() -> AppExit {
    let launch = Launch::parse();
    let scenario = match Scenario::load(&launch.scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return AppExit::error();
        }
    };
    let mut app = App::new();
    if let Some(path) = launch.screenshot.clone() {
        app.insert_resource(ScreenshotTo(path)).add_systems(Update, scripted_screenshot);
    }
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "Kriegsspiel".to_string(), resolution: (1280, 720).into(), ..default() }),
        ..default()
    }))
    .insert_resource(ClearColor(Color::srgb(0.16, 0.15, 0.13)))
    .insert_resource(Session { battle: Battle::new(&scenario, launch.seed) })
    .add_plugins(board::plugin)
    .run()
}
