//! Command-line launch, and the scripted run for checks and bug reports:
//! `kriegsspiel --scenario FILE [--mode battle|campaign] [--ai all|PLAYER,…] [--level L] [--seed N] [--exit-after-turns N] [--battle-turns N] [--screenshot PNG] [--rules ID]`
//! starts straight into the game (through the loading screen, as a scenario chosen in the
//! menu), lets the AI play the players named (`red`, `blue` in a battle), saves a screenshot and
//! exits. Every scene is launched the same way: it describes itself with a [`SceneInfo`].
//!
//! Command-line choices are for this run only: `--lang` and `--anim` are never written to the
//! settings, and a scripted run (`--exit-after-turns`, `--screenshot`) keeps its saves and
//! settings in a throw-away folder unless `--data-dir` names one, so the player's data is untouched.

use crate::catalog::Chosen;
use crate::i18n::Lang;
use crate::saves::Seat;
use crate::screens::{Mode, Screen};
use crate::session::{AnimBusy, HoldScreen, Progress};
use crate::settings::{AnimSpeed, RunOnly, Settings};
use ai::Level;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use clap::Parser;
use std::path::{Path, PathBuf};

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, start_scripted)
        .add_systems(Update, scripted_exit.in_set(crate::AppSystems::Visuals))
        .add_systems(Last, memory_per_turn);
}

/// What the launch needs to know of a scene: its players' names and how to check a scenario.
#[derive(Clone, Copy, Debug)]
pub struct SceneInfo {
    pub mode: Mode,
    /// The players' names on the command line, in the game's seat order.
    pub players: &'static [&'static str],
    /// Parses a scenario file (the launch refuses one that does not load).
    pub check: fn(&str) -> Result<(), String>,
}

/// The scenes this build has (set by the app, see `kriegsspiel::scenes`).
#[derive(Resource, Clone, Debug, Default)]
pub struct Scenes(pub Vec<SceneInfo>);

/// Which players the AI plays: all, or those named (`--ai red`, `--ai red,blue`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AiSides {
    All,
    Players(Vec<String>),
}

impl AiSides {
    /// Reads `all` or a comma-separated list of players' names.
    pub fn parse(text: &str) -> Result<AiSides, String> {
        let text = text.trim().to_ascii_lowercase();
        if text == "all" {
            return Ok(AiSides::All);
        }
        let names: Vec<String> = text.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect();
        if names.is_empty() {
            return Err("name the players the AI plays (e.g. red), or all".to_string());
        }
        Ok(AiSides::Players(names))
    }

    /// The seats of a scene's players: the AI where named, people elsewhere.
    pub fn seats(ai: Option<&AiSides>, scene: &SceneInfo, level: Level) -> Result<Vec<Seat>, String> {
        if let Some(AiSides::Players(names)) = ai
            && let Some(unknown) = names.iter().find(|n| !scene.players.contains(&n.as_str()))
        {
            return Err(format!(
                "unknown player `{unknown}` for --ai (this scene's players: {}, or all)",
                scene.players.join(", ")
            ));
        }
        Ok(scene
            .players
            .iter()
            .map(|p| match ai {
                Some(AiSides::All) => Seat::Ai(level),
                Some(AiSides::Players(names)) if names.iter().any(|n| n == p) => Seat::Ai(level),
                _ => Seat::Human,
            })
            .collect())
    }
}

/// The scene a launch names (`--mode`); by default the scene whose scenario the file is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LaunchMode {
    /// The first scene that reads the file (the battle's error is given when none does).
    #[default]
    Auto,
    Battle,
    GreatWar,
    Campaign,
}

impl LaunchMode {
    /// The mode named; `None` for [`LaunchMode::Auto`].
    pub fn mode(self) -> Option<Mode> {
        match self {
            LaunchMode::Auto => None,
            LaunchMode::Battle => Some(Mode::Battle),
            LaunchMode::GreatWar => Some(Mode::GreatWar),
            LaunchMode::Campaign => Some(Mode::Campaign),
        }
    }
}

/// Command-line options.
#[derive(Parser, Resource, Debug, Clone)]
#[command(
    name = "kriegsspiel",
    version,
    about = "Kriegsspiel: an umpired wargame of Napoleonic battles and campaigns and the Great War"
)]
pub struct Launch {
    /// Start straight into this scenario (otherwise the title screen).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// The scene of the scenario (by default the scene whose scenario the file is).
    #[arg(long, value_enum, default_value = "auto")]
    pub mode: LaunchMode,
    /// Players the AI plays in a scripted start: all, or their names (a battle's red, blue, or both:
    /// red,blue; a Great War power's id: germany,russia).
    #[arg(long, value_parser = AiSides::parse)]
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
    /// In a campaign: exit (with the screenshot) in the first battle fought on the grid once
    /// this many of its turns have been played (0: as it opens).
    #[arg(long)]
    pub battle_turns: Option<u32>,
    /// Save a screenshot of the game here before exiting.
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
    /// Measure the frame time (issue 30): once the game is in play, pan the board across the
    /// whole field and back at three zooms, this many frames each way (150 by default), print
    /// the median, 95th percentile and worst frame of each zoom, and exit.
    #[arg(long, num_args = 0..=1, default_missing_value = "150")]
    pub frame_stats: Option<u32>,
    /// Play a seat of a game on an umpire server: its invite link
    /// (http://HOST:PORT/?game=ID&seat=TOKEN).
    #[arg(long)]
    pub join: Option<String>,
}

impl Launch {
    /// No options: the title screen.
    pub fn interactive() -> Launch {
        Launch {
            scenario: None,
            mode: LaunchMode::Auto,
            ai: None,
            level: Level::Veteran,
            seed: 1,
            exit_after_turns: None,
            battle_turns: None,
            screenshot: None,
            lang: None,
            anim: None,
            data_dir: None,
            rules: None,
            frame_stats: None,
            join: None,
        }
    }

    /// Whether the options make sense with the scenes this build has (a scenario that loads,
    /// players the scene has, a known language).
    pub fn check(&self, scenes: &[SceneInfo]) -> Result<(), String> {
        if let Some(path) = &self.scenario {
            let scene = self.scene(scenes)?;
            (scene.check)(&path.to_string_lossy())?;
            AiSides::seats(self.ai.as_ref(), scene, self.level)?;
        }
        if let Some(link) = &self.join {
            crate::net::SeatLink::parse(link, "")?;
        }
        if let Some(lang) = &self.lang
            && Lang::from_code(lang).is_none()
        {
            return Err(format!("unknown language `{lang}` (en, ru)"));
        }
        Ok(())
    }

    /// The scene the launch names, or (`--mode auto`) the first whose scenario the file is.
    pub fn scene<'a>(&self, scenes: &'a [SceneInfo]) -> Result<&'a SceneInfo, String> {
        let Some(mode) = self.mode.mode() else {
            let path = self.scenario.as_ref().map(|p| p.to_string_lossy().to_string()).unwrap_or_default();
            return scenes
                .iter()
                .find(|s| (s.check)(&path).is_ok())
                .or_else(|| scenes.iter().find(|s| s.mode == Mode::Battle))
                .or(scenes.first())
                .ok_or_else(|| "this version has no scene".to_string());
        };
        scenes.iter().find(|s| s.mode == mode).ok_or_else(|| format!("this version has no {} scene yet", mode.name()))
    }

    pub fn scripted(&self) -> bool {
        self.exit_after_turns.is_some()
            || self.screenshot.is_some()
            || self.battle_turns.is_some()
            || self.frame_stats.is_some()
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

/// The folder the game's files are read from natively (`scenarios/`, `maps/`, `assets/`, by
/// paths relative to the working folder), when the working folder is not it: the first of the
/// executable's folder and the folders above it (`target/debug` in a checkout), then the checkout
/// the game was built from (`built`), that holds the Great War's scenarios. `None` when the
/// working folder holds them, or nothing does.
pub fn files_root(cwd: &Path, exe: Option<&Path>, built: Option<&Path>) -> Option<PathBuf> {
    let holds = |dir: &Path| dir.join("scenarios").join("great_war").is_dir();
    if holds(cwd) {
        return None;
    }
    let above_exe = exe.and_then(Path::parent).into_iter().flat_map(|d| d.ancestors().take(4));
    above_exe.chain(built).find(|d| holds(d)).map(Path::to_path_buf)
}

/// A path of the command line, as it is read once the working folder is `root`: kept when it
/// names a file there (the usual `scenarios/…`, which saves keep relative), else made absolute
/// from the folder the game was started in.
pub fn from_start(path: &Path, cwd: &Path, root: &Path) -> PathBuf {
    if path.is_absolute() || root.join(path).exists() { path.to_path_buf() } else { cwd.join(path) }
}

impl Launch {
    /// Natively, started from a folder that does not hold the game's files: works from the one
    /// that does ([`files_root`]), with the command line's paths still meaning what they meant.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn find_files(&mut self) {
        let Ok(cwd) = std::env::current_dir() else { return };
        let exe = std::env::current_exe().ok();
        let built = Path::new(env!("CARGO_MANIFEST_DIR"));
        let Some(root) = files_root(&cwd, exe.as_deref(), Some(built)) else { return };
        if std::env::set_current_dir(&root).is_err() {
            return;
        }
        for path in [&mut self.scenario, &mut self.screenshot, &mut self.data_dir].into_iter().flatten() {
            *path = from_start(path, &cwd, &root);
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

#[allow(clippy::too_many_arguments)]
fn start_scripted(
    mut commands: Commands,
    launch: Option<Res<Launch>>,
    scenes: Option<Res<Scenes>>,
    mut settings: ResMut<Settings>,
    mut run_only: ResMut<RunOnly>,
    mut hold: ResMut<HoldScreen>,
    mut screen: ResMut<NextState<Screen>>,
    mut rules: MessageWriter<crate::rules_ref::RulesCommand>,
    mut join: MessageWriter<crate::net::JoinOnline>,
) {
    let Some(launch) = launch else { return };
    *run_only = launch.run_only();
    run_only.apply(&mut settings);
    // A scripted run shows the battle: the legend a player's first game opens stays shut.
    if launch.scripted() {
        settings.legend_seen = true;
    }
    hold.0 = holding(Some(&launch));
    if let Some(frames) = launch.frame_stats {
        commands.insert_resource(crate::hud::frame_stats::FrameScript::new(frames));
    }
    if let Some(id) = &launch.rules {
        rules.write(crate::rules_ref::RulesCommand::Open(id.trim().to_ascii_uppercase()));
    }
    if let Some(link) = &launch.join {
        match crate::net::SeatLink::parse(link, "") {
            Ok(invite) => {
                join.write(crate::net::JoinOnline(invite));
            }
            Err(e) => error!("cannot join {link}: {e}"),
        }
    }
    let Some(path) = &launch.scenario else { return };
    let scenes = scenes.map(|s| s.0.clone()).unwrap_or_default();
    let started = launch.scene(&scenes).and_then(|scene| {
        let seats = AiSides::seats(launch.ai.as_ref(), scene, launch.level)?;
        let seat_names = scene.players.iter().map(|p| p.to_string()).collect();
        let path = path.to_string_lossy().replace('\\', "/");
        Ok(Chosen { mode: scene.mode, path, seed: launch.seed, seats, seat_names })
    });
    match started {
        Ok(chosen) => {
            commands.insert_resource(chosen);
            screen.set(Screen::Loading);
        }
        Err(e) => error!("cannot start {}: {e}", path.display()),
    }
}

/// Frames to let the board settle before the screenshot (counted from the start and again from
/// the frame the scripted state is reached, so that text drawn for the first time then has its
/// glyphs in the font texture), and to let it be written.
const SETTLE_FRAMES: u32 = 10;
const GIVE_UP_FRAMES: u32 = 600;

#[derive(Default)]
struct Script {
    shot_at: Option<u32>,
    /// The frame the scripted state was first reached.
    done_at: Option<u32>,
    frames: u32,
}

#[allow(clippy::too_many_arguments)]
fn scripted_exit(
    mut commands: Commands,
    launch: Option<Res<Launch>>,
    progress: Res<Progress>,
    screen: Res<State<Screen>>,
    busy: Res<AnimBusy>,
    measured: Option<Res<crate::hud::frame_stats::FrameScript>>,
    thought: Option<Res<crate::hud::frame_stats::ThinkingFrames>>,
    mut script: Local<Script>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(launch) = launch.filter(|l| l.scripted()) else { return };
    script.frames += 1;
    // `--frame-stats`: the measurement decides when the run is done.
    if launch.frame_stats.is_some() && measured.as_ref().is_none_or(|f| !f.finished()) {
        return;
    }
    if let Some(at) = script.shot_at {
        let written = launch.screenshot.as_ref().is_none_or(|p| p.exists());
        if (written && script.frames > at + 2) || script.frames > at + GIVE_UP_FRAMES {
            exit.write(AppExit::Success);
        }
        return;
    }
    // Without a scenario (or a seat to join): the title screen.
    let game = launch.scenario.as_ref().map(|_| ()).or(launch.join.as_ref().map(|_| ()));
    let done = match (game, progress.in_play) {
        (None, _) => true,
        (Some(_), false) => false,
        (Some(_), true) if measured.is_some() => true,
        (Some(_), true) => {
            if *screen.get() != Screen::Playing || busy.0 {
                return;
            }
            // `--exit-after-turns 0` shows the very start (the set-up, if the game has one).
            let inner = launch.battle_turns.is_some_and(|n| progress.inner_battle.is_some_and(|t| t > n));
            inner
                || progress.over
                || launch.exit_after_turns.is_some_and(|n| n == 0 || (!progress.in_setup && progress.turn > n))
        }
    };
    if !done {
        script.done_at = None;
        return;
    }
    let frames = script.frames;
    let done_at = *script.done_at.get_or_insert(frames);
    if script.frames < SETTLE_FRAMES || script.frames < done_at + SETTLE_FRAMES / 2 {
        return;
    }
    if let Some(line) = thought.as_ref().and_then(|t| t.line()) {
        println!("{line}");
    }
    if let Some(frames) = &measured {
        let scene = launch.scenario.as_ref().map(|p| p.to_string_lossy().to_string()).unwrap_or_default();
        for line in frames.report(&scene) {
            println!("{line}");
        }
        crate::hud::frame_stats::print_memory();
    }
    if let Some(path) = &launch.screenshot {
        let _ = std::fs::remove_file(path);
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
    }
    script.shot_at = Some(script.frames);
}

/// A scripted run prints the resident memory as each turn begins (issue 30: the memory of a
/// 20-turn game, `tests/native_speed.rs`).
fn memory_per_turn(launch: Option<Res<Launch>>, progress: Res<Progress>, mut last: Local<Option<u32>>) {
    if !launch.is_some_and(|l| l.scripted()) || !progress.in_play || *last == Some(progress.turn) {
        return;
    }
    *last = Some(progress.turn);
    if let Some(bytes) = crate::hud::frame_stats::resident_bytes() {
        println!("turn {}: resident memory {:.1} MB", progress.turn, bytes as f64 / 1_000_000.0);
    }
}

/// Whether a scripted run is holding the battle screen for its screenshot.
pub fn holding(launch: Option<&Launch>) -> bool {
    launch.is_some_and(Launch::scripted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder tree under the system's temporary folder, removed when dropped.
    struct Tree(PathBuf);

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Issue 27 (found in this stop's screenshots): started from another folder, the game listed
    /// only its bundled test front. It now works from the folder that holds its files: the
    /// executable's or one above it (a checkout's `target/debug`), else the checkout it was built
    /// from; from a folder that holds them, nothing changes.
    #[test]
    fn the_game_finds_its_files_from_another_working_folder() {
        let tree = Tree(std::env::temp_dir().join(format!("ks-files-root-{}", std::process::id())));
        let root = tree.0.join("checkout");
        let elsewhere = tree.0.join("home");
        for dir in [root.join("scenarios/great_war"), root.join("target/debug"), elsewhere.clone()] {
            std::fs::create_dir_all(&dir).expect("a temporary folder");
        }
        std::fs::write(root.join("scenarios/a.ron"), "").expect("a file");
        let exe = root.join("target/debug/kriegsspiel");
        assert_eq!(files_root(&elsewhere, Some(&exe), None), Some(root.clone()), "above the executable");
        assert_eq!(files_root(&elsewhere, None, Some(&root)), Some(root.clone()), "the checkout it was built from");
        assert_eq!(files_root(&root, Some(&exe), Some(&root)), None, "already there");
        assert_eq!(files_root(&elsewhere, Some(&elsewhere.join("kriegsspiel")), None), None, "nowhere");
        // The command line's paths: one of the game's stays relative (saves keep it so), one of
        // the person's folder is made absolute from it.
        assert_eq!(from_start(Path::new("scenarios/a.ron"), &elsewhere, &root), PathBuf::from("scenarios/a.ron"));
        assert_eq!(from_start(Path::new("shot.png"), &elsewhere, &root), elsewhere.join("shot.png"));
        assert_eq!(from_start(&elsewhere.join("b.ron"), &root, &root), elsewhere.join("b.ron"));
    }
}
