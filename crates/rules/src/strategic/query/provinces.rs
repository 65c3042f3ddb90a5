//! The provinces as they stand (S-CITY-1 occupation, S-CITY-4 cessions, devastation), read by
//! borrow from the game of record: the board redraws from it every frame without a copy.

use crate::strategic::game::GreatWar;
use crate::strategic::state::{PowerState, Powers, ProvinceState, Provinces};

/// Each province's state, in the map's province order (empty before a game has its world).
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::provinces;
/// use rules::strategic::testkit;
/// use rules::strategic::GreatWar;
///
/// let map = testkit::german_city(HexMap::filled("test", 6, 6, Terrain::Clear), (2, 2));
/// let game = GreatWar::new(&testkit::scenario(map, Vec::new()), 1);
/// let states = provinces(&game);
/// assert_eq!(states.len(), 1);
/// assert_eq!(states[0].occupier, None, "Germany's own province, occupied by nobody");
/// ```
pub fn provinces(game: &GreatWar) -> &[ProvinceState] {
    game.world().get_resource::<Provinces>().map_or(&[][..], |p| &p.0[..])
}

/// Each power's standing (neutral, out of the war, at peace with whom), in the scenario's power
/// order, read by borrow (empty before a game has its world): what the political map redraws on.
///
/// ```
/// use rules::strategic::hexmap::{HexMap, Terrain};
/// use rules::strategic::query::powers;
/// use rules::strategic::testkit;
/// use rules::strategic::GreatWar;
///
/// let game = GreatWar::new(&testkit::scenario(HexMap::filled("test", 6, 6, Terrain::Clear), Vec::new()), 1);
/// assert_eq!(powers(&game).len(), game.scenario().powers.len());
/// assert!(powers(&game).iter().all(|p| !p.out));
/// ```
pub fn powers(game: &GreatWar) -> &[PowerState] {
    game.world().get_resource::<Powers>().map_or(&[][..], |p| &p.0[..])
}
