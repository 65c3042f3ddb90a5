//! Helpers so every test, bench and tool starts a battle the same way.

use crate::tactical::components::{Reactions, Side, UnitId};
use crate::tactical::config::RulesConfig;
use crate::tactical::grid::{Cell, Dir, GridMap, Terrain};
use crate::tactical::scenario::{BattleKind, Scenario, SideSpec, UnitSpec};
use crate::tactical::units::UnitTable;
use crate::tactical::{Battle, Ctx, Order, Status};
use std::path::PathBuf;

/// A path inside the repository (scenarios, maps, assets).
pub fn repo_path(relative: &str) -> PathBuf {
    crate::source::normalise(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative))
}

/// The folder of the rules digests (`tactical.md`, `strategic.md`): `$KRIEGSSPIEL_DIGESTS`, or
/// `shared/rules` in the checkout (CI has it), beside it, or one level further up.
pub fn digests() -> Option<PathBuf> {
    let candidates = match std::env::var_os("KRIEGSSPIEL_DIGESTS") {
        Some(dir) => vec![PathBuf::from(dir)],
        None => ["shared/rules", "../shared/rules", "../../shared/rules"].iter().map(|d| repo_path(d)).collect(),
    };
    candidates.into_iter().find(|dir| dir.join("tactical.md").is_file())
}

/// The IDs a digest defines: its list items `- **T-CMD-4** …`, in order.
pub fn digest_ids(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- **"))
        .filter_map(|l| l.split_once("**").map(|(id, _)| id.to_string()))
        .filter(|id| crate::reference::is_rule_id(id))
        .collect()
}

/// Loads a shipped scenario by file name (`"worked_example_a"`).
pub fn shipped(name: &str) -> Scenario {
    let path = repo_path(&format!("scenarios/{name}.ron"));
    Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Every shipped scenario file.
pub fn shipped_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo_path("scenarios"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".ron")).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Every file ending in `.ext` under the repository folders `dirs`, their subfolders included,
/// in name order (tests that read the sources or the shipped data).
pub fn files_under(dirs: &[&str], ext: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo: Vec<PathBuf> = dirs.iter().map(|d| repo_path(d)).collect();
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Reads a RON list of orders.
pub fn orders_file(relative: &str) -> Vec<Order> {
    let path = repo_path(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    crate::data::parse_ron(&path.to_string_lossy(), &text).unwrap_or_else(|e| panic!("{e}"))
}

/// Builds small battlefields in code for rule tests.
pub struct Field {
    scenario: Scenario,
}

impl Field {
    /// An open field, red attacking from the north, blue defending from the south.
    pub fn new(width: i32, height: i32) -> Field {
        let side = |name: &str, edge| SideSpec {
            name: name.to_string(),
            name_ru: String::new(),
            faction: name.to_string(),
            edge,
            redoubts: 0,
            hq: None,
            formations: Vec::new(),
            bring_up: 0,
            bring_up_from_turn: 0,
            general_lost: None,
        };
        Field {
            scenario: Scenario {
                name: "test".to_string(),
                name_ru: String::new(),
                description: String::new(),
                kind: BattleKind::Field,
                attacker: Side::Red,
                red: side("Red", Dir::North),
                blue: side("Blue", Dir::South),
                map: GridMap::open("test", width, height),
                unit_types: UnitTable::builtin().types,
                rules: RulesConfig::builtin(),
                units: Vec::new(),
            },
        }
    }

    pub fn faction(mut self, side: Side, faction: &str) -> Field {
        match side {
            Side::Red => self.scenario.red.faction = faction.to_string(),
            Side::Blue => self.scenario.blue.faction = faction.to_string(),
        }
        self
    }

    pub fn attacker(mut self, side: Side) -> Field {
        self.scenario.attacker = side;
        self
    }

    pub fn fortress(mut self) -> Field {
        self.scenario.kind = BattleKind::Fortress;
        self
    }

    pub fn terrain(mut self, cells: &[(i32, i32)], terrain: Terrain) -> Field {
        for (x, y) in cells {
            self.scenario.map.set(Cell::new(*x, *y), terrain);
        }
        self
    }

    pub fn row(mut self, y: i32, terrain: Terrain) -> Field {
        for x in 0..self.scenario.map.width {
            self.scenario.map.set(Cell::new(x, y), terrain);
        }
        self
    }

    /// Adds a unit standing on `(x, y)`.
    pub fn unit(self, id: u32, side: Side, unit: &str, at: (i32, i32), facing: Dir) -> Field {
        self.unit_with(id, side, unit, at, facing, |_| {})
    }

    pub fn unit_with(
        mut self,
        id: u32,
        side: Side,
        unit: &str,
        at: (i32, i32),
        facing: Dir,
        f: impl FnOnce(&mut UnitSpec),
    ) -> Field {
        let mut spec = UnitSpec {
            id: UnitId(id),
            side,
            unit: unit.to_string(),
            name: Some(format!("{unit} {id}")),
            name_ru: None,
            at: Some(Cell::new(at.0, at.1)),
            facing: Some(facing),
            health: None,
            reactions: Some(Reactions::default()),
            skirmish: false,
            reserve: false,
        };
        f(&mut spec);
        self.scenario.units.push(spec);
        self
    }

    pub fn side_spec(mut self, side: Side, f: impl FnOnce(&mut SideSpec)) -> Field {
        match side {
            Side::Red => f(&mut self.scenario.red),
            Side::Blue => f(&mut self.scenario.blue),
        }
        self
    }

    pub fn scenario(self) -> Scenario {
        self.scenario
    }

    pub fn battle(self, seed: u64) -> Battle {
        Battle::new(&self.scenario, seed)
    }
}

impl Field {
    /// The battle's working copy, for rule tests that script dice (`ctx.dice.script(..)`).
    pub fn ctx(self, seed: u64) -> Ctx {
        self.battle(seed).ctx()
    }
}

/// Shorthands for orders and readings in rule tests.
pub mod orders {
    use super::*;

    pub fn cell(x: i32, y: i32) -> Cell {
        Cell::new(x, y)
    }

    pub fn mv(unit: u32, path: &[(i32, i32)]) -> Order {
        Order::Move { unit: UnitId(unit), path: path.iter().map(|(x, y)| Cell::new(*x, *y)).collect(), exit: false }
    }

    pub fn fire(unit: u32, target: u32) -> Order {
        Order::Fire { unit: UnitId(unit), target: UnitId(target) }
    }

    pub fn turn(unit: u32, facing: Dir) -> Order {
        Order::Turn { unit: UnitId(unit), facing }
    }

    pub fn health(ctx: &Ctx, unit: u32) -> i32 {
        ctx.unit(UnitId(unit)).map_or(i32::MIN, |u| u.health.current)
    }

    pub fn status(ctx: &Ctx, unit: u32) -> Status {
        ctx.unit(UnitId(unit)).map_or(Status::Undeployed, |u| u.status)
    }

    pub fn at(ctx: &Ctx, unit: u32) -> Cell {
        ctx.unit(UnitId(unit)).map_or(Cell::new(-1, -1), |u| u.cell)
    }

    /// Applies an order that must be legal.
    pub fn ok(ctx: &mut Ctx, order: Order) {
        if let Err(e) = ctx.apply(&order) {
            panic!("{order:?} was refused: {e}");
        }
    }

    /// Applies an order that must be refused, and checks the state did not change.
    pub fn refused(ctx: &mut Ctx, order: Order) -> String {
        let before = ctx.state();
        let mut copy = ctx.clone();
        match copy.apply(&order) {
            Ok(()) => panic!("{order:?} should have been refused"),
            Err(e) => {
                assert_eq!(copy.state(), before, "a refused order changed the state");
                e.to_string()
            }
        }
    }
}
