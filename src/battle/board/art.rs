//! Terrain art drawn in code: one 32 × 32 tile per terrain, laid out in a row (no asset files,
//! so the native and browser builds draw the same field).

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
use rules::tactical::Terrain;

pub const TILE: u32 = 32;

/// Index of a terrain's tile in the tileset.
pub fn tile_index(terrain: Terrain) -> u32 {
    Terrain::ALL.iter().position(|t| *t == terrain).unwrap_or(0) as u32
}

/// The tileset image: every terrain of `Terrain::ALL`, left to right.
pub fn tileset() -> Image {
    let count = Terrain::ALL.len() as u32;
    let (w, h) = (TILE * count, TILE);
    let mut data = vec![0u8; (w * h * 4) as usize];
    for (i, terrain) in Terrain::ALL.iter().enumerate() {
        for y in 0..TILE {
            for x in 0..TILE {
                let [r, g, b] = pixel(*terrain, x, y);
                let at = (((y * w) + i as u32 * TILE + x) * 4) as usize;
                data[at..at + 4].copy_from_slice(&[r, g, b, 255]);
            }
        }
    }
    let mut image = Image::new(
        Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    );
    image.texture_descriptor.usage = TextureUsages::TEXTURE_BINDING | TextureUsages::COPY_SRC | TextureUsages::COPY_DST;
    image
}

/// A small fixed hash for texture noise.
fn noise(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ salt.wrapping_mul(0xC2B2_AE3D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x27D4_EB2F);
    h ^ (h >> 13)
}

fn shade([r, g, b]: [u8; 3], d: i32) -> [u8; 3] {
    let f = |c: u8| (i32::from(c) + d).clamp(0, 255) as u8;
    [f(r), f(g), f(b)]
}

fn grass(x: u32, y: u32) -> [u8; 3] {
    shade([112, 150, 74], (noise(x, y, 1) % 17) as i32 - 8)
}

fn in_circle(x: u32, y: u32, cx: i32, cy: i32, r: i32) -> bool {
    let (dx, dy) = (x as i32 - cx, y as i32 - cy);
    dx * dx + dy * dy <= r * r
}

fn tree(x: u32, y: u32, cx: i32, cy: i32, r: i32, leaf: [u8; 3]) -> Option<[u8; 3]> {
    if in_circle(x, y, cx, cy, r) {
        let lit = (x as i32 - cx) + (y as i32 - cy) < 0;
        Some(shade(leaf, if lit { 18 } else { -6 } + (noise(x, y, 7) % 9) as i32 - 4))
    } else if (x as i32 - cx).abs() <= 1 && (y as i32) > cy && (y as i32) <= cy + r + 2 {
        Some([92, 64, 38])
    } else {
        None
    }
}

fn pixel(terrain: Terrain, x: u32, y: u32) -> [u8; 3] {
    match terrain {
        Terrain::Open => grass(x, y),
        Terrain::SparseForest => [(9, 9, 6), (23, 12, 5), (15, 23, 6)]
            .iter()
            .find_map(|(cx, cy, r)| tree(x, y, *cx, *cy, *r, [60, 118, 52]))
            .unwrap_or_else(|| grass(x, y)),
        Terrain::DenseForest => {
            [(6, 6, 6), (18, 5, 6), (28, 10, 5), (10, 17, 6), (23, 20, 6), (5, 27, 5), (17, 28, 5), (28, 28, 5)]
                .iter()
                .find_map(|(cx, cy, r)| tree(x, y, *cx, *cy, *r, [34, 84, 40]))
                .unwrap_or_else(|| shade([52, 86, 44], (noise(x, y, 3) % 11) as i32 - 5))
        }
        Terrain::Swamp => {
            if in_circle(x, y, 10, 12, 6) || in_circle(x, y, 22, 22, 7) {
                shade([72, 96, 92], (noise(x, y, 4) % 9) as i32 - 4)
            } else if noise(x / 2, y, 5).is_multiple_of(9) && y % 6 < 4 {
                [60, 84, 36]
            } else {
                shade([118, 122, 70], (noise(x, y, 6) % 15) as i32 - 7)
            }
        }
        Terrain::River => water([58, 104, 170], x, y),
        Terrain::Ford => {
            if noise(x / 3, y / 3, 8).is_multiple_of(4) {
                [168, 156, 124]
            } else {
                water([104, 150, 196], x, y)
            }
        }
        Terrain::Sea => water([30, 66, 128], x, y),
        Terrain::Hill => {
            let d = ((x as i32 - 16).pow(2) + (y as i32 - 18).pow(2)) as f32;
            let ring = (d.sqrt() as u32).is_multiple_of(6);
            let base = shade([150, 160, 92], 24 - (d.sqrt() as i32));
            if ring { shade(base, -30) } else { base }
        }
        Terrain::Building => {
            let roof = (6..26).contains(&x) && (6..16).contains(&y) && (y as i32 - 6) >= (x as i32 - 16).abs() - 4;
            let wall = (8..24).contains(&x) && (16..27).contains(&y);
            let door = (14..18).contains(&x) && (20..27).contains(&y);
            if door {
                [70, 46, 30]
            } else if roof {
                shade([168, 58, 44], (noise(x, y, 9) % 13) as i32 - 6)
            } else if wall {
                [222, 208, 178]
            } else {
                grass(x, y)
            }
        }
        Terrain::Redoubt => {
            let edge = x.min(y).min(31 - x).min(31 - y);
            if edge < 3 {
                grass(x, y)
            } else if edge < 9 {
                shade([150, 112, 70], if edge < 6 { 16 } else { -10 } + (noise(x, y, 10) % 11) as i32 - 5)
            } else {
                shade([118, 92, 60], (noise(x, y, 11) % 9) as i32 - 4)
            }
        }
        Terrain::Wall => {
            let row = y / 6;
            let offset = if row.is_multiple_of(2) { 0 } else { 5 };
            let mortar = y.is_multiple_of(6) || (x + offset).is_multiple_of(10);
            if mortar { [96, 92, 88] } else { shade([158, 152, 142], (noise(x / 4, y / 3, 12) % 21) as i32 - 10) }
        }
        Terrain::Breach => {
            if noise(x / 3, y / 3, 13).is_multiple_of(3) {
                shade([150, 144, 134], (noise(x, y, 14) % 21) as i32 - 10)
            } else {
                shade([120, 100, 74], (noise(x, y, 15) % 15) as i32 - 7)
            }
        }
    }
}

fn water(base: [u8; 3], x: u32, y: u32) -> [u8; 3] {
    let wave = (x + 3 * (y / 8)) % 12 < 3 && y % 8 == 3;
    if wave { shade(base, 40) } else { shade(base, (noise(x, y, 2) % 9) as i32 - 4) }
}

/// Counter symbols, NATO-style, drawn in code (white on transparent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Infantry,
    LightInfantry,
    Grenadiers,
    Militia,
    Guard,
    LightCavalry,
    HeavyCavalry,
    Artillery,
    HorseArtillery,
}

impl Symbol {
    pub const ALL: [Symbol; 9] = [
        Symbol::Infantry,
        Symbol::LightInfantry,
        Symbol::Grenadiers,
        Symbol::Militia,
        Symbol::Guard,
        Symbol::LightCavalry,
        Symbol::HeavyCavalry,
        Symbol::Artillery,
        Symbol::HorseArtillery,
    ];

    /// The symbol of a unit type.
    pub fn of(t: &rules::tactical::units::UnitType) -> Symbol {
        use rules::tactical::units::{Ability, Arm};
        match t.arm {
            Arm::Artillery if t.has(Ability::HorseArtillery) => Symbol::HorseArtillery,
            Arm::Artillery => Symbol::Artillery,
            Arm::Cavalry if t.ranged.is_some() || t.has(Ability::IgnoresCommandDistance) => Symbol::LightCavalry,
            Arm::Cavalry => Symbol::HeavyCavalry,
            Arm::Infantry if t.has(Ability::Guard) => Symbol::Guard,
            Arm::Infantry if t.has(Ability::Ambush) => Symbol::LightInfantry,
            Arm::Infantry if t.storming_melee.is_some() => Symbol::Grenadiers,
            Arm::Infantry if t.melee <= 2 => Symbol::Militia,
            Arm::Infantry => Symbol::Infantry,
        }
    }
}

pub const SYMBOL_W: u32 = 24;
pub const SYMBOL_H: u32 = 16;

fn rgba_image(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Image {
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            data.extend_from_slice(&f(x, y));
        }
    }
    Image::new(
        Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
}

/// Distance from a point to a segment, for drawing lines.
fn near_segment(px: f32, py: f32, (ax, ay): (f32, f32), (bx, by): (f32, f32)) -> f32 {
    let (dx, dy) = (bx - ax, by - ay);
    let t = (((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    ((px - ax - t * dx).powi(2) + (py - ay - t * dy).powi(2)).sqrt()
}

/// A counter's symbol image.
pub fn symbol(s: Symbol) -> Image {
    let (w, h) = (SYMBOL_W as f32, SYMBOL_H as f32);
    rgba_image(SYMBOL_W, SYMBOL_H, |x, y| {
        let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
        let frame = x < 1 || y < 1 || x >= SYMBOL_W - 1 || y >= SYMBOL_H - 1;
        let diag1 = near_segment(px, py, (1.0, 1.0), (w - 1.0, h - 1.0)) < 0.9;
        let diag2 = near_segment(px, py, (1.0, h - 1.0), (w - 1.0, 1.0)) < 0.9;
        let cross = diag1 || diag2;
        let dot = |r: f32, cx: f32, cy: f32| (px - cx).powi(2) + (py - cy).powi(2) <= r * r;
        let ink = match s {
            Symbol::Infantry => frame || cross,
            Symbol::LightInfantry => frame || cross || dot(2.2, w / 2.0, 3.5),
            Symbol::Grenadiers => frame || cross || dot(2.6, w / 2.0, h - 4.0),
            Symbol::Militia => (frame && (x + y) % 4 < 2) || cross,
            Symbol::Guard => frame || cross || y == 2 || y == SYMBOL_H - 3,
            Symbol::LightCavalry => frame || diag2,
            Symbol::HeavyCavalry => frame || diag2 || near_segment(px, py, (1.0, h - 4.0), (w - 4.0, 1.0)) < 0.9,
            Symbol::Artillery => frame || dot(3.5, w / 2.0, h / 2.0),
            Symbol::HorseArtillery => frame || dot(3.5, w / 2.0, h / 2.0) || diag2,
        };
        if ink { [250, 246, 232, 255] } else { [0, 0, 0, 0] }
    })
}

/// A small triangle pointing up (+y on screen), rotated to a unit's facing.
pub fn arrow() -> Image {
    rgba_image(12, 10, |x, y| {
        // y = 0 is the top row of the image.
        let half = (9 - y.min(9)) as f32 * 0.6;
        let inside = (x as f32 + 0.5 - 6.0).abs() <= 6.0 - half;
        if inside { [250, 236, 160, 255] } else { [0, 0, 0, 0] }
    })
}

/// A hollow square, tinted per use (selection, melee marker).
pub fn ring() -> Image {
    rgba_image(32, 32, |x, y| {
        let edge = x < 3 || y < 3 || x >= 29 || y >= 29;
        if edge { [255, 255, 255, 255] } else { [0, 0, 0, 0] }
    })
}

/// A little white flag (retreating units, T-END-2).
pub fn flag() -> Image {
    rgba_image(10, 10, |x, y| {
        if x == 1 {
            [60, 40, 20, 255]
        } else if x > 1 && y < 6 {
            [255, 255, 255, 255]
        } else {
            [0, 0, 0, 0]
        }
    })
}
