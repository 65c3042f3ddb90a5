//! The general staff's work with batteries (S-ART-5), sieges (S-FORT-6) and army reserves
//! (S-ARMY-6, S-ARMY-8), at the Veteran and Marshal levels, on small hand-built fronts.

mod gw_staff;

use ai::Level;
use ai::great_war::GwAi;
use gw_staff::staff_plays;
use rules::strategic::hexmap::flag;
use rules::strategic::scenario::{ArmySpec, CorpsSpec, ForceSpec, KindSpec, Scenario};
use rules::strategic::state::Place;
use rules::strategic::testkit::{ctx, hex, id, infantry, scenario, unit};
use rules::strategic::{Ctx, FormationId, HexAt, HexMap, Order, Phase, PowerId, Terrain};

const GERMANY: PowerId = PowerId(0);

fn gun(n: u32, power: &str, at: (i32, i32), name: &str) -> ForceSpec {
    unit(n, power, at, KindSpec::Artillery(name.into()))
}

fn clear(w: u32, h: u32) -> HexMap {
    HexMap::filled("test", w, h, Terrain::Clear)
}

/// Passes until `power`'s part of `phase`.
fn pass_to(ctx: &mut Ctx, power: PowerId, phase: Phase) {
    while !(ctx.clock.phase == phase && ctx.active_power() == power) {
        assert_ne!(ctx.clock.phase, Phase::Over);
        ctx.apply(&Order::EndPhase).expect("a pass");
    }
}

/// Three German 28 cm K L/40 Kurfürst (range 4, Attack 3, Health 2) on or next to (4, 4), a
/// French division 4 hexes off, and (with `enemy_gun`) a French 155 mm gun (range 2, speed 6)
/// whose move and range reach them.
fn three_guns(enemy_gun: bool) -> Scenario {
    let mut forces = vec![
        gun(1, "germany", (4, 4), "28 cm K L/40 Kurfürst"),
        gun(2, "germany", (5, 4), "28 cm K L/40 Kurfürst"),
        gun(3, "germany", (4, 5), "28 cm K L/40 Kurfürst"),
        infantry(10, "france", (8, 4)),
    ];
    if enemy_gun {
        forces.push(gun(11, "france", (11, 4), "Canon de 155 mle 81"));
    }
    scenario(clear(16, 10), forces)
}

/// S-ART-5: three guns standing together under the enemy's guns form a battery (their Health
/// summed: one shot of Attack 2 no longer destroys a gun of Health 2), and the battery fires as
/// one at the best target in its range (Attack 3 + 3 + 3 = 9 in one shot). Out of the enemy guns'
/// reach they stay single: a battery's shot takes 1 Morale where three shots take 3 (S-ART-3).
#[test]
fn s_art_5_the_staff_forms_a_battery_under_the_enemys_guns_and_fires_it_as_one() {
    for level in [Level::Veteran, Level::Marshal] {
        let s = three_guns(true);
        let mut c = ctx(&s, Phase::Movement, 0);
        assert!([hex(5, 4), hex(4, 5)].iter().all(|h| h.distance(hex(4, 4)) == 1));
        let orders = staff_plays(&mut c, GERMANY, level);
        assert!(
            orders.contains(&Order::FormBattery { units: [id(1), id(2), id(3)] }),
            "{level}: no battery in {orders:?}"
        );
        assert!((1..=3).all(|n| c.force(id(n)).is_some_and(|f| f.member.battery == Some(id(1)))));
        pass_to(&mut c, GERMANY, Phase::Fire);
        let health = c.force(id(10)).map(|f| f.vitals.health).expect("the French division");
        let fire = staff_plays(&mut c, GERMANY, level);
        let shots: Vec<&Order> = fire.iter().filter(|o| matches!(o, Order::Fire { .. })).collect();
        assert_eq!(shots.len(), 1, "{level}: the battery fires once: {fire:?}");
        assert!(matches!(shots[0], Order::Fire { target, .. } if *target == hex(8, 4)), "{level}: {shots:?}");
        assert!((1..=3).all(|n| c.force(id(n)).is_some_and(|f| f.activity.fired)), "{level}: all three fired");
        assert!(
            c.force(id(10)).is_none_or(|f| f.vitals.health < health || !f.on_map()),
            "{level}: the battery's shot hit"
        );

        let mut c = ctx(&three_guns(false), Phase::Movement, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        assert!(
            !orders.iter().any(|o| matches!(o, Order::FormBattery { .. })),
            "{level}: no enemy gun in reach, no battery: {orders:?}"
        );
    }
}

/// A French division in a fortress hex at (8, 4), another in the open at (8, 7); `forces` German.
fn fortress(forces: Vec<ForceSpec>) -> Scenario {
    let mut map = clear(16, 10);
    map.cell_mut(hex(8, 4)).expect("on the map").flags |= flag::FORTRESS;
    let mut all = vec![infantry(10, "france", (8, 4)), infantry(11, "france", (8, 7))];
    all.extend(forces);
    scenario(map, all)
}

/// S-FORT-6, S-TURN-3: a fortress hex withstands 8 damage in one Fire phase and takes all of it
/// before its troops; less is restored at the phase's end. Two 42 cm Dicke Bertha (Attack 4,
/// range 3) in reach of it break it together: the staff fires both at the fortress first, though
/// either would harm the division in the open more this turn; the hex stays broken (no longer
/// level 2, S-FORT-4). One gun alone could not break it and fires at the open instead.
#[test]
fn s_fort_6_the_staff_breaks_a_fortress_with_guns_that_together_reach_its_8() {
    for level in [Level::Veteran, Level::Marshal] {
        let s = fortress(vec![
            gun(1, "germany", (6, 5), "42 cm Dicke Bertha"),
            gun(2, "germany", (6, 6), "42 cm Dicke Bertha"),
        ]);
        let mut c = ctx(&s, Phase::Fire, 0);
        assert!([hex(8, 4), hex(8, 7)].iter().all(|t| [hex(6, 5), hex(6, 6)].iter().all(|g| g.distance(*t) <= 3)));
        let orders = staff_plays(&mut c, GERMANY, level);
        let at_fortress =
            orders.iter().filter(|o| matches!(o, Order::Fire { target, .. } if *target == hex(8, 4))).count();
        assert_eq!(at_fortress, 2, "{level}: both guns at the fortress: {orders:?}");
        assert!(c.hex_state(hex(8, 4)).fortress_destroyed, "{level}: the fortress hex is broken");

        let s = fortress(vec![gun(1, "germany", (6, 6), "42 cm Dicke Bertha")]);
        let mut c = ctx(&s, Phase::Fire, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        assert!(
            !orders.iter().any(|o| matches!(o, Order::Fire { target, gas: false, .. } if *target == hex(8, 4))),
            "{level}: one gun (4 of 8) wastes no shell on the fortress (a gas shell reaches the troops): {orders:?}"
        );
    }
}

/// S-ART-7, S-FORT-6: a shot at a hex where our troops fight loses half its damage to them on a
/// d6 of 1–3. With a German division engaged next to the fortress, two 42 cm guns (8) may leave it
/// standing (4 when both dice fall 1–3), so the staff fires no normal shell at it; four break it
/// whatever the dice, and fire at it.
#[test]
fn s_art_7_a_siege_into_stubborn_fighting_fires_only_guns_that_break_the_fortress_whatever_the_dice() {
    let guns = [(6, 5), (6, 6), (5, 5), (7, 6)].map(|(c, r)| hex(c, r));
    for level in [Level::Veteran, Level::Marshal] {
        for n in [2, 4] {
            let mut forces = vec![infantry(5, "germany", (9, 4))];
            forces.extend(
                guns[..n]
                    .iter()
                    .enumerate()
                    .map(|(i, at)| gun(1 + i as u32, "germany", (at.col, at.row), "42 cm Dicke Bertha")),
            );
            let mut c = ctx(&fortress(forces), Phase::Fire, 0);
            assert!(guns.iter().all(|g| g.distance(hex(8, 4)) <= 3) && hex(9, 4).is_adjacent(hex(8, 4)));
            let orders = staff_plays(&mut c, GERMANY, level);
            let at_fortress = orders
                .iter()
                .filter(|o| matches!(o, Order::Fire { target, gas: false, .. } if *target == hex(8, 4)))
                .count();
            // Four: at worst 2 a shot reaches it while our division stands (3 Health: two such hits
            // take it), 4 once it has gone; three shots always break it.
            let enough = if n == 2 { at_fortress == 0 } else { at_fortress >= 3 };
            assert!(enough, "{level}, {n} guns: {orders:?}");
            assert_eq!(c.hex_state(hex(8, 4)).fortress_destroyed, n == 4, "{level}, {n} guns");
        }
    }
}

/// S-FORT-6, S-FORT-4: defenders of an intact fortress fight at fortification level 2 from every
/// side. On a front four hexes wide a French division with 2 Health of 3 holds the fortress hex
/// (8, 1): one German division moving next to it would fight at D −8 (S-COMBAT-8), the enemy the
/// stronger, within the Veteran's hold of −19 for a post in contact (without the siege rule it
/// takes the post next to it). The staff sends no division into contact with an intact
/// fortress short of the attack's superiority: the lone division stands off it, screening it; two
/// divisions go in only where the preview sees them win by D ≥ 20.
#[test]
fn s_fort_6_the_staff_attacks_no_intact_fortress_at_bad_odds_and_screens_it() {
    use ai::great_war::judge::margin_at;
    use rules::strategic::combat::D_DISPERSED;
    let fort = hex(8, 1);
    for level in [Level::Veteran, Level::Marshal] {
        for germans in [vec![(10, 1)], vec![(10, 1), (10, 2)]] {
            let n = germans.len();
            let mut map = clear(16, 4);
            map.cell_mut(fort).expect("on the map").flags |= flag::FORTRESS;
            let mut forces = vec![infantry(10, "france", (8, 1))];
            forces[0].health = Some(2);
            forces.extend(germans.iter().enumerate().map(|(i, at)| infantry(1 + i as u32, "germany", *at)));
            let mut c = ctx(&scenario(map, forces), Phase::Movement, 0);
            let orders = staff_plays(&mut c, GERMANY, level);
            let at: Vec<HexAt> = (1..=n as u32).filter_map(|u| c.force(id(u)).and_then(|f| f.hex())).collect();
            let facing: Vec<HexAt> = at.iter().copied().filter(|h| h.distance(fort) == 1).collect();
            if n == 1 {
                assert!(facing.is_empty(), "{level}: a lone division faces the intact fortress: {orders:?}");
                assert!(at.iter().any(|h| h.distance(fort) <= 3), "{level}: the fortress is screened: {at:?}");
            }
            for h in facing {
                let d = margin_at(&c, GERMANY, h);
                assert!(d.is_some_and(|d| d >= D_DISPERSED), "{level}: {n} divisions attack it at D {d:?}: {orders:?}");
            }
        }
    }
}

/// A German army (201) of two corps of two divisions, at (10, 1) and (10, 4), facing French
/// divisions on column 6 of a clear map `height` rows high, with German `others`.
fn army_front(height: u32, others: Vec<ForceSpec>) -> Scenario {
    let mut forces: Vec<ForceSpec> =
        (0..height as i32).step_by(2).map(|row| infantry(60 + row as u32, "france", (6, row))).collect();
    forces.extend([
        infantry(1, "germany", (10, 1)),
        infantry(2, "germany", (10, 1)),
        infantry(3, "germany", (10, 4)),
        infantry(4, "germany", (10, 4)),
    ]);
    forces.extend(others);
    let mut s = scenario(clear(16, height), forces);
    s.corps = vec![
        CorpsSpec { id: 101, name: "I".into(), units: vec![1, 2], attached: Vec::new() },
        CorpsSpec { id: 102, name: "II".into(), units: vec![3, 4], attached: Vec::new() },
    ];
    s.armies = vec![ArmySpec {
        id: 201,
        name: "5th Army".into(),
        corps: vec![101, 102],
        reserves: Vec::new(),
        attached: Vec::new(),
    }];
    s
}

/// S-ARMY-6: an army may hold any number of units in its off-map reserve, out of combat and out
/// of reach of attack. With divisions to spare once the line is held, the staff sends one next to
/// the army and into its reserve.
#[test]
fn s_army_6_the_staff_puts_a_spare_division_into_its_armys_reserve() {
    let army = FormationId(201);
    for level in [Level::Veteran, Level::Marshal] {
        // Four: contact is battle (S-COMBAT-8), so a piece on a hex next to two French divisions
        // fights both, and the staff's line now takes three of them.
        let spare = vec![
            infantry(5, "germany", (13, 2)),
            infantry(6, "germany", (13, 3)),
            infantry(7, "germany", (13, 4)),
            infantry(8, "germany", (13, 5)),
        ];
        let mut c = ctx(&army_front(6, spare), Phase::Movement, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        let assigned: Vec<_> = orders
            .iter()
            .filter_map(|o| match o {
                Order::AssignReserve { unit, army: a } if *a == army => Some(*unit),
                _ => None,
            })
            .collect();
        assert_eq!(assigned.len(), 1, "{level}: one division into the reserve: {orders:?}");
        assert!([5, 6, 7, 8].iter().any(|n| id(*n) == assigned[0]), "{level}: a spare division");
        assert_eq!(c.force(assigned[0]).map(|f| f.place), Some(Place::Reserve(army)), "{level}");
    }
}

/// S-ARMY-8: a reserve of the army comes onto a free hex next to its army. The army's two corps
/// cannot cover a line ten rows long; after their moves the staff commits the reserve next to the
/// army where a contact needs it: onto a gap of the line as it then stands (or next to one), or
/// into a contact where the preview sees it strike with the doctrine's superiority.
#[test]
fn s_army_8_the_staff_commits_its_armys_reserve_where_the_line_has_a_gap() {
    use ai::great_war::front::Front;
    use ai::great_war::judge::advantage;
    for level in [Level::Veteran, Level::Marshal] {
        let mut reserve = infantry(5, "germany", (0, 0));
        reserve.at = None;
        let mut s = army_front(10, vec![reserve]);
        s.armies[0].reserves = vec![5];
        let mut c = ctx(&s, Phase::Movement, 0);
        assert_eq!(c.force(id(5)).map(|f| f.place), Some(Place::Reserve(FormationId(201))));
        let mut ai = GwAi::new(GERMANY, level, 3);
        let mut committed = None;
        while c.clock.phase == Phase::Movement && c.active_power() == GERMANY {
            let o = ai.decide(&c).expect("its turn");
            if let Order::CommitReserve { to, .. } = o {
                let gaps = Front::of(&c, GERMANY).gaps(&c, GERMANY);
                let gap = gaps.iter().any(|g| g.distance(to) <= 1);
                let strike = advantage(&c, GERMANY, &o).is_some_and(|a| a >= 10);
                assert!(gap || strike, "{level}: {o:?} plugs none of the gaps {gaps:?} and strikes at no odds");
                assert!(
                    c.formation_hexes(FormationId(201)).iter().any(|h| h.is_adjacent(to)),
                    "{level}: next to the army"
                );
                committed = Some(to);
            }
            c.apply(&o).unwrap_or_else(|e| panic!("{level}: {o:?}: {e}"));
        }
        let to = committed.unwrap_or_else(|| panic!("{level}: the reserve stays off the map"));
        assert_eq!(c.force(id(5)).and_then(|f| f.hex()), Some(to), "{level}");
    }
}

/// S-FORT-6, S-COMBAT-8: a division already standing next to an intact enemy fortress fights it
/// by default in every Combat phase (its front faces it). The French division with 2 Health in
/// the fortress (8, 1) has the better of the German one with 2 Health at (9, 1): stubborn fighting in
/// which the weaker side loses 2 Morale and the stronger 1, turn after turn. With no other enemy
/// next to it, the staff steps the German division back out of contact by the retreat order
/// (S-ARMY-15) to screen the fortress from a hex off; the Recruit, who lays no sieges, leaves it
/// fighting. At D −3 (a fight that costs both sides alike) it stays.
#[test]
fn s_fort_6_a_division_fighting_an_intact_fortress_at_a_loss_steps_back_to_screen_it() {
    use ai::great_war::judge::margin_at;
    use rules::strategic::combat::{D_DISPERSED, D_STUBBORN_HEAVY};
    let fort = hex(8, 1);
    for level in [Level::Recruit, Level::Veteran, Level::Marshal] {
        let mut map = clear(16, 4);
        map.cell_mut(fort).expect("on the map").flags |= flag::FORTRESS;
        let mut forces = vec![infantry(10, "france", (8, 1)), infantry(1, "germany", (9, 1))];
        forces[0].health = Some(2);
        forces[1].health = Some(2);
        let mut c = ctx(&scenario(map, forces), Phase::Movement, 0);
        // No money: a repair or upgrade would change the odds (it attacks once they favour it).
        c.powers[usize::from(GERMANY.0)].money = 0;
        assert!(hex(9, 1).is_adjacent(fort));
        let d = margin_at(&c, GERMANY, hex(9, 1)).expect("it fights the fortress by default");
        assert!((-D_DISPERSED + 1..=-D_STUBBORN_HEAVY).contains(&d), "stubborn fighting against it: D {d}");
        let orders = staff_plays(&mut c, GERMANY, level);
        let at = c.force(id(1)).and_then(|f| f.hex()).expect("on the map");
        if level == Level::Recruit {
            assert_eq!(at, hex(9, 1), "the Recruit stays in the fight: {orders:?}");
            continue;
        }
        assert!(orders.iter().any(|o| matches!(o, Order::Retreat { .. })), "{level}: S-ARMY-15: {orders:?}");
        assert!(at.distance(fort) >= 2 && at.distance(fort) <= 3, "{level}: it screens the fortress from {at}");
        assert_eq!(margin_at(&c, GERMANY, at), None, "{level}: out of the fight");
    }
    // The other side of the threshold: the German division at full Health fights at D −3 (both
    // sides lose 1 Morale, S-COMBAT-8) and holds its ground.
    for level in [Level::Veteran, Level::Marshal] {
        let mut map = clear(16, 4);
        map.cell_mut(fort).expect("on the map").flags |= flag::FORTRESS;
        let mut forces = vec![infantry(10, "france", (8, 1)), infantry(1, "germany", (9, 1))];
        forces[0].health = Some(2);
        let mut c = ctx(&scenario(map, forces), Phase::Movement, 0);
        c.powers[usize::from(GERMANY.0)].money = 0;
        let d = margin_at(&c, GERMANY, hex(9, 1)).expect("it fights the fortress by default");
        assert!(d < 0 && d > -D_STUBBORN_HEAVY, "even stubborn fighting: D {d}");
        let orders = staff_plays(&mut c, GERMANY, level);
        assert!(!orders.iter().any(|o| matches!(o, Order::Retreat { .. })), "{level}: it stays: {orders:?}");
    }
}

/// Whether one of `guns` stands with the two others on or next to its hex (S-ART-5: a battery
/// forms from three guns on or next to the first one's hex).
fn together(c: &Ctx, guns: [u32; 3]) -> bool {
    let at: Vec<HexAt> = guns.iter().filter_map(|g| c.force(id(*g)).and_then(|f| f.hex())).collect();
    at.len() == 3 && at.iter().any(|a| at.iter().all(|b| b.distance(*a) <= 1))
}

/// S-ART-5: guns spread along the rear behind a German line gather by threes as they come up to
/// the front (a battery forms only from guns on or next to one hex), and once together under the
/// enemy's guns they form the battery, within three turns. The Recruit, who forms no batteries,
/// brings each gun to its own nearest spot, apart.
#[test]
fn s_art_5_the_staff_brings_its_guns_together_to_form_a_battery() {
    let spread = || {
        let mut forces = vec![
            gun(1, "germany", (3, 2), "28 cm K L/40 Kurfürst"),
            gun(2, "germany", (3, 5), "28 cm K L/40 Kurfürst"),
            gun(3, "germany", (3, 8), "28 cm K L/40 Kurfürst"),
            gun(11, "france", (12, 5), "Canon de 155 mle 81"),
        ];
        forces.extend((0..5).map(|i| infantry(4 + i, "germany", (6, 1 + 2 * i as i32))));
        forces.extend((0..3).map(|i| infantry(20 + i, "france", (9, 1 + 4 * i as i32))));
        scenario(clear(16, 11), forces)
    };
    let spots = |c: &Ctx| -> Vec<HexAt> { (1..=3).filter_map(|g| c.force(id(g)).and_then(|f| f.hex())).collect() };
    let mut c = ctx(&spread(), Phase::Movement, 0);
    assert!(!together(&c, [1, 2, 3]));
    staff_plays(&mut c, GERMANY, Level::Recruit);
    assert!(!together(&c, [1, 2, 3]), "the Recruit's guns stay apart: {:?}", spots(&c));
    for level in [Level::Veteran, Level::Marshal] {
        let mut c = ctx(&spread(), Phase::Movement, 0);
        let mut formed = false;
        for _ in 0..3 {
            let orders = staff_plays(&mut c, GERMANY, level);
            if orders.iter().any(|o| matches!(o, Order::FormBattery { units } if units.iter().all(|u| u.0 <= 3))) {
                formed = true;
                break;
            }
            pass_to(&mut c, GERMANY, Phase::Movement);
        }
        assert!(formed, "{level}: no battery; the guns stand on {:?}", spots(&c));
    }
}

/// A clear map `width` × `height` whose only province is German, with its city at `city`.
fn german_city_map(width: u32, height: u32, city: (i32, i32)) -> HexMap {
    let text = format!(
        r#"GreatWarMap(name: "g", width: {width}, height: {height},
          provinces: [(id: "home", name: "Home", owner: "germany", capital: "city", gdp: 0, manpower: (0, 0))],
          cities: [(id: "city", name: "City", province: "home", hexes: [({}, {})])])"#,
        city.0, city.1
    );
    HexMap::parse("g.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// S-COMBAT-11, S-ARMY-15: the German division at (5, 5) between French divisions at (4, 5) and
/// (6, 5) has every free hex around it next to an enemy: the engine finds it encircled (at the
/// Upkeep it would lose 2 Morale and a quarter of its value, and more each turn). The staff takes
/// it out of the pocket by the retreat order, towards the hexes open to the German city at (5, 0)
/// (1 Morale once); the Recruit, who never retreats, leaves it encircled.
#[test]
fn s_combat_11_the_staff_takes_an_encircled_division_out_of_the_pocket() {
    let map = german_city_map(12, 10, (5, 0));
    let forces = vec![infantry(1, "germany", (5, 5)), infantry(10, "france", (4, 5)), infantry(11, "france", (6, 5))];
    for level in [Level::Recruit, Level::Veteran, Level::Marshal] {
        let mut c = ctx(&scenario(map.clone(), forces.clone()), Phase::Movement, 0);
        c.powers[usize::from(GERMANY.0)].money = 0;
        assert_eq!(c.encircled_groups(), vec![vec![hex(5, 5)]], "encircled to begin with");
        let morale = c.force(id(1)).and_then(|f| f.vitals.morale);
        let orders = staff_plays(&mut c, GERMANY, level);
        let at = c.force(id(1)).and_then(|f| f.hex()).expect("on the map");
        let encircled = c.encircled_groups().into_iter().flatten().any(|h| h == at);
        if level == Level::Recruit {
            assert!(encircled, "the Recruit stays: {orders:?}");
            continue;
        }
        assert!(!encircled, "{level}: out of the pocket at {at}: {orders:?}");
        assert!(orders.iter().any(|o| matches!(o, Order::Retreat { .. })), "{level}: {orders:?}");
        assert_eq!(c.force(id(1)).and_then(|f| f.vitals.morale), morale.map(|m| m - 1), "{level}: S-ARMY-15");
    }
}

/// S-COMBAT-11: a German division at (6, 5), out of contact, with three French divisions two
/// hexes out, placed (the first such three of the ring, in hex order) so that every hex next to
/// it lies next to one of them: the engine finds it encircled, as no German holds a hex next to
/// it. Held by it, a hex next to it would join it to the open ground between the French beyond.
/// The staff moves it there (out of the pocket, towards the German city at (14, 5)).
#[test]
fn s_combat_11_a_free_division_in_a_pocket_makes_for_the_gap() {
    let map = german_city_map(16, 10, (14, 5));
    let centre = hex(6, 5);
    let ring: Vec<HexAt> =
        (0..10).flat_map(|row| (0..16).map(move |col| hex(col, row))).filter(|h| h.distance(centre) == 2).collect();
    assert_eq!(ring.len(), 12);
    let with = |three: [HexAt; 3]| {
        let mut forces = vec![infantry(1, "germany", (6, 5))];
        forces.extend(three.iter().enumerate().map(|(i, h)| infantry(10 + i as u32, "france", (h.col, h.row))));
        scenario(map.clone(), forces)
    };
    let mut trios = (0..12).flat_map(|a| (a + 1..12).flat_map(move |b| (b + 1..12).map(move |c| [a, b, c])));
    let three = trios
        .find_map(|[a, b, c]| {
            let three = [ring[a], ring[b], ring[c]];
            (ctx(&with(three), Phase::Movement, 0).encircled_groups() == vec![vec![centre]]).then_some(three)
        })
        .expect("three French divisions that encircle it");
    for level in [Level::Veteran, Level::Marshal] {
        let mut c = ctx(&with(three), Phase::Movement, 0);
        c.powers[usize::from(GERMANY.0)].money = 0;
        assert!(!c.next_to_enemy(GERMANY, centre));
        let orders = staff_plays(&mut c, GERMANY, level);
        let at = c.force(id(1)).and_then(|f| f.hex()).expect("on the map");
        let encircled = c.encircled_groups().into_iter().flatten().any(|h| h == at);
        assert!(!encircled, "{level}: French on {three:?}, at {at}: {orders:?}");
    }
}

/// S-COMBAT-11: two German divisions two hexes from a French one at (6, 5) leave it one way out;
/// a third German division, free, four hexes off, can reach the hex that closes it (the three
/// of the ring that encircle it are the first such three, in hex order, and the third one's hex
/// is the gap). The staff sends it there: after its move the engine finds the French division
/// encircled (at the Upkeep it loses 2 Morale and a quarter of its value).
#[test]
fn s_combat_11_the_staff_closes_a_ring_round_an_enemy_division() {
    let map = HexMap::parse(
        "ring.ron",
        r#"GreatWarMap(name: "r", width: 16, height: 12,
          provinces: [
            (id: "west", name: "West", owner: "germany", capital: "berlin", gdp: 0, manpower: (0, 0)),
            (id: "east", name: "East", owner: "france", capital: "paris", gdp: 0, manpower: (0, 0)),
          ],
          cities: [
            (id: "berlin", name: "Berlin", province: "west", hexes: [(1, 1)]),
            (id: "paris", name: "Paris", province: "east", hexes: [(15, 11)]),
          ])"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let centre = hex(6, 5);
    let ring: Vec<HexAt> =
        (0..12).flat_map(|row| (0..16).map(move |col| hex(col, row))).filter(|h| h.distance(centre) == 2).collect();
    let with = |germans: &[HexAt]| {
        let mut forces = vec![infantry(10, "france", (6, 5))];
        forces.extend(germans.iter().enumerate().map(|(i, h)| infantry(1 + i as u32, "germany", (h.col, h.row))));
        scenario(map.clone(), forces)
    };
    let french = |c: &Ctx| c.encircled_groups().contains(&vec![centre]);
    let mut trios = (0..12).flat_map(|a| (a + 1..12).flat_map(move |b| (b + 1..12).map(move |c| [a, b, c])));
    let three = trios
        .find_map(|[a, b, c]| {
            let three = [ring[a], ring[b], ring[c]];
            french(&ctx(&with(&three), Phase::Movement, 0)).then_some(three)
        })
        .expect("three German divisions that encircle it");
    // The gap's German starts four hexes further out, on the side away from the French.
    let gap = three[2];
    let start = (0..12)
        .flat_map(|row| (0..16).map(move |col| hex(col, row)))
        .filter(|h| h.distance(gap) == 3 && h.distance(centre) == 5)
        .min()
        .expect("a start");
    let germans = [three[0], three[1], start];
    for level in [Level::Veteran, Level::Marshal] {
        let mut c = ctx(&with(&germans), Phase::Movement, 0);
        c.powers[usize::from(GERMANY.0)].money = 0;
        assert!(!french(&c), "one way out to begin with");
        let orders = staff_plays(&mut c, GERMANY, level);
        assert!(french(&c), "{level}: the ring closed ({three:?}, from {start}): {orders:?}");
    }
}
