//! Europe 1914: well-known places lie in their July 1914 owner's territory and on the right side of
//! the coast and of the rivers, in the right sea area and climate, joined by the main railways, found
//! by the same lookup as `umpire map info` (`HexMap::place_at`); the theatre cuts agree with the map.

use rules::strategic::HexMap;
use rules::strategic::hexmap::{HexAt, Terrain, flag};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(file: &str) -> HexMap {
    let text = std::fs::read_to_string(repo().join("maps").join(file)).expect("the map is committed");
    HexMap::parse(file, &text).expect("the map loads")
}

fn europe() -> HexMap {
    load("europe_1914.ron")
}

/// (place, latitude, longitude, owner in July 1914 or "sea").
const PLACES: &[(&str, f64, f64, &str)] = &[
    // Alsace-Lorraine German, the French fortress line French.
    ("Strasbourg", 48.58, 7.75, "germany"),
    ("Metz", 49.12, 6.18, "germany"),
    ("Colmar", 48.08, 7.36, "germany"),
    ("Mulhouse", 47.75, 7.34, "germany"),
    ("Thionville", 49.36, 6.17, "germany"),
    ("Nancy", 48.69, 6.18, "france"),
    ("Verdun", 49.16, 5.38, "france"),
    ("Belfort", 47.64, 6.86, "france"),
    ("Épinal", 48.17, 6.45, "france"),
    ("Paris", 48.86, 2.35, "france"),
    ("Lille", 50.63, 3.06, "france"),
    // The Low Countries.
    ("Brussels", 50.85, 4.35, "belgium"),
    ("Liège", 50.63, 5.57, "belgium"),
    ("Namur", 50.47, 4.87, "belgium"),
    ("Antwerp", 51.22, 4.40, "belgium"),
    ("Aachen", 50.78, 6.08, "germany"),
    ("Luxembourg", 49.61, 6.13, "luxembourg"),
    ("Amsterdam", 52.37, 4.90, "netherlands"),
    ("Maastricht", 50.85, 5.69, "netherlands"),
    // Poland split three ways.
    ("Warsaw", 52.23, 21.01, "russia"),
    ("Łódź", 51.76, 19.46, "russia"),
    ("Częstochowa", 50.81, 19.12, "russia"),
    ("Lublin", 51.25, 22.57, "russia"),
    ("Brest-Litovsk", 52.09, 23.66, "russia"),
    ("Poznań", 52.41, 16.93, "germany"),
    ("Toruń", 53.01, 18.60, "germany"),
    ("Katowice", 50.26, 19.02, "germany"),
    ("Kraków", 50.06, 19.94, "austria_hungary"),
    ("Lviv", 49.84, 24.03, "austria_hungary"),
    ("Przemyśl", 49.78, 22.77, "austria_hungary"),
    // Bukovina Austro-Hungarian, Bessarabia Russian, Moldavia Romanian.
    ("Chernivtsi", 48.29, 25.94, "austria_hungary"),
    ("Chișinău", 47.01, 28.86, "russia"),
    ("Iași", 47.16, 27.59, "romania"),
    // The Baltic and Finland.
    ("Helsinki", 60.17, 24.94, "russia"),
    ("Vilnius", 54.69, 25.28, "russia"),
    ("Kaunas", 54.90, 23.90, "russia"),
    ("Riga", 56.95, 24.11, "russia"),
    ("Königsberg", 54.71, 20.51, "germany"),
    ("Danzig", 54.35, 18.65, "germany"),
    // Italy and Austria-Hungary.
    ("Trieste", 45.65, 13.78, "austria_hungary"),
    ("Trento", 46.07, 11.12, "austria_hungary"),
    ("Bolzano", 46.50, 11.35, "austria_hungary"),
    ("Gorizia", 45.94, 13.62, "austria_hungary"),
    ("Venice", 45.44, 12.33, "italy"),
    ("Verona", 45.44, 10.99, "italy"),
    ("Udine", 46.06, 13.24, "italy"),
    ("Rome", 41.90, 12.50, "italy"),
    ("Palermo", 38.12, 13.36, "italy"),
    // The Balkans after the treaties of 1913.
    ("Sarajevo", 43.86, 18.41, "austria_hungary"),
    ("Kotor", 42.42, 18.77, "austria_hungary"),
    ("Belgrade", 44.82, 20.46, "serbia"),
    ("Skopje", 42.00, 21.43, "serbia"),
    ("Bitola", 41.03, 21.33, "serbia"),
    ("Cetinje", 42.39, 18.92, "montenegro"),
    ("Peć", 42.66, 20.29, "montenegro"),
    ("Durrës", 41.32, 19.45, "albania"),
    ("Thessaloniki", 40.64, 22.94, "greece"),
    ("Kavala", 40.94, 24.41, "greece"),
    ("Ioannina", 39.66, 20.85, "greece"),
    ("Athens", 37.98, 23.73, "greece"),
    ("Heraklion", 35.34, 25.13, "greece"),
    ("Xanthi", 41.14, 24.89, "bulgaria"),
    ("Sofia", 42.70, 23.32, "bulgaria"),
    ("Silistra", 44.12, 27.26, "romania"),
    ("Bucharest", 44.43, 26.10, "romania"),
    ("Brașov", 45.65, 25.61, "austria_hungary"),
    ("Cluj", 46.77, 23.59, "austria_hungary"),
    ("Edirne", 41.68, 26.56, "ottoman"),
    ("Constantinople", 41.01, 28.98, "ottoman"),
    ("Smyrna", 38.42, 27.14, "ottoman"),
    ("Rhodes", 36.43, 28.22, "italy"),
    // North Schleswig German, Denmark and Scandinavia.
    ("Haderslev", 55.25, 9.49, "germany"),
    ("Kolding", 55.49, 9.47, "denmark"),
    ("Copenhagen", 55.68, 12.57, "denmark"),
    ("Stockholm", 59.33, 18.07, "sweden"),
    ("Kristiania", 59.91, 10.75, "norway"),
    // The rest of the theatre.
    ("Moscow", 55.75, 37.62, "russia"),
    ("St Petersburg", 59.94, 30.31, "russia"),
    ("Kiev", 50.45, 30.52, "russia"),
    ("Odessa", 46.48, 30.73, "russia"),
    ("Vienna", 48.21, 16.37, "austria_hungary"),
    ("Prague", 50.08, 14.43, "austria_hungary"),
    ("Budapest", 47.50, 19.04, "austria_hungary"),
    ("Munich", 48.14, 11.58, "germany"),
    ("Berlin", 52.52, 13.40, "germany"),
    ("Geneva", 46.20, 6.15, "switzerland"),
    ("Basel", 47.56, 7.59, "switzerland"),
    ("London", 51.51, -0.13, "gb"),
    ("Dublin", 53.35, -6.26, "gb"),
    ("Madrid", 40.42, -3.70, "spain"),
    ("Lisbon", 38.72, -9.14, "portugal"),
    ("Algiers", 36.75, 3.06, "france"),
    // Towns on the borders of 1914, on both sides (many are seed points of the province table: these
    // guard the seeds against edits that would move a border past them).
    ("Sosnowiec", 50.28, 19.13, "russia"),
    ("Kalisz", 51.76, 18.08, "russia"),
    ("Ostrowo", 51.65, 17.81, "germany"),
    ("Eupen", 50.63, 6.03, "germany"),
    ("Malmedy", 50.43, 6.03, "germany"),
    ("Tondern", 54.93, 8.86, "germany"),
    ("Ribe", 55.33, 8.76, "denmark"),
    ("Dobrich", 43.57, 27.83, "romania"),
    ("Strumica", 41.44, 22.64, "bulgaria"),
    ("Gevgelija", 41.14, 22.50, "serbia"),
    ("Florina", 40.78, 21.41, "greece"),
    ("Korçë", 40.62, 20.78, "albania"),
    ("Prizren", 42.21, 20.74, "serbia"),
    ("Pljevlja", 43.36, 19.36, "montenegro"),
    ("Novi Pazar", 43.14, 20.51, "serbia"),
    ("Cortina", 46.54, 12.14, "austria_hungary"),
    ("Riva", 45.89, 10.84, "austria_hungary"),
    ("Kobarid", 46.25, 13.58, "austria_hungary"),
    ("Zadar", 44.12, 15.23, "austria_hungary"),
    ("Fiume", 45.33, 14.44, "austria_hungary"),
    ("Suceava", 47.65, 26.25, "austria_hungary"),
    ("Khotyn", 48.51, 26.49, "russia"),
    ("Izmail", 45.35, 28.84, "russia"),
    ("Tulcea", 45.18, 28.80, "romania"),
    ("Haparanda", 65.84, 24.13, "sweden"),
    ("Tornio", 65.85, 24.16, "russia"),
    ("Narva", 59.38, 28.18, "russia"),
    ("Memel", 55.71, 21.13, "germany"),
    ("Palanga", 55.92, 21.07, "russia"),
    ("Soldau", 53.20, 20.12, "germany"),
    ("Mława", 53.11, 20.38, "russia"),
    ("Tarnów", 50.01, 20.99, "austria_hungary"),
    ("Sandomierz", 50.68, 21.75, "russia"),
    ("Zamość", 50.72, 23.25, "russia"),
    ("Ternopil", 49.55, 25.59, "austria_hungary"),
    ("Kamianets-Podilskyi", 48.68, 26.58, "russia"),
    ("Zemun", 44.84, 20.41, "austria_hungary"),
    ("Šabac", 44.75, 19.69, "serbia"),
    ("Giurgiu", 43.90, 25.97, "romania"),
    ("Ruse", 43.85, 25.95, "bulgaria"),
    ("Vidin", 43.99, 22.87, "bulgaria"),
    ("Kırklareli", 41.73, 27.23, "ottoman"),
    ("Gibraltar", 36.14, -5.35, "gb"),
    ("Ceuta", 35.89, -5.32, "spain"),
    ("Valletta", 35.90, 14.51, "gb"),
    ("Ventimiglia", 43.79, 7.60, "italy"),
    // Seas on the right side of the coasts.
    ("North Sea", 56.0, 3.0, "sea"),
    ("English Channel", 50.2, -1.0, "sea"),
    ("Baltic off Bornholm", 55.5, 16.5, "sea"),
    ("Gulf of Finland", 59.8, 26.0, "sea"),
    ("Gulf of Bothnia", 62.0, 19.5, "sea"),
    ("Bay of Biscay", 45.5, -4.0, "sea"),
    ("Adriatic", 42.5, 16.0, "sea"),
    ("Tyrrhenian Sea", 40.0, 12.0, "sea"),
    ("Aegean", 38.5, 25.0, "sea"),
    ("Black Sea", 43.5, 34.0, "sea"),
    ("Sea of Marmara", 40.7, 28.2, "sea"),
];

#[test]
fn well_known_places_lie_in_their_1914_owners_territory_and_on_the_right_side_of_the_coast() {
    let map = europe();
    assert!(PLACES.len() >= 60);
    let mut wrong = Vec::new();
    for (name, lat, lon, owner) in PLACES {
        let info = map.place_at(*lat, *lon).expect("on the map");
        let got = if info.land { info.owner.clone().unwrap_or_else(|| "nobody".into()) } else { "sea".into() };
        if got != *owner {
            wrong.push(format!("{name} ({lat}, {lon}) at {}: {got} ({:?}), expected {owner}", info.hex, info.province));
        }
    }
    assert!(wrong.is_empty(), "{} of {} places wrong:\n{}", wrong.len(), PLACES.len(), wrong.join("\n"));
}

#[test]
fn the_fortresses_of_1914_are_fortress_hexes() {
    let map = europe();
    for (name, lat, lon) in [
        ("Liège", 50.63, 5.57),
        ("Namur", 50.47, 4.87),
        ("Antwerp", 51.22, 4.40),
        ("Verdun", 49.16, 5.38),
        ("Toul", 48.68, 5.89),
        ("Belfort", 47.64, 6.86),
        ("Metz", 49.12, 6.18),
        ("Strasbourg", 48.58, 7.75),
        ("Königsberg", 54.71, 20.51),
        ("Przemyśl", 49.78, 22.77),
        ("Kraków", 50.06, 19.94),
        ("Novogeorgievsk", 52.43, 20.71),
        ("Kovno", 54.90, 23.90),
        ("Ivangorod", 51.56, 21.85),
        ("Brest-Litovsk", 52.09, 23.66),
        ("Osowiec", 53.48, 22.65),
    ] {
        let info = map.place_at(lat, lon).expect("on the map");
        assert!(info.fortress && info.city.is_some(), "{name}: {info:?}");
    }
}

#[test]
fn the_map_is_europe_at_five_km_a_hex() {
    let map = europe();
    assert!(map.len() >= 400_000, "{} hexes", map.len());
    let p = map.projection.expect("projection");
    assert_eq!(p.hex_km, 5);
    // Paris to Berlin is 878 km on the globe; the projection's scale near 50°N is 0.966–0.975, so
    // their hex centres lie 848–856 km apart on the map, give or take half a hex at each end.
    let (a, b) = (p.hex_centre(p.hex_of(48.86, 2.35)), p.hex_centre(p.hex_of(52.52, 13.40)));
    let km = (a.0 - b.0).hypot(a.1 - b.1) / 1000.0;
    assert!((843.0..=861.0).contains(&km), "Paris–Berlin {km} km");
}

#[test]
fn umpire_map_info_and_stats_answer_in_json() {
    let umpire = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_umpire")).args(args).current_dir(repo()).output().expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("json")
    };
    let info = umpire(&["map", "info", "maps/europe_1914.ron", "--at", "49.12,6.18"]);
    assert_eq!(info["owner"], "germany");
    // Metz: on the Moselle (a river side with a bridge), on railways and roads, temperate.
    assert!(info["rivers"].as_array().is_some_and(|r| !r.is_empty()), "{info}");
    assert!(info["bridges"].as_array().is_some_and(|r| !r.is_empty()), "{info}");
    assert_eq!((info["railway"].clone(), info["road"].clone()), (true.into(), true.into()));
    assert_eq!(info["climate"], "temperate");
    let sea = umpire(&["map", "info", "maps/europe_1914_north_sea.ron", "--at", "56.0,3.0"]);
    assert_eq!((sea["sea_area"].clone(), sea["land"].clone()), ("north_sea".into(), false.into()));
    assert_eq!(info["province"], "lothringen");
    assert_eq!(info["city"], "metz");
    assert_eq!(info["fortress"], true);
    assert_eq!(info["terrain"], "clear");
    let west = umpire(&["map", "info", "maps/europe_1914.ron", "--at", "38.72,-9.14"]);
    assert_eq!(west["owner"], "portugal");
    let stats = umpire(&["map", "stats", "maps/europe_1914.ron"]);
    assert!(stats["hexes"].as_u64().is_some_and(|h| h >= 400_000));
    assert_eq!(stats["land_without_province"], 0);
    for power in ["germany", "france", "gb", "russia", "austria_hungary", "italy", "usa"] {
        if power == "usa" {
            assert!(stats["powers"].get(power).is_none(), "the USA has no European province");
            continue;
        }
        assert!(stats["powers"][power]["provinces"].as_u64().is_some_and(|n| n > 0), "{power}");
    }
    // Off the map and a map with no projection are refused with one line.
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["map", "info", "maps/europe_1914.ron", "--at", "10,10"])
        .current_dir(repo())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("off the map"));
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["map", "info", "maps/great_war/test_front.ron", "--at", "50,5"])
        .current_dir(repo())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no projection"));
}

#[test]
fn the_seas_connect_through_the_straits() {
    // The Bosporus and the Dardanelles are narrower than a hex and drawn as lines of sea hexes; the
    // Danish straits are wide enough by themselves. Every sea below is reachable from the North Sea.
    let map = europe();
    let p = map.projection.expect("projection");
    let start = p.hex_of(56.0, 3.0);
    let mut seen = vec![false; map.len()];
    let mut queue = std::collections::VecDeque::from([start]);
    seen[map.index(start).expect("on the map")] = true;
    while let Some(at) = queue.pop_front() {
        for n in at.neighbours() {
            if let Some(i) = map.index(n)
                && !seen[i]
                && map.terrain(n) == Some(rules::strategic::Terrain::Sea)
            {
                seen[i] = true;
                queue.push_back(n);
            }
        }
    }
    for (name, lat, lon) in [
        ("Baltic", 55.5, 16.5),
        ("Gulf of Finland", 59.8, 26.0),
        ("White Sea", 65.5, 37.0),
        ("Adriatic", 42.5, 16.0),
        ("Aegean", 38.5, 25.0),
        ("Sea of Marmara", 40.7, 28.2),
        ("Black Sea", 43.5, 34.0),
    ] {
        let i = map.index(p.hex_of(lat, lon)).expect("on the map");
        assert!(seen[i], "{name} is not reachable by sea from the North Sea");
    }
}

/// Whether the straight line of hexes between two places crosses a river hexside.
fn river_between_places(map: &HexMap, a: (f64, f64), b: (f64, f64)) -> bool {
    let p = map.projection.expect("projection");
    let line: Vec<HexAt> = p.hex_of(a.0, a.1).hex().line_to(p.hex_of(b.0, b.1).hex()).map(HexAt::from_hex).collect();
    assert!(line.len() > 1, "{a:?} and {b:?} share a hex");
    line.windows(2).any(|w| map.river_between(w[0], w[1]))
}

#[test]
fn cities_on_rivers_lie_on_their_historical_bank() {
    let map = europe();
    // (place on one bank, place on the other bank, river): the straight hex line between them
    // crosses a river hexside.
    let across = [
        ("Cologne (left bank)", (50.94, 6.96), "Bergisch Gladbach", (50.99, 7.13), "Rhine"),
        ("Mainz (left bank)", (50.00, 8.27), "Wiesbaden", (50.08, 8.24), "Rhine"),
        ("Strasbourg (left bank)", (48.58, 7.75), "Offenburg", (48.47, 7.94), "Rhine"),
        ("Warsaw (west bank)", (52.23, 21.01), "Rembertów (east of Praga)", (52.26, 21.16), "Vistula"),
        ("Kraków (north bank)", (50.06, 19.94), "Wieliczka", (49.99, 20.06), "Vistula"),
        ("Paris (right bank)", (48.86, 2.35), "Orly", (48.73, 2.37), "Seine"),
        ("Antwerp (right bank)", (51.22, 4.40), "Sint-Niklaas", (51.17, 4.14), "Scheldt"),
        ("Belgrade (south of the Danube)", (44.82, 20.46), "Pančevo", (44.87, 20.64), "Danube"),
        ("Budapest (Pest)", (47.50, 19.04), "Budakeszi", (47.51, 18.93), "Danube"),
        ("Vienna (right bank)", (48.21, 16.37), "Deutsch-Wagram", (48.30, 16.56), "Danube"),
        ("Kyiv (west bank)", (50.45, 30.52), "Brovary", (50.51, 30.79), "Dnieper"),
        ("Brest-Litovsk (east bank)", (52.09, 23.66), "Biała Podlaska", (52.03, 23.13), "Bug"),
        ("Kovno (north bank)", (54.90, 23.90), "Marijampolė", (54.56, 23.35), "Neman"),
        ("Khotyn", (48.51, 26.49), "Kamianets-Podilskyi", (48.68, 26.58), "Dniester"),
        ("Gorizia (left bank)", (45.94, 13.62), "Cormons", (45.96, 13.47), "Isonzo"),
        ("Treviso", (45.67, 12.24), "Oderzo", (45.78, 12.49), "Piave"),
    ];
    let mut wrong = Vec::new();
    for (a, at_a, b, at_b, river) in across {
        if !river_between_places(&map, at_a, at_b) {
            wrong.push(format!("no {river} between {a} and {b}"));
        }
    }
    // On the same bank, with no mapped river between them.
    for (a, at_a, b, at_b) in [
        ("Cologne", (50.94, 6.96), "Aachen", (50.78, 6.08)),
        ("Warsaw", (52.23, 21.01), "Łódź", (51.76, 19.46)),
        ("Paris", (48.86, 2.35), "Saint-Denis", (48.94, 2.36)),
    ] {
        if river_between_places(&map, at_a, at_b) {
            wrong.push(format!("a river between {a} and {b}"));
        }
    }
    // The city's own hexes all lie on one bank: Cologne's and Paris's hexes have no river between them.
    for id in ["koeln", "paris", "warschau_city", "budapest", "wien", "kiew_city", "beograd"] {
        let city = &map.cities[map.city_index(id).expect("listed")];
        for a in &city.hexes {
            for b in &city.hexes {
                if map.river_between(*a, *b) {
                    wrong.push(format!("{id}: a river between its hexes {a} and {b}"));
                }
            }
        }
    }
    // Bridges: at cities on rivers (Cologne's Hohenzollern bridge) and where railways cross.
    let bridged = |id: &str| {
        let city = &map.cities[map.city_index(id).expect("listed")];
        city.hexes.iter().any(|h| h.neighbours().iter().any(|n| map.bridge_between(*h, *n)))
    };
    for id in ["koeln", "mainz", "warschau_city", "beograd", "budapest", "kiew_city"] {
        if !bridged(id) {
            wrong.push(format!("no bridge at {id}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The 26 sea areas scenarios and sea lanes name.
const SEA_AREAS: [&str; 26] = [
    "north_sea",
    "english_channel",
    "irish_sea",
    "western_approaches",
    "bay_of_biscay",
    "iberian_atlantic",
    "norwegian_sea",
    "barents_sea",
    "white_sea",
    "skagerrak_kattegat",
    "baltic_south",
    "baltic_central",
    "gulf_of_bothnia",
    "gulf_of_finland",
    "gulf_of_riga",
    "western_med",
    "tyrrhenian_sea",
    "central_med",
    "adriatic",
    "ionian_sea",
    "aegean_sea",
    "sea_of_marmara",
    "black_sea_west",
    "black_sea_east",
    "sea_of_azov",
    "atlantic",
];

#[test]
fn every_sea_hex_lies_in_a_named_sea_area_and_the_ports_face_their_seas() {
    let map = europe();
    let ids: Vec<&str> = map.sea_areas.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, SEA_AREAS);
    assert!(map.sea_areas.iter().all(|s| !s.name.is_empty() && !s.name_ru.is_empty()));
    for at in map.hexes() {
        let sea = map.sea_area_at(at);
        match map.terrain(at) {
            Some(Terrain::Sea) => assert!(sea.is_some(), "sea hex {at} in no area"),
            _ => assert!(sea.is_none(), "{at} is not sea but in {:?}", sea.map(|s| &s.id)),
        }
    }
    let mut wrong = Vec::new();
    for (name, lat, lon, area) in [
        ("North Sea", 56.0, 3.0, "north_sea"),
        ("Heligoland Bight", 54.3, 7.6, "north_sea"),
        ("English Channel", 50.2, -1.0, "english_channel"),
        ("Dover Strait", 51.0, 1.45, "english_channel"),
        ("Irish Sea", 53.8, -5.0, "irish_sea"),
        ("Bay of Biscay", 45.5, -4.0, "bay_of_biscay"),
        ("Skagerrak", 57.9, 9.5, "skagerrak_kattegat"),
        ("Baltic off Bornholm", 55.5, 15.5, "baltic_south"),
        ("Baltic off Gotland", 57.5, 19.8, "baltic_central"),
        ("Gulf of Finland", 59.8, 26.0, "gulf_of_finland"),
        ("Gulf of Bothnia", 62.0, 19.5, "gulf_of_bothnia"),
        ("Gulf of Riga", 57.5, 23.5, "gulf_of_riga"),
        ("White Sea", 65.5, 37.0, "white_sea"),
        ("Barents Sea", 70.0, 33.0, "barents_sea"),
        ("Norwegian Sea", 66.0, 5.0, "norwegian_sea"),
        ("Gulf of Lion", 42.8, 4.5, "western_med"),
        ("Tyrrhenian Sea", 40.0, 12.0, "tyrrhenian_sea"),
        ("Strait of Sicily", 37.3, 11.8, "central_med"),
        ("Adriatic", 42.5, 16.0, "adriatic"),
        ("Ionian Sea", 38.0, 19.0, "ionian_sea"),
        ("Aegean", 38.5, 25.0, "aegean_sea"),
        ("Sea of Marmara", 40.7, 28.2, "sea_of_marmara"),
        ("Black Sea off Varna", 43.2, 29.5, "black_sea_west"),
        ("Black Sea off Sevastopol", 44.0, 33.0, "black_sea_west"),
        ("Black Sea south of Kerch", 44.2, 35.5, "black_sea_east"),
        ("Sea of Azov", 46.0, 36.3, "sea_of_azov"),
        ("Atlantic west of Ireland", 53.0, -13.0, "atlantic"),
    ] {
        let info = map.place_at(lat, lon).expect("on the map");
        if info.sea_area.as_deref() != Some(area) {
            wrong.push(format!("{name} ({lat}, {lon}): {:?}, expected {area}", info.sea_area));
        }
    }
    // A port faces its sea: Kiel the Baltic, Wilhelmshaven the North Sea, Sevastopol the Black Sea.
    let areas_next_to = |id: &str| {
        let city = &map.cities[map.city_index(id).expect("listed")];
        let mut out: Vec<String> = city
            .hexes
            .iter()
            .flat_map(|h| h.neighbours())
            .filter_map(|n| map.sea_area_at(n).map(|s| s.id.clone()))
            .collect();
        out.dedup();
        out
    };
    for (port, area) in [
        ("kiel", "baltic_south"),
        ("wilhelmshaven", "north_sea"),
        ("sevastopol", "black_sea_west"),
        ("kronstadt", "gulf_of_finland"),
        ("toulon", "western_med"),
        ("pola", "adriatic"),
    ] {
        let next = areas_next_to(port);
        if !next.iter().any(|a| a == area) {
            wrong.push(format!("{port} faces {next:?}, not {area}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(!areas_next_to("kiel").iter().any(|a| a == "north_sea"));
}

/// Whether two cities are joined by a chain of adjacent railway hexes.
fn rail_joins(map: &HexMap, from: &str, to: &str) -> bool {
    let hex = |id: &str| map.cities[map.city_index(id).expect("listed")].hexes[0];
    let (start, goal) = (hex(from), hex(to));
    let mut seen = vec![false; map.len()];
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        if at == goal {
            return true;
        }
        for n in at.neighbours() {
            if let Some(i) = map.index(n)
                && !seen[i]
                && map.rail_between(at, n)
            {
                seen[i] = true;
                queue.push_back(n);
            }
        }
    }
    false
}

#[test]
fn the_main_railways_of_1914_join_the_capitals() {
    let map = europe();
    for (a, b) in [
        ("berlin", "paris"),
        ("berlin", "warschau_city"),
        ("wien", "krakau"),
        ("berlin", "koenigsberg"),
        ("warschau_city", "moskau_city"),
        ("petrograd", "moskau_city"),
        ("wien", "konstantinopel"),
        ("paris", "madrid"),
    ] {
        assert!(rail_joins(&map, a, b), "no railway from {a} to {b}");
    }
    // The network stops at the sea: no railway from London to Paris, or from Dublin to London.
    assert!(!rail_joins(&map, "london", "paris"));
    assert!(!rail_joins(&map, "dublin", "london"));
    // Railway hexes are land, and roads run too.
    assert!(map.hexes().filter(|h| map.cell(*h).is_some_and(|c| c.has(flag::RAIL))).all(|h| map.is_land(h)));
    assert!(map.hexes().filter(|h| map.cell(*h).is_some_and(|c| c.has(flag::ROAD))).count() > 2_000);
}

#[test]
fn the_climate_zones_follow_the_rules_zones() {
    // S-SUP-5: north, desert/tropics and mountains are harsh; the rest is temperate.
    let map = europe();
    let mut wrong = Vec::new();
    for (name, lat, lon, climate) in [
        ("Archangel", 64.54, 40.52, "north"),
        ("Petrozavodsk", 61.78, 34.35, "north"),
        ("Tromsø", 69.65, 18.96, "north"),
        ("Djelfa (Hauts Plateaux)", 34.67, 3.25, "desert"),
        ("Innsbruck's Alps", 47.1, 11.4, "mountain"),
        ("The Carpathians at the Uzsok pass", 49.0, 22.9, "mountain"),
        ("Paris", 48.86, 2.35, "temperate"),
        ("Warsaw", 52.23, 21.01, "temperate"),
        ("Algiers", 36.75, 3.06, "temperate"),
    ] {
        let info = map.place_at(lat, lon).expect("on the map");
        if info.climate != climate {
            wrong.push(format!("{name} ({lat}, {lon}): {} ({}), expected {climate}", info.climate, info.terrain));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Marshes of the Eastern Front: the Pripet (with Polesie and Rokitno) and the Masurian lakes.
    for (name, lat, lon) in [("Pinsk marshes", 52.0, 26.5), ("Rokitno", 51.28, 27.21), ("Masuria", 53.8, 21.5)] {
        let t = map.place_at(lat, lon).expect("on the map").terrain;
        assert!(t == "marsh" || t == "lake", "{name}: {t}");
    }
}

#[test]
fn the_theatre_cuts_place_the_same_cities_in_the_same_hexes_as_the_map() {
    let map = europe();
    for (file, lat, lon) in [
        ("europe_1914_east_prussia.ron", (51.8, 55.7), (18.0, 25.0)),
        ("europe_1914_west.ron", (47.2, 51.8), (0.8, 9.0)),
        ("europe_1914_north_sea.ron", (50.5, 62.0), (-6.0, 13.0)),
    ] {
        let cut = load(file);
        let first = cut.projection.expect("projection").first_hex;
        assert!(first.1 % 2 == 0, "{file}: the first row must be even");
        assert!(cut.len() < map.len() / 4, "{file}: {} hexes", cut.len());
        let mut compared = 0;
        let inside = |la: f64, lo: f64| la > lat.0 && la < lat.1 && lo > lon.0 && lo < lon.1;
        let places = PLACES.iter().map(|(n, la, lo, _)| (*n, *la, *lo));
        let cities = map.cities.iter().map(|c| {
            let (la, lo) = map.projection.expect("projection").latlon_of(c.hexes[0]);
            (c.name.as_str(), la, lo)
        });
        for (name, la, lo) in places.chain(cities).filter(|(_, la, lo)| inside(*la, *lo)) {
            let mut a = map.place_at(la, lo).expect("on the map");
            let b = cut.place_at(la, lo).expect("on the cut");
            a.hex = b.hex;
            // Outside cities, a province whose cities all lie outside the cut joins a neighbour of
            // the same owner (maps/README.md): the owner stays, the province's name may change.
            if a.city.is_none() {
                (a.province, a.province_name) = (b.province.clone(), b.province_name.clone());
            }
            assert_eq!(a, b, "{file}: {name} ({la}, {lo})");
            compared += 1;
        }
        assert!(compared >= 10, "{file}: only {compared} places compared");
    }
}
