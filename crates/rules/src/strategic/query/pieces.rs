//! The pieces a power commands (S-ARMY-3): orders go to armies, corps and independent units; a
//! corps inside an army, or a division inside a corps, is its formation's.

use crate::strategic::hexmap::HexAt;
use crate::strategic::order::Piece;
use crate::strategic::state::{Ctx, FormationId, FormationKind, Phase, Place, PowerId};

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

/// The pieces of `power` on a hex, as a click there finds them: its corps (an army's included:
/// S-ARMY-3 makes the army the one ordered, [`army_of`] names it) and its units in no corps, by
/// piece.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::pieces_at;
/// use rules::strategic::testkit::{self, hex, id};
/// use rules::strategic::{Phase, Piece};
///
/// let map = HexMap::filled("test", 10, 10, Terrain::Clear);
/// let forces = vec![testkit::infantry(2, "germany", (2, 2)), testkit::infantry(1, "germany", (2, 2))];
/// let ctx = testkit::ctx(&testkit::scenario(map, forces), Phase::Movement, 0);
/// let here = pieces_at(&ctx, ctx.active_power(), hex(2, 2));
/// assert_eq!(here, vec![Piece::Unit(id(1)), Piece::Unit(id(2))]);
/// assert!(pieces_at(&ctx, ctx.active_power(), hex(3, 2)).is_empty());
/// ```
pub fn pieces_at(ctx: &Ctx, power: PowerId, at: HexAt) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    for id in ctx.at(at) {
        let Some(f) = ctx.force(*id).filter(|f| f.power == power) else { continue };
        let piece = match f.member.corps {
            Some(c) => Piece::Corps(c),
            None => Piece::Unit(f.id),
        };
        if !pieces.contains(&piece) {
            pieces.push(piece);
        }
    }
    pieces.sort();
    pieces
}

/// Every piece of `power` on the map, as [`pieces_at`] finds them, by piece.
///
/// ```
/// use rules::strategic::query::pieces_on_map;
/// use rules::strategic::testkit::{self, id};
/// use rules::strategic::{FormationId, Phase, Piece};
///
/// let s = testkit::army_front();
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// // The two corps (their divisions are theirs) and the independent division 4.
/// let mine = pieces_on_map(&ctx, ctx.active_power());
/// assert_eq!(mine, vec![Piece::Unit(id(4)), Piece::Corps(FormationId(101)), Piece::Corps(FormationId(102))]);
/// ```
pub fn pieces_on_map(ctx: &Ctx, power: PowerId) -> Vec<Piece> {
    let mut hexes: Vec<HexAt> = ctx.forces.iter().filter(|f| f.power == power).filter_map(|f| f.hex()).collect();
    hexes.sort();
    hexes.dedup();
    let mut pieces: Vec<Piece> = hexes.into_iter().flat_map(|h| pieces_at(ctx, power, h)).collect();
    pieces.sort();
    pieces.dedup();
    pieces
}

/// The army a corps, or a unit of a corps, belongs to (S-ARMY-3).
///
/// ```
/// use rules::strategic::query::army_of;
/// use rules::strategic::testkit::{self, id};
/// use rules::strategic::{FormationId, Phase, Piece};
///
/// let s = testkit::army_front();
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// assert_eq!(army_of(&ctx, Piece::Unit(id(1))), Some(FormationId(201)), "through its corps");
/// assert_eq!(army_of(&ctx, Piece::Corps(FormationId(102))), Some(FormationId(201)));
/// assert_eq!(army_of(&ctx, Piece::Unit(id(4))), None, "an independent division");
/// ```
pub fn army_of(ctx: &Ctx, piece: Piece) -> Option<FormationId> {
    let corps = match piece {
        Piece::Unit(u) => ctx.force(u)?.member.corps?,
        Piece::Corps(c) => c,
    };
    ctx.formations.iter().find(|f| f.kind == FormationKind::Army && f.corps.contains(&corps)).map(|f| f.id)
}

/// The formation a piece takes its orders through (S-ARMY-3: orders go to armies): its army
/// (through its corps, or directly: a reserve or an attached unit), else its corps; none for a
/// unit in no formation. The umpire server's seats go by it (a general commands the formations
/// its leader gave it), and so does the board of a general's seat.
///
/// ```
/// use rules::strategic::query::order_formation;
/// use rules::strategic::testkit::{self, id};
/// use rules::strategic::{FormationId, Phase, Piece};
///
/// let s = testkit::army_front();
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// assert_eq!(order_formation(&ctx, Piece::Unit(id(1))), Some(FormationId(201)), "through its corps");
/// assert_eq!(order_formation(&ctx, Piece::Corps(FormationId(102))), Some(FormationId(201)));
/// assert_eq!(order_formation(&ctx, Piece::Unit(id(4))), None, "an independent division");
/// ```
pub fn order_formation(ctx: &Ctx, piece: Piece) -> Option<FormationId> {
    let corps = match piece {
        Piece::Unit(u) => {
            let m = ctx.force(u)?.member;
            if let Some(army) = m.army {
                return Some(army);
            }
            m.corps?
        }
        Piece::Corps(c) => c,
    };
    Some(army_of(ctx, Piece::Corps(corps)).unwrap_or(corps))
}

/// `power`'s pieces in contact with the enemy (a land unit of a power at war with it next to
/// theirs) in the Movement phase: those the Retreat order may take out (S-ARMY-7, S-ARMY-15),
/// by piece; none in any other phase.
///
/// ```
/// use rules::strategic::query::engaged_pieces;
/// use rules::strategic::testkit::{self, hex, id};
/// use rules::strategic::{FormationId, Phase, Piece};
///
/// let mut s = testkit::army_front();
/// // Division 4 stands next to the French (1 hex); the corps 4 hexes and more away.
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// assert_eq!(engaged_pieces(&ctx, ctx.active_power()), vec![Piece::Unit(id(4))]);
/// assert!(engaged_pieces(&testkit::ctx(&s, Phase::Fire, 0), ctx.active_power()).is_empty(), "Movement only");
/// s.forces[4].at = Some(hex(8, 6));
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// assert!(engaged_pieces(&ctx, ctx.active_power()).is_empty(), "2 hexes off: no contact");
/// ```
pub fn engaged_pieces(ctx: &Ctx, power: PowerId) -> Vec<Piece> {
    if ctx.clock.phase != Phase::Movement {
        return Vec::new();
    }
    pieces_on_map(ctx, power)
        .into_iter()
        .filter(|p| ctx.piece_hex(*p).is_some_and(|at| ctx.next_to_enemy(power, at)))
        .collect()
}

/// An army's move to `at` as one order (S-ARMY-3: the army moves as one, at its slowest
/// division's speed, which the order checks): each corps goes by the same displacement as the
/// pointed hex is from the army's first corps, along the engine's own walk
/// ([`Ctx::destinations`]); a corps that cannot get there is left out (it stays). The moves
/// [`Order::MoveArmy`](crate::strategic::Order::MoveArmy) takes.
///
/// ```
/// use rules::strategic::query::army_moves;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::{FormationId, Phase, Piece};
///
/// let s = testkit::army_front();
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// // Pointing two hexes right of the first corps moves both corps two hexes right.
/// let moves = army_moves(&ctx, FormationId(201), hex(4, 2));
/// let ends: Vec<_> = moves.iter().map(|(c, path)| (*c, path.last().copied())).collect();
/// assert_eq!(ends, vec![(FormationId(101), Some(hex(4, 2))), (FormationId(102), Some(hex(4, 4)))]);
/// ```
pub fn army_moves(ctx: &Ctx, army: FormationId, at: HexAt) -> Vec<(FormationId, Vec<HexAt>)> {
    let Some(formation) = ctx.formation(army) else { return Vec::new() };
    let Some(lead) = formation.corps.first().and_then(|c| ctx.piece_hex(Piece::Corps(*c))) else { return Vec::new() };
    let delta = at.hex() - lead.hex();
    let mut moves = Vec::new();
    for corps in &formation.corps {
        let Some(from) = ctx.piece_hex(Piece::Corps(*corps)) else { continue };
        let goal = HexAt::from_hex(from.hex() + delta);
        if let Some((_, _, path)) = ctx.destinations(Piece::Corps(*corps)).into_iter().find(|(h, _, _)| *h == goal) {
            moves.push((*corps, path));
        }
    }
    moves
}

/// `power`'s air squadrons a click at `at` finds, by ID: those based there, and those attached
/// to a corps or army with a unit there (S-ARMY-2, S-ARMY-5: an attached squadron flies from its
/// formation's hexes, wherever its old base was). Squadrons aboard a ship or without aircraft
/// are left out.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::squadrons_at;
/// use rules::strategic::scenario::{CorpsSpec, SquadronSpec};
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::{FormationId, Phase};
///
/// let forces = vec![testkit::infantry(1, "germany", (5, 2))];
/// let mut s = testkit::scenario(HexMap::filled("test", 10, 6, Terrain::Clear), forces);
/// s.corps = vec![CorpsSpec { id: 101, name: "I Corps".into(), units: vec![1], attached: vec![] }];
/// let squadron = |id| SquadronSpec {
///     id, power: "germany".into(), kind: "Reconnaissance squadron".into(), base: hex(1, 1), name: None,
/// };
/// s.squadrons = vec![squadron(1), squadron(2)];
/// let mut ctx = testkit::ctx(&s, Phase::Movement, 0);
/// let germany = ctx.active_power();
/// assert_eq!(squadrons_at(&ctx, germany, hex(1, 1)), vec![1, 2], "both at their base");
/// // Squadron 2 attached to the corps: found where the corps stands, not at its old base.
/// ctx.navy.squadrons[1].attached = Some(FormationId(101));
/// assert_eq!(squadrons_at(&ctx, germany, hex(1, 1)), vec![1]);
/// assert_eq!(squadrons_at(&ctx, germany, hex(5, 2)), vec![2]);
/// ```
pub fn squadrons_at(ctx: &Ctx, power: PowerId, at: HexAt) -> Vec<crate::strategic::naval::SquadronId> {
    ctx.navy
        .squadrons
        .iter()
        .filter(|s| s.power == power && s.aboard.is_none() && s.aircraft > 0)
        .filter(|s| match s.attached {
            Some(fm) => ctx.formation_hexes(fm).contains(&at),
            None => s.base == at,
        })
        .map(|s| s.id)
        .collect()
}

/// The squadrons attached to a corps or army, an army's corps' included (S-ARMY-2), by ID.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::attached_squadrons;
/// use rules::strategic::scenario::{ArmySpec, CorpsSpec, SquadronSpec};
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::{FormationId, Phase};
///
/// let forces = vec![testkit::infantry(1, "germany", (5, 2))];
/// let mut s = testkit::scenario(HexMap::filled("test", 10, 6, Terrain::Clear), forces);
/// s.corps = vec![CorpsSpec { id: 101, name: "I Corps".into(), units: vec![1], attached: vec![] }];
/// s.armies = vec![ArmySpec { id: 201, name: "1st Army".into(), corps: vec![101], reserves: vec![], attached: vec![] }];
/// let squadron = |id| SquadronSpec {
///     id, power: "germany".into(), kind: "Reconnaissance squadron".into(), base: hex(1, 1), name: None,
/// };
/// s.squadrons = vec![squadron(1), squadron(2), squadron(3)];
/// let mut ctx = testkit::ctx(&s, Phase::Movement, 0);
/// ctx.navy.squadrons[0].attached = Some(FormationId(201));
/// ctx.navy.squadrons[1].attached = Some(FormationId(101));
/// // The army's own and its corps'; squadron 3 is attached to none.
/// assert_eq!(attached_squadrons(&ctx, FormationId(201)), vec![1, 2]);
/// assert_eq!(attached_squadrons(&ctx, FormationId(101)), vec![2]);
/// ```
pub fn attached_squadrons(ctx: &Ctx, formation: FormationId) -> Vec<crate::strategic::naval::SquadronId> {
    let mut of = vec![formation];
    if let Some(f) = ctx.formation(formation) {
        of.extend(f.corps.iter().copied());
    }
    ctx.navy
        .squadrons
        .iter()
        .filter(|s| s.aircraft > 0 && s.attached.is_some_and(|fm| of.contains(&fm)))
        .map(|s| s.id)
        .collect()
}
