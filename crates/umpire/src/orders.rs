//! Orders in words for the referee's messages (`order 3 (move unit 7 to (4, 5)): ...`), and the
//! order vocabulary that `--help` lists.

use rules::strategic::Order as GwOrder;
use rules::strategic::Piece;
use rules::tactical::Order;

/// "order N (what it does)": orders are counted from 1, in the order of their file.
pub fn label(index: usize, what: &str) -> String {
    format!("order {} ({what})", index + 1)
}

fn cells<T: std::fmt::Display>(list: &[T]) -> String {
    list.iter().map(ToString::to_string).collect::<Vec<_>>().join(" → ")
}

fn ids<T: std::fmt::Display>(list: &[T]) -> String {
    list.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// A battle order in words.
pub fn battle(order: &Order) -> String {
    match order {
        Order::PlaceRedoubt { cell } => format!("place a redoubt at {cell}"),
        Order::Deploy { unit, cell, facing } => format!("deploy unit {unit} at {cell} facing {}", facing.name()),
        Order::DesignateHq { unit } => format!("make unit {unit} the HQ"),
        Order::FormFormation { name, units, general } => {
            format!("form `{name}` of units {} with the general on unit {general}", ids(units))
        }
        Order::EndSetup => "end set-up".to_string(),
        Order::Move { unit, path, exit } => match path.last() {
            Some(end) if *exit => format!("move unit {unit} to {end} and off the map"),
            Some(end) if path.len() == 1 => format!("move unit {unit} to {end}"),
            Some(end) => format!("move unit {unit} to {end} via {}", cells(path)),
            None if *exit => format!("move unit {unit} off the map"),
            None => format!("move unit {unit} nowhere"),
        },
        Order::Turn { unit, facing } => format!("turn unit {unit} to face {}", facing.name()),
        Order::Fire { unit, target } => format!("unit {unit} fires at unit {target}"),
        Order::Skirmish { unit, on: true } => format!("unit {unit} takes skirmish order"),
        Order::Skirmish { unit, on: false } => format!("unit {unit} leaves skirmish order"),
        Order::Reform { unit } => format!("reform unit {unit}"),
        Order::SetReactions { unit, .. } => format!("set the reactions of unit {unit}"),
        Order::Retreat => "retreat the whole army".to_string(),
        Order::Capitulate => "capitulate".to_string(),
        Order::EndTurn => "end the turn".to_string(),
        Order::BringUp { unit, cell, facing } => {
            format!("bring up reserve unit {unit} at {cell} facing {}", facing.name())
        }
        Order::Moderate { asks } => moderated(asks),
        Order::Rule(r) => format!("the moderator rules {r:?}"),
    }
}

/// What a `Moderate` order hands the moderator, in words.
pub fn moderated(asks: &[rules::moderation::Asked]) -> String {
    let rules: Vec<&str> = asks.iter().map(|a| a.rule()).collect();
    format!("the moderator decides {}", if rules.is_empty() { "nothing".to_string() } else { rules.join(", ") })
}

fn piece(p: &Piece) -> String {
    match p {
        Piece::Unit(id) => format!("unit {id}"),
        Piece::Corps(id) => format!("corps {id}"),
    }
}

/// A Great War order in words. Orders this list does not know yet are shown as written.
pub fn great_war(order: &GwOrder) -> String {
    #[allow(unreachable_patterns)]
    match order {
        GwOrder::Move { piece: p, path } => match path.last() {
            Some(end) if path.len() == 1 => format!("move {} to {end}", piece(p)),
            Some(end) => format!("move {} to {end} via {}", piece(p), cells(path)),
            None => format!("move {} nowhere", piece(p)),
        },
        GwOrder::MoveArmy { army, moves } => format!("move army {army} ({} corps)", moves.len()),
        GwOrder::FormCorps { name, units } => format!("form corps `{name}` of units {}", ids(units)),
        GwOrder::FormArmy { name, corps } => format!("form army `{name}` of corps {}", ids(corps)),
        GwOrder::JoinCorps { unit, corps } => format!("unit {unit} joins corps {corps}"),
        GwOrder::Detach { piece: p, to: Some(to) } => format!("detach {} to {to}", piece(p)),
        GwOrder::Detach { piece: p, to: None } => format!("detach {}", piece(p)),
        GwOrder::Attach { unit, formation } => format!("attach unit {unit} to formation {formation}"),
        GwOrder::AttachSquadron { squadron, formation: Some(f) } => {
            format!("attach squadron {squadron} to formation {f}")
        }
        GwOrder::AttachSquadron { squadron, formation: None } => format!("detach squadron {squadron}"),
        GwOrder::AssignReserve { unit, army } => format!("unit {unit} joins the reserve of army {army}"),
        GwOrder::CommitReserve { unit, to } => format!("commit reserve unit {unit} at {to}"),
        GwOrder::Fortify { piece: p } => format!("{} fortifies", piece(p)),
        GwOrder::Fire { unit, target, gas } => {
            format!("unit {unit} fires {}at {target}", if *gas { "gas " } else { "" })
        }
        GwOrder::FormBattery { units } => format!("form a battery of units {}", ids(units)),
        GwOrder::PlaceCylinder { at } => format!("place a gas cylinder at {at}"),
        GwOrder::ReleaseGas { from, target } => format!("release gas from {from} at {target}"),
        GwOrder::Upgrade { unit } => format!("upgrade unit {unit}"),
        GwOrder::Convert { unit, to } => format!("convert unit {unit} into {to:?}"),
        GwOrder::Research { tech } => format!("research {tech:?}"),
        GwOrder::Restore { unit, class } => format!("restore unit {unit} from class {class} manpower"),
        GwOrder::Repair { unit } => format!("repair unit {unit}"),
        GwOrder::Retreat { moves } => {
            format!("retreat {}", moves.iter().map(|(p, _)| piece(p)).collect::<Vec<_>>().join(", "))
        }
        GwOrder::SupplyPriority { last } => format!("supply armies {} last", ids(last)),
        GwOrder::MoveFleet { fleet, path } => match path.last() {
            Some(end) => format!("move fleet {fleet} to {end}"),
            None => format!("move fleet {fleet} nowhere"),
        },
        GwOrder::FleetStance { fleet, .. } => format!("set the stance of fleet {fleet}"),
        GwOrder::SplitFleet { fleet, ships, name } => {
            format!("split ships {} off fleet {fleet} as `{name}`", ids(ships))
        }
        GwOrder::MergeFleet { fleet, into } => format!("merge fleet {fleet} into fleet {into}"),
        GwOrder::LayMine { fleet } => format!("fleet {fleet} lays a mine"),
        GwOrder::Sweep { fleet } => format!("fleet {fleet} sweeps for mines"),
        GwOrder::SubmarineAttack { flotilla, target } => format!("flotilla {flotilla} attacks fleet {target}"),
        GwOrder::Patrol { flotilla, lane } => format!("flotilla {flotilla} patrols sea lane {lane}"),
        GwOrder::Embark { unit, fleet } => format!("unit {unit} embarks on fleet {fleet}"),
        GwOrder::Disembark { unit, to } => format!("unit {unit} lands at {to}"),
        GwOrder::EmbarkSquadron { squadron, fleet } => format!("squadron {squadron} embarks on fleet {fleet}"),
        GwOrder::LandSquadron { squadron, base } => format!("squadron {squadron} lands at a base at {base}"),
        GwOrder::Bombard { fleet, target } => format!("fleet {fleet} bombards {target}"),
        GwOrder::CoastalFire { unit, ship } => format!("unit {unit} fires at ship {ship}"),
        GwOrder::Reconnaissance { squadron } => format!("squadron {squadron} flies reconnaissance"),
        GwOrder::Bomb { squadrons, ship } => format!("squadrons {} bomb ship {ship}", ids(squadrons)),
        GwOrder::Recruit { unit, at } => format!("raise {unit:?} at {at}"),
        GwOrder::BuyGas { shells, cylinders } => format!("buy {shells} gas shell(s) and {cylinders} cylinder(s)"),
        GwOrder::OfferPeace { to, cede } if cede.is_empty() => format!("offer peace to {to}"),
        GwOrder::OfferPeace { to, cede } => format!("offer peace to {to}, ceding {}", cede.join(", ")),
        GwOrder::AcceptPeace { from } => format!("accept the peace {from} offers"),
        GwOrder::EndPhase => "end the phase".to_string(),
        other => format!("{other:?}"),
    }
}

/// The order vocabulary of both wars, as order files write it (shown by `--help`).
pub const VOCABULARY: &str = "\
ORDER FILES: a RON list `[ ... ]` of orders, applied in turn; errors name the order by its place (from 1).

Battle orders (Napoleonic):
  PlaceRedoubt(cell: (x, y))                      Deploy(unit: 1, cell: (x, y), facing: North)
  DesignateHq(unit: 1)                            FormFormation(name: \"1st Division\", units: [1, 2], general: 1)
  EndSetup                                        Move(unit: 1, path: [(5, 4), (5, 5)], exit: false)
  Turn(unit: 1, facing: East)                     Fire(unit: 1, target: 2)
  Skirmish(unit: 1, on: true)                     Reform(unit: 1)
  SetReactions(unit: 1, reactions: (counter_volley: true, counter_charge: true, intercept: false))
  Retreat   Capitulate   EndTurn
  Facings: North East South West. Cells: (x, y), y grows southwards.

Great War orders (hexes are (col, row); a piece is Unit(id) or Corps(id)):
  Move(piece: Unit(1), path: [(3, 4)])            MoveArmy(army: 1, moves: [(2, [(3, 4)])])
  FormCorps(name: \"I\", units: [1, 2])             FormArmy(name: \"1st\", corps: [1, 2])
  JoinCorps(unit: 3, corps: 1)                    Detach(piece: Unit(3), to: Some((4, 4)))
  Attach(unit: 5, formation: 1)                   AssignReserve(unit: 4, army: 1)
  AttachSquadron(squadron: 2, formation: Some(1))   AttachSquadron(squadron: 2, formation: None)
  CommitReserve(unit: 4, to: (5, 5))              Fortify(piece: Corps(1))
  Fire(unit: 5, target: (6, 6), gas: false)       FormBattery(units: [5, 6, 7])
  PlaceCylinder(at: (4, 4))                       ReleaseGas(from: (4, 4), target: (6, 4))
  Upgrade(unit: 1)   Research(tech: Tanks)        Restore(unit: 1, class: 1)   Repair(unit: 1)
  Convert(unit: 1, to: Mountain)                  Convert(unit: 1, to: Elite)
  Retreat(moves: [(Unit(1), [(2, 4)])])           SupplyPriority(last: [1])
  MoveFleet(fleet: 1, path: [(5, 2)])             FleetStance(fleet: 1, intercept: true, withdraw: true)
  FleetStance(fleet: 1, intercept: false, withdraw: false, targets: [(3, 9)])   (ship 3 fires at ship 9)
  SplitFleet(fleet: 1, ships: [3, 4], name: \"Light\")   MergeFleet(fleet: 2, into: 1)
  LayMine(fleet: 1)   Sweep(fleet: 1)             SubmarineAttack(flotilla: 5, target: 1)
  Patrol(flotilla: 5, lane: 1)                    Embark(unit: 1, fleet: 2)   Disembark(unit: 1, to: (3, 3))
  EmbarkSquadron(squadron: 1, fleet: 2)           LandSquadron(squadron: 1, base: (3, 3))
  Bombard(fleet: 1, target: (8, 8))               CoastalFire(unit: 9, ship: 4)
  Reconnaissance(squadron: 1)                     Bomb(squadrons: [1, 2], ship: 4)
  BuyAmmunition(amount: 10)                       BuyGas(shells: 2, cylinders: 1)
  Recruit(unit: Infantry(class: 1, mountain: false, elite: false), at: (3, 3))
  Recruit(unit: Cavalry(class: 2), at: (3, 3))    Recruit(unit: Tank(\"A7V\"), at: (3, 3))
  Recruit(unit: Artillery(\"15 cm sFH 13\"), at: (3, 3))   Recruit(unit: Ship(Destroyer), at: (1, 1))
  Recruit(unit: Squadron(\"Light bomber squadron\"), at: (3, 3))
  OfferPeace(to: \"france\", cede: [\"alsace\"])          AcceptPeace(from: \"germany\")
  EndPhase

Fields not listed by the vocabulary are refused, as in every game file.";
