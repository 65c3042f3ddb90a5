//! Command-line launch, and the scripted run for checks and bug reports:
//! `kriegsspiel --scenario FILE [--ai all|red|blue] [--level L] [--seed N] [--exit-after-turns N] [--screenshot PNG] [--rules ID]`
//! starts straight into the battle, lets the AI play, saves a screenshot and exits.
//!
//! Command-line choices are for this run only: `--lang` and `--anim` are never written to the
//! settings, and a scripted run (`--exit-after-turns`, `--screenshot`) keeps its saves and
//! settings in a throw-away folder unless `--data-dir` names one, so the player's data is untouched.

use crate::i18n::Lang;
use crate::screens::Screen;
use crate::session::{AnimBusy, Seat, Session, StartBattle};
use crate::settings::{AnimSpeed, RunOnly, Settings};
use ai::Level;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use clap::Parser;
use rules::tactical::Scenario;
use rules::tactical::components::Phase;
use std::path::PathBuf;

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, start_scripted).add_systems(Update, scripted_exit.in_set(crate::AppSystems::Visuals));
}

/// Which sides the AI plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AiSides {
    All,
    Red,
    Blue,
}

/// Command-line options.
#[derive(Parser, Resource, Debug, Clone)]
#[command(name = "kriegsspiel", version, about = "Kriegsspiel: an umpired wargame of Napoleonic battles")]
pub struct Launch {
    /// Start straight into this scenario (otherwise the title screen).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Sides the AI plays in a scripted start.
    #[arg(long)]
    pub ai: Option<AiSides>,
    /// AI level: recruit, veteran, marshal (or the baselines random, greedy).
    #[arg(long, default_value = "veteran")]
    pub level: Level,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Exit once this many turns have been played (or the battle is over); 0 = at once.
    #[arg(long)]
    pub exit_after_turns: Option<u32>,
    /// Save a screenshot of the battle here before exiting.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Language of the interface for this run: en or ru (the saved setting is not changed).
    #[arg(long)]
    pub lang: Option<String>,
    /// Animation speed for this run (the saved setting is not changed).
    #[arg(long, value_enum)]
    pub anim: Option<AnimSpeed>,
    /// Keep saves and settings in this folder. A scripted run without it uses a throw-away
    /// folder; otherwise the player's data folder is used.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Open the rules reference on this rule's entry (e.g. T-FIRE-3).
    #[arg(long)]
    pub rules: Option<String>,
}

impl Launch {
    /// No options: the title screen.
    pub fn interactive() -> Launch {
        Launch {
            scenario: None,
            ai: None,
            level: Level::Veteran,
            seed: 1,
            exit_after_turns: None,
            screenshot: None,
            lang: None,
            anim: None,
            data_dir: None,
            rules: None,
        }
    }

    /// Whether the options make sense (a scenario that loads, a known language).
    pub fn check(&self) -> Result<(), String> {
        if let Some(path) = &self.scenario {
            Scenario::load(path).map_err(|e| e.to_string())?;
        }
        if let Some(lang) = &self.lang
            && Lang::from_code(lang).is_none()
        {
            return Err(format!("unknown language `{lang}` (en, ru)"));
        }
        Ok(())
    }

    pub fn scripted(&self) -> bool {
        self.exit_after_turns.is_some() || self.screenshot.is_some()
    }

    /// The folder for saves and settings this run: `--data-dir`, else a fresh throw-away folder
    /// for a scripted run, else `None` (the player's).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn data_dir(&self) -> Option<DataDir> {
        if let Some(dir) = &self.data_dir {
            return Some(DataDir { path: dir.clone(), throw_away: false });
        }
        if !self.scripted() {
            return None;
        }
        let nanos = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let name = format!("kriegsspiel-scripted-{}-{nanos}", std::process::id());
        Some(DataDir { path: std::env::temp_dir().join(name), throw_away: true })
    }

    /// Points the storage at this run's folder (call before the app is built); returns it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn use_data_dir(&self) -> Option<DataDir> {
        let dir = self.data_dir()?;
        crate::storage::use_dir(dir.path.clone());
        Some(dir)
    }

    /// What the command line sets for this run only.
    pub fn run_only(&self) -> RunOnly {
        let scripted = self.scripted();
        RunOnly {
            lang: self.lang.as_deref().and_then(Lang::from_code),
            anim: self.anim.or(scripted.then_some(AnimSpeed::Fast)),
            turn_timer: scripted.then_some(false),
        }
    }
}

/// A run's data folder; a throw-away one is removed when the run ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDir {
    pub path: PathBuf,
    pub throw_away: bool,
}

impl DataDir {
    /// Removes a throw-away folder.
    pub fn finish(&self) {
        if self.throw_away {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

fn start_scripted(
    launch: Option<Res<Launch>>,
    mut settings: ResMut<Settings>,
    mut run_only: ResMut<RunOnly>,
    mut start: MessageWriter<StartBattle>,
    mut rules: MessageWriter<crate::rules_ref::RulesCommand>,
) {
    let Some(launch) = launch else { return };
    *run_only = launch.run_only();
    run_only.apply(&mut settings);
    if let Some(id) = &launch.rules {
        rules.write(crate::rules_ref::RulesCommand::Open(id.trim().to_ascii_uppercase()));
    }
    let Some(path) = &launch.scenario else { return };
    let Ok(scenario) = Scenario::load(path) else { return };
    let ai = |on: bool| if on { Seat::Ai(launch.level) } else { Seat::Human };
    let seats = match launch.ai {
        None => [Seat::Human, Seat::Human],
        Some(AiSides::All) => [ai(true), ai(true)],
        Some(AiSides::Red) => [ai(true), ai(false)],
        Some(AiSides::Blue) => [ai(false), ai(true)],
    };
    start.write(StartBattle { scenario, seed: launch.seed, seats });
}

/// Frames to let the board settle before the screenshot, and to let it be written.
const SETTLE_FRAMES: u32 = 10;
const GIVE_UP_FRAMES: u32 = 600;

#[derive(Default)]
struct Script {
    shot_at: Option<u32>,
    frames: u32,
}

fn scripted_exit(
    mut commands: Commands,
    launch: Option<Res<Launch>>,
    session: Option<Res<Session>>,
    screen: Res<State<Screen>>,
    busy: Res<AnimBusy>,
    mut script: Local<Script>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(launch) = launch.filter(|l| l.scripted()) else { return };
    script.frames += 1;
    if let Some(at) = script.shot_at {
        let written = launch.screenshot.as_ref().is_none_or(|p| p.exists());
        if (written && script.frames > at + 2) || script.frames > at + GIVE_UP_FRAMES {
            exit.write(AppExit::Success);
        }
        return;
    }
    // Without a scenario: the title screen.
    let done = match (&launch.scenario, session) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(_), Some(session)) => {
            if *screen.get() != Screen::Battle || busy.0 {
                return;
            }
            let clock = session.battle.clock();
            // `--exit-after-turns 0` shows the very start (the set-up, if the battle has one).
            clock.phase == Phase::Over
                || launch.exit_after_turns.is_some_and(|n| n == 0 || (clock.phase == Phase::Battle && clock.turn > n))
        }
    };
    if !done || script.frames < SETTLE_FRAMES {
        return;
    }
    if let Some(path) = &launch.screenshot {
        let _ = std::fs::remove_file(path);
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
    }
    script.shot_at = Some(script.frames);
}

/// Whether a scripted run is holding the battle screen for its screenshot.
pub fn holding(launch: Option<&Launch>) -> bool {
    launch.is_some_and(Launch::scripted)
}
