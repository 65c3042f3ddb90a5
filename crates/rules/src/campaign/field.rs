//! Battlefields for campaign battles: a square-grid field generated from the hex's ground and its
//! neighbours (forest, a river with 2–3 fords, hills, marsh, a village, a fortress wall), seeded
//! and deterministic; or the hand-made field a scenario names for the hex. And the tactical
//! [`Scenario`] of a waiting battle, after the cut.

use super::map::{CampaignMap, Ground, HexAt};
use super::scenario::CampaignScenario;
use super::state::{CampaignState, Forces, PendingBattle};
use crate::dice::Dice;
use crate::tactical::config::RulesConfig;
use crate::tactical::scenario::{BattleKind, Scenario, SideSpec, UnitSpec};
use crate::tactical::units::Arm;
use crate::tactical::{Cell, Dir, GridMap, Side, Terrain, UnitId};
use std::collections::BTreeSet;

/// A generated or hand-made battlefield and how the armies stand on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub grid: GridMap,
    pub kind: BattleKind,
    /// The attacker deploys at this edge, the defender at the opposite one.
    pub attacker_edge: Dir,
}

/// Which edge the attacker deploys at: north when it came from the north (or the west on the
/// same row), else south.
pub fn attacker_edge(at: HexAt, from: Option<HexAt>) -> Dir {
    match from {
        Some(f) if f.row > at.row || (f.row == at.row && f.col > at.col) => Dir::South,
        _ => Dir::North,
    }
}

/// Generates the field of a battle in hex `at` of `map`.
pub fn generate(
    map: &CampaignMap,
    at: HexAt,
    attacker_edge: Dir,
    attacker_has_artillery: bool,
    size: (i32, i32),
    rules: &RulesConfig,
    seed: u64,
) -> Field {
    let (w, h) = size;
    let mut dice = Dice::seeded(seed);
    let name = map.place_name(at).map_or_else(|| format!("Field at {at}"), str::to_string);
    let mut grid = GridMap::open(&name, w, h);
    let depth = rules.deployment_rows.clamp(1, (h - 4) / 2);
    let defender_south = attacker_edge == Dir::North;
    let fortress = map.has_fortress(at);
    // Rows between the deployment zones; a fortress wall stands one row in front of the
    // defender's zone, and the defender holds everything behind it (T-FORT-2).
    let (mut top, mut bottom) = (depth, h - depth - 1);
    let wall_row = if defender_south { bottom - 1 } else { top + 1 };
    if fortress {
        if defender_south {
            bottom = wall_row - 1;
        } else {
            top = wall_row + 1;
        }
    }
    let pick = |dice: &mut Dice, lo: i32, hi: i32| -> i32 {
        if hi <= lo { lo } else { lo + i32::try_from(dice.below(u32::try_from(hi - lo + 1).unwrap_or(1))).unwrap_or(0) }
    };
    // T-TERR-3: a river across the field with 2 or 3 fords, when a river runs along the hex.
    let river_row = (!map.river_sides(at).is_empty() && bottom - top >= 2).then(|| (top + bottom) / 2);
    let patch =
        |grid: &mut GridMap, dice: &mut Dice, xs: (i32, i32), ys: (i32, i32), terrain: Terrain, size: (i32, i32)| {
            let (cx, cy) = (pick(dice, xs.0, xs.1), pick(dice, ys.0, ys.1));
            for dy in 0..size.1 {
                for dx in 0..size.0 {
                    let cell = Cell::new(cx + dx, cy + dy);
                    if (top..=bottom).contains(&cell.y) && Some(cell.y) != river_row && (1..w - 1).contains(&cell.x) {
                        grid.set(cell, terrain);
                    }
                }
            }
        };
    let (mid_y, mid_x) = ((top + bottom) / 2, w / 2);
    let ground = map.ground(at).unwrap_or(Ground::Clear);
    let whole = ((1, w - 3), (top, bottom - 1));
    match ground {
        Ground::Forest => {
            for _ in 0..3 {
                patch(&mut grid, &mut dice, whole.0, whole.1, Terrain::SparseForest, (3, 2));
            }
            patch(&mut grid, &mut dice, whole.0, whole.1, Terrain::DenseForest, (2, 2));
        }
        Ground::Hills => {
            for _ in 0..3 {
                patch(&mut grid, &mut dice, whole.0, whole.1, Terrain::Hill, (2, 2));
            }
        }
        Ground::Marsh => {
            for _ in 0..2 {
                patch(&mut grid, &mut dice, whole.0, whole.1, Terrain::Swamp, (2, 2));
            }
        }
        Ground::Clear | Ground::Water => patch(&mut grid, &mut dice, whole.0, whole.1, Terrain::SparseForest, (2, 1)),
    }
    // Each neighbour's ground spills over the border it shares (hexsides E, SE, SW, W, NW, NE).
    for (side, n) in at.neighbours().into_iter().enumerate() {
        let terrain = match map.ground(n) {
            Some(Ground::Forest) => Terrain::SparseForest,
            Some(Ground::Hills) => Terrain::Hill,
            Some(Ground::Marsh) => Terrain::Swamp,
            _ => continue,
        };
        let xs = match side {
            0 => (w * 3 / 4, w - 3),
            3 => (1, w / 4),
            1 | 5 => (mid_x, w - 3),
            _ => (1, mid_x - 2),
        };
        let ys = match side {
            4 | 5 => (top, mid_y - 1),
            1 | 2 => (mid_y + 1, bottom - 1),
            _ => (top, bottom - 1),
        };
        patch(&mut grid, &mut dice, xs, ys, terrain, (2, 2));
    }
    if let Some(y) = river_row {
        for x in 0..w {
            grid.set(Cell::new(x, y), Terrain::River);
        }
        let fords = 2 + pick(&mut dice, 0, 1);
        spaced(&mut dice, w, fords, &mut |x| grid.set(Cell::new(x, y), Terrain::Ford));
    }
    if map.has_village(at) {
        let y = if river_row == Some(mid_y) { mid_y + 1 } else { mid_y };
        for dx in 0..3 {
            grid.set(Cell::new(mid_x - 1 + dx, y.min(bottom)), Terrain::Building);
        }
    }
    if fortress {
        for x in 0..w {
            grid.set(Cell::new(x, wall_row), Terrain::Wall);
        }
        let breaches = if attacker_has_artillery { rules.breaches_with_artillery } else { rules.breaches };
        let n = i32::try_from(breaches).unwrap_or(2);
        spaced(&mut dice, w, n, &mut |x| grid.set(Cell::new(x, wall_row), Terrain::Breach));
        // The town inside the walls.
        let inside = if defender_south { h - 2 } else { 1 };
        grid.set(Cell::new(mid_x, inside), Terrain::Building);
    }
    Field { grid, kind: if fortress { BattleKind::Fortress } else { BattleKind::Field }, attacker_edge }
}

/// Calls `set` on `n` columns of a row of width `w`, evenly spread with a seeded shift, never
/// two side by side (each is its own ford or breach).
fn spaced(dice: &mut Dice, w: i32, n: i32, set: &mut dyn FnMut(i32)) {
    if n <= 0 {
        return;
    }
    let step = w / (n + 1);
    for i in 1..=n {
        let shift = if step >= 4 { i32::try_from(dice.below(3)).unwrap_or(1) - 1 } else { 0 };
        set((i * step + shift).clamp(0, w - 1));
    }
}

/// The forces a side fields by default: the first units in army-list order (T-STRAT-5), as many
/// redoubts as it may build (T-STRAT-8), falling back where it came from (T-STRAT-11).
pub fn default_forces(
    state: &CampaignState,
    scenario: &CampaignScenario,
    battle: &PendingBattle,
    side: Side,
) -> Forces {
    let units = state.units_at(battle.at, side).into_iter().take(battle.fielded[side.index()]).collect();
    Forces { units, redoubts: most_redoubts(scenario, battle, side), retreat: None }
}

/// T-STRAT-8: the defender builds its redoubts; the attacker 1 per 2 unused MP, at most 2.
pub fn most_redoubts(scenario: &CampaignScenario, battle: &PendingBattle, side: Side) -> u32 {
    let r = &scenario.campaign_rules;
    if side == battle.attacker { super::resolve::attacker_redoubts(battle.attacker_mp, r) } else { r.defender_redoubts }
        .min(scenario.rules.max_redoubts)
}

/// The tactical scenario of a waiting battle, after the cut, with each side's choice (or the
/// default where it has not chosen).
pub fn battle_scenario(scenario: &CampaignScenario, state: &CampaignState, battle: &PendingBattle) -> Scenario {
    battle_scenario_on(scenario, state, battle, None)
}

/// [`battle_scenario`] on a ground already known (a view's), where the field is generated: the
/// same scenario as the battle's own when it is the ground the battle's seed gives.
pub fn battle_scenario_on(
    scenario: &CampaignScenario,
    state: &CampaignState,
    battle: &PendingBattle,
    ground: Option<&GridMap>,
) -> Scenario {
    let forces = |side: Side| {
        battle.forces[side.index()].clone().unwrap_or_else(|| default_forces(state, scenario, battle, side))
    };
    let chosen = [forces(Side::Red), forces(Side::Blue)];
    let attacker = battle.attacker;
    // T-STRAT-6: the larger side's left-out units wait as reserves, to bring up one.
    let reserves: Vec<UnitId> = battle
        .bring_up
        .map(|side| {
            let fielding: BTreeSet<UnitId> = chosen[side.index()].units.iter().copied().collect();
            state.units_at(battle.at, side).into_iter().filter(|u| !fielding.contains(u)).collect()
        })
        .unwrap_or_default();
    let listed: Vec<UnitId> = chosen[attacker.index()]
        .units
        .iter()
        .chain(&chosen[attacker.other().index()].units)
        .chain(&reserves)
        .copied()
        .collect();
    // T-FORT-2: «3 бреши, если в армии атакующего есть артиллерия» — the attacker's army's guns
    // in the hex, fielded or not.
    let attacker_artillery = state.units_at(battle.at, attacker).iter().any(|id| {
        state.unit(*id).is_some_and(|u| scenario.unit_type(&u.unit).is_some_and(|t| t.arm == Arm::Artillery))
    });
    let hand_made = scenario.field_at(battle.at).and_then(|f| f.map.to_grid().ok());
    let field = match (hand_made, ground) {
        // The generated field as a view knows it (as `generate` makes it, without the seed).
        (None, Some(grid)) => Field {
            grid: grid.clone(),
            kind: if scenario.map.has_fortress(battle.at) { BattleKind::Fortress } else { BattleKind::Field },
            attacker_edge: attacker_edge(battle.at, battle.attacker_from),
        },
        (Some(grid), _) => {
            let walls = grid.cells().any(|c| grid.terrain(c) == Some(Terrain::Wall));
            Field {
                grid,
                kind: if walls { BattleKind::Fortress } else { BattleKind::Field },
                attacker_edge: Dir::North,
            }
        }
        (None, None) => generate(
            &scenario.map,
            battle.at,
            attacker_edge(battle.at, battle.attacker_from),
            attacker_artillery,
            scenario.campaign_rules.field_size,
            &scenario.rules,
            battle.seed,
        ),
    };
    let r = &scenario.campaign_rules;
    let side_spec = |side: Side| {
        let cs = scenario.side(side);
        let edge = if side == attacker { field.attacker_edge } else { field.attacker_edge.opposite() };
        let bring = battle.bring_up == Some(side);
        // T-CMD-3: the side's general is the general of the army of its first fielded unit
        // whose general is not gone; the HQ is that unit. None left: no general at all.
        let fielding = &chosen[side.index()].units;
        let led = |id: &UnitId| state.armies.iter().any(|a| a.units.contains(id) && a.general_lost.is_none());
        let hq = fielding.iter().copied().find(|id| led(id));
        let general_lost = if hq.is_none() {
            fielding.iter().find_map(|id| state.armies.iter().find(|a| a.units.contains(id))?.general_lost)
        } else {
            None
        };
        SideSpec {
            name: cs.name.clone(),
            name_ru: cs.name_ru.clone(),
            faction: cs.faction.clone(),
            edge,
            redoubts: chosen[side.index()].redoubts,
            hq: hq.filter(|h| fielding.first() != Some(h)),
            formations: Vec::new(),
            bring_up: if bring { r.bring_up_units } else { 0 },
            bring_up_from_turn: if bring { r.bring_up_turn } else { 0 },
            general_lost,
        }
    };
    let units: Vec<UnitSpec> = listed
        .iter()
        .filter_map(|id| state.unit(*id))
        .map(|u| {
            let max = scenario.unit_type(&u.unit).map_or(u.health, |t| t.health);
            UnitSpec {
                id: u.id,
                side: u.side,
                unit: u.unit.clone(),
                name: Some(u.name.clone()),
                name_ru: None,
                at: None,
                facing: None,
                health: (u.health < max).then_some(u.health.max(1)),
                reactions: None,
                skirmish: false,
                reserve: reserves.contains(&u.id),
            }
        })
        .collect();
    let used: BTreeSet<&str> = units.iter().map(|u| u.unit.as_str()).collect();
    let place = scenario.map.place_name(battle.at).map_or_else(|| format!("{}", battle.at), str::to_string);
    Scenario {
        name: format!("{} — battle {} at {place}", scenario.name, battle.number),
        name_ru: String::new(),
        description: format!("Campaign turn {}: {:?} attacks at {place}.", state.turn, attacker),
        kind: field.kind,
        attacker,
        red: side_spec(Side::Red),
        blue: side_spec(Side::Blue),
        map: field.grid,
        unit_types: scenario.unit_types.iter().filter(|t| used.contains(t.id.as_str())).cloned().collect(),
        rules: scenario.rules.clone(),
        units,
    }
}
