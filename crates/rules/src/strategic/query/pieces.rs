//! The pieces a power commands (S-ARMY-3): orders go to armies, corps and independent units; a
//! corps inside an army, or a division inside a corps, is its formation's.

use crate::strategic::hexmap::HexAt;
use crate::strategic::order::Piece;
use crate::strategic::state::{Ctx, Place, PowerId};

/// A land piece a power moves itself: an independent unit (a battery by its lowest gun), or a
/// corps outside an army.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LandPiece {
    pub piece: Piece,
    pub at: HexAt,
    pub artillery: bool,
}

/// `power`'s land pieces on the map that take their own orders (S-ARMY-3), by piece: corps
/// outside armies and independent units; members of corps and armies take theirs from them.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::land_pieces;
/// use rules::strategic::testkit::{self, id};
/// use rules::strategic::{Phase, Piece};
///
/// let map = HexMap::filled("test", 10, 10, Terrain::Clear);
/// let forces = vec![testkit::infantry(1, "germany", (2, 2)), testkit::infantry(2, "france", (6, 2))];
/// let ctx = testkit::ctx(&testkit::scenario(map, forces), Phase::Movement, 0);
/// let mine = land_pieces(&ctx, ctx.active_power());
/// assert_eq!(mine.iter().map(|p| p.piece).collect::<Vec<_>>(), vec![Piece::Unit(id(1))]);
/// ```
pub fn land_pieces(ctx: &Ctx, power: PowerId) -> Vec<LandPiece> {
    let mut out = Vec::new();
    for f in &ctx.forces {
        let Place::Map(at) = f.place else { continue };
        if f.power != power || f.member.army.is_some() {
            continue;
        }
        if let Some(c) = f.member.corps {
            let piece = Piece::Corps(c);
            if !out.iter().any(|p: &LandPiece| p.piece == piece) {
                out.push(LandPiece { piece, at, artillery: false });
            }
            continue;
        }
        if f.member.battery.is_some_and(|b| b != f.id) {
            continue;
        }
        out.push(LandPiece { piece: Piece::Unit(f.id), at, artillery: f.kind.is_artillery() });
    }
    out.sort_by_key(|p| p.piece);
    out
}
