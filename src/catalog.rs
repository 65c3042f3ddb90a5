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
    /// Its alliance, where the war has alliances (a Great War power's); `None` for a battle's or
    /// a campaign's side.
    pub alliance: Option<u8>,
}

/// What the scenario page shows of a chosen scenario beyond its header, read from the whole
/// scenario when it is chosen on the set-up screen: a picture of its map and its lines (sides,
/// objectives, victory conditions, length and end date) in the reader's language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioPage {
    pub thumbnail: Option<Thumbnail>,
    /// Headed paragraphs: a heading's string key and its lines, already in the reader's language.
    pub sections: Vec<(String, Vec<String>)>,
}

/// A small picture of a scenario's map, rows from the top, RGBA.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thumbnail {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// UI limit: the longer side of a map's thumbnail, in pixels.
pub const THUMBNAIL_SIDE: u32 = 240;

impl Thumbnail {
    /// A map of `width` × `height` cells drawn at most [`THUMBNAIL_SIDE`] pixels on its longer
    /// side (a cell is a pixel, or several, or a pixel shows the cell under its centre), each
    /// pixel the colour `colour` gives for its cell.
    pub fn of_cells(width: u32, height: u32, colour: impl Fn(u32, u32) -> [u8; 3]) -> Thumbnail {
        let (w, h) = (width.max(1), height.max(1));
        let scale = f64::from(THUMBNAIL_SIDE) / f64::from(w.max(h));
        let tw = ((f64::from(w) * scale).round() as u32).clamp(1, THUMBNAIL_SIDE);
        let th = ((f64::from(h) * scale).round() as u32).clamp(1, THUMBNAIL_SIDE);
        let mut rgba = Vec::with_capacity((tw as usize) * (th as usize) * 4);
        for y in 0..th {
            for x in 0..tw {
                let cx = ((f64::from(x) + 0.5) / scale) as u32;
                let cy = ((f64::from(y) + 0.5) / scale) as u32;
                let [r, g, b] = colour(cx.min(w - 1), cy.min(h - 1));
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
        Thumbnail { width: tw, height: th, rgba }
    }

    /// Marks the cell (`x`, `y`) of a map of `width` × `height` cells with a dot of `rgb`, two
    /// pixels across.
    pub fn dot(&mut self, width: u32, height: u32, (x, y): (u32, u32), rgb: [u8; 3]) {
        let px = (u64::from(x) * u64::from(self.width) / u64::from(width.max(1))) as u32;
        let py = (u64::from(y) * u64::from(self.height) / u64::from(height.max(1))) as u32;
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let (qx, qy) = (px + dx, py + dy);
            if qx < self.width && qy < self.height {
                let at = ((qy as usize) * (self.width as usize) + qx as usize) * 4;
                if let Some(p) = self.rgba.get_mut(at..at + 3) {
                    p.copy_from_slice(&rgb);
                }
            }
        }
    }
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

    /// The page of the scenario at `path`, read by its scene.
    pub fn page(
        sources: &CatalogSources,
        mode: Mode,
        path: &str,
        tr: &crate::i18n::Tr,
    ) -> Result<ScenarioPage, String> {
        let source = sources.0.iter().find(|s| s.mode == mode).ok_or_else(|| format!("{path}: no scene reads it"))?;
        (source.page)(path, tr)
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
    /// Reads the whole scenario for its page on the set-up screen, in the reader's language.
    pub page: fn(&str, &crate::i18n::Tr) -> Result<ScenarioPage, String>,
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
