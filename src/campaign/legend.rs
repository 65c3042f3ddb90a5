//! The campaign map's legend: its ground, the marks on its hexes and what the selected army's
//! overlays mean, as data for the shell's legend window (`hud::legend`). The colours are the
//! map's own (`board`).

use crate::hud::legend::{LegendBook, LegendItem, LegendSection, Swatch};
use crate::screens::Mode;
use bevy::prelude::*;
use rules::tactical::Side;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LegendBook>().add_systems(PostStartup, register);
}

fn item(swatch: Swatch, text: &'static str) -> LegendItem {
    LegendItem { swatch, text: text.into() }
}

fn rgb(c: Color) -> [u8; 3] {
    let c = c.to_srgba();
    [c.red, c.green, c.blue].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

fn rgba(c: Color) -> [u8; 4] {
    let [r, g, b] = rgb(c);
    [r, g, b, (c.alpha().clamp(0.0, 1.0) * 255.0).round() as u8]
}

/// The sections of the campaign map's legend.
pub fn sections() -> Vec<LegendSection> {
    use super::board::{ground_colour, marks, side_colour};
    use rules::campaign::Ground;
    let m = marks();
    let ground = LegendSection {
        title: "legend.campaign.ground",
        items: vec![
            item(Swatch::Tint(rgba(ground_colour(Ground::Clear))), "legend.campaign.clear"),
            item(Swatch::Tint(rgba(ground_colour(Ground::Forest))), "legend.campaign.forest"),
            item(Swatch::Tint(rgba(ground_colour(Ground::Hills))), "legend.campaign.hills"),
            item(Swatch::Tint(rgba(ground_colour(Ground::Marsh))), "legend.campaign.marsh"),
            item(Swatch::Tint(rgba(ground_colour(Ground::Water))), "legend.campaign.water"),
            item(Swatch::Bar(rgb(m.river), 1.0), "legend.campaign.river"),
            item(Swatch::Bar(rgb(m.ford), 1.0), "legend.campaign.ford"),
            item(Swatch::Tint(rgba(m.village)), "legend.campaign.village"),
            item(Swatch::Tint(rgba(m.fortress)), "legend.campaign.fortress"),
        ],
    };
    let pieces = LegendSection {
        title: "legend.campaign.pieces",
        items: vec![
            item(Swatch::Tint(rgba(side_colour(Side::Red))), "legend.campaign.army_red"),
            item(Swatch::Tint(rgba(side_colour(Side::Blue))), "legend.campaign.army_blue"),
            item(Swatch::Ring(rgb(m.selected)), "legend.campaign.selected"),
            item(Swatch::Bar(rgb(m.intercept_order), 1.0), "legend.campaign.intercept_order"),
            item(Swatch::Ring(rgb(side_colour(Side::Red))), "legend.campaign.key_hex"),
            item(Swatch::Tint(rgba(m.battle)), "legend.campaign.battle"),
        ],
    };
    let overlays = LegendSection {
        title: "legend.overlays",
        items: vec![
            item(Swatch::Tint(rgba(m.reach)), "legend.campaign.reach"),
            item(Swatch::Path, "legend.campaign.path"),
            item(Swatch::Bar(rgb(m.zone), 0.5), "legend.campaign.zone"),
            item(Swatch::Tint(rgba(m.risk)), "legend.campaign.risk"),
        ],
    };
    vec![ground, pieces, overlays]
}

fn register(mut book: ResMut<LegendBook>) {
    book.register(Mode::Campaign, sections());
}
