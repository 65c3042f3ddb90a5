//! A battle's page on the set-up screen: a picture of its field (terrain, the units placed from
//! the start as dots of their side's colour), its sides, what ends it and how it is won (T-END-1,
//! T-END-2; a fortress is stormed, T-FORT).

use crate::catalog::{ScenarioPage, Thumbnail};
use crate::i18n::Tr;
use rules::source::BattleKind;
use rules::tactical::{Cell, Scenario, Side, Terrain};

/// The page of the battle at `path`.
pub fn scenario_page(path: &str, tr: &Tr) -> Result<ScenarioPage, String> {
    let s = super::files::load_scenario(path)?;
    Ok(page_of(&s, tr))
}

fn page_of(s: &Scenario, tr: &Tr) -> ScenarioPage {
    let side = |side: Side| {
        let spec = if side == Side::Red { &s.red } else { &s.blue };
        let name = if tr.russian() && !spec.name_ru.is_empty() { &spec.name_ru } else { &spec.name };
        let role = tr.t(if side == s.attacker { "ui.setup.attacker" } else { "ui.setup.defender" });
        let units = s.units.iter().filter(|u| u.side == side).count();
        tr.f(
            "ui.page.battle_side",
            &[
                ("name", name.clone()),
                ("side", tr.t(&format!("side.{}", side.name()))),
                ("role", role),
                ("units", units.to_string()),
            ],
        )
    };
    let objective = match s.kind {
        BattleKind::Field => tr.t("ui.page.battle_field"),
        BattleKind::Fortress => tr.t("ui.page.battle_fortress"),
    };
    ScenarioPage {
        thumbnail: Some(thumbnail(s)),
        sections: vec![
            ("ui.page.sides".to_string(), vec![side(Side::Red), side(Side::Blue)]),
            (
                "ui.page.length".to_string(),
                vec![tr.f("ui.page.battle_length", &[("rounds", s.rules.round_limit.to_string())])],
            ),
            ("ui.page.objectives".to_string(), vec![objective]),
            (
                "ui.page.victory".to_string(),
                vec![tr.f("ui.page.battle_victory", &[("rounds", s.rules.round_limit.to_string())])],
            ),
        ],
    }
}

fn terrain_rgb(t: Option<Terrain>) -> [u8; 3] {
    match t {
        Some(Terrain::Open) | None => [168, 180, 112],
        Some(Terrain::SparseForest) => [112, 150, 84],
        Some(Terrain::DenseForest) => [70, 110, 60],
        Some(Terrain::Swamp) => [120, 140, 108],
        Some(Terrain::River | Terrain::Sea) => [70, 108, 150],
        Some(Terrain::Ford) => [110, 140, 170],
        Some(Terrain::Hill) => [150, 128, 102],
        Some(Terrain::Building) => [120, 100, 90],
        Some(Terrain::Redoubt | Terrain::Wall | Terrain::Breach) => [90, 80, 70],
    }
}

/// The field, a cell a pixel or more, and the units placed on it.
fn thumbnail(s: &Scenario) -> Thumbnail {
    let (w, h) = (s.map.width.max(1) as u32, s.map.height.max(1) as u32);
    let mut t = Thumbnail::of_cells(w, h, |x, y| terrain_rgb(s.map.terrain(Cell { x: x as i32, y: y as i32 })));
    for u in &s.units {
        let Some(at) = u.at.filter(|c| c.x >= 0 && c.y >= 0) else { continue };
        t.dot(w, h, (at.x as u32, at.y as u32), super::card::side_colour(u.side));
    }
    t
}
