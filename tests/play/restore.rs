//! Saved positions are untrusted: a hand-edited save that the rules could not have reached is
//! refused with a reason, never played, and nothing in one makes the engine panic.

use paradox::{Actor, Bot, Game, Pending, RandomBot, Settings, Snapshot, State, Type, Value, load};
use serde_json::{Value as Json, json};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;

const GAMES: [&str; 6] = ["anarchy", "buddy-on-your-left", "costly-tricks", "pairadox", "tantony", "third-man"];

fn game(name: &str) -> Arc<Game> {
    Arc::new(load(Path::new(&format!("rules/{name}.cards")), &Settings::default()).expect("loads"))
}

/// Random bots for every player of a game.
fn bots(game: &Game, seed: u64) -> Vec<Box<dyn Bot>> {
    (0..game.players).map(|p| Box::new(RandomBot::new(seed + p as u64)) as Box<dyn Bot>).collect()
}

/// One random decision; false when the match is over.
fn step(state: &mut State, bot: &mut RandomBot) -> bool {
    let seat = match state.actor() {
        Actor::Seat(s) => s,
        Actor::Together(seats) => seats[0],
        Actor::Nobody => return false,
    };
    let player = state.game().seats[seat as usize].player;
    let action = bot.choose(&state.seen_by(player), seat).expect("a legal action");
    state.apply(seat, action).expect("applies");
    true
}

/// A state as a save file holds it, as JSON to damage by hand.
fn saved(state: &State) -> Json {
    serde_json::to_value(state.snapshot()).expect("serialises")
}

/// Reads a state back and restores it, without letting a panic through: a panic is a failure
/// of the test. JSON that does not even read as a state is refused too.
fn restore(game: &Arc<Game>, json: Json) -> Result<State, String> {
    let snapshot: Snapshot = serde_json::from_value(json).map_err(|e| e.to_string())?;
    let restored = catch_unwind(AssertUnwindSafe(|| State::restore(game.clone(), snapshot)));
    restored.expect("restoring does not panic").map_err(|unfit| unfit.to_string())
}

/// A match played `decisions` random decisions in, stopped at an open (one-seat) decision.
fn mid_match(game: &Arc<Game>, seed: u64, decisions: usize) -> State {
    let mut state = State::new(game.clone(), seed);
    let mut bot = RandomBot::new(seed);
    let mut made = 0;
    while made < decisions || !matches!(state.actor(), Actor::Seat(_)) {
        assert!(step(&mut state, &mut bot), "{}: the match ended before the save", game.name);
        made += 1;
    }
    state
}

/// Every position a match passes through restores as it was saved.
#[test]
fn every_position_of_a_match_restores() {
    for name in GAMES {
        let game = game(name);
        for seed in 1..=2 {
            let mut state = State::new(game.clone(), seed);
            let mut bot = RandomBot::new(seed);
            loop {
                let copy = restore(&game, saved(&state)).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                assert_eq!(copy.snapshot(), state.snapshot(), "{name}");
                if !step(&mut state, &mut bot) {
                    break;
                }
            }
        }
    }
}

/// An unmodified save restores and plays on exactly as the match it was saved from.
#[test]
fn an_unmodified_save_plays_on_identically() {
    for name in GAMES {
        let game = game(name);
        let mut state = mid_match(&game, 3, 25);
        let mut copy = restore(&game, saved(&state)).expect("restores");
        paradox::trace::play_out(&mut state, &mut bots(&game, 9));
        paradox::trace::play_out(&mut copy, &mut bots(&game, 9));
        assert!(state.is_over(), "{name}: the match ends");
        assert_eq!(paradox::trace::text(&state), paradox::trace::text(&copy), "{name}");
    }
}

/// Values of every kind but the one a type holds.
fn wrong_values(game: &Game, ty: &Type) -> Vec<Value> {
    let all = [Value::Int(7), Value::Bool(true), Value::Seat(0), Value::Side(0), Value::Card(0), Value::Enum(0)];
    let mut wrong: Vec<Value> = all
        .into_iter()
        .filter(|v| {
            !matches!(
                (v, ty.base()),
                (Value::Int(_), Type::Int)
                    | (Value::Bool(_), Type::Bool)
                    | (Value::Seat(_), Type::Seat)
                    | (Value::Side(_), Type::Side)
                    | (Value::Card(_), Type::Card)
                    | (Value::Enum(_), Type::Enum(_))
            )
        })
        .collect();
    match ty.base() {
        Type::Enum(e) => wrong.push(Value::Enum(game.enums[*e as usize].values.len() as u16)),
        Type::Set(elem) => {
            let size = match elem.base() {
                Type::Seat => game.seats.len(),
                Type::Enum(e) => game.enums[*e as usize].values.len(),
                _ => 64,
            };
            if size < 64 {
                wrong.push(Value::Set(1 << size));
            }
        }
        _ => wrong.push(Value::Set(1)),
    }
    wrong
}

/// Every variable set to a value of another type, or out of its enumeration, is refused.
#[test]
fn a_variable_of_the_wrong_type_is_refused() {
    for name in GAMES {
        let game = game(name);
        let state = mid_match(&game, 4, 20);
        let layout = state.layout();
        for (v, info) in game.vars.iter().enumerate() {
            for wrong in wrong_values(&game, &info.ty) {
                let mut saved = saved(&state);
                saved["position"]["vars"][layout.var_base[v]] = serde_json::to_value(wrong).expect("a value");
                let refused = restore(&game, saved).is_err();
                assert!(refused, "{name}: `{}` = {wrong:?} is refused", info.name);
            }
        }
    }
}

/// Ways of damaging a save's flow or its decision, each with what it does.
fn damages(state: &State) -> Vec<(&'static str, Json)> {
    let game = state.game();
    let with = |f: &dyn Fn(&mut Json)| {
        let mut saved = saved(state);
        f(&mut saved["position"]);
        saved
    };
    let frames = |p: &mut Json| p["frames"].as_array_mut().expect("the frames").clone();
    let mut out = vec![
        ("no frames", with(&|p| p["frames"] = json!([]))),
        ("running", with(&|p| p["pending"] = json!("Running"))),
        ("the top frame's pc past its block", with(&|p| set_pc(p, game, true, 1))),
        ("the top frame's pc at its start", with(&|p| set_pc(p, game, true, 0))),
        ("the play block's pc past its end", with(&|p| set_pc(p, game, false, 5))),
        (
            "the frames reversed",
            with(&|p| {
                let mut f = frames(p);
                f.reverse();
                p["frames"] = Json::Array(f);
            }),
        ),
        (
            "a frame left out",
            with(&|p| {
                let mut f = frames(p);
                if f.len() > 1 {
                    f.remove(1);
                } else {
                    f.push(json!({"Block": {"block": 0, "pc": 0}}));
                }
                p["frames"] = Json::Array(f);
            }),
        ),
        ("another seat to choose", with(&|p| other_seat(p, game.seats.len()))),
        ("an option added", with(&|p| resize_first(p, 1))),
        ("an option taken away", with(&|p| resize_first(p, -1))),
        (
            "an option of another tier",
            with(&|p| p["options"][0]["tier"] = json!(p["options"][0]["tier"].as_u64().unwrap_or(0) + 1)),
        ),
    ];
    if let Pending::Choice { .. } = state.position().pending() {
        out.push(("the match over mid-flow", with(&|p| p["pending"] = over(game))));
    }
    out
}

/// A match over, with a made-up outcome.
fn over(game: &Game) -> Json {
    json!({"Over": {"winners": [0], "returns": vec![0; game.players], "standings": []}})
}

/// Sets the pc of the innermost (`top`) or outermost block: `past` beyond its end, or (0) to
/// its start.
fn set_pc(pos: &mut Json, game: &Game, top: bool, past: u64) {
    let frames = pos["frames"].as_array_mut().expect("the frames");
    let frame = if top { frames.iter_mut().rev().find(|f| f.get("Block").is_some()) } else { frames.first_mut() };
    if let Some(block) = frame.and_then(|f| f.get_mut("Block")) {
        let stmts = game.blocks[block["block"].as_u64().expect("a block") as usize].stmts.len() as u64;
        block["pc"] = json!(if past > 0 { stmts + past } else { 0 });
    }
}

/// Gives the decision to the next seat.
fn other_seat(pos: &mut Json, seats: usize) {
    let next = |s: &Json| json!((s.as_u64().expect("a seat") as usize + 1) % seats);
    if let Some(choice) = pos["pending"].get_mut("Choice") {
        choice["seat"] = next(&choice["seat"]);
    } else if let Some(together) = pos["pending"].get_mut("Together") {
        together["seats"][0]["seat"] = next(&together["seats"][0]["seat"]);
    }
}

/// One more (`by` 1) or one fewer (-1) option for the first seat to decide, keeping the saved
/// decision well formed; with a single option, its declaration turned instead.
fn resize_first(pos: &mut Json, by: i64) {
    let options = pos["options"].as_array().expect("the options").clone();
    let (start, len) = match pos["pending"].get("Together") {
        Some(t) => (t["seats"][0]["start"].as_u64().unwrap_or(0), t["seats"][0]["len"].as_u64().unwrap_or(0)),
        None => (0, options.len() as u64),
    };
    let mut options = options;
    if by > 0 {
        options.insert(start as usize, options[start as usize].clone());
    } else if len > 1 {
        options.remove((start + len - 1) as usize);
    } else {
        let declared = options[start as usize]["declared"].as_bool().unwrap_or(false);
        options[start as usize]["declared"] = json!(!declared);
        pos["options"] = Json::Array(options);
        return;
    }
    pos["options"] = Json::Array(options);
    if let Some(seats) = pos["pending"].get_mut("Together").and_then(|t| t["seats"].as_array_mut()) {
        seats[0]["len"] = json!((len as i64 + by) as u64);
        for s in seats.iter_mut().skip(1) {
            s["start"] = json!((s["start"].as_u64().unwrap_or(0) as i64 + by) as u64);
        }
    }
}

/// Damaged flows and decisions are refused, in a mid-match save of every rule file.
#[test]
fn a_damaged_flow_or_decision_is_refused() {
    for name in GAMES {
        let game = game(name);
        for seed in 1..=3 {
            let state = mid_match(&game, seed, 10 * seed as usize);
            for (what, pos) in damages(&state) {
                assert!(restore(&game, pos).is_err(), "{name} seed {seed}: {what} is refused");
            }
        }
    }
}

/// A secret decision half made: its saved choices must be among the options.
#[test]
fn a_secret_choice_out_of_range_is_refused() {
    let game = game("anarchy");
    let mut state = State::new(game.clone(), 2);
    let mut bot = RandomBot::new(2);
    while !matches!(state.position().pending(), Pending::Together { .. }) {
        assert!(step(&mut state, &mut bot), "anarchy asks for secret bids");
    }
    let mut saved = saved(&state);
    let first = &mut saved["position"]["pending"]["Together"]["seats"][0];
    first["chosen"] = first["len"].clone();
    assert!(restore(&game, saved).is_err(), "a chosen index past the options is refused");
    for (what, pos) in damages(&state) {
        assert!(restore(&game, pos).is_err(), "a secret decision: {what} is refused");
    }
}

/// The first group of cards in a saved position, to damage.
fn first_group(json: &mut Json) -> Option<&mut Json> {
    match json {
        Json::Object(map) => {
            if map.contains_key("Group") {
                return map.get_mut("Group");
            }
            map.values_mut().find_map(first_group)
        }
        Json::Array(items) => items.iter_mut().find_map(first_group),
        _ => None,
    }
}

/// Positions where groups of cards are chosen (the options) or named (the choice) restore as
/// they were saved, and a group holding a card the pack does not have is refused.
#[test]
fn positions_with_groups_of_cards_restore() {
    for file in ["examples/fishing.cards", "examples/passing.cards"] {
        let game = Arc::new(load(Path::new(file), &Settings::default()).expect("loads"));
        let mut state = State::new(game.clone(), 1);
        let mut bot = RandomBot::new(1);
        let mut damaged = 0;
        loop {
            let mut json = saved(&state);
            let copy = restore(&game, json.clone()).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(copy.snapshot(), state.snapshot(), "{file}");
            if let Some(group) = first_group(&mut json) {
                *group = json!([game.cards.len()]);
                assert!(restore(&game, json).is_err(), "{file}: a group of a card beyond the pack was taken");
                damaged += 1;
            }
            if !step(&mut state, &mut bot) {
                break;
            }
        }
        assert!(damaged > 0, "{file}: no saved position held a group");
    }
}
