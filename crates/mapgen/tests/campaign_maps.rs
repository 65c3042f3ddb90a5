//! `mapgen campaign`: land and sea from the land rings, ground from the terrain areas by each hex's
//! centre, rivers on the hexsides whose centres they separate, fords at crossing points, towns on land.

use mapgen::campaign::{CampaignFrame, build};
use rules::campaign::map::Crossing;
use rules::campaign::{CampaignMap, HexAt};
use rules::strategic::geo::GeoProjection;

/// A 6 × 5 map of 40 km hexes around 54° N 29° E.
fn frame(places: &str, crossings: &str) -> CampaignFrame {
    let text = format!(
        r#"CampaignFrame(
  name: "Test",
  file: "test.ron",
  width: 6,
  height: 5,
  projection: (origin: (54, 29), parallels: (52, 57), radius_km: 6371, hex_km: 40, corner_km: (-100, 80)),
  header: ["a test map"],
  rivers: [(id: "r", name: "River", name_ru: "Река", points: [(55.5, 28.97), (52.5, 28.97)])],
  crossings: [{crossings}],
  areas: [(name: "Wood", terrain: Forest, points: [(54.8, 27.0), (54.8, 28.4), (54.2, 28.4), (54.2, 27.0)])],
  places: [{places}],
)"#
    );
    ron::from_str(&text).expect("the frame parses")
}

/// Land: a box from 52° to 56° N, 26° to 29.5° E (the east of the map is sea).
fn land() -> Vec<Vec<(f64, f64)>> {
    vec![vec![(26.0, 52.0), (29.5, 52.0), (29.5, 56.0), (26.0, 56.0)]]
}

fn map(places: &str, crossings: &str) -> (CampaignMap, GeoProjection) {
    let f = frame(places, crossings);
    let text = build(&f, &land(), &[], &[]).expect("builds");
    (CampaignMap::parse("test.ron", &text).expect("a valid campaign map"), f.projection)
}

#[test]
fn land_sea_and_ground_come_from_the_hex_centres() {
    let (m, p) = map("", "");
    for h in m.hexes() {
        let (lat, lon) = p.latlon_of(h);
        let on_land = (26.0..29.5).contains(&lon) && (52.0..56.0).contains(&lat);
        assert_eq!(m.passable(h), on_land, "{h} at {lat:.2} {lon:.2}");
        let wood = (27.0..28.4).contains(&lon) && (54.2..54.8).contains(&lat);
        assert_eq!(m.ground(h) == Some(rules::campaign::Ground::Forest), wood && on_land, "{h}");
    }
}

#[test]
fn a_river_runs_between_the_hexes_it_separates_and_is_forded_at_crossings() {
    let (m, p) = map("", "");
    // A meridian is a straight line on the Lambert projection: the side of it a centre lies on.
    let (n, s) = (p.project(55.5, 28.97), p.project(52.5, 28.97));
    let east = |h: HexAt| {
        let c = p.hex_centre(h);
        (s.0 - n.0) * (c.1 - n.1) - (s.1 - n.1) * (c.0 - n.0) > 0.0
    };
    let mut sides = 0;
    for a in m.hexes().filter(|h| m.passable(*h)) {
        for b in a.neighbours().into_iter().filter(|n| m.passable(*n)) {
            let separated = east(a) != east(b);
            assert_eq!(m.crossing(a, b) != Crossing::Open, separated, "{a} – {b}");
            assert_ne!(m.crossing(a, b), Crossing::Ford, "no crossing point, no ford");
            sides += usize::from(separated);
        }
    }
    assert!(sides > 0, "the river runs on the map");
    // A crossing point fords the river sides of its hex, and only those.
    let (m, p) = map("", "(54.0, 28.9)");
    let ford = p.hex_of(54.0, 28.9);
    for a in m.hexes() {
        for b in a.neighbours() {
            let crossing = m.crossing(a, b);
            if crossing != Crossing::Open {
                assert_eq!(crossing == Crossing::Ford, a == ford || b == ford, "{a} – {b}");
            }
        }
    }
}

#[test]
fn towns_take_their_hex_on_land_and_two_in_one_hex_are_refused() {
    let (m, p) = map(r#"(name: "Town", name_ru: "Город", at: (54.0, 28.0), kind: Fortress)"#, "");
    let at = p.hex_of(54.0, 28.0);
    assert_eq!(m.place_name(at), Some("Town"));
    assert!(m.has_fortress(at) && !m.has_village(at));
    let two = frame(
        r#"(name: "A", name_ru: "А", at: (54.0, 28.0), kind: Village), (name: "B", name_ru: "Б", at: (54.01, 28.01), kind: Village)"#,
        "",
    );
    let err = build(&two, &land(), &[], &[]).expect_err("two towns in one hex");
    assert!(err.contains("B and A fall in one hex"), "{err}");
}
