//! The preview runs the same rules code on copies with every fall of the dice.

use rules::tactical::preview::Fate;
use rules::tactical::{Battle, Cell, Dir, Order, Side, Terrain, UnitId};
use rules::testing::orders::*;
use rules::testing::{Field, shipped};

#[test]
fn preview_of_the_worked_example_move_shows_the_sums_and_odds() {
    let mut b = Battle::new(&shipped("worked_example_b"), 1);
    b.apply(fire(1, 2)).unwrap();
    let before = b.hash();
    let p = b.preview(&mv(1, &[(5, 4)])).unwrap();
    assert_eq!(b.hash(), before, "a preview changes nothing");
    assert!(p.exact && p.projected_melee);
    let text = p.lines().join("\n");
    assert!(text.contains("damage 3 ranged = 3"), "P's counter-volley: {text}");
    assert!(
        text.contains(
            "red 3 (L: 52nd Foot) = 3 vs blue 2 (P: 9e Léger) + 2 (C: 5e Chasseurs à cheval) + 1 charge + 1 flank = 6"
        ),
        "{text}"
    );
    let l = p.units.iter().find(|u| u.unit == UnitId(1)).unwrap();
    // L ends at 2 and tests morale: holds on 4–6 (50 %), else dispersed.
    assert_eq!(l.fates, vec![(Fate::Health(2), 0.5), (Fate::Dispersed, 0.5)], "{text}");
    let m = p.morale.iter().find(|m| m.unit == UnitId(1)).unwrap();
    assert_eq!((m.tested, m.pass), (1.0, 0.5));
}

#[test]
fn preview_of_roundshot_gives_the_coin() {
    let c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (5, 0), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 8), Dir::North)
        .ctx(1);
    let p = c.preview(&fire(1, 2)).unwrap();
    let t = &p.units[0];
    assert_eq!(t.fates, vec![(Fate::Health(6), 0.5), (Fate::Health(10), 0.5)], "T-FIRE-5 roundshot 4–6");
    assert!(p.lines().join(" ").contains("hits on 4–6"));
}

#[test]
fn preview_of_an_illegal_order_is_the_same_error() {
    let c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (5, 0), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 8), Dir::North)
        .ctx(1);
    let mut copy = c.clone();
    let err = copy.apply(&mv(1, &[(6, 1)])).unwrap_err();
    assert_eq!(c.preview(&mv(1, &[(6, 1)])).unwrap_err(), err);
}

#[test]
fn preview_does_not_reveal_an_ambush() {
    let c = Field::new(12, 12)
        .terrain(&[(5, 6)], Terrain::DenseForest)
        .unit(1, Side::Red, "light_cavalry", (5, 1), Dir::South)
        .unit(3, Side::Blue, "light_infantry", (5, 6), Dir::North)
        .unit(4, Side::Blue, "line_infantry", (1, 10), Dir::North)
        .ctx(1);
    let p = c.preview(&mv(1, &[(5, 2), (5, 3), (5, 4), (5, 5), (4, 5)])).unwrap();
    assert!(p.units.iter().all(|u| u.unit != UnitId(3)), "the hidden unit does not appear");
    assert!(!p.projected_melee, "as red knows it, the move ends out of contact");
    let _ = Cell::new(0, 0);
    let _ = Order::EndTurn;
}
