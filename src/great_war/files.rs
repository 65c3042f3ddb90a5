//! The Great War's files: the small shipped scenarios compiled in (the browser has no folder to
//! read), the theatre and Europe scenarios read from disk natively (the browser fetches large maps
//! on demand, see `web/`), their headers for the catalogue, and the full parse when one is chosen.
//! Every file is read through the engine's [`FileSource`], never with `std::fs` directly.

#[cfg(target_arch = "wasm32")]
use crate::catalog::Download;
use crate::catalog::{Chosen, PlayerHeader, ScenarioHeader};
use crate::screens::Mode;
use bevy::prelude::Res;
use rules::data::{DataError, parse_ron};
use rules::source::{BundledFiles, FileSource, normalise};
use rules::strategic::Scenario;
use serde::Deserialize;
use std::path::Path;

/// The shipped Great War scenarios small enough to carry in the download, and the files they name.
pub const BUNDLED: [(&str, &str); 6] = [
    ("scenarios/great_war/test_front.ron", include_str!("../../scenarios/great_war/test_front.ron")),
    ("maps/great_war/test_front.ron", include_str!("../../maps/great_war/test_front.ron")),
    ("assets/data/great_war_units.ron", include_str!("../../assets/data/great_war_units.ron")),
    ("assets/data/great_war_rules.ron", include_str!("../../assets/data/great_war_rules.ron")),
    ("assets/data/great_war_aviation.ron", include_str!("../../assets/data/great_war_aviation.ron")),
    ("assets/i18n/en.ron", include_str!("../../assets/i18n/en.ron")),
];

/// A shipped scenario too large for the download: read from disk natively; in the browser its
/// files are fetched when it is chosen (`web/build.sh` puts them, gzipped, in `web/dist/data/`;
/// the page's `kriegsspielFetch` downloads them with a progress bar). Its header is written here,
/// so the browser lists it before anything is fetched; a test checks it against the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchedScenario {
    pub path: &'static str,
    /// The files it needs beyond the bundle (its own file first), as `Scenario::load_from` reads them.
    pub files: &'static [&'static str],
    pub name: &'static str,
    /// Its powers: id, name and alliance.
    pub powers: &'static [(&'static str, &'static str, u8)],
    pub forces: usize,
    pub fleets: usize,
    pub width: u32,
    pub height: u32,
}

/// The theatres and the whole of Europe (the list `web/fetched.txt` names the same files).
pub const FETCHED: [FetchedScenario; 4] = [
    FetchedScenario {
        path: "scenarios/great_war/north_sea_1916.ron",
        files: &["scenarios/great_war/north_sea_1916.ron", "maps/europe_1914_north_sea.ron"],
        name: "North Sea, 1916",
        powers: &[
            ("germany", "Germany", 1),
            ("france", "France", 0),
            ("gb", "Great Britain", 0),
            ("belgium", "Belgium", 0),
            ("netherlands", "Netherlands", 0),
            ("denmark", "Denmark", 0),
            ("norway", "Norway", 0),
            ("sweden", "Sweden", 0),
        ],
        forces: 4,
        fleets: 6,
        width: 263,
        height: 324,
    },
    FetchedScenario {
        path: "scenarios/great_war/east_prussia_1914.ron",
        files: &["scenarios/great_war/east_prussia_1914.ron", "maps/europe_1914_east_prussia.ron"],
        name: "East Prussia 1914",
        powers: &[("germany", "Germany", 1), ("russia", "Russia", 0)],
        forces: 63,
        fleets: 0,
        width: 97,
        height: 107,
    },
    FetchedScenario {
        path: "scenarios/great_war/frontiers_marne_1914.ron",
        files: &["scenarios/great_war/frontiers_marne_1914.ron", "maps/europe_1914_west.ron"],
        name: "The Frontiers and the Marne 1914",
        powers: &[
            ("germany", "Germany", 1),
            ("austria_hungary", "Austria-Hungary", 1),
            ("france", "France", 0),
            ("gb", "Great Britain", 0),
            ("belgium", "Belgium", 0),
            ("luxembourg", "Luxembourg", 0),
            ("netherlands", "Netherlands", 0),
            ("switzerland", "Switzerland", 0),
        ],
        forces: 199,
        fleets: 0,
        width: 128,
        height: 132,
    },
    FetchedScenario {
        path: "scenarios/great_war/august_1914.ron",
        files: &["scenarios/great_war/august_1914.ron", "maps/europe_1914.ron"],
        name: "The Great War, August 1914",
        powers: &[
            ("germany", "Germany", 1),
            ("austria_hungary", "Austria-Hungary", 1),
            ("france", "France", 0),
            ("gb", "Great Britain", 0),
            ("russia", "Russia", 0),
            ("belgium", "Belgium", 0),
            ("serbia", "Serbia", 0),
            ("montenegro", "Montenegro", 0),
            ("italy", "Italy", 0),
            ("ottoman", "Ottoman Empire", 1),
            ("bulgaria", "Bulgaria", 1),
            ("romania", "Romania", 0),
            ("greece", "Greece", 0),
            ("portugal", "Portugal", 0),
            ("usa", "United States", 0),
            ("luxembourg", "Luxembourg", 0),
            ("netherlands", "Netherlands", 0),
            ("switzerland", "Switzerland", 0),
            ("denmark", "Denmark", 0),
            ("norway", "Norway", 0),
            ("sweden", "Sweden", 0),
            ("spain", "Spain", 0),
            ("albania", "Albania", 0),
        ],
        forces: 543,
        fleets: 27,
        width: 750,
        height: 935,
    },
];

/// The fetched scenario at `path`, if it is one.
pub fn fetched(path: &str) -> Option<&'static FetchedScenario> {
    FETCHED.iter().find(|f| f.path == path)
}

/// Files the browser has fetched (see [`FetchedScenario`]), by normalised path.
#[cfg(target_arch = "wasm32")]
static DOWNLOADED: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// Keeps a file the browser fetched, for [`GwFiles`] to read.
#[cfg(target_arch = "wasm32")]
pub fn keep_downloaded(path: &str, text: String) {
    let path = normalise(Path::new(path)).to_string_lossy().replace('\\', "/");
    if let Ok(mut files) = DOWNLOADED.lock() {
        files.retain(|(p, _)| *p != path);
        files.push((path, text));
    }
}

/// The files of the scenario at `path` still to be fetched before it can be parsed: none
/// natively (they are on disk), nor for a bundled scenario.
pub fn missing(path: &str) -> Vec<&'static str> {
    #[cfg(target_arch = "wasm32")]
    if let Some(f) = fetched(path) {
        return not_downloaded(f.files);
    }
    let _ = path;
    Vec::new()
}

/// Those of `files` the browser has not fetched yet.
#[cfg(target_arch = "wasm32")]
fn not_downloaded(files: &[&'static str]) -> Vec<&'static str> {
    let have = DOWNLOADED.lock().map(|d| d.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>()).unwrap_or_default();
    files.iter().copied().filter(|p| !have.iter().any(|h| h == p)).collect()
}

/// The chosen scenario's files that are not in the download (or those of a save's scenario, see
/// [`crate::catalog::ParkedSave`]): asks the page to fetch them, shows its progress
/// ([`Download`]), keeps them when they have come (the scene then parses the scenario, see
/// [`ready`], or the save is opened again), or goes back to the set-up screen with the reason.
// The type is the system's parameter list, spelled out.
#[allow(clippy::too_many_arguments)]
#[cfg(target_arch = "wasm32")]
pub fn fetch_chosen(
    chosen: Option<Res<Chosen>>,
    parked: Option<Res<crate::catalog::ParkedSave>>,
    download: Option<bevy::prelude::ResMut<Download>>,
    tr: Res<crate::i18n::Tr>,
    mut problem: bevy::prelude::ResMut<crate::catalog::LoadProblem>,
    mut screen: bevy::prelude::ResMut<bevy::prelude::NextState<crate::screens::Screen>>,
    mut opens: bevy::prelude::MessageWriter<crate::saves::OpenSave>,
    mut commands: bevy::prelude::Commands,
) {
    use crate::screens::Screen;
    let (what, missing) = match (&parked, chosen.filter(|c| c.mode == Mode::GreatWar)) {
        (Some(p), _) if p.open.mode == Mode::GreatWar => (p.open.name.clone(), not_downloaded(&p.files)),
        (None, Some(chosen)) => (chosen.path.clone(), missing(&chosen.path)),
        _ => return,
    };
    if missing.is_empty() {
        // A save waiting for its scenario's files is opened now they have all come.
        if let Some(p) = parked {
            opens.write(p.open.clone());
            commands.remove_resource::<crate::catalog::ParkedSave>();
        }
        return;
    }
    let mut fail = |why: String, commands: &mut bevy::prelude::Commands| {
        let why = tr.f("ui.download_failed", &[("file", what.clone()), ("why", why)]);
        crate::web::report("kriegsspielProblem", &why);
        problem.0 = Some(why);
        commands.remove_resource::<crate::catalog::ParkedSave>();
        screen.set(Screen::Setup);
    };
    let Some(mut download) = download else {
        if crate::web::start_fetch(&missing) {
            commands.insert_resource(Download { received: 0, total: crate::web::download_size(&missing).unwrap_or(0) });
        } else {
            fail("the page cannot fetch files".to_string(), &mut commands);
        }
        return;
    };
    let (received, total) = crate::web::fetch_progress();
    let total = if total > 0 { total } else { download.total };
    if (download.received, download.total) != (received, total) {
        download.received = received;
        download.total = total;
        crate::web::report("kriegsspielDownload", &format!("{received}/{total}"));
    }
    if let Some(error) = crate::web::take_fetch_error() {
        fail(error, &mut commands);
        return;
    }
    for (path, text) in crate::web::take_fetched(&missing).unwrap_or_default() {
        keep_downloaded(&path, text);
    }
}

/// The download's progress is the loading screen's only while it is on.
#[cfg(target_arch = "wasm32")]
pub fn forget_download(mut commands: bevy::prelude::Commands) {
    commands.remove_resource::<Download>();
}

/// Whether the chosen scenario's files are all at hand (the browser may still be fetching them).
pub fn ready(chosen: Option<Res<Chosen>>) -> bool {
    chosen.is_none_or(|c| c.mode != Mode::GreatWar || missing(&c.path).is_empty())
}

/// Bundled files first, then (natively) the disk, or (in the browser) the files it fetched.
pub struct GwFiles;

impl FileSource for GwFiles {
    fn read(&self, path: &str) -> Result<String, DataError> {
        let found = BundledFiles(BUNDLED.to_vec()).read(path);
        #[cfg(not(target_arch = "wasm32"))]
        let found = found.or_else(|_| rules::source::DiskFiles.read(path));
        #[cfg(target_arch = "wasm32")]
        let found = found.or_else(|e| {
            let wanted = normalise(Path::new(path)).to_string_lossy().replace('\\', "/");
            let files = DOWNLOADED.lock().map_err(|_| e.clone())?;
            files.iter().find(|(p, _)| *p == wanted).map(|(_, text)| text.clone()).ok_or(e)
        });
        found
    }
}

/// The Great War scenarios a player can choose: the bundled ones, then the fetched ones (natively
/// those on disk; the browser lists them all and fetches one when it is chosen).
pub fn scenario_paths() -> Vec<String> {
    let bundled = BUNDLED.iter().filter(|(p, _)| p.starts_with("scenarios/")).map(|(p, _)| p.to_string());
    #[cfg(not(target_arch = "wasm32"))]
    let bundled = bundled.chain(FETCHED.iter().filter(|f| Path::new(f.path).exists()).map(|f| f.path.to_string()));
    #[cfg(target_arch = "wasm32")]
    let bundled = bundled.chain(FETCHED.iter().map(|f| f.path.to_string()));
    bundled.collect()
}

/// Parses a chosen scenario with the map and tables it names.
pub fn load_scenario(path: &str) -> Result<Scenario, String> {
    Scenario::load_from(&GwFiles, path).map_err(|e| e.to_string())
}

/// What the catalogue reads of a scenario file (the rest is skipped unread).
#[derive(Deserialize)]
#[serde(rename = "GreatWarScenario")]
struct HeaderFile {
    name: String,
    map: String,
    powers: Vec<PowerHeader>,
    #[serde(default)]
    forces: Vec<ForceHeader>,
    #[serde(default)]
    fleets: Vec<ForceHeader>,
}

/// A power as the catalogue reads it (its name in the interface's language comes from the string
/// tables, `gw.power.ID`; the scenario's own name is shown beside it when they differ).
#[derive(Deserialize)]
struct PowerHeader {
    id: String,
    name: String,
    alliance: u8,
}

#[derive(Deserialize)]
struct ForceHeader {
    #[serde(default)]
    #[allow(dead_code)]
    power: String,
}

/// What the catalogue reads of a map: its size.
#[derive(Deserialize)]
#[serde(rename = "GreatWarMap")]
struct MapHeader {
    width: u32,
    height: u32,
}

/// A file named relative to another.
fn beside(base: &str, relative: &str) -> String {
    let joined = Path::new(base).parent().unwrap_or_else(|| Path::new("")).join(relative);
    normalise(&joined).to_string_lossy().replace('\\', "/")
}

/// A power's name in the interface's language: the string table's, else the scenario's.
pub fn power_key(id: &str) -> String {
    format!("gw.power.{id}")
}

/// The header of a scenario: name, powers, the size of its map and forces. The browser has a
/// fetched scenario's header from [`FETCHED`], with the size of its download.
pub fn scenario_header(path: &str) -> Result<ScenarioHeader, String> {
    #[cfg(target_arch = "wasm32")]
    if let Some(f) = fetched(path).filter(|_| !missing(path).is_empty()) {
        return Ok(fetched_header(f, crate::web::download_size(f.files)));
    }
    let file: HeaderFile =
        parse_ron(path, &GwFiles.read(path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let map_path = beside(path, &file.map);
    let map: MapHeader =
        parse_ron(&map_path, &GwFiles.read(&map_path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let players = file.powers.iter().map(|p| player(&p.id, &p.name, p.alliance)).collect();
    Ok(ScenarioHeader {
        name: file.name.clone(),
        name_ru: String::new(),
        description: String::new(),
        players,
        size: Some((
            "gw.setup.size".to_string(),
            vec![
                ("powers".to_string(), file.powers.len().to_string()),
                ("forces".to_string(), file.forces.len().to_string()),
                ("fleets".to_string(), file.fleets.len().to_string()),
                ("w".to_string(), map.width.to_string()),
                ("h".to_string(), map.height.to_string()),
            ],
        )),
    })
}

/// The header of a fetched scenario as [`scenario_header`] reads it from its files, with the size
/// of its download in the browser (gzipped bytes), when known.
pub fn fetched_header(f: &FetchedScenario, download: Option<u64>) -> ScenarioHeader {
    let mut args = vec![
        ("powers".to_string(), f.powers.len().to_string()),
        ("forces".to_string(), f.forces.to_string()),
        ("fleets".to_string(), f.fleets.to_string()),
        ("w".to_string(), f.width.to_string()),
        ("h".to_string(), f.height.to_string()),
    ];
    let key = match download {
        Some(bytes) => {
            // Megabytes with one decimal (at least 0.1), in the interface's words.
            let tenths = bytes.div_ceil(104_858).max(1);
            args.push(("mb".to_string(), format!("{}.{}", tenths / 10, tenths % 10)));
            "gw.setup.size_fetched"
        }
        None => "gw.setup.size",
    };
    ScenarioHeader {
        name: f.name.to_string(),
        name_ru: String::new(),
        description: String::new(),
        players: f.powers.iter().map(|(id, name, alliance)| player(id, name, *alliance)).collect(),
        size: Some((key.to_string(), args)),
    }
}

/// A power as the set-up screen lists it.
fn player(id: &str, name: &str, alliance: u8) -> PlayerHeader {
    PlayerHeader {
        label: power_key(id),
        army: name.to_string(),
        army_ru: String::new(),
        role: None,
        alliance: Some(alliance),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's header says what the parsed scenario says, for every bundled scenario.
    #[test]
    fn headers_agree_with_the_parsed_scenarios() {
        for (path, _) in BUNDLED.iter().filter(|(p, _)| p.starts_with("scenarios/")) {
            let header = scenario_header(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let s = load_scenario(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(header.name, s.name, "{path}");
            assert_eq!(header.players.len(), s.powers.len(), "{path}");
            let size: Vec<String> = header.size.expect("a size line").1.into_iter().map(|(_, v)| v).collect();
            let want = [
                s.powers.len().to_string(),
                s.forces.len().to_string(),
                s.fleets.len().to_string(),
                s.map.width.to_string(),
                s.map.height.to_string(),
            ];
            assert_eq!(size, want, "{path}");
        }
    }

    /// A fetched scenario's header, as the browser lists it before fetching, says what its files
    /// say; its files are those the scenario reads beyond the bundle; `web/build.sh` copies the
    /// same files (`web/fetched.txt`).
    #[test]
    fn fetched_scenarios_are_described_as_their_files_say() {
        use std::cell::RefCell;
        /// Reads like [`GwFiles`] and remembers what was not in the bundle.
        struct Recording(RefCell<Vec<String>>);
        impl FileSource for Recording {
            fn read(&self, path: &str) -> Result<String, DataError> {
                BundledFiles(BUNDLED.to_vec()).read(path).or_else(|_| {
                    self.0.borrow_mut().push(normalise(Path::new(path)).to_string_lossy().replace('\\', "/"));
                    rules::source::DiskFiles.read(path)
                })
            }
        }
        let mut listed = Vec::new();
        for f in &FETCHED {
            let recording = Recording(RefCell::new(Vec::new()));
            let s = Scenario::load_from(&recording, f.path).unwrap_or_else(|e| panic!("{}: {e}", f.path));
            assert_eq!(recording.0.into_inner(), f.files, "{}: the files it reads beyond the bundle", f.path);
            let powers: Vec<(String, String, u8)> =
                s.powers.iter().map(|p| (p.id.clone(), p.name.clone(), p.alliance)).collect();
            let want = format!(
                "name: {:?}, powers: {powers:?}, forces: {}, fleets: {}, width: {}, height: {}",
                s.name,
                s.forces.len(),
                s.fleets.len(),
                s.map.width,
                s.map.height
            );
            let have: Vec<(String, String, u8)> =
                f.powers.iter().map(|(i, n, a)| (i.to_string(), n.to_string(), *a)).collect();
            let have = format!(
                "name: {:?}, powers: {have:?}, forces: {}, fleets: {}, width: {}, height: {}",
                f.name, f.forces, f.fleets, f.width, f.height
            );
            assert_eq!(have, want, "{}: FETCHED's header", f.path);
            assert_eq!(fetched_header(f, None), scenario_header(f.path).expect("a header"), "{}", f.path);
            listed.extend(f.files.iter().map(|p| p.to_string()));
        }
        let list = std::fs::read_to_string("web/fetched.txt").expect("web/fetched.txt");
        let copied: Vec<String> =
            list.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(String::from).collect();
        assert_eq!(copied, listed, "web/fetched.txt names the fetched scenarios' files");
    }

    /// Every power of every shipped scenario has its name in both string tables (the set-up
    /// screen showed the raw key "gw.power.usa").
    #[test]
    fn every_shipped_power_is_named_in_both_languages() {
        let paths = BUNDLED
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| p.starts_with("scenarios/"))
            .chain(FETCHED.iter().map(|f| f.path));
        let tables = ["assets/i18n/en.ron", "assets/i18n/ru.ron"].map(|t| std::fs::read_to_string(t).expect("shipped"));
        for path in paths {
            let s = load_scenario(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            for p in &s.powers {
                for table in &tables {
                    assert!(table.contains(&format!("\"{}\":", power_key(&p.id))), "{path}: {} has no name", p.id);
                }
            }
        }
    }

    /// The size of a download is said in tenths of a megabyte, rounded up, never as nothing.
    #[test]
    fn download_sizes_in_tenths_of_a_megabyte() {
        let mb = |bytes| {
            let h = fetched_header(&FETCHED[0], Some(bytes));
            let (key, args) = h.size.expect("a size line");
            assert_eq!(key, "gw.setup.size_fetched");
            args.into_iter().find(|(k, _)| k == "mb").expect("mb").1
        };
        assert_eq!(mb(1), "0.1");
        assert_eq!(mb(104_858), "0.1");
        assert_eq!(mb(104_859), "0.2");
        assert_eq!(mb(1_048_576), "1.0");
        assert_eq!(mb(1_600_000), "1.6");
    }
}
