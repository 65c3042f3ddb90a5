//! A Great War scenario's page on the set-up screen: a picture of its map (each province in its
//! sovereign's colour over the terrain, the troops as dots of their power's colour) and its sides
//! with their entries into the war, its length and end date, its objectives (the capitals and
//! the provinces' victory points) and its victory conditions, asked of the engine on the
//! scenario's opening state (`Ctx::last_turn`, `date_of`, `capital_of`).

use super::art::{power_colour, terrain_rgb};
use super::files;
use crate::catalog::{ScenarioPage, Thumbnail};
use crate::i18n::Tr;
use rules::strategic::Terrain;
use rules::strategic::{Ctx, GreatWar, PowerId, Scenario};

/// The page of the scenario at `path` (natively on disk; in the browser a large one is read once
/// its files have come).
pub fn scenario_page(path: &str, tr: &Tr) -> Result<ScenarioPage, String> {
    if !files::missing(path).is_empty() {
        return Err(tr.t("gw.page.after_download"));
    }
    let scenario = files::load_scenario(path)?;
    Ok(page_of(&scenario, tr))
}

/// The page of a parsed scenario.
pub fn page_of(scenario: &Scenario, tr: &Tr) -> ScenarioPage {
    let ctx = GreatWar::new(scenario, 1).ctx();
    ScenarioPage {
        thumbnail: Some(thumbnail(&ctx)),
        sections: vec![
            ("gw.page.sides".to_string(), sides(tr, &ctx)),
            ("gw.page.length".to_string(), length(tr, &ctx)),
            ("gw.page.objectives".to_string(), objectives(tr, &ctx)),
            ("gw.page.victory".to_string(), victory(tr, &ctx)),
        ],
    }
}

/// The map: a province's land in its sovereign's colour over its terrain, sea and lakes as they
/// are, and a dot of its power's colour where troops stand.
fn thumbnail(ctx: &Ctx) -> Thumbnail {
    let map = ctx.map();
    let powers = &ctx.scenario().powers;
    let colour_of = |id: &str| {
        let i = powers.iter().position(|p| p.id == id).unwrap_or(powers.len());
        let c = power_colour(id, i).to_srgba();
        [c.red, c.green, c.blue].map(|v| (v.clamp(0.0, 1.0) * 255.0) as u8)
    };
    let mut t = Thumbnail::of_cells(map.width, map.height, |x, y| {
        let at = rules::strategic::HexAt::new(x as i32, y as i32);
        let Some(cell) = map.cell(at) else { return terrain_rgb(Terrain::Sea) };
        let ground = terrain_rgb(cell.terrain);
        match map.province_at(at).filter(|_| !matches!(cell.terrain, Terrain::Sea | Terrain::Lake)) {
            // Two thirds the sovereign's colour, a third the terrain's.
            Some(p) => {
                let own = colour_of(&p.owner);
                std::array::from_fn(|k| ((u16::from(own[k]) * 2 + u16::from(ground[k])) / 3) as u8)
            }
            None => ground,
        }
    });
    for f in ctx.forces.iter().filter(|f| f.on_map()) {
        let Some(at) = f.hex() else { continue };
        let id = powers.get(usize::from(f.power.0)).map_or("", |p| p.id.as_str());
        let c = colour_of(id);
        // A darker dot than the power's land, so troops show on their own country.
        let dot = c.map(|v| v / 2);
        if at.col >= 0 && at.row >= 0 {
            t.dot(map.width, map.height, (at.col as u32, at.row as u32), dot);
        }
    }
    t
}

fn power_name(tr: &Tr, ctx: &Ctx, p: PowerId) -> String {
    let key = ctx.power_key(p);
    let name = tr.t(&key);
    if name == key { ctx.power_name(p).to_string() } else { name }
}

/// Each alliance: its powers, and when the neutrals among them enter the war.
fn sides(tr: &Tr, ctx: &Ctx) -> Vec<String> {
    let powers = &ctx.scenario().powers;
    let mut lines = Vec::new();
    for alliance in [1u8, 0] {
        let members: Vec<String> = powers
            .iter()
            .enumerate()
            .filter(|(_, p)| p.alliance == alliance)
            .map(|(i, p)| {
                let name = power_name(tr, ctx, PowerId(i as u8));
                match &p.entry {
                    None => name,
                    Some(e) => match e.turn {
                        Some(turn) => {
                            let date = ctx.date_of(turn).map(|d| super::panels::date_words(tr, d)).unwrap_or_default();
                            tr.f("gw.page.enters_on", &[("name", name), ("turn", turn.to_string()), ("date", date)])
                        }
                        None if e.when_invaded => tr.f("gw.page.enters_invaded", &[("name", name)]),
                        None => tr.f("gw.page.neutral", &[("name", name)]),
                    },
                }
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        let leader = powers.iter().position(|p| p.alliance == alliance).map(|i| power_name(tr, ctx, PowerId(i as u8)));
        lines.push(tr.f("gw.page.alliance", &[("leader", leader.unwrap_or_default()), ("powers", members.join(", "))]));
    }
    lines
}

/// How many turns, from which date to which.
fn length(tr: &Tr, ctx: &Ctx) -> Vec<String> {
    let s = ctx.scenario();
    let (first, last) = (s.start_turn, ctx.last_turn());
    let date = |turn: u32| ctx.date_of(turn).map(|d| super::panels::date_words(tr, d));
    let mut lines = vec![tr.f(
        "gw.page.turns",
        &[("turns", s.max_turns.to_string()), ("first", first.to_string()), ("last", last.to_string())],
    )];
    if let (Some(from), Some(to), Some(c)) = (date(first), date(last), s.calendar) {
        lines.push(tr.f("gw.page.dates", &[("from", from), ("to", to), ("months", c.months_per_turn.to_string())]));
    }
    lines
}

/// The capitals the surrender rule looks at, and what the provinces are worth.
fn objectives(tr: &Tr, ctx: &Ctx) -> Vec<String> {
    let map = ctx.map();
    let mut lines = Vec::new();
    let capitals: Vec<String> = (0..ctx.scenario().powers.len())
        .filter_map(|i| {
            let p = PowerId(i as u8);
            let province = map.provinces.get(ctx.capital_of(p)?)?;
            let place = if tr.russian() && !province.name_ru.is_empty() { &province.name_ru } else { &province.name };
            Some(tr.f("gw.page.capital", &[("place", place.clone()), ("power", power_name(tr, ctx, p))]))
        })
        .collect();
    if !capitals.is_empty() {
        lines.push(tr.f("gw.page.capitals", &[("list", capitals.join(", "))]));
    }
    if let Some(v) = &ctx.scenario().victory {
        lines.push(tr.f("gw.page.province_vp", &[("vp", v.province_vp.to_string())]));
        let named: Vec<String> =
            v.vp.iter()
                .filter_map(|(id, vp)| {
                    let p = map.provinces.get(map.province_index(id)?)?;
                    let place = if tr.russian() && !p.name_ru.is_empty() { &p.name_ru } else { &p.name };
                    Some(format!("{place} {vp}"))
                })
                .collect();
        if !named.is_empty() {
            lines.push(tr.f("gw.page.named_vp", &[("list", named.join(", "))]));
        }
    }
    lines
}

/// How the war is won (the words of the top bar's Goals).
fn victory(tr: &Tr, ctx: &Ctx) -> Vec<String> {
    let Some(v) = &ctx.scenario().victory else { return vec![tr.t("gw.goals.none")] };
    let mut lines = vec![tr.f("gw.goals.surrender", &[("share", v.surrender_share_percent.to_string())])];
    if v.exhaustion {
        lines.push(tr.t("gw.goals.exhaustion"));
    }
    lines.push(tr.t("gw.goals.win"));
    lines
}
