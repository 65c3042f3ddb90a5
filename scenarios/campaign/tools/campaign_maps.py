#!/usr/bin/env python3
"""Writes the campaign maps scenarios/campaign/russia_1812_map.ron ("1812: from the Niemen to
Moscow") and scenarios/campaign/austerlitz_1805_map.ron ("Austerlitz 1805"); run from the
repository root: python3 scenarios/campaign/tools/campaign_maps.py [--check].

1812:
The Great War map tool (crates/mapgen) builds 1914 Europe from Natural Earth land polygons at
its own hex scale and projection and carries no 1812 rivers, towns or ground, so this campaign
map has its own small data, below, with its sources:
- Town positions: decimal degrees as given by GeoNames (geonames.org) for the present-day places
  (Kaunas for Kovno, Vilnius for Vilna, Daugavpils for Dünaburg, Hrodna for Grodno, ...).
- River courses: generalised by hand to a few points each from the Natural Earth 1:10m rivers
  layer (naturalearthdata.com, public domain) and the river maps in Chandler, "The Campaigns of
  Napoleon" (1966), maps of the 1812 campaign; the crossings (fords here: bridges and known
  crossing points) from the same maps and Zamoyski, "1812: Napoleon's Fatal March on Moscow" (2004).
- Ground: generalised by hand (the Polesie marshes, the Smolensk-Moscow upland, the Lithuanian
  and Belarusian forests); a campaign-scale sketch, not a survey.
Projection: equirectangular with the longitude scaled at 54.5° N; hexes 40 km across (pointy-top,
offset rows, odd rows shifted east as CampaignMap wants); row 0 at 57.05° N, column 0 at 20.3° E.

1805: the country between Brünn and Olmütz, hexes 8 km across, row 0 at 49.66° N, column 0 at
16.25° E; the same sources for towns and rivers (the Svratka/Schwarzawa, the Littawa and the
Goldbach generalised), ground from the battle maps of the West Point Atlas (Esposito & Elting,
1964), maps 55-59 (the Pratzen heights, the Moravian hills, the ponds of Satschan).
The output is deterministic; the script is kept so the maps can be rebuilt or checked.
"""
import math, sys

KY = 111.0
# Set per map by use(): HEX_KM, LON0, LAT0, KX, COLS, ROWS, PLACES, RIVERS, ground.

def to_xy(lon, lat):
    return ((lon - LON0) * KX / HEX_KM, (LAT0 - lat) * KY / (HEX_KM * math.sqrt(3) / 2))

def center(c, r):
    return (c + (0.5 if r % 2 else 0.0), float(r))

def hex_of(lon, lat):
    x, y = to_xy(lon, lat)
    best = None
    for r in range(max(0, int(y) - 2), min(ROWS, int(y) + 3)):
        for c in range(max(0, int(x) - 2), min(COLS, int(x) + 3)):
            cx, cy = center(c, r)
            d = (cx - x) ** 2 + ((cy - y) * math.sqrt(3) / 2) ** 2
            if best is None or d < best[0]:
                best = (d, (c, r))
    return best[1]

def lonlat(c, r):
    x, y = center(c, r)
    return (LON0 + x * HEX_KM / KX, LAT0 - y * HEX_KM * math.sqrt(3) / 2 / KY)

# (name, name_ru, lon, lat, kind): kind v village/town, F fortress, - name only
PLACES_1812 = [
    ("Warsaw", "Варшава", 21.01, 52.23, "v"),
    ("Königsberg", "Кёнигсберг", 20.51, 54.71, "v"),
    ("Tilsit", "Тильзит", 21.88, 55.08, "v"),
    ("Kovno", "Ковно", 23.90, 54.90, "v"),
    ("Vilna", "Вильна", 25.28, 54.69, "v"),
    ("Grodno", "Гродно", 23.83, 53.68, "v"),
    ("Białystok", "Белосток", 23.16, 53.13, "v"),
    ("Brest-Litovsk", "Брест-Литовск", 23.69, 52.10, "v"),
    ("Volkovysk", "Волковыск", 24.47, 53.16, "v"),
    ("Slonim", "Слоним", 25.32, 53.09, "v"),
    ("Mir", "Мир", 26.47, 53.45, "v"),
    ("Pinsk", "Пинск", 26.10, 52.11, "v"),
    ("Minsk", "Минск", 27.56, 53.90, "v"),
    ("Bobruisk", "Бобруйск", 29.22, 53.14, "F"),
    ("Borisov", "Борисов", 28.50, 54.23, "v"),
    ("Vitebsk", "Витебск", 30.20, 55.19, "v"),
    ("Polotsk", "Полоцк", 28.80, 55.49, "v"),
    ("Drissa", "Дрисса", 27.99, 55.78, "v"),
    ("Dünaburg", "Динабург", 26.54, 55.87, "F"),
    ("Riga", "Рига", 24.11, 56.95, "F"),
    ("Orsha", "Орша", 30.42, 54.51, "v"),
    ("Mogilev", "Могилёв", 30.33, 53.90, "v"),
    ("Smolensk", "Смоленск", 32.05, 54.78, "F"),
    ("Dorogobuzh", "Дорогобуж", 33.30, 54.91, "v"),
    ("Vyazma", "Вязьма", 34.30, 55.21, "v"),
    ("Gzhatsk", "Гжатск", 35.01, 55.55, "v"),
    ("Borodino", "Бородино", 35.82, 55.52, "v"),
    ("Moscow", "Москва", 37.62, 55.75, "v"),
    ("Maloyaroslavets", "Малоярославец", 36.47, 55.01, "v"),
    ("Kaluga", "Калуга", 36.27, 54.51, "v"),
    ("Velikiye Luki", "Великие Луки", 30.53, 56.34, "v"),
    ("Roslavl", "Рославль", 32.87, 53.95, "v"),
    ("Rogachev", "Рогачёв", 30.05, 53.09, "v"),
]

# River polylines (lon, lat), and where each is crossed (lon, lat of a crossing point).
RIVERS_1812 = {
    "Niemen": ([(27.0, 53.55), (26.7, 53.48), (25.6, 53.55), (24.54, 53.41), (23.83, 53.68),
                (23.97, 54.02), (24.05, 54.40), (23.95, 54.63), (23.90, 54.90), (22.77, 55.08),
                (21.88, 55.08), (21.2, 55.3)],
               [(24.54, 53.41), (23.83, 53.68), (24.05, 54.40), (23.95, 54.63), (23.90, 54.90),
                (21.88, 55.08), (26.7, 53.48)]),
    "Viliya": ([(27.4, 54.75), (26.3, 54.65), (25.28, 54.69), (24.6, 54.9), (23.90, 54.90)],
               [(25.28, 54.69), (26.3, 54.65)]),
    "Western Dvina": ([(31.9, 56.4), (31.19, 55.6), (30.72, 55.41), (30.20, 55.19), (29.45, 55.05),
                       (28.80, 55.49), (27.99, 55.78), (26.54, 55.87), (25.86, 56.5), (24.6, 56.85),
                       (24.11, 56.95)],
                      [(30.20, 55.19), (28.80, 55.49), (27.99, 55.78), (26.54, 55.87), (31.19, 55.6),
                       (25.86, 56.5)]),
    "Dnieper": ([(34.0, 55.55), (33.30, 54.91), (32.05, 54.78), (31.3, 54.6), (30.42, 54.51),
                 (30.29, 54.21), (30.33, 53.90), (30.25, 53.52), (30.05, 53.09), (30.3, 52.0)],
                [(33.30, 54.91), (32.05, 54.78), (30.42, 54.51), (30.33, 53.90), (30.05, 53.09)]),
    "Berezina": ([(28.6, 54.95), (28.50, 54.23), (28.8, 53.7), (29.22, 53.14), (29.9, 52.3)],
                 [(28.50, 54.23), (29.22, 53.14), (28.8, 53.7)]),
    "Bug": ([(24.0, 51.8), (23.69, 52.10), (22.7, 52.45), (21.5, 52.6), (20.7, 52.43)],
            [(23.69, 52.10), (21.5, 52.6)]),
    "Moskva": ([(35.7, 55.45), (36.03, 55.50), (36.86, 55.73), (37.62, 55.75), (38.3, 55.3)],
               [(36.03, 55.50), (37.62, 55.75)]),
}

def ground_1812(c, r):
    lon, lat = lonlat(c, r)
    h = ((c * 73856093) ^ (r * 19349663)) % 11
    if lon < 21.15 and lat > 54.95:
        return "~"  # the Baltic
    if lat < 52.65 and 24.6 < lon < 30.6:
        return "s"  # Polesie, the Pripet marshes
    if 32.6 < lon < 35.6 and 54.7 < lat < 55.6 and h in (0, 4, 8):
        return "h"  # the Smolensk-Moscow upland
    if 26.9 < lon < 28.0 and 53.7 < lat < 54.3 and h in (1, 5):
        return "h"  # the Minsk upland
    if 28.9 < lon < 31.5 and 56.0 < lat and h in (2, 6, 9):
        return "h"  # the hills towards Valdai
    if h in (2, 3, 7, 10):
        return "f"
    return "."

def segs(points):
    pts = [to_xy(*p) for p in points]
    return list(zip(pts, pts[1:]))

def cross(p, q, a, b):
    def orient(o, u, v):
        return (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
    return (orient(p, q, a) * orient(p, q, b) < 0) and (orient(a, b, p) * orient(a, b, q) < 0)

def neighbours(c, r):
    odd = r % 2
    return {
        "E": (c + 1, r),
        "SE": (c + odd, r + 1),
        "SW": (c - 1 + odd, r + 1),
    }

def write(spec):
    globals().update(spec)
    rows = [[ground(c, r) for c in range(COLS)] for r in range(ROWS)]
    places = []
    seen = {}
    for name, ru, lon, lat, kind in PLACES:
        at = hex_of(lon, lat)
        if at in seen:
            sys.exit(f"{name} and {seen[at]} fall in one hex {at}")
        seen[at] = name
        places.append((at, name, ru, kind))
        if rows[at[1]][at[0]] in "~s":
            rows[at[1]][at[0]] = "."
    rivers = []
    for name, (line, crossings) in RIVERS.items():
        ford_hexes = {hex_of(*p) for p in crossings}
        for r in range(ROWS):
            for c in range(COLS):
                for side, (nc, nr) in neighbours(c, r).items():
                    if not (0 <= nc < COLS and 0 <= nr < ROWS):
                        continue
                    a = center(c, r)
                    b = center(nc, nr)
                    a = (a[0], a[1]); b = (b[0], b[1])
                    if any(cross(a, b, p, q) for p, q in segs(line)):
                        ford = (c, r) in ford_hexes or (nc, nr) in ford_hexes
                        rivers.append(((c, r), side, ford, name))
    out = []
    out.extend("// " + line for line in HEADER)
    out.append("// Written by scenarios/campaign/tools/campaign_maps.py (do not edit by hand; its docstring")
    out.append("// names the sources: GeoNames town positions, Natural Earth 1:10m rivers generalised by hand,")
    out.append("// the campaign maps of Chandler 1966, Zamoyski 2004 and the West Point Atlas for the")
    out.append("// crossings; ground sketched by hand).")
    out.append("// Offset hexes, pointy-top, odd rows shifted half a hex east; row 0 in the north.")
    out.append("// Ground: . open country  f forest  h hills  s marsh  ~ sea.")
    out.append("// Rivers: " + ", ".join(RIVERS) + "; fords mark bridges and crossing points.")
    out.append("CampaignMap(")
    out.append(f'  name: "{NAME}",')
    out.append("  rows: [")
    for row in rows:
        out.append('    "' + "".join(row) + '",')
    out.append("  ],")
    out.append("  rivers: [")
    last = None
    for (c, r), side, ford, name in rivers:
        if name != last:
            out.append(f"    // {name}")
            last = name
        f = ", ford: true" if ford else ""
        out.append(f'    (at: ({c}, {r}), side: "{side}"{f}),')
    out.append("  ],")
    out.append("  villages: [" + ", ".join(f"({c}, {r})" for (c, r), _, _, k in places if k == "v") + "],")
    out.append("  fortresses: [" + ", ".join(f"({c}, {r})" for (c, r), _, _, k in places if k == "F") + "],")
    out.append("  places: [")
    for (c, r), name, ru, _ in places:
        out.append(f'    (at: ({c}, {r}), name: "{name}", name_ru: "{ru}"),')
    out.append("  ],")
    out.append(")")
    text = "\n".join(out) + "\n"
    if "--check" in sys.argv:
        return open(PATH, encoding="utf-8").read() == text
    open(PATH, "w", encoding="utf-8").write(text)
    for (c, r), name, _, _ in places:
        print(f"{PATH}: {name}: ({c}, {r})")
    return True


PLACES_1805 = [
    ("Brünn", "Брюнн", 16.61, 49.19, "F"),
    ("Austerlitz", "Аустерлиц", 16.87, 49.15, "v"),
    ("Pratzen", "Працен", 16.76, 49.13, "-"),
    ("Olmütz", "Ольмюц", 17.25, 49.59, "F"),
    ("Wischau", "Вишау", 16.99, 49.28, "v"),
    ("Prossnitz", "Просниц", 17.11, 49.47, "v"),
    ("Raigern", "Райгерн", 16.60, 49.09, "v"),
    ("Nikolsburg", "Никольсбург", 16.64, 48.80, "v"),
    ("Göding", "Годинг", 17.13, 48.85, "v"),
    ("Gaya", "Гайя", 17.07, 49.00, "v"),
    ("Kremsier", "Кромержиж", 17.39, 49.30, "v"),
    ("Boskowitz", "Босковиц", 16.66, 49.49, "v"),
]

RIVERS_1805 = {
    "Svratka": ([(16.45, 49.5), (16.55, 49.30), (16.61, 49.19), (16.62, 49.05), (16.65, 48.85)],
                [(16.61, 49.19), (16.62, 49.05)]),
    "Littawa": ([(17.0, 49.12), (16.87, 49.15), (16.75, 49.08), (16.64, 49.02)],
                [(16.87, 49.15), (16.75, 49.08)]),
    "March": ([(17.2, 49.62), (17.25, 49.59), (17.35, 49.35), (17.2, 49.05), (17.13, 48.85)],
              [(17.25, 49.59), (17.35, 49.35), (17.13, 48.85)]),
}


def ground_1805(c, r):
    lon, lat = lonlat(c, r)
    h = ((c * 73856093) ^ (r * 19349663)) % 11
    if 16.70 < lon < 16.85 and 49.08 < lat < 49.17:
        return "h"  # the Pratzen heights
    if 16.68 < lon < 16.80 and 49.05 < lat < 49.09:
        return "s"  # the ponds of Satschan and Menitz
    if lat > 49.35 and lon < 16.9 and h in (0, 3, 6, 9):
        return "h"  # the Moravian (Drahany) hills
    if 16.95 < lon < 17.2 and 49.15 < lat < 49.4 and h in (1, 4, 7):
        return "f"  # the woods of the Drahany upland's southern slope
    if h in (2, 10):
        return "f"
    return "."


MAPS = [
    dict(
        NAME="Western Russia, 1812",
        PATH="scenarios/campaign/russia_1812_map.ron",
        HEADER=[
            'The campaign map of "1812: from the Niemen to Moscow": western Russia, Lithuania and the',
            "Duchy of Warsaw, from 20.3° E to 38.3° E and 51.9° N to 57.05° N, hexes 40 km across.",
        ],
        HEX_KM=40.0, LON0=20.3, LAT0=57.05, KX=math.cos(math.radians(54.5)) * 111.32, COLS=30, ROWS=17,
        PLACES=PLACES_1812, RIVERS=RIVERS_1812, ground=ground_1812,
    ),
    dict(
        NAME="Moravia, 1805",
        PATH="scenarios/campaign/austerlitz_1805_map.ron",
        HEADER=[
            'The campaign map of "Austerlitz 1805": Moravia between Brünn, Olmütz and the March,',
            "from 16.25° E to 17.5° E and 48.75° N to 49.66° N, hexes 8 km across.",
        ],
        HEX_KM=8.0, LON0=16.25, LAT0=49.66, KX=math.cos(math.radians(49.2)) * 111.32, COLS=12, ROWS=15,
        PLACES=PLACES_1805, RIVERS=RIVERS_1805, ground=ground_1805,
    ),
]

sys.exit(0 if all([write(m) for m in MAPS]) else 1)
