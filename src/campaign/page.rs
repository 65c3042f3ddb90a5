//! A campaign's page on the set-up screen: a picture of its map (terrain, the key places, the
//! armies as dots of their side's colour), its sides, its length, its key places and how it is
//! won (T-STRAT: the scenario's victory block).

use crate::catalog::{ScenarioPage, Thumbnail};
use crate::i18n::Tr;
use rules::campaign::CampaignScenario;
use rules::tactical::Side;

/// The page of the campaign at `path`.
pub fn scenario_page(path: &str, tr: &Tr) -> Result<ScenarioPage, String> {
    let s = super::files::load_scenario(path)?;
    Ok(page_of(&s, tr))
}

fn side_name(tr: &Tr, s: &CampaignScenario, side: Side) -> String {
    let spec = if side == Side::Red { &s.red } else { &s.blue };
    if tr.russian() && !spec.name_ru.is_empty() { spec.name_ru.clone() } else { spec.name.clone() }
}

fn page_of(s: &CampaignScenario, tr: &Tr) -> ScenarioPage {
    let side = |side: Side| {
        let armies = s.armies.iter().filter(|a| a.side == side).count();
        let first = if side == s.first { format!(", {}", tr.t("ui.campaign.moves_first")) } else { String::new() };
        tr.f(
            "ui.page.campaign_side",
            &[
                ("name", side_name(tr, s, side)),
                ("side", tr.t(&format!("side.{}", side.name()))),
                ("armies", armies.to_string()),
                ("first", first),
            ],
        )
    };
    let places: Vec<String> = s
        .victory
        .key_hexes
        .iter()
        .map(|k| {
            let place = s.map.places.iter().find(|p| p.at == k.at);
            let name = place.map_or_else(
                || format!("({}, {})", k.at.col, k.at.row),
                |p| if tr.russian() && !p.name_ru.is_empty() { p.name_ru.clone() } else { p.name.clone() },
            );
            tr.f("ui.page.key_place", &[("place", name), ("holder", side_name(tr, s, k.holder))])
        })
        .collect();
    ScenarioPage {
        thumbnail: Some(thumbnail(s)),
        sections: vec![
            ("ui.page.sides".to_string(), vec![side(Side::Red), side(Side::Blue)]),
            (
                "ui.page.length".to_string(),
                vec![tr.f("ui.page.campaign_length", &[("turns", s.victory.turns.to_string())])],
            ),
            ("ui.page.objectives".to_string(), vec![tr.f("ui.page.key_places", &[("list", places.join(", "))])]),
            (
                "ui.page.victory".to_string(),
                vec![tr.f("ui.page.campaign_victory", &[("tie", side_name(tr, s, s.victory.on_tie))])],
            ),
        ],
    }
}

/// The map (a hex a pixel or more), key places in white, armies in their side's colour.
fn thumbnail(s: &CampaignScenario) -> Thumbnail {
    let rows: Vec<Vec<char>> = s.map.rows.iter().map(|r| r.chars().collect()).collect();
    let h = rows.len().max(1) as u32;
    let w = rows.iter().map(Vec::len).max().unwrap_or(1).max(1) as u32;
    let mut t = Thumbnail::of_cells(w, h, |x, y| match rows.get(y as usize).and_then(|r| r.get(x as usize)) {
        Some('f') => [84, 128, 70],
        Some('h') => [150, 128, 102],
        Some('s') => [120, 140, 108],
        Some('~') => [70, 108, 150],
        _ => [178, 190, 122],
    });
    let at = |h: rules::campaign::HexAt| (h.col >= 0 && h.row >= 0).then_some((h.col as u32, h.row as u32));
    for k in s.victory.key_hexes.iter().filter_map(|k| at(k.at)) {
        t.dot(w, h, k, [250, 245, 230]);
    }
    for a in &s.armies {
        if let Some(p) = at(a.at) {
            t.dot(w, h, p, crate::battle::card::side_colour(a.side));
        }
    }
    t
}
