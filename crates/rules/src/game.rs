//! What every game of the engine is to the tools around it (the app's session, AI slicing, replay
//! viewer, saves and the `umpire`): one [`Game`] trait, implemented by the Napoleonic
//! [`Battle`](crate::tactical::Battle) and the [`GreatWar`](crate::strategic::GreatWar), and one
//! [`Save`] format for both.
//!
//! A game is changed only by [`Game::apply`] (the one door into the rules); everything else reads.
//! A save is the scenario (embedded, with its hash), the seed, the order log and state hashes taken
//! on the way; [`Game::replay_until`] applies the log to a fresh game and fails loudly at the first
//! difference.

use crate::data::{DataError, Pos, to_ron};
use crate::hash::StateHash;
use crate::limits::Limit;
use crate::replay::{Checkpoint, Header};
use serde::de::{self, DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// A game of the engine: built from a scenario and a seed, changed only by orders. Games and
/// their types are `Send + Sync + 'static` so the app can hold them as resources and send them
/// in messages.
pub trait Game: Sized + Send + Sync + 'static {
    /// The RON struct name of this game's saves (`SaveGame(..)` for a battle, `GreatWarSave(..)`
    /// for the Great War): saves written by earlier versions keep loading byte for byte.
    const SAVE_NAME: &'static str;
    /// The save format this version writes and reads.
    const SAVE_FORMAT: u32;

    type Scenario: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Order: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// Why an order was refused, as one sentence for people.
    type Error: fmt::Display + fmt::Debug + Send + Sync + 'static;
    type Event: Clone + fmt::Debug + Send + Sync + 'static;
    /// A working copy of the state, for reading, previews and the AI.
    type Ctx: Clone + Send + Sync + 'static;
    /// What an order would do, with odds.
    type Preview: Send + Sync + 'static;
    /// Who gives orders: a battle's side, a Great War power.
    type Player: Copy + Eq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Starts a game from a scenario with a seed for the dice.
    fn new(scenario: &Self::Scenario, seed: u64) -> Self;
    /// Applies an order (the one door into the rules) and returns what happened.
    fn apply(&mut self, order: Self::Order) -> Result<Vec<Self::Event>, Self::Error>;
    /// What an order would do, computed by the rules on copies; an illegal order gives the error
    /// `apply` would.
    fn preview(&self, order: &Self::Order) -> Result<Self::Preview, Self::Error>;
    fn ctx(&self) -> Self::Ctx;
    /// Every player, in the order of play (a battle: the attacker first, T-TURN-1).
    fn players(&self) -> Vec<Self::Player>;
    /// Who gives the next order; `None` once the game is over.
    fn active_player(&self) -> Option<Self::Player>;
    fn is_over(&self) -> bool;
    fn turn(&self) -> u32;
    /// Every order applied so far.
    fn orders(&self) -> &[Self::Order];
    /// Everything that happened so far, dice included.
    fn events(&self) -> &[Self::Event];
    fn checkpoints(&self) -> &[Checkpoint];
    fn scenario(&self) -> &Self::Scenario;
    fn seed(&self) -> u64;
    /// Hash of the canonical state (the same on every platform).
    fn state_hash(&self) -> StateHash;
    /// Dice thrown so far: an order that threw one cannot be taken back.
    fn dice_thrown(&self) -> u64;
    /// The order that gives up the rest of the active player's turn or set-up step (what an AI
    /// that has nothing better does).
    fn pass(&self) -> Self::Order;

    /// Whether the game waits for a moderator's ruling ([`crate::moderation`]: a game set to
    /// ask): no player gives an order until it comes, and [`Game::active_player`] is `None`.
    fn awaits_moderator(&self) -> bool {
        false
    }
    /// The ruling that takes the engine's own answer to the waiting question (what it decides
    /// where nobody is asked): given where the moderator is absent past the deadline.
    fn default_ruling(&self) -> Option<Self::Order> {
        None
    }
    /// Whether `order` is the moderator's to give (what the game asks, a ruling), never a
    /// player's.
    fn is_moderators(order: &Self::Order) -> bool {
        let _ = order;
        false
    }

    /// Whether an order hands the turn (or the set-up step) to the next player.
    fn ends_turn(order: &Self::Order) -> bool;
    /// Whether an event showed a player something hidden (taking it back would leak it).
    fn reveals(event: &Self::Event) -> bool;
    /// The scenario's name, as people see it (saves and autosaves are named after it).
    fn scenario_name(scenario: &Self::Scenario) -> &str;
    fn scenario_hash(scenario: &Self::Scenario) -> StateHash;
    /// This game's checks of a parsed save beyond the order limit (the scenario it embeds, as a
    /// scenario file would be checked), reported at `path` in `text`.
    fn check_save(save: &Save<Self>, path: &str, text: &str) -> Result<(), DataError>;

    /// The save of this game so far.
    fn save(&self) -> Save<Self> {
        Save {
            format: Self::SAVE_FORMAT,
            scenario_hash: Self::scenario_hash(self.scenario()),
            seed: self.seed(),
            orders: self.orders().to_vec(),
            checkpoints: self.checkpoints().to_vec(),
            final_hash: self.state_hash(),
            scenario: self.scenario().clone(),
        }
    }

    /// Replays the first `count` orders of a save (for a replay viewer and undo), checking every
    /// recorded hash on the way, and the final hash when the whole log is replayed.
    fn replay_until(save: &Save<Self>, count: usize) -> Result<Self, ReplayError<Self>> {
        let header = Header {
            format: save.format,
            supported: Self::SAVE_FORMAT,
            scenario_hash: save.scenario_hash,
            found_scenario_hash: Self::scenario_hash(&save.scenario),
            final_hash: save.final_hash,
        };
        replay_orders(header, || Self::new(&save.scenario, save.seed), &save.orders, &save.checkpoints, count)
    }

    /// Replays a whole save, checking every recorded hash.
    fn replay(save: &Save<Self>) -> Result<Self, ReplayError<Self>> {
        Self::replay_until(save, save.orders.len())
    }
}

/// Why a save of game `G` could not be replayed.
pub type ReplayError<G> = crate::replay::ReplayError<<G as Game>::Order, <G as Game>::Error>;

/// Replays the first `count` orders on the game `start` makes, checking every checkpoint on the
/// way, and the final hash when the whole log is replayed.
fn replay_orders<G: Game>(
    header: Header,
    start: impl FnOnce() -> G,
    orders: &[G::Order],
    checkpoints: &[Checkpoint],
    count: usize,
) -> Result<G, ReplayError<G>> {
    if header.format != header.supported {
        return Err(crate::replay::ReplayError::Format { found: header.format, supported: header.supported });
    }
    if header.found_scenario_hash != header.scenario_hash {
        return Err(crate::replay::ReplayError::ScenarioHash {
            expected: header.scenario_hash,
            found: header.found_scenario_hash,
        });
    }
    let mut game = start();
    let mut points = checkpoints.iter().peekable();
    let mut verify = |game: &G, done: usize| {
        while let Some(p) = points.peek() {
            if p.after > done {
                break;
            }
            if p.after == done {
                let found = game.state_hash();
                if found != p.hash {
                    return Err(crate::replay::ReplayError::Diverged {
                        after: p.after,
                        turn: p.turn,
                        expected: p.hash,
                        found,
                    });
                }
            }
            points.next();
        }
        Ok(())
    };
    verify(&game, 0)?;
    for (index, order) in orders.iter().take(count).enumerate() {
        game.apply(order.clone()).map(|_| ()).map_err(|error| crate::replay::ReplayError::Illegal {
            index,
            order: order.clone(),
            error,
        })?;
        verify(&game, index + 1)?;
    }
    if count == orders.len() {
        let found = game.state_hash();
        if found != header.final_hash {
            return Err(crate::replay::ReplayError::Diverged {
                after: count,
                turn: game.turn(),
                expected: header.final_hash,
                found,
            });
        }
    }
    Ok(game)
}

/// A saved game: scenario (embedded, with its hash) + seed + order log + state hashes.
///
/// Written as RON with the game's struct name ([`Game::SAVE_NAME`]); unknown fields are refused.
pub struct Save<G: Game> {
    pub format: u32,
    pub scenario_hash: StateHash,
    pub seed: u64,
    pub orders: Vec<G::Order>,
    pub checkpoints: Vec<Checkpoint>,
    pub final_hash: StateHash,
    pub scenario: G::Scenario,
}

impl<G: Game> Save<G> {
    pub fn to_text(&self) -> String {
        to_ron(self)
    }

    /// Reads a save, refuses one over the referee's limits, and checks the scenario it embeds as
    /// a scenario file is checked.
    pub fn from_text(path: &str, text: &str) -> Result<Save<G>, DataError> {
        let save: Save<G> = crate::replay::parse_save(path, text)?;
        Limit::Orders.check_len(save.orders.len()).map_err(|e| DataError::over_limit(path, Pos::START, e))?;
        G::check_save(&save, path, text)?;
        Ok(save)
    }
}

impl<G: Game> Clone for Save<G> {
    fn clone(&self) -> Self {
        Save {
            format: self.format,
            scenario_hash: self.scenario_hash,
            seed: self.seed,
            orders: self.orders.clone(),
            checkpoints: self.checkpoints.clone(),
            final_hash: self.final_hash,
            scenario: self.scenario.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Save<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(G::SAVE_NAME)
            .field("format", &self.format)
            .field("scenario_hash", &self.scenario_hash)
            .field("seed", &self.seed)
            .field("orders", &self.orders)
            .field("checkpoints", &self.checkpoints)
            .field("final_hash", &self.final_hash)
            .field("scenario", &self.scenario)
            .finish()
    }
}

impl<G: Game> PartialEq for Save<G>
where
    G::Order: PartialEq,
    G::Scenario: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.format == other.format
            && self.scenario_hash == other.scenario_hash
            && self.seed == other.seed
            && self.orders == other.orders
            && self.checkpoints == other.checkpoints
            && self.final_hash == other.final_hash
            && self.scenario == other.scenario
    }
}

impl<G: Game> Eq for Save<G>
where
    G::Order: Eq,
    G::Scenario: Eq,
{
}

/// The fields of a save, in the order they are written.
const FIELDS: &[&str] = &["format", "scenario_hash", "seed", "orders", "checkpoints", "final_hash", "scenario"];

impl<G: Game> Serialize for Save<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct(G::SAVE_NAME, FIELDS.len())?;
        s.serialize_field("format", &self.format)?;
        s.serialize_field("scenario_hash", &self.scenario_hash)?;
        s.serialize_field("seed", &self.seed)?;
        s.serialize_field("orders", &self.orders)?;
        s.serialize_field("checkpoints", &self.checkpoints)?;
        s.serialize_field("final_hash", &self.final_hash)?;
        s.serialize_field("scenario", &self.scenario)?;
        s.end()
    }
}

/// A field of a save by name; any other name is refused (as `deny_unknown_fields` does).
enum Field {
    Format,
    ScenarioHash,
    Seed,
    Orders,
    Checkpoints,
    FinalHash,
    Scenario,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Field, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("field identifier")
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
                match usize::try_from(v).ok().and_then(|i| FIELDS.get(i)) {
                    Some(name) => self.visit_str(name),
                    None => Err(E::invalid_value(de::Unexpected::Unsigned(v), &"field index 0 <= i < 7")),
                }
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(match v {
                    "format" => Field::Format,
                    "scenario_hash" => Field::ScenarioHash,
                    "seed" => Field::Seed,
                    "orders" => Field::Orders,
                    "checkpoints" => Field::Checkpoints,
                    "final_hash" => Field::FinalHash,
                    "scenario" => Field::Scenario,
                    other => return Err(E::unknown_field(other, FIELDS)),
                })
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Field, E> {
                match std::str::from_utf8(v) {
                    Ok(s) => self.visit_str(s),
                    Err(_) => Err(E::unknown_field(&String::from_utf8_lossy(v), FIELDS)),
                }
            }
        }
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

struct SaveVisitor<G>(PhantomData<G>);

impl<'de, G: Game> Visitor<'de> for SaveVisitor<G> {
    type Value = Save<G>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", G::SAVE_NAME)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Save<G>, A::Error> {
        let expected = &self;
        let missing = |i: usize| de::Error::invalid_length(i, expected);
        Ok(Save {
            format: seq.next_element()?.ok_or_else(|| missing(0))?,
            scenario_hash: seq.next_element()?.ok_or_else(|| missing(1))?,
            seed: seq.next_element()?.ok_or_else(|| missing(2))?,
            orders: seq.next_element()?.ok_or_else(|| missing(3))?,
            checkpoints: seq.next_element()?.ok_or_else(|| missing(4))?,
            final_hash: seq.next_element()?.ok_or_else(|| missing(5))?,
            scenario: seq.next_element()?.ok_or_else(|| missing(6))?,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Save<G>, A::Error> {
        fn once<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
            map: &mut A,
            slot: &mut Option<T>,
            name: &'static str,
        ) -> Result<(), A::Error> {
            if slot.is_some() {
                return Err(de::Error::duplicate_field(name));
            }
            *slot = Some(map.next_value()?);
            Ok(())
        }
        fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
            slot.ok_or_else(|| E::missing_field(name))
        }
        let (mut format, mut scenario_hash, mut seed, mut orders) = (None, None, None, None);
        let (mut checkpoints, mut final_hash, mut scenario) = (None, None, None);
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Format => once(&mut map, &mut format, "format")?,
                Field::ScenarioHash => once(&mut map, &mut scenario_hash, "scenario_hash")?,
                Field::Seed => once(&mut map, &mut seed, "seed")?,
                Field::Orders => once(&mut map, &mut orders, "orders")?,
                Field::Checkpoints => once(&mut map, &mut checkpoints, "checkpoints")?,
                Field::FinalHash => once(&mut map, &mut final_hash, "final_hash")?,
                Field::Scenario => once(&mut map, &mut scenario, "scenario")?,
            }
        }
        Ok(Save {
            format: required(format, "format")?,
            scenario_hash: required(scenario_hash, "scenario_hash")?,
            seed: required(seed, "seed")?,
            orders: required(orders, "orders")?,
            checkpoints: required(checkpoints, "checkpoints")?,
            final_hash: required(final_hash, "final_hash")?,
            scenario: required(scenario, "scenario")?,
        })
    }
}

impl<'de, G: Game> Deserialize<'de> for Save<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Save<G>, D::Error> {
        deserializer.deserialize_struct(G::SAVE_NAME, FIELDS, SaveVisitor(PhantomData))
    }
}
