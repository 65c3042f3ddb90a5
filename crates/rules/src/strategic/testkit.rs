//! Small builders for tests, benches and tools: a scenario on any map with the shipped tables.

use super::apply::PhaseSchedule;
use super::event::Event;
use super::game::{new_ctx, world_of};
use super::hexmap::{HexAt, HexMap, Terrain};
use super::naval::ShipType;
use super::scenario::{ArmySpec, CorpsSpec, FleetSpec, ForceSpec, KindSpec, PowerSpec, Scenario};
use super::state::{Ctx, ForceId, Phase, Techs};
use super::tables::{AviationTables, Model, RulesTables, UnitTables};

/// The shipped unit and rule tables.
pub fn tables() -> (UnitTables, RulesTables) {
    let units = include_str!("../../../../assets/data/great_war_units.ron");
    let rules = include_str!("../../../../assets/data/great_war_rules.ron");
    let units = UnitTables::parse("assets/data/great_war_units.ron", units).unwrap_or_else(|e| panic!("{e}"));
    let rules = RulesTables::parse("assets/data/great_war_rules.ron", rules).unwrap_or_else(|e| panic!("{e}"));
    (units, rules)
}

/// The shipped aviation table.
pub fn aviation() -> AviationTables {
    let text = include_str!("../../../../assets/data/great_war_aviation.ron");
    AviationTables::parse("assets/data/great_war_aviation.ron", text).unwrap_or_else(|e| panic!("{e}"))
}

/// Two powers: "germany" (alliance 1, plays first) and "france" (alliance 0), both group 1, rich,
/// with every technology.
pub fn powers() -> Vec<PowerSpec> {
    let p = |id: &str, name: &str, alliance| PowerSpec {
        id: id.into(),
        name: name.into(),
        alliance,
        group: 1,
        money: 1000,
        ammo: 1000,
        chem_shells: 10,
        cylinders: 5,
        manpower: [100, 100],
        techs: Techs { tanks: true, gas: true, infantry: true },
        local_climates: Vec::new(),
        entry: None,
        capital: None,
    };
    vec![p("germany", "Germany", 1), p("france", "France", 0)]
}

/// A class-1 1914 infantry division.
pub fn infantry(id: u32, power: &str, at: (i32, i32)) -> ForceSpec {
    unit(
        id,
        power,
        at,
        KindSpec::Infantry { model: Model::M1914, class: 1, mountain: false, elite: false, colonial: None },
    )
}

/// A fleet of `power` on `at` with `ships` (type and historical count, S-NAVAL-1), named after
/// its power and ID, neither intercepting nor withdrawing.
pub fn fleet(id: u32, power: &str, at: (i32, i32), ships: &[(ShipType, u32)]) -> FleetSpec {
    FleetSpec {
        id,
        power: power.into(),
        name: format!("{power} fleet {id}"),
        at: HexAt::from(at),
        ships: ships.to_vec(),
        historical: false,
        intercept: false,
        withdraw: false,
    }
}

pub fn unit(id: u32, power: &str, at: (i32, i32), kind: KindSpec) -> ForceSpec {
    ForceSpec {
        id,
        power: power.into(),
        kind,
        at: Some(HexAt::from(at)),
        name: None,
        health: None,
        morale: None,
        arrives: None,
    }
}

/// A front of 12 × 10 clear hexes: the 1st Army (201) of I Corps (101: divisions 1 and 2 at
/// (2, 2)) and II Corps (102: division 3 at (2, 4)), the independent German division 4 at (6, 6),
/// and French division 9 next to it at (7, 6).
pub fn army_front() -> Scenario {
    let forces = vec![
        infantry(1, "germany", (2, 2)),
        infantry(2, "germany", (2, 2)),
        infantry(3, "germany", (2, 4)),
        infantry(4, "germany", (6, 6)),
        infantry(9, "france", (7, 6)),
    ];
    let mut s = scenario(HexMap::filled("test", 12, 10, Terrain::Clear), forces);
    let corps = |id, units: Vec<u32>| CorpsSpec { id, name: format!("{id}"), units, attached: vec![] };
    s.corps = vec![corps(101, vec![1, 2]), corps(102, vec![3])];
    s.armies =
        vec![ArmySpec { id: 201, name: "1st Army".into(), corps: vec![101, 102], reserves: vec![], attached: vec![] }];
    s
}

/// A scenario on `map` starting in turn 5 (every technology usable) with the two powers.
pub fn scenario(map: HexMap, forces: Vec<ForceSpec>) -> Scenario {
    let (units, rules) = tables();
    Scenario {
        name: "test".into(),
        start_turn: 5,
        max_turns: 10,
        powers: powers(),
        forces,
        corps: Vec::new(),
        armies: Vec::new(),
        fortifications: Vec::new(),
        cylinders: Vec::new(),
        fleets: Vec::new(),
        squadrons: Vec::new(),
        mines: Vec::new(),
        sea_lanes: Vec::new(),
        calendar: None,
        victory: None,
        names_ru: Vec::new(),
        map,
        units,
        rules,
        aviation: aviation(),
    }
}

/// A working copy of a new game, in the given phase with the given power to act.
pub fn ctx(scenario: &Scenario, phase: Phase, active: u8) -> Ctx {
    let mut c = new_ctx(scenario, 1);
    c.clock.phase = phase;
    c.clock.active = active;
    c.events.clear();
    c
}

/// `map` with a German province ("heimat") whose one city ("stadt") stands at `at`: the own city
/// the encirclement walk (S-COMBAT-11) and the supply tests start from.
pub fn german_city(mut map: HexMap, at: (i32, i32)) -> HexMap {
    use super::hexmap::{City, Province};
    map.provinces.push(Province {
        id: "heimat".into(),
        name: "Heimat".into(),
        name_ru: String::new(),
        owner: "germany".into(),
        capital: "stadt".into(),
        gdp: 0,
        manpower: [0, 0],
    });
    map.cities.push(City {
        id: "stadt".into(),
        name: "Stadt".into(),
        name_ru: String::new(),
        province: "heimat".into(),
        hexes: vec![HexAt::new(at.0, at.1)],
        port: false,
        fortress: false,
    });
    map
}

/// Shorthand for a force ID.
pub fn id(n: u32) -> ForceId {
    ForceId(n)
}

/// Shorthand for a hex.
pub fn hex(col: i32, row: i32) -> HexAt {
    HexAt::new(col, row)
}

/// Runs one phase schedule alone (S-TURN-2) on a working copy, in a world of its own, and returns
/// its events. For tests and tools only: a game's own state changes through its orders alone.
pub fn run_phase(ctx: &mut Ctx, label: PhaseSchedule) -> Vec<Event> {
    let mut world = world_of(ctx.clone());
    let events = super::apply::run_phase(&mut world, label);
    *ctx = Ctx::load(&world);
    events
}
