//! Scripted and command-line runs never touch the player's data: a scripted launch keeps its
//! saves in a throw-away folder, and `--lang`/`--anim` apply to that run only.
//! (Its own test binary: the data folder is global to the process.)

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use kriegsspiel::i18n::Lang;
use kriegsspiel::launch::{AiSides, Launch};
use kriegsspiel::settings::{AnimSpeed, Settings};
use rules::data::{parse_ron, to_ron};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file of a folder, by name, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("folder")
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().to_string(), std::fs::read(e.path()).expect("file")))
        .collect()
}

fn run(launch: Launch, frames: usize) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        InputPlugin,
        kriegsspiel::logic_plugin,
        kriegsspiel::launch::plugin,
    ))
    .insert_resource(launch);
    for _ in 0..frames {
        app.update();
        if app.should_exit().is_some() {
            break;
        }
    }
    app
}

fn player_folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kriegsspiel-player-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    let settings = Settings { lang: Lang::English, anim: AnimSpeed::Slow, turn_timer: true, ..Settings::default() };
    std::fs::write(dir.join("settings.ron"), to_ron(&settings)).expect("write");
    std::fs::write(dir.join("slot1.ron"), "a save of the player's").expect("write");
    std::fs::write(dir.join("autosave.ron"), "the player's last autosave").expect("write");
    dir
}

#[test]
fn a_scripted_run_leaves_the_data_folder_byte_identical() {
    let player = player_folder();
    let before = snapshot(&player);
    // The player's folder is the one in use, as when the game starts from a desktop icon.
    kriegsspiel::storage::use_dir(player.clone());
    let launch = Launch {
        scenario: Some("scenarios/worked_example_b.ron".into()),
        ai: Some(AiSides::All),
        level: ai::Level::Recruit,
        exit_after_turns: Some(2),
        lang: Some("ru".into()),
        ..Launch::interactive()
    };
    let dir = launch.use_data_dir().expect("a scripted run gets its own folder");
    assert!(dir.throw_away && dir.path != player);
    let app = run(launch, 20_000);
    assert!(app.should_exit().is_some(), "the scripted run finished");
    let settings = app.world().resource::<Settings>();
    assert_eq!((settings.lang, settings.anim, settings.turn_timer), (Lang::Russian, AnimSpeed::Fast, false));
    // It did save (its autosaves), but in its own folder.
    let written = snapshot(&dir.path);
    assert!(written.keys().any(|k| k.starts_with("auto-") && k.contains("worked-example")), "{:?}", written.keys());
    assert_eq!(snapshot(&player), before, "the player's folder is byte-identical");
    dir.finish();
    assert!(!dir.path.exists(), "the throw-away folder is removed");

    // An interactive run with `--lang ru --anim instant`: the player's folder, but the
    // command line is for this run only, even when the player then changes another setting.
    kriegsspiel::storage::use_dir(player.clone());
    let launch = Launch { lang: Some("ru".into()), anim: Some(AnimSpeed::Instant), ..Launch::interactive() };
    assert_eq!(launch.use_data_dir(), None, "not scripted: the player's own folder");
    let mut app = run(launch, 3);
    assert_eq!(app.world().resource::<Settings>().lang, Lang::Russian, "Russian for this run");
    app.world_mut().resource_mut::<Settings>().turn_timer = false;
    app.update();
    let kept: Settings =
        parse_ron("settings.ron", &std::fs::read_to_string(player.join("settings.ron")).expect("read")).expect("parse");
    assert_eq!(
        (kept.lang, kept.anim, kept.turn_timer),
        (Lang::English, AnimSpeed::Slow, false),
        "the player's change is kept, the command line's choices are not"
    );
    let _ = std::fs::remove_dir_all(&player);
}
