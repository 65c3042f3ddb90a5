//! Europe 1914: well-known places lie in their July 1914 owner's territory and on the right side of
//! the coast, found by the same lookup as `umpire map info` (`HexMap::place_at`).

use rules::strategic::HexMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn europe() -> HexMap {
    let path = repo().join("maps/europe_1914.ron");
    let text = std::fs::read_to_string(&path).expect("maps/europe_1914.ron is committed");
    HexMap::parse("maps/europe_1914.ron", &text).expect("the Europe map loads")
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
