//! The campaign as a game: generated battlefields valid under every tactical rule, saves that
//! embed their battles and replay with hashes, split and merge, victory, and hostile files.

use rules::campaign::field::{attacker_edge, generate};
use rules::campaign::state::VictoryReason;
use rules::campaign::{ArmyId, Campaign, CampaignSave, CampaignScenario, Event, HexAt, Order};
use rules::data::to_ron;
use rules::game::Game;
use rules::tactical::scenario::BattleKind;
use rules::tactical::{Battle, Dir, Scenario, Side, Terrain, UnitId};
use std::path::Path;

fn linden() -> CampaignScenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/campaign/linden.ron");
    CampaignScenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn ok(c: &mut Campaign, order: Order) -> Vec<Event> {
    c.apply(order.clone()).unwrap_or_else(|e| panic!("{}: {e}", order.name()))
}

fn pass(c: &mut Campaign) -> Vec<Event> {
    let order = c.pass();
    ok(c, order)
}

fn mv(army: u32, path: &[(i32, i32)]) -> Order {
    Order::Move { army: ArmyId(army), path: path.iter().map(|(c, r)| HexAt::new(*c, *r)).collect() }
}

#[test]
fn generated_fields_are_valid_battles_on_every_hex_and_deterministic() {
    let s = linden();
    let mut kinds = (0, 0, 0, 0);
    for at in s.map.hexes().filter(|h| s.map.passable(*h)) {
        for (from, artillery, seed) in
            [(HexAt::new(at.col, at.row - 1), false, 1), (HexAt::new(at.col + 1, at.row + 1), true, 2)]
        {
            let edge = attacker_edge(at, Some(from));
            let field = generate(&s.map, at, edge, artillery, s.campaign_rules.field_size, &s.rules, seed);
            assert_eq!(
                field,
                generate(&s.map, at, edge, artillery, s.campaign_rules.field_size, &s.rules, seed),
                "seeded"
            );
            assert_eq!((field.grid.width, field.grid.height), (20, 14), "MD-T2 map size");
            let rivers = field.grid.rivers();
            assert!(rivers.iter().all(|r| (2..=3).contains(&r.fords)), "T-TERR-3 at {at}: {rivers:?}");
            let has = |t: Terrain| field.grid.cells().any(|c| field.grid.terrain(c) == Some(t));
            assert_eq!(
                !rivers.is_empty(),
                !s.map.river_sides(at).is_empty(),
                "a river on the field iff on the hex {at}"
            );
            assert_eq!(field.kind == BattleKind::Fortress, s.map.has_fortress(at));
            if s.map.has_village(at) {
                assert!(has(Terrain::Building), "a village at {at}");
            }
            kinds.0 += usize::from(!rivers.is_empty());
            kinds.1 += usize::from(has(Terrain::SparseForest) || has(Terrain::DenseForest));
            kinds.2 += usize::from(has(Terrain::Hill));
            kinds.3 += usize::from(field.kind == BattleKind::Fortress);
            // A full battle on it: the scenario passes every check of a scenario file (T-TERR-3,
            // T-FORT-2, T-SETUP-2...) and a battle runs on it to the end.
            let mut units = Vec::new();
            for (side, base) in [(Side::Red, 1), (Side::Blue, 101)] {
                let types = if side == Side::Red && artillery {
                    ["artillery", "light_cavalry", "line_infantry"]
                } else {
                    ["line_infantry", "heavy_cavalry", "light_infantry"]
                };
                for i in 0..10u32 {
                    units.push(rules::tactical::scenario::UnitSpec {
                        id: UnitId(base + i),
                        side,
                        unit: types[(i % 3) as usize].to_string(),
                        name: None,
                        name_ru: None,
                        at: None,
                        facing: None,
                        health: None,
                        reactions: None,
                        skirmish: false,
                        reserve: false,
                    });
                }
            }
            let spec = |side: Side, e: Dir| rules::tactical::scenario::SideSpec {
                name: format!("{side:?}"),
                name_ru: String::new(),
                faction: if side == Side::Red { "France".into() } else { "Russia".into() },
                edge: e,
                redoubts: 2,
                hq: None,
                formations: Vec::new(),
                bring_up: 0,
                bring_up_from_turn: 0,
                general_lost: None,
            };
            let scenario = Scenario {
                name: "generated".into(),
                name_ru: String::new(),
                description: String::new(),
                kind: field.kind,
                attacker: Side::Red,
                red: spec(Side::Red, field.attacker_edge),
                blue: spec(Side::Blue, field.attacker_edge.opposite()),
                map: field.grid.clone(),
                unit_types: s.unit_types.clone(),
                rules: s.rules.clone(),
                units,
            };
            let checked = Scenario::from_resolved_text("generated.ron", &to_ron(&scenario));
            let scenario = checked
                .unwrap_or_else(|e| panic!("the field at {at} from {from}: {e}\n{}", field.grid.rows().join("\n")));
            let save = rules::campaign::fight::stand_battle(&scenario, seed);
            let battle = Battle::replay(&save).unwrap_or_else(|e| panic!("{e}"));
            assert!(Game::is_over(&battle));
            assert!(
                battle.units(None).iter().filter(|u| u.status == "active").count() >= 10,
                "everyone deployed at {at}"
            );
        }
    }
    assert!(kinds.0 > 0 && kinds.1 > 0 && kinds.2 > 0 && kinds.3 > 0, "rivers, forest, hills, fortresses: {kinds:?}");
    // Another seed gives another field.
    let at = HexAt::new(2, 1);
    let a = generate(&s.map, at, Dir::North, false, (20, 14), &s.rules, 1);
    let b = generate(&s.map, at, Dir::North, false, (20, 14), &s.rules, 99);
    assert_ne!(a.grid, b.grid);
}

#[test]
fn a_scenario_names_a_hand_made_field_for_a_hex() {
    let s = linden();
    let kulm = HexAt::new(5, 4);
    assert_eq!(s.field_at(kulm).map(|f| f.map.name.as_str()), Some("Semyonovskoye"));
    // I Corps, at (4, 4), attacks the 1st Western Army at Kulm.
    let mut s2 = s.clone();
    s2.armies.retain(|a| a.id == 1 || a.id == 11);
    s2.armies[0].at = HexAt::new(4, 4);
    s2.armies[1].at = kulm;
    let mut c = Campaign::new(&s2, 3);
    ok(&mut c, mv(1, &[(5, 4)]));
    pass(&mut c);
    pass(&mut c);
    let b = c.battle_scenario().expect("scenario");
    assert_eq!(b.map.name, "Semyonovskoye");
    assert_eq!((b.red.edge, b.blue.edge), (Dir::North, Dir::South));
}

/// Plays the Linden campaign with the default of every player: marches, one grid battle (fought
/// standing), one auto-battle.
fn play_linden(seed: u64) -> Campaign {
    let s = linden();
    let mut c = Campaign::new(&s, seed);
    // Turn 1, France: I Corps marches south-east towards Lindenau; the cavalry rides at the Cossacks.
    ok(&mut c, Order::Directive { to: Some(ArmyId(1)), text: "Lindenau by turn 2.".into() });
    ok(&mut c, mv(1, &[(1, 1), (2, 1)]));
    ok(&mut c, mv(1, &[(3, 1)]));
    assert!(c.state().battle.is_some(), "Lindenau is held: a battle (key hex, always played)");
    // Both choose; the battle, fought elsewhere with nobody giving an order, is reported whole
    // (any later battle is fought on the campaign's log, order by order, by the passes below).
    pass(&mut c);
    pass(&mut c);
    let report = stood(&c);
    ok(&mut c, report);
    ok(&mut c, Order::Split { army: ArmyId(2), units: vec![UnitId(14)] });
    // The hussars ride at the Cossacks across the ford: 1 v 2, an auto-battle (T-STRAT-9).
    let events = ok(&mut c, mv(2, &[(5, 1), (5, 2), (4, 3), (5, 3)]));
    assert!(events.iter().any(|e| matches!(e, Event::AutoBattleWon { .. })), "{events:?}");
    while !c.is_over() {
        pass(&mut c);
    }
    c
}

/// The waiting battle stood out with no order given, reported whole.
fn stood(c: &Campaign) -> Order {
    let b = c.state().battle.clone().expect("a battle waits");
    let scenario = c.battle_scenario().expect("its scenario");
    Order::BattleResult { save: Box::new(rules::campaign::fight::stand_battle(&scenario, b.seed)) }
}

#[test]
fn a_campaign_save_embeds_its_battles_and_replays_bit_identically() {
    let c = play_linden(11);
    let kinds: Vec<&Event> =
        c.events().iter().filter(|e| matches!(e, Event::BattleWon { .. } | Event::AutoBattleWon { .. })).collect();
    assert!(kinds.iter().any(|e| matches!(e, Event::BattleWon { .. })), "a grid battle: {kinds:?}");
    assert!(kinds.iter().any(|e| matches!(e, Event::AutoBattleWon { .. })), "an auto-battle: {kinds:?}");
    assert!(c.orders().iter().any(|o| matches!(o, Order::BattleResult { .. })));
    let save = c.save();
    let text = save.to_text();
    assert!(text.starts_with("CampaignSave("), "{}", &text[..40]);
    let back = CampaignSave::from_text("linden.save.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, save);
    let replayed = Campaign::replay(&back).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.hash(), c.hash());
    assert_eq!(replayed.state(), c.state());
    assert!(save.checkpoints.len() > 3);
    // Another seed: the same orders are legal, the battles' dice differ.
    assert_eq!(play_linden(11).hash(), c.hash(), "deterministic");
}

#[test]
fn an_altered_battle_save_is_refused() {
    let s = linden();
    let mut c = Campaign::new(&s, 5);
    ok(&mut c, mv(1, &[(1, 1), (2, 1)]));
    ok(&mut c, mv(1, &[(3, 1)]));
    pass(&mut c);
    pass(&mut c);
    let Order::BattleResult { save } = stood(&c) else { panic!("a battle to report") };
    // Other dice.
    let mut other_seed = (*save).clone();
    other_seed.seed += 1;
    let e = c.apply(Order::BattleResult { save: Box::new(other_seed) }).expect_err("refused").to_string();
    assert!(e.contains("seed"), "{e}");
    // Another battle's scenario.
    let mut other = (*save).clone();
    other.scenario.units.pop();
    let e = c.apply(Order::BattleResult { save: Box::new(other) }).expect_err("refused").to_string();
    assert!(e.contains("not of the battle"), "{e}");
    // A result that does not replay.
    let mut forged = (*save).clone();
    forged.final_hash = rules::StateHash(forged.final_hash.0 ^ 1);
    let e = c.apply(Order::BattleResult { save: Box::new(forged) }).expect_err("refused").to_string();
    assert!(e.contains("does not replay"), "{e}");
    // An unfinished battle.
    let mut b = Battle::new(&save.scenario, save.seed);
    for o in save.orders.iter().take(3) {
        b.apply(o.clone()).unwrap_or_else(|e| panic!("{e}"));
    }
    let unfinished = b.save();
    let e = c.apply(Order::BattleResult { save: Box::new(unfinished) }).expect_err("refused").to_string();
    assert!(e.contains("not over"), "{e}");
    ok(&mut c, Order::BattleResult { save });
}

#[test]
fn split_and_merge_armies_in_one_hex() {
    let s = linden();
    let mut c = Campaign::new(&s, 1);
    let e = c.apply(Order::Split { army: ArmyId(1), units: vec![] }).expect_err("none").to_string();
    assert!(e.contains("not none or all"), "{e}");
    let all: Vec<UnitId> = (1..=12).map(UnitId).collect();
    assert!(c.apply(Order::Split { army: ArmyId(1), units: all }).is_err(), "not all");
    assert!(c.apply(Order::Split { army: ArmyId(11), units: vec![UnitId(21)] }).is_err(), "not Blue's");
    let events = ok(&mut c, Order::Split { army: ArmyId(1), units: vec![UnitId(7), UnitId(8)] });
    assert_eq!(events, vec![Event::Split { army: ArmyId(1), new: ArmyId(14), units: 2 }]);
    assert_eq!(c.state().army(ArmyId(14)).map(|a| a.units.clone()), Some(vec![UnitId(7), UnitId(8)]));
    ok(&mut c, mv(14, &[(2, 0)]));
    assert!(c.apply(Order::Merge { army: ArmyId(14), into: ArmyId(1) }).is_err(), "not in one hex");
    ok(&mut c, mv(1, &[(2, 0)]));
    ok(&mut c, Order::Merge { army: ArmyId(14), into: ArmyId(1) });
    assert!(c.state().army(ArmyId(14)).is_none());
    assert_eq!(c.state().army(ArmyId(1)).map(|a| (a.units.len(), a.mp_left)), Some((12, 5)));
}

#[test]
fn the_turn_limit_decides_by_key_hexes_and_the_players_take_turns() {
    let s = linden();
    let mut c = Campaign::new(&s, 1);
    assert_eq!(c.players(), vec![Side::Red, Side::Blue]);
    assert_eq!(c.active_player(), Some(Side::Red));
    ok(&mut c, Order::EndTurn);
    assert_eq!(c.active_player(), Some(Side::Blue));
    assert!(c.apply(mv(1, &[(2, 0)])).is_err_and(|e| e.to_string().contains("belongs to Red")));
    ok(&mut c, Order::EndTurn);
    assert_eq!((c.turn(), c.active_player()), (2, Some(Side::Red)));
    while !c.is_over() {
        pass(&mut c);
    }
    let o = c.state().outcome.expect("over");
    assert_eq!((o.winner, o.reason, o.turn), (Side::Blue, VictoryReason::TurnLimit, 6), "Blue keeps both key hexes");
    assert!(c.apply(Order::EndTurn).is_err_and(|e| e.to_string() == "the campaign is over"));
}

#[test]
fn taking_every_key_hex_wins_at_once() {
    let mut s = linden();
    s.victory.key_hexes.truncate(1); // Lindenau only
    s.armies.retain(|a| a.id == 2 || a.id == 13);
    s.armies[0].at = HexAt::new(3, 0);
    let mut c = Campaign::new(&s, 1);
    ok(&mut c, mv(2, &[(3, 1)]));
    ok(&mut c, Order::EndTurn);
    let events = ok(&mut c, Order::EndTurn);
    assert!(events.contains(&Event::KeyHexTaken { at: HexAt::new(3, 1), by: Side::Red }));
    assert_eq!(c.state().outcome.map(|o| (o.winner, o.reason)), Some((Side::Red, VictoryReason::AllKeyHexes)));
}

#[test]
fn malformed_campaign_files_give_their_place() {
    let dir = std::env::temp_dir().join(format!("kriegsspiel-campaign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/campaign");
    let map = std::fs::read_to_string(real.join("linden_map.ron")).expect("map");
    let scenario = std::fs::read_to_string(real.join("linden.ron")).expect("scenario")
        .replace("../../", &format!("{}/../../", real.display()))
        .replace(
            "map: \"linden_map.ron\",",
            &format!(
                "map: \"map.ron\", units_table: \"{0}/../../assets/data/napoleonic_units.ron\", rules: \"{0}/../../assets/data/napoleonic_rules.ron\", campaign_rules: \"{0}/../../assets/data/campaign_rules.ron\",",
                real.display()
            ),
        );
    let try_with = |map_text: &str, scen: &str| {
        std::fs::write(dir.join("map.ron"), map_text).expect("write");
        std::fs::write(dir.join("c.ron"), scen).expect("write");
        CampaignScenario::load(&dir.join("c.ron")).map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(try_with(&map, &scenario), Ok(()));
    let e = try_with(&map.replace("\"...s....\"", "\"...x....\""), &scenario).expect_err("bad ground");
    assert!(e.contains("map.ron:") && e.contains("unknown ground `x`"), "{e}");
    let e =
        try_with(&map.replace("side: \"SE\", ford: true", "side: \"S\", ford: true"), &scenario).expect_err("bad side");
    assert!(e.contains("`S` is not a hexside"), "{e}");
    let e = try_with(&map, &scenario.replace("turns: 6,", "turns: 6, colour: 1,")).expect_err("unknown field");
    assert!(e.contains("c.ron:") && e.contains("colour"), "{e}");
    let e = try_with(&map, &scenario.replace("\"lg_hussars\"", "\"lg_hussarz\"")).expect_err("unknown unit");
    assert!(e.contains("unknown unit type `lg_hussarz`"), "{e}");
    let e = try_with(&map, &scenario.replace("at: (1, 0), units", "at: (2, 3), units")).expect_err("on the lake");
    assert!(e.contains("on water"), "{e}");
    let e = try_with(&map, &scenario[..scenario.len() / 2]).expect_err("truncated");
    assert!(e.contains("c.ron:"), "{e}");
    let e = try_with(&map, &scenario.replace("(id: 2, unit: \"line_infantry\"", "(id: 1, unit: \"line_infantry\""))
        .expect_err("twice");
    assert!(e.contains("unit id 1 is used twice"), "{e}");
    let huge = format!("CampaignMap(name: \"x\", rows: [\"{}\"])", ".".repeat(9000));
    let e = try_with(&huge, &scenario).expect_err("too wide");
    assert!(e.contains("limit of this program"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
