//! The battle's legend: every overlay, counter symbol and mark its board draws, as data for the
//! shell's legend window (`hud::legend`). The colours are the overlay's own (`board::overlay`).

use super::board::Art;
use super::board::art::{Symbol, tile_index};
use super::board::marks::MarkImages;
use super::melee::Sabres;
use crate::hud::legend::{LegendBook, LegendItem, LegendSection, Swatch};
use crate::screens::Mode;
use bevy::prelude::*;
use rules::tactical::Terrain;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LegendBook>().add_systems(PostStartup, register);
}

const RED: [u8; 3] = [179, 33, 31];
const BLUE: [u8; 3] = [38, 69, 163];

fn item(swatch: Swatch, text: &'static str) -> LegendItem {
    LegendItem { swatch, text: text.into() }
}

/// The sections of the battle's legend, drawn with the board's own images.
pub fn sections(art: &Art, marks: &MarkImages, sabres: &Sabres) -> Vec<LegendSection> {
    let symbol = |s: Symbol| art.symbols.iter().find(|(k, _)| *k == s).map(|(_, h)| h.clone()).unwrap_or_default();
    let counter = |s: Symbol| Swatch::Counter { side: RED, symbol: symbol(s), faded: false };
    let overlays = LegendSection {
        title: "legend.overlays",
        items: vec![
            item(Swatch::Pips([64, 140, 255, 72], 2), "legend.reachable"),
            item(Swatch::Path, "legend.path"),
            item(Swatch::Image(sabres.0.clone()), "legend.contact"),
            item(Swatch::Tint([255, 153, 26, 41]), "legend.arc"),
            item(Swatch::Tint([102, 0, 0, 56]), "legend.arc_blocked"),
            item(Swatch::Tint([51, 255, 77, 140]), "legend.target_open"),
            item(Swatch::Tint([255, 51, 38, 140]), "legend.target_blocked"),
            item(Swatch::Tint([255, 230, 77, 46]), "legend.zone"),
        ],
    };
    let symbols = LegendSection {
        title: "legend.symbols",
        items: vec![
            item(counter(Symbol::Infantry), "legend.line_infantry"),
            item(counter(Symbol::LightInfantry), "legend.light_infantry"),
            item(counter(Symbol::Grenadiers), "legend.grenadiers"),
            item(counter(Symbol::Guard), "legend.guard"),
            item(counter(Symbol::Militia), "legend.militia"),
            item(counter(Symbol::LightCavalry), "legend.light_cavalry"),
            item(counter(Symbol::HeavyCavalry), "legend.heavy_cavalry"),
            item(counter(Symbol::Artillery), "legend.artillery"),
            item(counter(Symbol::HorseArtillery), "legend.horse_artillery"),
        ],
    };
    let marks = LegendSection {
        title: "legend.marks",
        items: vec![
            item(Swatch::Counter { side: BLUE, symbol: symbol(Symbol::Infantry), faded: false }, "legend.sides"),
            item(Swatch::Image(art.arrow.clone()), "legend.facing"),
            item(Swatch::Bar([77, 217, 89], 0.8), "legend.health_high"),
            item(Swatch::Bar([242, 191, 51], 0.4), "legend.health_mid"),
            item(Swatch::Bar([230, 64, 51], 0.2), "legend.health_low"),
            item(Swatch::Ring([255, 242, 77]), "legend.selected"),
            item(Swatch::Ring([255, 140, 26]), "legend.in_melee"),
            item(Swatch::Ring([153, 153, 153]), "legend.disorganized"),
            item(Swatch::Counter { side: RED, symbol: symbol(Symbol::LightInfantry), faded: true }, "legend.hidden"),
            item(Swatch::Image(marks.general.clone()), "legend.general"),
            item(Swatch::Image(marks.hq.clone()), "legend.hq"),
            item(Swatch::Image(art.flag.clone()), "legend.retreating"),
        ],
    };
    let count = Terrain::ALL.len() as u32;
    let terrain = LegendSection {
        title: "legend.terrain",
        items: Terrain::ALL
            .iter()
            .map(|t| {
                item(Swatch::Tile { tileset: art.tileset.clone(), index: tile_index(*t), count }, terrain_text(*t))
            })
            .collect(),
    };
    vec![overlays, symbols, marks, terrain]
}

/// What each terrain does, with its rule.
fn terrain_text(t: Terrain) -> &'static str {
    match t {
        Terrain::Open => "legend.terrain.open",
        Terrain::SparseForest => "legend.terrain.sparse_forest",
        Terrain::DenseForest => "legend.terrain.dense_forest",
        Terrain::Swamp => "legend.terrain.swamp",
        Terrain::River => "legend.terrain.river",
        Terrain::Ford => "legend.terrain.ford",
        Terrain::Sea => "legend.terrain.sea",
        Terrain::Hill => "legend.terrain.hill",
        Terrain::Building => "legend.terrain.building",
        Terrain::Redoubt => "legend.terrain.redoubt",
        Terrain::Wall => "legend.terrain.wall",
        Terrain::Breach => "legend.terrain.breach",
    }
}

fn register(
    art: Option<Res<Art>>,
    marks: Option<Res<MarkImages>>,
    sabres: Option<Res<Sabres>>,
    mut book: ResMut<LegendBook>,
) {
    if let (Some(art), Some(marks), Some(sabres)) = (art, marks, sabres) {
        book.register(Mode::Battle, sections(&art, &marks, &sabres));
    }
}
