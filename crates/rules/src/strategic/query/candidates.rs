//! "What can this piece do now" at sea and in the air: the pieces and targets an order would
//! accept, found by the order's own check ([`Ctx::embark_unit_check`], [`Ctx::merge_check`],
//! [`Ctx::bomb_check`], …), so a list never offers what the order then refuses. Each is asked by
//! a viewer: a power asks of its own pieces (another's come back empty), and a target it cannot
//! see (an enemy flotilla it has not found, S-SUB-5, S-AIR-1) is never offered to it.

use crate::strategic::hexmap::HexAt;
use crate::strategic::naval::{FleetId, ShipId, ShipType, SquadronId};
use crate::strategic::state::{Ctx, ForceId, PowerId};
use crate::view::Viewer;

/// Whether `viewer` may ask of a piece of `power`: the umpire of anything, a power of its own.
fn asks_of(viewer: Viewer<PowerId>, power: PowerId) -> bool {
    viewer.player().is_none_or(|v| v == power)
}

/// Whether `viewer` sees the fleet (the engine's sight, [`Ctx::fleet_hidden_from`]).
fn sees(ctx: &Ctx, viewer: Viewer<PowerId>, fleet: FleetId) -> bool {
    viewer.player().is_none_or(|v| !ctx.fleet_hidden_from(fleet, v))
}

/// Land units that may board the fleet (S-NAVAL-11): own independent units on or next to its
/// hex and out of contact with the enemy, by ID. Whether the fleet has room and the power
/// the money for a transport is [`Ctx::transport_check`]'s, the same for every one of them.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::embark_candidates;
/// use rules::strategic::testkit::{self, hex, id};
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut map = HexMap::filled("coast", 10, 10, Terrain::Sea);
/// for col in 0..4 {
///     map.cell_mut(hex(col, 2)).unwrap().terrain = Terrain::Clear;
/// }
/// let forces = vec![testkit::infantry(1, "germany", (3, 2)), testkit::infantry(2, "germany", (0, 2))];
/// let mut s = testkit::scenario(map, forces);
/// s.fleets = vec![testkit::fleet(1, "germany", (4, 2), &[(ShipType::Destroyer, 2)])];
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// // Division 1 stands next to the fleet; division 2 four hexes off.
/// assert_eq!(embark_candidates(&ctx, Viewer::Player(ctx.active_power()), 1), vec![id(1)]);
/// ```
pub fn embark_candidates(ctx: &Ctx, viewer: Viewer<PowerId>, fleet: FleetId) -> Vec<ForceId> {
    let Some(f) = ctx.navy.fleet(fleet).filter(|f| asks_of(viewer, f.power)) else { return Vec::new() };
    let near = |at: HexAt| at.distance(f.at) <= 1;
    ctx.forces
        .iter()
        .filter(|u| u.power == f.power && u.hex().is_some_and(near))
        .filter(|u| ctx.embark_unit_check(u.id, fleet).is_ok())
        .map(|u| u.id)
        .collect()
}

/// Air squadrons that may board the fleet (S-NAVAL-11): own squadrons based on or next to its
/// hex, not attached, that have not flown this turn, by ID.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::squadron_embark_candidates;
/// use rules::strategic::scenario::SquadronSpec;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut map = HexMap::filled("coast", 10, 4, Terrain::Sea);
/// for col in 0..4 {
///     map.cell_mut(hex(col, 1)).unwrap().terrain = Terrain::Clear;
/// }
/// let mut s = testkit::scenario(map, Vec::new());
/// s.fleets = vec![testkit::fleet(1, "germany", (4, 1), &[(ShipType::Destroyer, 1)])];
/// let squadron = |id, col| SquadronSpec {
///     id, power: "germany".into(), kind: "Reconnaissance squadron".into(), base: hex(col, 1), name: None,
/// };
/// // Squadron 1 is based next to the fleet (1 hex), squadron 2 two hexes off.
/// s.squadrons = vec![squadron(1, 3), squadron(2, 2)];
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// let germany = ctx.active_power();
/// assert_eq!(squadron_embark_candidates(&ctx, Viewer::Player(germany), 1), vec![1]);
/// // France asks of Germany's fleet: nothing.
/// let france = ctx.power_by_id("france").unwrap();
/// assert!(squadron_embark_candidates(&ctx, Viewer::Player(france), 1).is_empty());
/// ```
pub fn squadron_embark_candidates(ctx: &Ctx, viewer: Viewer<PowerId>, fleet: FleetId) -> Vec<SquadronId> {
    let Some(f) = ctx.navy.fleet(fleet).filter(|f| asks_of(viewer, f.power)) else { return Vec::new() };
    ctx.navy
        .squadrons
        .iter()
        .filter(|s| s.power == f.power && ctx.embark_squadron_check(s.id, fleet).is_ok())
        .map(|s| s.id)
        .collect()
}

/// Own fleets the fleet may join (S-NAVAL-2: on its hex, at most 20 ships together), by ID.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::merge_partners;
/// use rules::strategic::testkit;
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut s = testkit::scenario(HexMap::filled("sea", 8, 4, Terrain::Sea), Vec::new());
/// // 12 + 8 battleships (counted one for one, S-NAVAL-1) on one hex may join; fleet 3 is a
/// // hex away, fleet 4 is French.
/// s.fleets = vec![
///     testkit::fleet(1, "germany", (2, 1), &[(ShipType::Battleship, 12)]),
///     testkit::fleet(2, "germany", (2, 1), &[(ShipType::Battleship, 8)]),
///     testkit::fleet(3, "germany", (3, 1), &[(ShipType::Battleship, 1)]),
///     testkit::fleet(4, "france", (2, 1), &[(ShipType::Battleship, 1)]),
/// ];
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// let germany = Viewer::Player(ctx.active_power());
/// assert_eq!(merge_partners(&ctx, germany, 1), vec![2]);
/// // 20 ships together is the limit (S-NAVAL-2): one more and fleet 2 could not join.
/// s.fleets[1] = testkit::fleet(2, "germany", (2, 1), &[(ShipType::Battleship, 9)]);
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// assert!(merge_partners(&ctx, germany, 1).is_empty());
/// ```
pub fn merge_partners(ctx: &Ctx, viewer: Viewer<PowerId>, fleet: FleetId) -> Vec<FleetId> {
    let Some(f) = ctx.navy.fleet(fleet).filter(|f| asks_of(viewer, f.power)) else { return Vec::new() };
    ctx.navy
        .fleets
        .iter()
        .filter(|o| o.id != fleet && o.power == f.power && ctx.merge_check(fleet, o.id).is_ok())
        .map(|o| o.id)
        .collect()
}

/// Enemy fleets the flotilla may attack (S-SUB-1…5): afloat on or next to its hex, an enemy
/// flotilla only once found; and only those `viewer` sees. By ID.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::torpedo_targets;
/// use rules::strategic::testkit;
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut s = testkit::scenario(HexMap::filled("sea", 10, 4, Terrain::Sea), Vec::new());
/// // The U-boats at (3, 1); French destroyers next to them and two hexes off.
/// s.fleets = vec![
///     testkit::fleet(1, "germany", (3, 1), &[(ShipType::Submarine, 4)]),
///     testkit::fleet(2, "france", (4, 1), &[(ShipType::Destroyer, 4)]),
///     testkit::fleet(3, "france", (5, 1), &[(ShipType::Destroyer, 4)]),
/// ];
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// assert_eq!(torpedo_targets(&ctx, Viewer::Player(ctx.active_power()), 1), vec![2]);
/// let france = ctx.power_by_id("france").unwrap();
/// assert!(torpedo_targets(&ctx, Viewer::Player(france), 1).is_empty(), "not France's to ask");
/// ```
pub fn torpedo_targets(ctx: &Ctx, viewer: Viewer<PowerId>, flotilla: FleetId) -> Vec<FleetId> {
    let Some(f) = ctx.navy.fleet(flotilla).filter(|f| asks_of(viewer, f.power)) else { return Vec::new() };
    ctx.navy
        .fleets
        .iter()
        .filter(|t| ctx.hostile(f.power, t.power) && sees(ctx, viewer, t.id))
        .filter(|t| ctx.submarine_attack_check(flotilla, t.id).is_ok())
        .map(|t| t.id)
        .collect()
}

/// Enemy surface ships `squadrons` may bomb together this turn (S-AIR-2): each in range of the
/// ship (from its base, or its formation's hexes when attached), their summed bombing at least
/// the ship's class, in fleets `viewer` sees; submarines are no target. In the fleets' ID
/// order, each fleet's ships by class then ID.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::bomb_targets;
/// use rules::strategic::scenario::SquadronSpec;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut map = HexMap::filled("coast", 12, 4, Terrain::Sea);
/// map.cell_mut(hex(0, 1)).unwrap().terrain = Terrain::Clear;
/// let mut s = testkit::scenario(map, Vec::new());
/// s.fleets = vec![
///     testkit::fleet(1, "france", (4, 1), &[(ShipType::Destroyer, 1)]),
///     testkit::fleet(2, "france", (9, 1), &[(ShipType::Destroyer, 1)]),
/// ];
/// let kind = "Torpedo bomber squadron".to_string();
/// s.squadrons = vec![SquadronSpec { id: 1, power: "germany".into(), kind, base: hex(0, 1), name: None }];
/// let ctx = testkit::ctx(&s, Phase::Fire, 0);
/// // A torpedo bomber flies 5 hexes: the destroyer 4 hexes off is a target, the one 9 off is not.
/// assert_eq!(bomb_targets(&ctx, Viewer::Player(ctx.active_power()), &[1]).len(), 1);
/// ```
pub fn bomb_targets(ctx: &Ctx, viewer: Viewer<PowerId>, squadrons: &[SquadronId]) -> Vec<ShipId> {
    let mine = |id: &SquadronId| ctx.navy.squadrons.iter().any(|s| s.id == *id && asks_of(viewer, s.power));
    let Some(power) = squadrons
        .first()
        .filter(|_| squadrons.iter().all(mine))
        .and_then(|id| ctx.navy.squadrons.iter().find(|s| s.id == *id).map(|s| s.power))
    else {
        return Vec::new();
    };
    ctx.navy
        .fleets
        .iter()
        .filter(|f| ctx.hostile(power, f.power) && sees(ctx, viewer, f.id))
        .flat_map(|f| ctx.navy.afloat(f.id))
        .filter(|s| ctx.bomb_check(squadrons, *s).is_ok())
        .collect()
}

/// Other own bombers that may fly with `lead` this turn (S-AIR-2: their bombing is summed), by
/// ID: not reconnaissance, not yet flown, with aircraft, not aboard a ship.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::wing_candidates;
/// use rules::strategic::scenario::SquadronSpec;
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut s = testkit::scenario(HexMap::filled("land", 8, 4, Terrain::Clear), Vec::new());
/// let squadron = |id, power: &str, kind: &str| SquadronSpec {
///     id, power: power.into(), kind: kind.into(), base: hex(1, 1), name: None,
/// };
/// s.squadrons = vec![
///     squadron(1, "germany", "Torpedo bomber squadron"),
///     squadron(2, "germany", "Torpedo bomber squadron"),
///     squadron(3, "germany", "Reconnaissance squadron"),
///     squadron(4, "france", "Torpedo bomber squadron"),
/// ];
/// let mut ctx = testkit::ctx(&s, Phase::Fire, 0);
/// let germany = Viewer::Player(ctx.active_power());
/// // Its other bomber; not the reconnaissance squadron, not the French one.
/// assert_eq!(wing_candidates(&ctx, germany, 1), vec![2]);
/// ctx.navy.squadrons[1].flew = true;
/// assert!(wing_candidates(&ctx, germany, 1).is_empty(), "a squadron flies once a turn");
/// ```
pub fn wing_candidates(ctx: &Ctx, viewer: Viewer<PowerId>, lead: SquadronId) -> Vec<SquadronId> {
    let Some(l) = ctx.navy.squadrons.iter().find(|s| s.id == lead).filter(|s| asks_of(viewer, s.power)) else {
        return Vec::new();
    };
    ctx.navy
        .squadrons
        .iter()
        .filter(|s| s.id != lead && s.power == l.power && !s.recon && ctx.may_fly(s.id).is_ok())
        .map(|s| s.id)
        .collect()
}

/// Enemy surface ships a heavy gun on the coast may fire at (S-NAVAL-14): within its gun's
/// range, in fleets `viewer` sees. Empty for a unit that is no coastal gun or has fired.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::naval::ShipType;
/// use rules::strategic::query::coastal_targets;
/// use rules::strategic::scenario::KindSpec;
/// use rules::strategic::testkit::{self, hex, id};
/// use rules::strategic::Phase;
/// use rules::view::Viewer;
///
/// let mut map = HexMap::filled("coast", 10, 4, Terrain::Sea);
/// map.cell_mut(hex(0, 1)).unwrap().terrain = Terrain::Clear;
/// let gun = testkit::unit(1, "germany", (0, 1), KindSpec::Artillery("15 cm sFH 13".into()));
/// let mut s = testkit::scenario(map, vec![gun]);
/// // The sFH 13 reaches 2 hexes: the cruiser 2 hexes out, not the one 3 out.
/// s.fleets = vec![
///     testkit::fleet(2, "france", (2, 1), &[(ShipType::LightCruiser, 1)]),
///     testkit::fleet(3, "france", (3, 1), &[(ShipType::LightCruiser, 1)]),
/// ];
/// let ctx = testkit::ctx(&s, Phase::Fire, 0);
/// let targets = coastal_targets(&ctx, Viewer::Player(ctx.active_power()), id(1));
/// assert_eq!(targets, ctx.navy.afloat(2));
/// ```
pub fn coastal_targets(ctx: &Ctx, viewer: Viewer<PowerId>, unit: ForceId) -> Vec<ShipId> {
    let Some(f) = ctx.force(unit).filter(|f| asks_of(viewer, f.power)) else { return Vec::new() };
    ctx.navy
        .fleets
        .iter()
        .filter(|x| ctx.hostile(f.power, x.power) && sees(ctx, viewer, x.id))
        .flat_map(|x| ctx.navy.afloat(x.id))
        .filter(|s| ctx.navy.ship(*s).is_some_and(|s| s.kind != ShipType::Submarine))
        .filter(|s| ctx.coastal_fire_check(unit, *s).is_ok())
        .collect()
}

/// The corps and armies the squadron may be attached to now (S-ARMY-2: its power's formations
/// with a hex on or next to its base, in the Movement phase, while it is not attached), by ID:
/// [`Ctx::attach_squadron_check`] for each.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::squadron_attach_candidates;
/// use rules::strategic::scenario::{CorpsSpec, SquadronSpec};
/// use rules::strategic::testkit::{self, hex};
/// use rules::strategic::{FormationId, Phase};
/// use rules::view::Viewer;
///
/// let forces = vec![testkit::infantry(1, "germany", (2, 1)), testkit::infantry(2, "germany", (4, 1))];
/// let mut s = testkit::scenario(HexMap::filled("test", 10, 4, Terrain::Clear), forces);
/// s.corps = vec![
///     CorpsSpec { id: 101, name: "I Corps".into(), units: vec![1], attached: vec![] },
///     CorpsSpec { id: 102, name: "II Corps".into(), units: vec![2], attached: vec![] },
/// ];
/// let kind = "Reconnaissance squadron".to_string();
/// s.squadrons = vec![SquadronSpec { id: 1, power: "germany".into(), kind, base: hex(1, 1), name: None }];
/// // I Corps stands next to the base (1 hex), II Corps 3 hexes off.
/// let ctx = testkit::ctx(&s, Phase::Movement, 0);
/// let germany = Viewer::Player(ctx.active_power());
/// assert_eq!(squadron_attach_candidates(&ctx, germany, 1), vec![FormationId(101)]);
/// assert!(squadron_attach_candidates(&testkit::ctx(&s, Phase::Fire, 0), germany, 1).is_empty(), "Movement only");
/// ```
pub fn squadron_attach_candidates(
    ctx: &Ctx,
    viewer: Viewer<PowerId>,
    squadron: SquadronId,
) -> Vec<crate::strategic::state::FormationId> {
    let Some(s) = ctx.navy.squadrons.iter().find(|s| s.id == squadron).filter(|s| asks_of(viewer, s.power)) else {
        return Vec::new();
    };
    if ctx.clock.phase != crate::strategic::state::Phase::Movement {
        return Vec::new();
    }
    ctx.formations
        .iter()
        .filter(|f| f.power == s.power && ctx.attach_squadron_check(squadron, Some(f.id)).is_ok())
        .map(|f| f.id)
        .collect()
}
