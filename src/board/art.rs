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
