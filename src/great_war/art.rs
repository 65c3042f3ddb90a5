//! The Great War's pictures, drawn in code (no asset files, so the native and browser builds
//! draw the same map): a hex tile per terrain, the overview image of a whole map (one pixel per
//! hex), NATO counters for divisions, corps, armies and fleets, and the overlay shapes.

use super::geometry::{HEX_H, HEX_W};
use bevy::asset::RenderAssetUsages;
use bevy::color::Color;
use bevy::image::Image;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use rules::strategic::hexmap::flag;
use rules::strategic::{HexMap, Terrain};
use serde::Deserialize;
use std::sync::OnceLock;

/// Pixels of a hex tile.
pub const TILE_W: u32 = HEX_W as u32;
pub const TILE_H: u32 = 37;

/// The terrains in tileset order.
pub const TERRAINS: [Terrain; 8] = [
    Terrain::Clear,
    Terrain::Forest,
    Terrain::Mountains,
    Terrain::Desert,
    Terrain::Northern,
    Terrain::Marsh,
    Terrain::Sea,
    Terrain::Lake,
];

/// A terrain's index in the tileset.
pub fn tile_index(t: Terrain) -> u32 {
    TERRAINS.iter().position(|x| *x == t).unwrap_or(0) as u32
}

/// A terrain's colour on the map and in the overview.
pub fn terrain_rgb(t: Terrain) -> [u8; 3] {
    match t {
        Terrain::Clear => [178, 190, 122],
        Terrain::Forest => [84, 128, 70],
        Terrain::Mountains => [150, 128, 102],
        Terrain::Desert => [218, 196, 140],
        Terrain::Northern => [170, 184, 170],
        Terrain::Marsh => [120, 140, 108],
        Terrain::Sea => [70, 108, 150],
        Terrain::Lake => [96, 142, 180],
    }
}

/// An RGBA image of `w` × `h` pixels, rows from the top.
pub fn image_of(w: u32, h: u32, data: Vec<u8>) -> Image {
    image(w, h, data)
}

fn image(w: u32, h: u32, data: Vec<u8>) -> Image {
    Image::new(
        Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
}

/// An image drawn pixel for pixel when magnified (overlay tints: one pixel a half hex).
pub fn image_nearest(w: u32, h: u32, data: Vec<u8>) -> Image {
    let mut img = image(w, h, data);
    img.sampler = bevy::image::ImageSampler::nearest();
    img
}

/// A small fixed hash for texture noise.
fn noise(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ salt.wrapping_mul(0xC2B2_AE3D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x27D4_EB2F);
    h ^ (h >> 13)
}

/// How far a pixel is inside a pointy-top hex filling a `TILE_W × TILE_H` tile (< 0: outside).
fn inside_hex(x: u32, y: u32) -> f32 {
    let (cx, cy) = (TILE_W as f32 / 2.0, TILE_H as f32 / 2.0);
    let (dx, dy) = ((x as f32 + 0.5 - cx).abs(), (y as f32 + 0.5 - cy).abs());
    let r = HEX_H / 2.0;
    // Flat sides left and right at HEX_W/2; the slanted sides meet the points at r.
    let flat = HEX_W / 2.0 - dx;
    let slant = (r - dy - dx / 3f32.sqrt()) * 3f32.sqrt() / 2.0;
    flat.min(slant)
}

/// The terrain tileset: one hex per terrain, left to right, with a little texture so that
/// forests, mountains and marshes read at a glance.
pub fn tileset() -> Image {
    let n = TERRAINS.len() as u32;
    let (w, h) = (TILE_W * n, TILE_H);
    let mut data = vec![0u8; (w * h * 4) as usize];
    for (i, t) in TERRAINS.iter().enumerate() {
        for y in 0..h {
            for x in 0..TILE_W {
                let edge = inside_hex(x, y);
                if edge < 0.0 {
                    continue;
                }
                let [r, g, b] = terrain_rgb(*t);
                let mut d = (noise(x, y, i as u32) % 13) as i32 - 6;
                let mark = match t {
                    Terrain::Forest => (x + 2 * y) % 7 == 0 || (x * 3 + y) % 11 == 0,
                    Terrain::Mountains => {
                        (x as i32 - 16).abs() + (y as i32 - 14) == 6 || (x as i32 - 9).abs() + (y as i32 - 22) == 4
                    }
                    Terrain::Marsh => y % 6 == 0 && x % 4 != 0,
                    Terrain::Northern => (x + y) % 9 == 0,
                    Terrain::Sea | Terrain::Lake => y % 8 == 3 && (x + y) % 6 < 3,
                    _ => false,
                };
                if mark {
                    d -= 28;
                }
                // A faint rim outlines each hex.
                if edge < 1.0 {
                    d -= 18;
                }
                let f = |c: u8| (i32::from(c) + d).clamp(0, 255) as u8;
                let at = ((y * w + i as u32 * TILE_W + x) * 4) as usize;
                data[at..at + 4].copy_from_slice(&[f(r), f(g), f(b), 255]);
            }
        }
    }
    image(w, h, data)
}

/// The whole map at one pixel per hex (rows from the north), for the far zoom: terrain, with
/// cities and fortresses marked.
pub fn overview(map: &HexMap) -> Image {
    let (w, h) = (map.width.max(1), map.height.max(1));
    let mut data = vec![0u8; (w as usize) * (h as usize) * 4];
    for (i, at) in map.hexes().enumerate() {
        let Some(cell) = map.cell(at) else { continue };
        let rgb = if cell.has(flag::FORTRESS) {
            [60, 40, 40]
        } else if cell.has(flag::CITY) {
            [235, 230, 215]
        } else if cell.has(flag::RAIL) {
            [90, 80, 70]
        } else {
            terrain_rgb(cell.terrain)
        };
        let at = i * 4;
        if let Some(px) = data.get_mut(at..at + 4) {
            px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    image(w, h, data)
}

/// The powers' colours (issue 27): their counters, land and borders, and the political map's key.
/// The colour table as its file gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GreatWarColours {
    powers: Vec<(String, [u8; 3])>,
    others: Vec<[u8; 3]>,
}

const COLOURS_FILE: &str = include_str!("../../assets/ui/great_war_colours.ron");

fn colour_table() -> &'static Result<GreatWarColours, String> {
    static TABLE: OnceLock<Result<GreatWarColours, String>> = OnceLock::new();
    TABLE.get_or_init(|| {
        ron::from_str(COLOURS_FILE)
            .map_err(|e: ron::error::SpannedError| format!("assets/ui/great_war_colours.ron: {e}"))
    })
}

/// Whether the colour table reads (a test checks it; a broken table leaves every power grey).
pub fn check_colours() -> Result<usize, String> {
    colour_table().as_ref().map(|t| t.powers.len()).map_err(Clone::clone)
}

/// The powers the colour table names, in its order.
pub fn coloured_powers() -> Vec<&'static str> {
    colour_table().as_ref().map_or_else(|_| Vec::new(), |t| t.powers.iter().map(|(id, _)| id.as_str()).collect())
}

/// The RGB of a power by its id; one the table does not name takes `others` by its place
/// (`index`) in the scenario.
pub fn power_rgb(id: &str, index: usize) -> [u8; 3] {
    let Ok(t) = colour_table() else { return [150, 150, 150] };
    if let Some((_, rgb)) = t.powers.iter().find(|(p, _)| p == id) {
        return *rgb;
    }
    t.others.get(index % t.others.len().max(1)).copied().unwrap_or([150, 150, 150])
}

/// A power's colour.
pub fn power_colour(id: &str, index: usize) -> Color {
    let [r, g, b] = power_rgb(id, index);
    Color::srgb_u8(r, g, b)
}

/// What a counter shows inside its box (NATO symbols).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    /// Crossed lines.
    Infantry,
    /// One diagonal.
    Cavalry,
    /// An oval (armour).
    Tank,
    /// A filled dot.
    Artillery,
    /// A flag-staff headquarters (a corps or an army).
    Headquarters,
    /// A hull with a mast.
    Fleet,
    /// A low hull (submarines and flotillas).
    Flotilla,
}

/// The size mark over the box: XX a division, XXX a corps, XXXX an army.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Echelon {
    None,
    Division,
    Corps,
    Army,
}

/// Small marks inside the box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Marks {
    pub elite: bool,
    pub mountain: bool,
    pub colonial: bool,
}

/// Pixels of a counter.
pub const COUNTER_W: u32 = 30;
pub const COUNTER_H: u32 = 28;
/// The box inside the counter (below the size mark).
const BOX: (u32, u32, u32, u32) = (1, 7, 29, 27);

/// A counter: a white box (tinted with the power's colour by the sprite) with a black symbol, the
/// size mark above it and the marks inside.
pub fn counter(symbol: Symbol, echelon: Echelon, marks: Marks) -> Image {
    let (w, h) = (COUNTER_W, COUNTER_H);
    let mut px = vec![0u8; (w * h * 4) as usize];
    let mut put = |x: u32, y: u32, c: [u8; 4]| {
        if x < w && y < h {
            let at = ((y * w + x) * 4) as usize;
            px[at..at + 4].copy_from_slice(&c);
        }
    };
    const INK: [u8; 4] = [20, 20, 20, 255];
    const PAPER: [u8; 4] = [255, 255, 255, 255];
    let (x0, y0, x1, y1) = BOX;
    for y in y0..y1 {
        for x in x0..x1 {
            let border = x == x0 || x == x1 - 1 || y == y0 || y == y1 - 1;
            put(x, y, if border { INK } else { PAPER });
        }
    }
    // The symbol, inside a frame of 20 × 14 at (5, 10).
    let (sx, sy, sw, sh) = (5i32, 10i32, 20i32, 14i32);
    let mut ink = |x: i32, y: i32| {
        if x >= 0 && y >= 0 {
            put(x as u32, y as u32, INK);
        }
    };
    match symbol {
        Symbol::Infantry => {
            for i in 0..=sw {
                let y = sy + i * sh / sw;
                ink(sx + i, y);
                ink(sx + i, sy + sh - i * sh / sw);
            }
            for x in sx..=sx + sw {
                ink(x, sy);
                ink(x, sy + sh);
            }
            for y in sy..=sy + sh {
                ink(sx, y);
                ink(sx + sw, y);
            }
        }
        Symbol::Cavalry => {
            for i in 0..=sw {
                ink(sx + i, sy + sh - i * sh / sw);
            }
            for x in sx..=sx + sw {
                ink(x, sy);
                ink(x, sy + sh);
            }
            for y in sy..=sy + sh {
                ink(sx, y);
                ink(sx + sw, y);
            }
        }
        Symbol::Tank => {
            for a in 0..72 {
                let t = (a as f32) * std::f32::consts::TAU / 72.0;
                ink(15 + (t.cos() * 8.0).round() as i32, 17 + (t.sin() * 4.0).round() as i32);
            }
        }
        Symbol::Artillery => {
            for y in -4i32..=4 {
                for x in -4i32..=4 {
                    if x * x + y * y <= 16 {
                        ink(15 + x, 17 + y);
                    }
                }
            }
        }
        Symbol::Headquarters => {
            for y in 10..25 {
                ink(8, y);
            }
            for y in 10..16 {
                for x in 8..20 {
                    ink(x, y);
                }
            }
        }
        Symbol::Fleet => {
            for x in 5..26 {
                ink(x, 20);
            }
            for x in 8..23 {
                ink(x, 23);
            }
            for y in 20..24 {
                ink(5 + (y - 20), y);
                ink(25 - (y - 20), y);
            }
            for y in 11..20 {
                ink(15, y);
            }
            for x in 12..19 {
                ink(x, 14);
            }
        }
        Symbol::Flotilla => {
            for x in 7..24 {
                ink(x, 19);
                ink(x, 22);
            }
            ink(6, 20);
            ink(6, 21);
            ink(24, 20);
            ink(24, 21);
            for y in 15..19 {
                ink(14, y);
                ink(15, y);
            }
        }
    }
    // Elite: a black corner; mountain: a peak at the foot; colonial: a bar at the head.
    if marks.elite {
        for y in 8..13 {
            for x in 24..28 {
                if x - 24 >= y - 8 {
                    ink(x, y);
                }
            }
        }
    }
    if marks.mountain {
        for i in 0..5 {
            ink(12 + i, 25 - i);
            ink(21 - i, 25 - i);
        }
    }
    if marks.colonial {
        for x in 3..9 {
            ink(x, 8);
            ink(x, 9);
        }
    }
    // The size mark above the box: one small x per step.
    let crosses = match echelon {
        Echelon::None => 0,
        Echelon::Division => 2,
        Echelon::Corps => 3,
        Echelon::Army => 4,
    };
    let start = 15 - (crosses * 5) / 2;
    for k in 0..crosses {
        let x = start + k * 5;
        for i in 0..4 {
            ink(x + i, 1 + i);
            ink(x + 3 - i, 1 + i);
        }
    }
    image(w, h, px)
}

/// A plain white hex, tinted by the sprite (reachable hexes, the path).
pub fn hex_fill() -> Image {
    let mut data = vec![0u8; (TILE_W * TILE_H * 4) as usize];
    for y in 0..TILE_H {
        for x in 0..TILE_W {
            if inside_hex(x, y) >= 0.0 {
                let at = ((y * TILE_W + x) * 4) as usize;
                data[at..at + 4].copy_from_slice(&[255, 255, 255, 255]);
            }
        }
    }
    image(TILE_W, TILE_H, data)
}

/// A hex outline, for the selection and the pointer.
pub fn hex_ring() -> Image {
    let mut data = vec![0u8; (TILE_W * TILE_H * 4) as usize];
    for y in 0..TILE_H {
        for x in 0..TILE_W {
            let e = inside_hex(x, y);
            if (0.0..2.5).contains(&e) {
                let at = ((y * TILE_W + x) * 4) as usize;
                data[at..at + 4].copy_from_slice(&[255, 255, 255, 255]);
            }
        }
    }
    image(TILE_W, TILE_H, data)
}

/// A sea mine (S-MINE): a white ball with horns and a dark rim, tinted by the layer's power.
pub fn mine() -> Image {
    const S: u32 = 17;
    let mut data = vec![0u8; (S * S * 4) as usize];
    let c = (S as f32 - 1.0) / 2.0;
    for y in 0..S {
        for x in 0..S {
            let (dx, dy) = (x as f32 - c, y as f32 - c);
            let r = (dx * dx + dy * dy).sqrt();
            // Horns: short spikes on the axes and diagonals beyond the ball.
            let horn = (dx.abs() < 1.0 || dy.abs() < 1.0 || (dx.abs() - dy.abs()).abs() < 1.0) && r <= 8.0;
            let px = if r <= 4.5 {
                [255, 255, 255, 255]
            } else if r <= 5.8 || horn {
                [25, 25, 25, 255]
            } else {
                continue;
            };
            let at = ((y * S + x) * 4) as usize;
            data[at..at + 4].copy_from_slice(&px);
        }
    }
    image(S, S, data)
}

/// Side of the effect images (`fx`), in pixels: one hex and a half across when drawn at scale 1.
pub const FX_SIZE: u32 = 48;

/// One effect image: every pixel's alpha from its distance to the centre (0 at the centre, 1 at
/// the edge) and its angle; white, tinted by the sprite.
fn fx_image(alpha: impl Fn(f32, f32, u32, u32) -> f32) -> Image {
    let s = FX_SIZE;
    let mut data = vec![0u8; (s * s * 4) as usize];
    let c = s as f32 / 2.0;
    for y in 0..s {
        for x in 0..s {
            let (dx, dy) = (x as f32 + 0.5 - c, y as f32 + 0.5 - c);
            let r = (dx * dx + dy * dy).sqrt() / c;
            let a = alpha(r, dy.atan2(dx), x, y).clamp(0.0, 1.0);
            let at = ((y * s + x) * 4) as usize;
            data[at..at + 4].copy_from_slice(&[255, 255, 255, (a * 255.0) as u8]);
        }
    }
    image(s, s, data)
}

/// A flash with eight rays: shells bursting, a fight.
pub fn burst() -> Image {
    fx_image(|r, angle, _, _| {
        let rays = 0.55 + 0.45 * (angle * 8.0).cos().abs().powi(3);
        let core = (1.0 - r / 0.35).max(0.0);
        core.max(if r < rays { 1.0 - r / rays } else { 0.0 })
    })
}

/// A soft, ragged cloud: gas, smoke, dust.
pub fn puff() -> Image {
    fx_image(|r, _, x, y| {
        let grain = (noise(x / 3, y / 3, 7) % 100) as f32 / 100.0;
        ((1.0 - r) * 1.6 - grain * 0.35).min(0.85)
    })
}

/// A thin circle: a shock wave, a splash, a whirl.
pub fn ring() -> Image {
    fx_image(|r, _, _, _| 1.0 - ((r - 0.88).abs() / 0.08))
}

/// A diagonal cross: a unit destroyed or dispersed.
pub fn cross() -> Image {
    fx_image(|r, angle, _, _| {
        let off_diagonal = (angle.rem_euclid(std::f32::consts::FRAC_PI_2) - std::f32::consts::FRAC_PI_4).abs();
        if r < 0.8 { 1.5 - (r * off_diagonal.sin()) / 0.08 } else { 0.0 }
    })
}

/// A white pixel, stretched for bars.
pub fn white() -> Image {
    image(1, 1, vec![255, 255, 255, 255])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The overview holds one pixel per hex, with cities marked.
    #[test]
    fn the_overview_has_a_pixel_per_hex() {
        let map = HexMap::filled("m", 7, 5, Terrain::Forest);
        let img = overview(&map);
        let size = img.texture_descriptor.size;
        assert_eq!((size.width, size.height), (7, 5));
        let data = img.data.as_ref().expect("pixels");
        assert_eq!(&data[0..3], &terrain_rgb(Terrain::Forest));
    }
}
