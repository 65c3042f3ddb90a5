//! S-SUP-6, rotation: how long a unit has stood on the front line against its period, and the
//! pieces that want relieving. The count itself is the Upkeep's ([`Ctx::rotation_status`]); the
//! period is [`rotation_period`]'s, the one place it is written.

use crate::strategic::order::Piece;
use crate::strategic::state::{Ctx, Force};
use crate::strategic::upkeep::{Rotation, rotation_period};

/// S-SUP-6 for a unit as it stands in `f` (or would stand: a copy moved or counted on), as the
/// next Upkeep will count it: its turns in a row on the front line, its period and whether it
/// stands on the front line against the land units on the map now; `None` for a unit the rotation
/// does not count (not on the map, or a gun: S-SUP-6 costs the combat troops Morale).
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::rotation;
/// use rules::strategic::testkit::{self, id};
/// use rules::strategic::Phase;
///
/// let map = HexMap::filled("test", 10, 10, Terrain::Clear);
/// let forces = vec![testkit::infantry(1, "germany", (2, 2)), testkit::infantry(2, "france", (4, 2))];
/// let mut ctx = testkit::ctx(&testkit::scenario(map, forces), Phase::Movement, 0);
/// ctx.forces.iter_mut().for_each(|f| f.front.turns = 2);
/// let r = rotation(&ctx, ctx.force(id(1)).expect("in the game")).expect("a division on the map");
/// // An independent division's period is 2 turns; on the line, the next Upkeep costs Morale.
/// assert_eq!((r.turns, r.period, r.on_front, r.loses_morale()), (2, 2, true, true));
/// ```
pub fn rotation(ctx: &Ctx, f: &Force) -> Option<Rotation> {
    ctx.rotation_of(f)
}

/// S-SUP-6: whether a unit of `piece` has stood its period on the front line, so that ending the
/// next Upkeep there costs it Morale (2 turns independent, 3 in a corps, 4 in an army).
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::tired;
/// use rules::strategic::testkit::{self, id};
/// use rules::strategic::{Phase, Piece};
///
/// let map = HexMap::filled("test", 10, 10, Terrain::Clear);
/// let mut ctx = testkit::ctx(&testkit::scenario(map, vec![testkit::infantry(1, "germany", (2, 2))]), Phase::Movement, 0);
/// ctx.forces[0].front.turns = 1;
/// assert!(!tired(&ctx, Piece::Unit(id(1))));
/// ctx.forces[0].front.turns = 2;
/// assert!(tired(&ctx, Piece::Unit(id(1))));
/// ```
pub fn tired(ctx: &Ctx, piece: Piece) -> bool {
    let Ok((_, units)) = ctx.piece_units(piece) else { return false };
    units.iter().filter_map(|u| ctx.force(*u)).any(|f| f.front.turns >= rotation_period(f))
}
