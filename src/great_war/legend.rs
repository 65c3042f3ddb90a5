//! The Great War's legend: the map's terrain and marks, the counters, the marks of play and the
//! overlays, as data for the shell's legend window (`hud::legend`), drawn with the board's own
//! images and colours.

use super::art::{self, Echelon, Marks, Symbol, TERRAINS};
use super::board::GwArt;
use crate::hud::legend::{LegendBook, LegendItem, LegendSection, Swatch};
use crate::screens::Mode;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LegendBook>().add_systems(PostStartup, register).add_systems(Update, follow_the_game);
}

/// The German field grey of the counters.
const GREY: [u8; 3] = [140, 148, 153];

fn item(swatch: Swatch, text: &'static str) -> LegendItem {
    LegendItem { swatch, text: text.into() }
}

/// The sections of the Great War's legend.
pub fn sections(gw: &GwArt, images: &mut Assets<Image>, powers_of: Option<&[String]>) -> Vec<LegendSection> {
    let mut counter = |s: Symbol, e: Echelon, m: Marks| Swatch::Counter {
        side: GREY,
        symbol: images.add(art::counter(s, e, m)),
        faded: false,
    };
    let terrain_keys = [
        "legend.gw.clear",
        "legend.gw.forest",
        "legend.gw.mountains",
        "legend.gw.desert",
        "legend.gw.northern",
        "legend.gw.marsh",
        "legend.gw.sea",
        "legend.gw.lake",
    ];
    let count = TERRAINS.len() as u32;
    let mut map_items: Vec<LegendItem> = terrain_keys
        .into_iter()
        .enumerate()
        .map(|(i, key)| item(Swatch::Tile { tileset: gw.tileset.clone(), index: i as u32, count }, key))
        .collect();
    map_items.extend([
        item(Swatch::Tint([41, 92, 184, 255]), "legend.gw.river"),
        item(Swatch::Tint([31, 31, 31, 255]), "legend.gw.rail"),
        item(Swatch::Tint([140, 107, 64, 230]), "legend.gw.road"),
        item(Swatch::Tint([242, 237, 219, 255]), "legend.gw.city"),
        item(Swatch::Tint([191, 38, 38, 255]), "legend.gw.fortress"),
        item(Swatch::Tint([13, 38, 115, 255]), "legend.gw.port"),
        item(Swatch::Tint([115, 13, 20, 230]), "legend.gw.border"),
    ]);
    let counters = vec![
        item(counter(Symbol::Infantry, Echelon::Division, Marks::default()), "legend.gw.infantry"),
        item(counter(Symbol::Cavalry, Echelon::Division, Marks::default()), "legend.gw.cavalry"),
        item(counter(Symbol::Tank, Echelon::None, Marks::default()), "legend.gw.tank"),
        item(counter(Symbol::Artillery, Echelon::None, Marks::default()), "legend.gw.artillery"),
        item(counter(Symbol::Infantry, Echelon::Corps, Marks::default()), "legend.gw.corps"),
        item(counter(Symbol::Headquarters, Echelon::Army, Marks::default()), "legend.gw.army"),
        item(
            counter(Symbol::Infantry, Echelon::Division, Marks { elite: true, mountain: true, colonial: true }),
            "legend.gw.marks",
        ),
        item(counter(Symbol::Fleet, Echelon::None, Marks::default()), "legend.gw.fleet"),
        item(counter(Symbol::Flotilla, Echelon::None, Marks::default()), "legend.gw.flotilla"),
        item(Swatch::Bar([51, 191, 64], 0.8), "legend.gw.strength"),
        item(Swatch::Bar([242, 204, 51], 0.6), "legend.gw.morale"),
    ];
    let play = vec![
        item(Swatch::Ring([107, 69, 31]), "legend.gw.fort"),
        item(Swatch::Image(gw.mine.clone()), "legend.gw.mines"),
        item(Swatch::Tint([255, 255, 153, 72]), "legend.gw.reach"),
        item(Swatch::Tint([255, 217, 51, 140]), "legend.gw.path"),
    ];
    let overlays = vec![
        item(Swatch::Tint([51, 204, 77, 102]), "legend.gw.supplied"),
        item(Swatch::Tint([255, 153, 26, 128]), "legend.gw.no_ammo"),
        item(Swatch::Tint([230, 38, 26, 128]), "legend.gw.no_money"),
        item(Swatch::Tint([255, 191, 26, 128]), "legend.gw.front"),
        item(Swatch::Tint([230, 26, 26, 128]), "legend.gw.worn"),
        item(Swatch::Tint([204, 0, 204, 115]), "legend.gw.encircled"),
        item(Swatch::Tint([235, 150, 40, 110]), "legend.gw.climate"),
        item(Swatch::Tint([0, 220, 40, 110]), "legend.gw.lane"),
    ];
    // The political map (issue 27) and the key of the powers' colours.
    let mut powers = vec![
        item(Swatch::Tint([214, 190, 120, 158]), "legend.gw.political"),
        item(Swatch::Tint([20, 5, 5, 242]), "legend.gw.front_line"),
    ];
    // The powers of the scenario in play, by their place in it (as the board colours them); before
    // one is chosen, every power the colour table names.
    let key: Vec<(String, usize)> = match powers_of {
        Some(ids) => ids.iter().cloned().zip(0..).collect(),
        None => super::art::coloured_powers().into_iter().map(str::to_string).zip(0..).collect(),
    };
    powers.extend(key.into_iter().map(|(id, i)| {
        let [r, g, b] = super::art::power_rgb(&id, i);
        LegendItem { swatch: Swatch::Tint([r, g, b, 255]), text: format!("gw.power.{id}").into() }
    }));
    vec![
        LegendSection { title: "legend.gw.powers", items: powers },
        LegendSection { title: "legend.gw.map", items: map_items },
        LegendSection { title: "legend.gw.counters", items: counters },
        LegendSection { title: "legend.gw.play", items: play },
        LegendSection { title: "legend.gw.overlays", items: overlays },
    ]
}

fn register(art: Option<Res<GwArt>>, mut images: ResMut<Assets<Image>>, mut book: ResMut<LegendBook>) {
    if let Some(art) = art {
        book.register(Mode::GreatWar, sections(&art, &mut images, None));
    }
}

/// The key of the powers' colours names the powers of the game in play (three in the test
/// front, not the 23 of the colour table), registered again when another game starts.
fn follow_the_game(
    session: Option<Res<crate::session::Session<rules::strategic::GreatWar>>>,
    art: Option<Res<GwArt>>,
    mut images: ResMut<Assets<Image>>,
    mut book: ResMut<LegendBook>,
    mut shown: Local<Vec<String>>,
) {
    let (Some(session), Some(art)) = (session, art) else { return };
    let ids = &session.game.scenario().powers;
    if ids.len() == shown.len() && ids.iter().zip(shown.iter()).all(|(p, s)| p.id == *s) {
        return;
    }
    *shown = ids.iter().map(|p| p.id.clone()).collect();
    book.register(Mode::GreatWar, sections(&art, &mut images, Some(&shown)));
}
