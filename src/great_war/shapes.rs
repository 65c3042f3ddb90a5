//! Coloured triangles for the board's meshes (the chunks' features, the political map, the
//! overlays), built up shape by shape.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

/// Coloured triangles, built up shape by shape.
#[derive(Default)]
pub struct Shapes {
    positions: Vec<[f32; 3]>,
    colours: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

impl Shapes {
    /// A line of `width` from `a` to `b`.
    pub fn line(&mut self, a: Vec2, b: Vec2, width: f32, colour: [f32; 4], z: f32) {
        let d = (b - a).normalize_or_zero();
        let n = Vec2::new(-d.y, d.x) * width / 2.0;
        self.quad([a + n, b + n, b - n, a - n], colour, z);
    }

    /// A filled quadrilateral.
    pub fn quad(&mut self, p: [Vec2; 4], colour: [f32; 4], z: f32) {
        let base = self.positions.len() as u32;
        for v in p {
            self.positions.push([v.x, v.y, z]);
            self.colours.push(colour);
        }
        self.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    /// A square of side `side` centred on `c`.
    pub fn square(&mut self, c: Vec2, side: f32, colour: [f32; 4], z: f32) {
        let h = side / 2.0;
        self.quad([c + Vec2::new(-h, -h), c + Vec2::new(h, -h), c + Vec2::new(h, h), c + Vec2::new(-h, h)], colour, z);
    }

    /// A diamond of half-diagonal `r` centred on `c`.
    pub fn diamond(&mut self, c: Vec2, r: f32, colour: [f32; 4], z: f32) {
        self.quad(
            [c + Vec2::new(0.0, -r), c + Vec2::new(r, 0.0), c + Vec2::new(0.0, r), c + Vec2::new(-r, 0.0)],
            colour,
            z,
        );
    }

    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    pub fn into_mesh(self) -> Mesh {
        Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::RENDER_WORLD)
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
            .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, self.colours)
            .with_inserted_indices(Indices::U32(self.indices))
    }
}
