//! Where a hex of the Great War map lies on screen: pointy-top hexes, odd rows shifted half a hex
//! east, rows growing southwards, exactly as the engine's `HexAt` (`strategic/hex.rs`) lays them
//! out, so a hex drawn next to another is the engine's neighbour across that hexside.

use bevy::math::Vec2;
use rules::strategic::HexAt;

/// Width of a hex across its flat sides, in world units (and pixels of the terrain tiles).
pub const HEX_W: f32 = 32.0;
/// Height of a hex from point to point (a regular hexagon).
pub const HEX_H: f32 = HEX_W * 2.0 / SQRT_3;
/// Distance between the centres of two rows.
pub const ROW_STEP: f32 = HEX_H * 0.75;

const SQRT_3: f32 = 1.732_050_8;

/// The centre of a hex in world space (north up: the engine's rows grow southwards).
pub fn hex_to_world(at: HexAt) -> Vec2 {
    let shift = if at.row & 1 == 1 { 0.5 } else { 0.0 };
    Vec2::new((at.col as f32 + shift) * HEX_W, -(at.row as f32) * ROW_STEP)
}

/// The hex whose area holds a world position (whether or not it is on the map).
pub fn world_to_hex(p: Vec2) -> HexAt {
    // Fractional axial coordinates of the pointy-top layout, then cube rounding.
    let size = HEX_H / 2.0;
    let south = -p.y;
    let q = (SQRT_3 / 3.0 * p.x - south / 3.0) / size;
    let r = (2.0 / 3.0 * south) / size;
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    let (q, r) = (rq as i32, rr as i32);
    HexAt::new(q + (r - (r & 1)) / 2, r)
}

/// The two ends of hexside `dir` (the engine's hexside order: E, SE, SW, W, NW, NE) of a hex.
pub fn hexside(at: HexAt, dir: u8) -> (Vec2, Vec2) {
    let c = hex_to_world(at);
    // Corners of a pointy-top hex, from the north-east one clockwise on screen: corner `i` is at
    // angle 30° - 60°·i. Hexside E lies between the NE (30°) and SE (−30°) corners.
    let corner = |i: i32| {
        let a = (30.0 - 60.0 * i as f32).to_radians();
        c + Vec2::new(a.cos(), a.sin()) * (HEX_H / 2.0)
    };
    let d = i32::from(dir % 6);
    (corner(d), corner(d + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the engine's six neighbours of a hex is drawn one hex width away, across the
    /// hexside of that direction, on odd and even rows alike.
    #[test]
    fn the_engine_neighbours_touch_on_screen() {
        for at in [HexAt::new(5, 4), HexAt::new(5, 5), HexAt::new(0, 0), HexAt::new(700, 933)] {
            let c = hex_to_world(at);
            for (dir, n) in at.neighbours().into_iter().enumerate() {
                let d = hex_to_world(n) - c;
                assert!((d.length() - HEX_W).abs() < 1e-2, "{at} → {n}: {d}");
                let (a, b) = hexside(at, dir as u8);
                let mid = (a + b) / 2.0 - c;
                assert!((mid * 2.0 - d).length() < 1e-2, "hexside {dir} of {at} faces {n}");
            }
        }
    }

    #[test]
    fn a_hex_centre_and_points_near_it_map_back_to_the_hex() {
        for col in 0..12 {
            for row in 0..12 {
                let at = HexAt::new(col, row);
                let c = hex_to_world(at);
                assert_eq!(world_to_hex(c), at);
                for off in [Vec2::new(10.0, 0.0), Vec2::new(-10.0, 8.0), Vec2::new(0.0, -15.0)] {
                    assert_eq!(world_to_hex(c + off), at, "{at} + {off}");
                }
            }
        }
    }
}
