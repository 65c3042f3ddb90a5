//! The scenarios a player can choose, for every scene. At start only their names, descriptions
//! and sides are read (each scene gives a cheap header reader); a scenario is parsed when it is
//! chosen, on the [`Screen::Loading`] screen, by the scene of its mode (see [`Chosen`]).

use crate::saves::Seat;
use crate::screens::{Mode, Screen};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CatalogSources>()
        .init_resource::<Catalog>()
        .init_resource::<LoadProblem>()
        .add_systems(Startup, build);
}

/// What the set-up screen shows of a scenario before it is parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioHeader {
    pub name: String,
    pub name_ru: String,
    pub description: String,
    /// Its players, in the game's seat order.
    pub players: Vec<PlayerHeader>,
    /// A line about its size: a string key and its arguments.
    pub size: Option<(String, Vec<(String, String)>)>,
}

/// One player of a scenario, as the set-up screen names it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerHeader {
    /// The string key of the player's name (`side.red`).
    pub label: String,
    pub army: String,
    pub army_ru: String,
    /// The string key of its role (`ui.setup.attacker`), if it has one.
    pub role: Option<String>,
}

/// One scenario a player can choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogEntry {
    pub mode: Mode,
    /// The file (bundled or on disk) the scene parses when the scenario is chosen.
    pub path: String,
    pub header: ScenarioHeader,
}

/// The scenarios a player can choose.
#[derive(Resource, Clone, Debug, Default)]
pub struct Catalog {
    pub entries: Vec<CatalogEntry>,
    /// Files that could not be read, with why (shown in the menu).
    pub problems: Vec<String>,
}

impl Catalog {
    /// The headers of every scene's scenarios.
    pub fn load(sources: &CatalogSources) -> Catalog {
        let mut catalog = Catalog::default();
        for source in &sources.0 {
            for path in (source.paths)() {
                if catalog.entries.iter().any(|e| e.path == path) {
                    continue;
                }
                match (source.header)(&path) {
                    Ok(header) => catalog.entries.push(CatalogEntry { mode: source.mode, path, header }),
                    Err(e) => catalog.problems.push(e),
                }
            }
        }
        catalog
    }

    pub fn find(&self, path: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|e| e.path == path)
    }
}

/// A scene's scenarios: where they are, and how to read their headers.
#[derive(Clone, Debug)]
pub struct CatalogSource {
    pub mode: Mode,
    /// The scenario files (bundled first, then those on disk), in the order shown.
    pub paths: fn() -> Vec<String>,
    /// Reads a scenario's header, or says why it cannot.
    pub header: fn(&str) -> Result<ScenarioHeader, String>,
}

/// Every scene's scenarios.
#[derive(Resource, Clone, Debug, Default)]
pub struct CatalogSources(pub Vec<CatalogSource>);

/// Adds a scene's scenarios to the catalogue.
pub fn register(app: &mut App, source: CatalogSource) {
    app.init_resource::<CatalogSources>();
    app.world_mut().resource_mut::<CatalogSources>().0.push(source);
}

fn build(mut commands: Commands, sources: Res<CatalogSources>) {
    commands.insert_resource(Catalog::load(&sources));
}

/// The scenario chosen on the set-up screen, to be parsed on the loading screen by its scene.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub mode: Mode,
    pub path: String,
    pub seed: u64,
    pub seats: Vec<Seat>,
    /// The players' names the seats stand for, in their order (the launch's `--ai` names them
    /// by the scene's list of players); empty when they are the scenario's own order (the set-up
    /// screen).
    pub seat_names: Vec<String>,
}

/// The chosen scenario's files being downloaded (the browser fetches the large Great War maps
/// when they are chosen): the loading screen shows its progress.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Download {
    pub received: u64,
    /// The bytes to come, when known.
    pub total: u64,
}

/// A save opened before its scenario's files are at hand (see `saves::FetchFirst`): the browser
/// fetches them on the loading screen, then opens it again.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct ParkedSave {
    pub open: crate::saves::OpenSave,
    pub files: Vec<&'static str>,
}

/// Why the chosen scenario could not be read (shown on the set-up screen).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadProblem(pub Option<String>);

/// Parses the chosen scenario of `mode` with `parse` and starts it with `start`, or goes back to
/// the set-up screen with the reason. A scene adds this for its mode (see `battle`).
// The type is the system's parameter list, spelled out.
#[allow(clippy::type_complexity)]
pub fn load_chosen<S>(
    mode: Mode,
    parse: fn(&str) -> Result<S, String>,
) -> impl FnMut(Option<Res<Chosen>>, ResMut<LoadProblem>, ResMut<NextState<Screen>>) -> Option<(S, Chosen)> {
    move |chosen: Option<Res<Chosen>>, mut problem: ResMut<LoadProblem>, mut screen: ResMut<NextState<Screen>>| {
        let chosen = chosen.filter(|c| c.mode == mode)?;
        match parse(&chosen.path) {
            Ok(s) => {
                problem.0 = None;
                Some((s, chosen.clone()))
            }
            Err(e) => {
                problem.0 = Some(e);
                screen.set(Screen::Setup);
                None
            }
        }
    }
}
