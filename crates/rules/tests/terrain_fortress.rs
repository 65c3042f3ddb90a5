//! T-TERR-1…6, T-FORT-1…7.

use rules::tactical::event::{Event, Removal};
use rules::tactical::{Battle, Dir, EndReason, Order, Reactions, Scenario, Side, Status, Terrain, UnitId};
use rules::testing::orders::*;
use rules::testing::{Field, shipped};

fn quiet() -> Option<Reactions> {
    Some(Reactions { counter_volley: false, counter_charge: false, intercept: false })
}

#[test]
fn t_terr_1_forest_slows_cavalry_stops_its_charge_and_softens_fire() {
    let mut c = Field::new(12, 12)
        .terrain(&[(3, 2), (3, 3)], Terrain::SparseForest)
        .unit(1, Side::Red, "light_cavalry", (3, 1), Dir::South)
        .unit(9, Side::Blue, "militia", (11, 11), Dir::North)
        .ctx(1);
    assert!(
        refused(&mut c, mv(1, &[(3, 2), (3, 3), (3, 4), (3, 5), (3, 6)])).contains("has 4 left"),
        "T-TERR-1: Speed 5 − 1"
    );
    ok(&mut c, mv(1, &[(3, 2), (3, 3), (3, 4), (3, 5)]));
    // No charge into forest.
    let mut d = Field::new(10, 10)
        .terrain(&[(4, 5)], Terrain::DenseForest)
        .unit_with(1, Side::Red, "heavy_cavalry", (4, 2), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut d, mv(1, &[(4, 3), (4, 4)]));
    ok(&mut d, Order::EndTurn);
    let red =
        d.events.iter().find_map(|e| if let Event::MeleeExchange { red, .. } = e { Some(red.total) } else { None });
    assert_eq!(red, Some(3), "T-TERR-1: no charge into forest");
}

#[test]
fn t_terr_2_light_infantry_ambush_hidden_until_adjacent_or_firing() {
    let field = || {
        Field::new(12, 12)
            .terrain(&[(5, 6), (6, 6)], Terrain::DenseForest)
            .unit(1, Side::Red, "light_cavalry", (5, 1), Dir::South)
            .unit(2, Side::Red, "artillery", (8, 0), Dir::South)
            .unit(3, Side::Blue, "light_infantry", (5, 6), Dir::North)
            .unit(4, Side::Blue, "line_infantry", (1, 10), Dir::North)
    };
    let mut c = field().ctx(1);
    assert!(c.unit(UnitId(3)).unwrap().concealed, "T-TERR-2: hidden in forest");
    assert!(refused(&mut c, fire(2, 3)).contains("not an enemy in sight"), "cannot be attacked while hidden");
    let b = field().battle(1);
    assert!(b.units(Some(Side::Red)).iter().all(|u| u.id != UnitId(3)), "the other side does not see it");
    // A move that would pass it is legal as red knows the field, but stops next to it: ambushed.
    ok(&mut c, mv(1, &[(5, 2), (5, 3), (5, 4), (5, 5), (4, 5)]));
    assert!(c.events.iter().any(|e| matches!(e, Event::Ambushed { by: UnitId(3), .. })), "T-TERR-2: ambushed");
    assert_eq!(at(&c, 1), cell(5, 5), "stopped next to the ambush");
    assert!(!c.unit(UnitId(3)).unwrap().concealed, "revealed by the adjacent enemy");
    assert!(c.in_contact(c.unit(UnitId(1)).unwrap()), "and in contact with it");
}

#[test]
fn t_terr_2_firing_reveals_until_it_moves() {
    let mut c = Field::new(12, 12)
        .terrain(&[(5, 6), (6, 6)], Terrain::SparseForest)
        .unit(1, Side::Red, "line_infantry", (5, 3), Dir::South)
        .unit(2, Side::Red, "artillery", (8, 0), Dir::South)
        .unit(3, Side::Blue, "light_infantry", (5, 6), Dir::North)
        .ctx(1);
    ok(&mut c, Order::EndTurn);
    ok(&mut c, fire(3, 1));
    assert!(!c.unit(UnitId(3)).unwrap().concealed, "T-TERR-2: firing reveals it");
    ok(&mut c, Order::EndTurn);
    ok(&mut c, fire(2, 3)); // now it can be shot
    ok(&mut c, Order::EndTurn);
    ok(&mut c, mv(3, &[(6, 6)]));
    assert!(c.unit(UnitId(3)).unwrap().concealed, "T-TERR-2: hidden again once it moves in forest");
}

#[test]
fn t_terr_3_swamp_river_sea_impassable_fords_passable() {
    for t in [Terrain::Swamp, Terrain::River, Terrain::Sea] {
        let mut c = Field::new(10, 10)
            .terrain(&[(4, 4)], t)
            .unit(1, Side::Red, "line_infantry", (4, 3), Dir::South)
            .unit(9, Side::Blue, "militia", (9, 9), Dir::North)
            .ctx(1);
        assert!(refused(&mut c, mv(1, &[(4, 4)])).contains("T-TERR-3"), "{t:?}");
    }
    let mut c = Field::new(10, 10)
        .row(4, Terrain::River)
        .terrain(&[(4, 4), (8, 4)], Terrain::Ford)
        .unit(1, Side::Red, "line_infantry", (4, 3), Dir::South)
        .unit(9, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    ok(&mut c, mv(1, &[(4, 4), (4, 5)])); // T-TERR-3: across the ford
}

#[test]
fn t_terr_4_redoubt_lets_infantry_and_artillery_fire_over_troops() {
    let mut c = Field::new(10, 10)
        .terrain(&[(5, 1)], Terrain::Redoubt)
        .unit(1, Side::Red, "artillery", (5, 1), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 5), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (5, 6), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 3)); // T-TERR-4: would be covered by the unit next to the target (T-FIRE-6) but for the redoubt
}

#[test]
fn t_terr_4_on_a_redoubt_infantry_and_guns_alike_fire_over_the_heads_of_soldiers_own_or_enemy() {
    // «находясь на редуте, пехота и артиллерия могут стрелять через головы солдат»: the firer on a
    // redoubt at (5, 1), a unit of either side at (5, 3) between it and the target at (5, 4).
    let field = |firer: &str, redoubt: bool, covering: Side| {
        let f = Field::new(10, 10);
        let f = if redoubt { f.terrain(&[(5, 1)], Terrain::Redoubt) } else { f };
        f.unit(1, Side::Red, firer, (5, 1), Dir::South)
            .unit_with(2, covering, "line_infantry", (5, 3), Dir::North, |u| u.reactions = quiet())
            .unit_with(3, Side::Blue, "line_infantry", (5, 4), Dir::North, |u| u.reactions = quiet())
            .ctx(1)
    };
    for firer in ["light_infantry", "artillery"] {
        for covering in [Side::Red, Side::Blue] {
            ok(&mut field(firer, true, covering), fire(1, 3)); // T-TERR-4
            let why = refused(&mut field(firer, false, covering), fire(1, 3));
            assert!(why.contains("T-FIRE-3") || why.contains("T-FIRE-6"), "{firer}, off the redoubt: {why}");
        }
    }
}

fn map_text(rows: &[&str]) -> String {
    let rows: String = rows.iter().map(|r| format!("    \"{r}\",\n")).collect();
    format!("Map(\n  name: \"t\",\n  rows: [\n{rows}  ],\n)\n")
}

#[test]
fn t_terr_3_a_river_has_2_or_3_fords_tested_at_1_2_3_and_4() {
    use rules::tactical::config::RulesConfig;
    use rules::tactical::scenario::parse_map_with;
    let rules = RulesConfig::builtin();
    for (river, fords) in [("~~~~~~~", 0), ("~=~~~~~", 1), ("~=~~~=~", 2), ("~=~=~=~", 3), ("=~=~=~=", 4)] {
        let text = map_text(&[".......", river, "......."]);
        let result = parse_map_with("t.ron", &text, &rules);
        if (2..=3).contains(&fords) {
            assert!(result.is_ok(), "T-TERR-3: {fords} fords: {result:?}");
        } else {
            let e = result.map(|_| ()).unwrap_err().to_string();
            assert!(
                e.starts_with("t.ron:5:6: ") && e.contains(&format!("has {fords} ford")) && e.contains("T-TERR-3"),
                "T-TERR-3: {fords} fords must be refused at the river's first cell: {e}"
            );
        }
    }
    // A ford two cells wide is one ford; two rivers are counted apart.
    let text = map_text(&["~==~=~~", ".......", "~=~~~=~"]);
    assert!(parse_map_with("t.ron", &text, &rules).is_ok(), "T-TERR-3: 2 fords each");
    // The same check guards scenarios built in code or embedded in saves.
    let one_ford = Field::new(10, 10)
        .row(4, Terrain::River)
        .terrain(&[(4, 4)], Terrain::Ford)
        .unit(1, Side::Red, "line_infantry", (4, 3), Dir::South)
        .unit(9, Side::Blue, "militia", (9, 9), Dir::North)
        .scenario();
    let e = Scenario::from_resolved_text("s.ron", &rules::data::to_ron(&one_ford)).unwrap_err().to_string();
    assert!(e.contains("has 1 ford") && e.contains("T-TERR-3"), "{e}");
}

#[test]
fn t_terr_3_shipped_maps_have_2_or_3_fords_per_river() {
    for name in rules::testing::shipped_names() {
        let s = shipped(&name);
        for r in s.map.rivers() {
            assert!((2..=3).contains(&r.fords), "T-TERR-3: {name}: the river at {} has {} fords", r.first, r.fords);
        }
    }
    assert_eq!(shipped("borodino").map.rivers().iter().map(|r| r.fords).collect::<Vec<_>>(), vec![2]);
    assert_eq!(shipped("open_field").map.rivers().iter().map(|r| r.fords).collect::<Vec<_>>(), vec![3]);
}

#[test]
fn t_terr_5_infantry_on_a_hill_fires_over_own_troops() {
    let mut c = Field::new(10, 10)
        .terrain(&[(5, 2)], Terrain::Hill)
        .unit(1, Side::Red, "line_infantry", (5, 2), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 3), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 3)); // T-TERR-5
    let mut cav = Field::new(10, 10)
        .terrain(&[(5, 2)], Terrain::Hill)
        .unit(1, Side::Red, "light_cavalry", (5, 2), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 3), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .ctx(1);
    assert!(refused(&mut cav, fire(1, 3)).contains("T-FIRE-3"), "only infantry");
}

#[test]
fn t_terr_6_buildings_admit_infantry_only() {
    let mut c = Field::new(10, 10)
        .terrain(&[(4, 4)], Terrain::Building)
        .unit(1, Side::Red, "light_cavalry", (4, 3), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 4), Dir::South)
        .unit(3, Side::Red, "artillery", (4, 2), Dir::South)
        .unit(9, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, mv(1, &[(4, 4)])).contains("T-TERR-6"));
    ok(&mut c, mv(2, &[(4, 4)])); // T-TERR-6: infantry occupies buildings
}

fn fortress() -> Field {
    // Wall on row 5 with breaches at x = 2 and x = 7; red attacks from the north.
    Field::new(10, 10).row(5, Terrain::Wall).terrain(&[(2, 5), (7, 5)], Terrain::Breach).fortress()
}

#[test]
fn t_fort_1_up_to_10_defenders_and_15_attackers() {
    let mut f = fortress();
    for i in 0..16 {
        f = f.unit(i + 1, Side::Red, "line_infantry", ((i % 10) as i32, (i / 10) as i32), Dir::South);
    }
    let s: Scenario = f.unit(40, Side::Blue, "line_infantry", (5, 8), Dir::North).scenario();
    let text = rules::data::to_ron(&s);
    let err = Scenario::from_resolved_text("big.ron", &text).unwrap_err().to_string();
    assert!(err.contains("1 to 15") && err.contains("T-FORT-1"), "{err}");
    let ok15 = shipped("badajoz");
    assert_eq!((ok15.units_of(Side::Red).count(), ok15.units_of(Side::Blue).count()), (15, 10), "T-FORT-1");
}

#[test]
fn t_fort_2_wall_across_with_two_breaches_three_with_artillery() {
    let two = fortress()
        .unit(1, Side::Red, "line_infantry", (1, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (1, 8), Dir::North)
        .scenario();
    assert!(
        Scenario::from_resolved_text("two.ron", &rules::data::to_ron(&two)).is_ok(),
        "T-FORT-2: 2 breaches, no artillery"
    );
    let guns = fortress()
        .unit(1, Side::Red, "artillery", (1, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (1, 8), Dir::North)
        .scenario();
    let err = Scenario::from_resolved_text("guns.ron", &rules::data::to_ron(&guns)).unwrap_err().to_string();
    assert!(err.contains("T-FORT-2") && err.contains("wants 3"), "{err}");
    let gap = Field::new(10, 10).row(5, Terrain::Wall).terrain(&[(2, 5)], Terrain::Open).fortress();
    let gap = gap
        .unit(1, Side::Red, "line_infantry", (1, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (1, 8), Dir::North)
        .scenario();
    assert!(
        Scenario::from_resolved_text("gap.ron", &rules::data::to_ron(&gap)).is_err(),
        "an open gap is not a wall across"
    );
    // The defender deploys on the wall, in breaches and behind them.
    let s = shipped("badajoz");
    let zone = s.zone(Side::Blue);
    assert!(
        zone.contains(&cell(0, 8))
            && zone.contains(&cell(3, 8))
            && zone.contains(&cell(0, 13))
            && !zone.contains(&cell(0, 7)),
        "T-FORT-2"
    );
}

#[test]
fn t_fort_3_infantry_on_the_wall_fires_one_farther() {
    let mut c = fortress()
        .unit(1, Side::Red, "line_infantry", (5, 2), Dir::South)
        .unit(3, Side::Red, "line_infantry", (8, 3), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 5), Dir::North)
        .unit(4, Side::Blue, "line_infantry", (8, 6), Dir::North)
        .ctx(1);
    ok(&mut c, Order::EndTurn);
    ok(&mut c, fire(2, 1)); // 3 cells: range 2 + 1 from the wall (T-FORT-3)
    assert_eq!(health(&c, 1), 8);
    assert!(refused(&mut c, fire(4, 3)).contains("range is 2"), "3 cells from the ground: out of range");
}

#[test]
fn t_fort_4_ladders_climb_and_descend_one_mp_each_infantry_only() {
    let mut c = fortress()
        .unit(1, Side::Red, "light_infantry", (4, 4), Dir::South)
        .unit(2, Side::Red, "light_cavalry", (6, 4), Dir::South)
        .unit(9, Side::Blue, "militia", (0, 9), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, mv(2, &[(6, 5)])).contains("T-FORT-4"), "only infantry on the wall");
    assert!(refused(&mut c, mv(1, &[(4, 5), (4, 6)])).contains("costs 4 MP"), "climb 1+1, descend 1+1");
    ok(&mut c, mv(1, &[(4, 5), (5, 5)])); // climb (2) + along the wall (1) = 3 = Speed
    ok(&mut c, Order::EndTurn);
    ok(&mut c, Order::EndTurn);
    ok(&mut c, mv(1, &[(5, 6)])); // descend: 2
    assert_eq!(c.unit(UnitId(1)).unwrap().activity.mp_spent, 2, "T-FORT-4");
}

#[test]
fn t_fort_5_on_the_wall_attacking_grenadiers_storm_at_5_defenders_do_not() {
    let mut c = fortress()
        .unit_with(1, Side::Red, "grenadiers", (4, 4), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Blue, "grenadiers", (8, 5), Dir::North, |u| u.reactions = quiet())
        .unit_with(4, Side::Red, "line_infantry", (8, 4), Dir::South, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut c, Order::EndTurn);
    let sums: Vec<(i32, i32)> =
        c.events
            .iter()
            .filter_map(|e| {
                if let Event::MeleeExchange { red, blue, .. } = e { Some((red.total, blue.total)) } else { None }
            })
            .collect();
    assert_eq!(
        sums,
        vec![(5, 3), (3, 4)],
        "T-FORT-5: 5 for the attacker's grenadiers at the wall, 4 for the defender's"
    );
}

#[test]
fn t_fort_5_grenadiers_of_either_side_storm_a_redoubt_at_5() {
    // A field battle, red attacking: a red redoubt at (2, 4) stormed by blue (defending)
    // grenadiers, a blue redoubt at (7, 5) stormed by red grenadiers; in the open, 4 for both.
    let exchange = |redoubts: bool| {
        let f = Field::new(10, 10);
        let f = if redoubts { f.terrain(&[(2, 4), (7, 5)], Terrain::Redoubt) } else { f };
        let mut c = f
            .unit_with(1, Side::Red, "line_infantry", (2, 4), Dir::South, |u| u.reactions = quiet())
            .unit_with(2, Side::Blue, "grenadiers", (2, 5), Dir::North, |u| u.reactions = quiet())
            .unit_with(3, Side::Red, "grenadiers", (7, 4), Dir::South, |u| u.reactions = quiet())
            .unit_with(4, Side::Blue, "line_infantry", (7, 5), Dir::North, |u| u.reactions = quiet())
            .ctx(1);
        ok(&mut c, Order::EndTurn);
        let grenadiers = |e: &Event| match e {
            Event::MeleeExchange { red, blue, .. } => Some((red.terms[0].value, blue.terms[0].value)),
            _ => None,
        };
        c.events.iter().filter_map(grenadiers).collect::<Vec<_>>()
    };
    // Each exchange's first terms: the red unit's and the blue unit's own values.
    assert_eq!(exchange(true), vec![(3, 5), (5, 3)], "T-FORT-5: 5 storming a redoubt, defender's grenadiers too");
    assert_eq!(exchange(false), vec![(3, 4), (4, 3)], "T-FORT-5: 4 in the open");
}

#[test]
fn t_fort_6_the_fortress_falls_when_no_defender_is_left_inside() {
    let mut c = fortress()
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 0), Dir::South)
        .unit_with(3, Side::Blue, "militia", (2, 5), Dir::North, |u| u.health = Some(4))
        .unit(4, Side::Blue, "light_cavalry", (0, 3), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 3)); // the last defender inside is dispersed
    let o = c.outcome.unwrap();
    assert_eq!((o.winner, o.reason), (Side::Red, EndReason::FortressTaken), "T-FORT-6");
    assert_eq!(status(&c, 3), Status::Captured, "T-FORT-6: dispersed defenders are prisoners");
    assert_eq!(status(&c, 4), Status::Active, "a unit outside the walls is not in the fortress");
}

#[test]
fn t_fort_7_capitulation_at_the_start_of_the_defenders_turn() {
    let mut b = Battle::new(&shipped("badajoz"), 3);
    let err = b.apply(Order::Capitulate).unwrap_err().to_string();
    assert!(err.contains("not possible") || err.contains("T-FORT-7"), "{err}");
    let mut c = fortress()
        .unit(1, Side::Red, "line_infantry", (1, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (1, 8), Dir::North)
        .unit(3, Side::Blue, "militia", (5, 8), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, Order::Capitulate).contains("T-FORT-7"), "not the attacker");
    ok(&mut c, Order::EndTurn);
    let mut late = c.clone();
    ok(&mut late, mv(2, &[(1, 7)]));
    assert!(refused(&mut late, Order::Capitulate).contains("start of the turn"));
    ok(&mut c, Order::Capitulate);
    let o = c.outcome.unwrap();
    assert_eq!((o.winner, o.reason), (Side::Red, EndReason::Capitulation), "T-FORT-7");
    assert_eq!((status(&c, 2), status(&c, 3)), (Status::Captured, Status::Captured));
    assert!(c.events.iter().any(|e| matches!(e, Event::Removed { how: Removal::Capitulated, .. })));
}

#[test]
fn t_fort_7_asked_the_moderator_records_the_terms_the_garrison_captured_or_marching_out() {
    use rules::game::Game;
    use rules::moderation::Asked;
    use rules::tactical::{OrderError, Ruling, Terms};
    let field = || {
        fortress()
            .unit(1, Side::Red, "line_infantry", (1, 1), Dir::South)
            .unit(2, Side::Blue, "line_infantry", (1, 8), Dir::North)
            .unit(3, Side::Blue, "militia", (5, 8), Dir::North)
    };
    // The moderator may take a battle's decisions only: T-FORT-7's terms.
    let mut b = field().battle(1);
    let e = b.apply(Order::Moderate { asks: vec![Asked::Played] }).expect_err("refused").to_string();
    assert!(e.contains("T-STRAT-9") && e.contains("campaign map"), "{e}");
    let events = b.apply(Order::Moderate { asks: vec![Asked::Capitulation] }).expect("moderated");
    assert_eq!(events, vec![Event::Moderated { asks: vec![Asked::Capitulation] }]);
    assert_eq!(b.apply(Order::Rule(Ruling::Default)), Err(OrderError::NoQuestion));
    b.apply(Order::EndTurn).expect("red's turn ends");
    // Blue capitulates: the battle waits for the terms; no side gives an order meanwhile.
    let events = b.apply(Order::Capitulate).expect("capitulates");
    assert_eq!(events, vec![Event::TermsAsked { side: Side::Blue }]);
    assert!(b.awaits_moderator() && b.active_player().is_none() && !b.is_over());
    assert_eq!(b.default_ruling(), Some(Order::Rule(Ruling::Default)));
    for order in [Order::EndTurn, Order::Capitulate, Order::Retreat] {
        assert_eq!(b.apply(order), Err(OrderError::AwaitsModerator { rule: "T-FORT-7" }));
    }
    let mut captured = Battle::replay(&b.save()).expect("the same battle, again");
    // Marching out, the garrison leaves the field as if it retreated, Health kept.
    let events = b.apply(Order::Rule(Ruling::Terms(Terms::MarchOut))).expect("ruled");
    assert!(events.contains(&Event::Ruled { rule: Asked::Capitulation, ruling: Ruling::Terms(Terms::MarchOut) }));
    assert!(events.contains(&Event::Removed { unit: UnitId(2), how: Removal::MarchedOut }), "{events:?}");
    let result = b.result().expect("over");
    assert_eq!((result.winner, result.reason), (Side::Red, EndReason::Capitulation));
    let fate = |r: &rules::tactical::BattleResult, id: u32| {
        r.units.iter().find(|u| u.id == UnitId(id)).map(|u| (u.status, u.health == u.max_health))
    };
    assert_eq!(
        (fate(&result, 2), fate(&result, 3)),
        (Some((Status::Retreated, true)), Some((Status::Retreated, true)))
    );
    assert_eq!(b.apply(Order::Rule(Ruling::Default)), Err(OrderError::BattleOver));
    // By default, the engine's terms: all captured, as in a battle nobody moderates.
    captured.apply(Order::Rule(Ruling::Default)).expect("ruled");
    let result = captured.result().expect("over");
    assert_eq!((fate(&result, 2), fate(&result, 3)), (Some((Status::Captured, true)), Some((Status::Captured, true))));
    // The save replays through the question to the same state.
    let replayed = Battle::replay(&b.save()).expect("replays");
    assert_eq!(replayed.hash(), b.hash());
    // A battle never moderated writes neither field (its hashes are as before).
    let plain = field().battle(1);
    let text = rules::data::to_ron(&plain.state().sides);
    assert!(!text.contains("ask_terms") && !text.contains("terms_asked"), "{text}");
}
