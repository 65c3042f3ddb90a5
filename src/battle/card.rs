//! A battle unit's card: every value the rules keep for it, in words, with the rule that gives
//! each — strength, movement points, fighting values, formation and its general, facing,
//! ammunition, morale state, order and standing reactions. Drawn by the shell's `hud::card`, in
//! the unit panel, the replay viewer and the tooltip under the pointer.

use super::BattleNames;
use crate::hud::card::Card;
use crate::i18n::Tr;
use rules::tactical::components::{Phase, Status};
use rules::tactical::event::Cause;
use rules::tactical::morale::morale_pass_chance;
use rules::tactical::units::{Ability, Arm, Range};
use rules::tactical::{Ctx, Side, UnitId};

/// The side's colour on cards (as on the counters).
pub fn side_colour(side: Side) -> [u8; 3] {
    match side {
        Side::Red => [179, 33, 31],
        Side::Blue => [38, 69, 163],
    }
}

fn type_name(tr: &Tr, ctx: &Ctx, id: UnitId) -> String {
    ctx.unit(id).map_or_else(String::new, |u| {
        let t = ctx.ty(u);
        if tr.russian() && !t.name_ru.is_empty() { t.name_ru.clone() } else { t.name.clone() }
    })
}

/// The card of a unit, or none if there is no such unit.
pub fn unit_card(tr: &Tr, ctx: &Ctx, id: UnitId) -> Option<Card> {
    let u = ctx.unit(id)?;
    let ty = ctx.ty(u);
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |key: &str, value: String| rows.push((tr.t(key), value));
    row(
        "card.strength",
        tr.f("card.strength.value", &[("health", u.health.current.to_string()), ("max", u.health.max.to_string())]),
    );
    let speed = ctx.speed(u, false);
    let own_turn = ctx.clock.phase == Phase::Battle && ctx.clock.active == u.side && u.status == Status::Active;
    row(
        "card.mp",
        if own_turn {
            let left = (speed - u.activity.mp_spent).clamp(0, speed.max(0));
            tr.f("card.mp.left", &[("left", left.to_string()), ("speed", speed.to_string())])
        } else {
            tr.f("card.mp.speed", &[("speed", speed.to_string())])
        },
    );
    row("card.melee", tr.f("card.melee.value", &[("melee", ty.melee.to_string())]));
    row(
        "card.fire",
        match ty.fires() {
            Some((v, Range::Cells(n))) => {
                tr.f("card.fire.cells", &[("ranged", v.to_string()), ("range", n.to_string())])
            }
            Some((v, Range::WholeMap)) => tr.f("card.fire.whole_map", &[("ranged", v.to_string())]),
            None => tr.t("card.fire.none"),
        },
    );
    row("card.ammunition", tr.t(if u.activity.fired { "card.ammunition.fired" } else { "card.ammunition.ready" }));
    row("card.facing", tr.t(&format!("facing.{}", u.facing.name())));
    row("card.morale", morale_state(tr, ctx, id));
    row("card.formation", formation(tr, ctx, id));
    row("card.general", general(tr, ctx, id));
    row(
        "card.order",
        tr.t(match u.skirmish {
            Some(s) if s.disorganized => "card.order.disorganized",
            Some(_) => "card.order.skirmish",
            None if ty.has(Ability::SkirmishOrder) => "card.order.close_light",
            None => "card.order.close",
        }),
    );
    let onoff = |on: bool| tr.t(if on { "word.on" } else { "word.off" });
    row(
        "card.reactions",
        tr.f(
            "card.reactions.value",
            &[
                ("volley", onoff(u.reactions.counter_volley)),
                ("charge", onoff(u.reactions.counter_charge)),
                ("intercept", onoff(u.reactions.intercept)),
            ],
        ),
    );
    if u.status == Status::Active {
        let terrain = ctx.terrain(u.cell).map(|t| tr.t(&format!("terrain.{}", terrain_key(t)))).unwrap_or_default();
        row("card.cell", format!("{} — {terrain}", u.cell));
    } else {
        row("card.status", tr.t(&format!("status.{}", u.status.name())));
    }
    let mut notes = Vec::new();
    if ctx.command.hq[u.side.index()] == Some(id) {
        notes.push(tr.t("card.note.hq"));
    }
    if ctx.in_contact(u) {
        notes.push(tr.t("card.note.in_melee"));
    }
    if u.concealed {
        notes.push(tr.t("card.note.hidden"));
    }
    for ability in &ty.abilities {
        notes.push(tr.t(&format!("card.ability.{ability:?}")));
    }
    if !ty.house.is_empty() {
        notes.push(tr.t("card.note.house"));
    }
    Some(Card {
        title: tr.unit(ctx, id),
        subtitle: format!("{} · {}", type_name(tr, ctx, id), tr.army(ctx, u.side)),
        colour: side_colour(u.side),
        rows,
        notes,
    })
}

/// How the unit stands with morale: when it tests, and its odds now (T-MORALE-1, T-MORALE-2).
pub fn morale_state(tr: &Tr, ctx: &Ctx, id: UnitId) -> String {
    let Some(u) = ctx.unit(id) else { return String::new() };
    if ctx.has(u, Ability::FightsToTheEnd) {
        return tr.t("card.morale.to_the_end");
    }
    let threshold = ctx.rules().threshold(ctx.arm(u));
    let state = if u.health.current <= threshold {
        tr.f("card.morale.shaken", &[("threshold", threshold.to_string())])
    } else {
        tr.f("card.morale.steady", &[("threshold", threshold.to_string())])
    };
    let terms = ctx.morale_modifiers(u, Cause::Melee);
    let sum: i32 = terms.iter().map(|t| t.value).sum();
    let pass = ctx.rules().morale_pass;
    let sixths = (morale_pass_chance(sum, pass) * 6.0).round() as i32;
    let mut odds = tr.f("card.morale.odds", &[("n", sixths.to_string())]);
    for t in &terms {
        odds.push_str(&format!("; {} {:+}", tr.t(&format!("term.{}", t.what)), t.value));
    }
    format!("{state}; {odds}")
}

/// The unit's formation, or that it has none.
fn formation(tr: &Tr, ctx: &Ctx, id: UnitId) -> String {
    let Some(f) =
        ctx.unit(id).and_then(|u| u.formation).and_then(|f| ctx.command.formations.iter().find(|x| x.id == f))
    else {
        return tr.t("card.formation.none");
    };
    let kind = tr.t(if f.division { "word.division" } else { "word.brigade" });
    tr.f("card.formation.value", &[("name", f.name.clone()), ("kind", kind)])
}

/// Where the general of the unit's formation is, or what became of him (T-CMD-1, T-CMD-2).
fn general(tr: &Tr, ctx: &Ctx, id: UnitId) -> String {
    let Some(f) =
        ctx.unit(id).and_then(|u| u.formation).and_then(|f| ctx.command.formations.iter().find(|x| x.id == f))
    else {
        return tr.t("card.general.none");
    };
    if f.general_lost() {
        return tr.f("card.general.lost", &[("fate", tr.t(&format!("fate.{}", f.general.key())))]);
    }
    match f.general_with {
        Some(g) if g == id => tr.t("card.general.here"),
        Some(g) => tr.f("card.general.with", &[("unit", tr.unit(ctx, g))]),
        None => tr.t("card.general.gone"),
    }
}

/// The units that carry a formation's general, and each side's HQ unit (for the board's marks).
pub fn command_marks(ctx: &Ctx) -> Vec<(UnitId, CommandMark)> {
    let mut marks: Vec<(UnitId, CommandMark)> = ctx
        .command
        .formations
        .iter()
        .filter(|f| !f.general_lost())
        .filter_map(|f| f.general_with.map(|u| (u, CommandMark::General)))
        .collect();
    marks.extend(ctx.command.hq.iter().flatten().map(|u| (*u, CommandMark::Hq)));
    marks.sort();
    marks.dedup();
    marks
}

/// What a mark on a counter says about command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CommandMark {
    /// The general of a formation is with this unit (T-CMD-1).
    General,
    /// The army's headquarters (T-CMD-5).
    Hq,
}

/// Whether cavalry clicking an enemy to fire is refused, and why, with what to do instead:
/// the engine's typed refusal (its rule ID), in the interface's words.
pub fn why_not_fire(tr: &Tr, ctx: &Ctx, unit: UnitId, target: UnitId) -> Option<Vec<String>> {
    let err = ctx.check_fire(unit, target).err()?;
    let u = ctx.unit(unit)?;
    // The engine words its refusals in English: in another language the rule's own explanation
    // stands in for them where there is one.
    let explained = match &err {
        rules::tactical::OrderError::Rule { rule, .. } => {
            let key = format!("ui.whynot.{rule}");
            (tr.texts.get(&key) != key).then(|| (rule.to_string(), tr.t(&key)))
        }
        _ => None,
    };
    let mut lines = match &explained {
        Some((rule, _)) if tr.lang != crate::i18n::Lang::English => {
            vec![tr.f("ui.whynot.refused", &[("why", format!("({rule})"))])]
        }
        _ => vec![tr.f("ui.whynot.refused", &[("why", err.to_string())])],
    };
    lines.extend(explained.map(|(_, text)| text));
    if ctx.arm(u) == Arm::Cavalry {
        lines.push(tr.t("ui.whynot.cavalry_charge"));
    }
    Some(lines)
}

/// A terrain's key in the string tables (`terrain.KEY`).
pub fn terrain_key(t: rules::tactical::Terrain) -> &'static str {
    use rules::tactical::Terrain::*;
    match t {
        Open => "open",
        SparseForest => "sparse_forest",
        DenseForest => "dense_forest",
        Swamp => "swamp",
        River => "river",
        Ford => "ford",
        Sea => "sea",
        Hill => "hill",
        Building => "building",
        Redoubt => "redoubt",
        Wall => "wall",
        Breach => "breach",
    }
}
