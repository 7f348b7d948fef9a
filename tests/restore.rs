//! Saved positions are untrusted: a hand-edited save that the rules could not have reached is
//! refused with a reason, never played, and nothing in one makes the engine panic.

use paradox::bots::{Bot, RandomBot};
use paradox::check::Settings;
use paradox::engine::{Actor, Frame, Pending, Position, State};
use paradox::game::{Game, Type, Value};
use paradox::load::load;
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

/// A position as a save file holds it, read back.
fn saved(state: &State) -> Position {
    serde_json::from_str(&serde_json::to_string(state.position()).expect("serialises")).expect("reads back")
}

/// Restores without letting a panic through: a panic is a failure of the test.
fn restore(game: &Arc<Game>, pos: Position) -> Result<State, String> {
    catch_unwind(AssertUnwindSafe(|| State::restore(game.clone(), pos))).expect("restoring does not panic")
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
                assert_eq!(copy.position(), state.position(), "{name}");
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
                let mut pos = saved(&state);
                pos.vars[layout.var_base[v]] = wrong;
                let refused = restore(&game, pos).is_err();
                assert!(refused, "{name}: `{}` = {wrong:?} is refused", info.name);
            }
        }
    }
}

/// Ways of damaging a save's flow or its decision, each with what it does.
fn damages(state: &State) -> Vec<(&'static str, Position)> {
    let game = state.game();
    let with = |f: &dyn Fn(&mut Position)| {
        let mut pos = saved(state);
        f(&mut pos);
        pos
    };
    let mut out = vec![
        ("no frames", with(&|p| p.frames.clear())),
        ("running", with(&|p| p.pending = Pending::Running)),
        ("the top frame's pc past its block", with(&|p| set_pc(p, game, 1))),
        ("the top frame's pc at its start", with(&|p| set_pc(p, game, 0))),
        ("the play block's pc past its end", with(&|p| set_first_pc(p, game))),
        ("the frames reversed", with(&|p| p.frames.reverse())),
        ("a frame left out", with(&|p| drop_second(p))),
        ("another seat to choose", with(&|p| other_seat(p, game.seats.len()))),
        ("an option added", with(&|p| add_option(p))),
        ("an option taken away", with(&|p| drop_option(p))),
        ("an option of another tier", with(&|p| retier(p))),
    ];
    if let Pending::Choice { .. } = &state.position().pending {
        out.push(("the match over mid-flow", with(&|p| p.pending = over(game))));
    }
    out
}

/// A match over, with a made-up outcome.
fn over(game: &Game) -> Pending {
    Pending::Over(paradox::engine::Outcome { winners: vec![0], returns: vec![0; game.players], standings: Vec::new() })
}

/// Sets the innermost block's pc: `past` beyond its end, or to its start.
fn set_pc(pos: &mut Position, game: &Game, past: u32) {
    if let Some(Frame::Block { block, pc }) = pos.frames.last_mut() {
        *pc = if past > 0 { game.blocks[*block as usize].stmts.len() as u32 + past } else { 0 };
    }
}

/// Sets the play block's pc past its end.
fn set_first_pc(pos: &mut Position, game: &Game) {
    if let Some(Frame::Block { block, pc }) = pos.frames.first_mut() {
        *pc = game.blocks[*block as usize].stmts.len() as u32 + 5;
    }
}

/// Leaves out the frame over the play block (or adds a stray one when there is none).
fn drop_second(pos: &mut Position) {
    if pos.frames.len() > 1 {
        pos.frames.remove(1);
    } else {
        pos.frames.push(Frame::Block { block: 0, pc: 0 });
    }
}

/// Gives the decision to the next seat.
fn other_seat(pos: &mut Position, seats: usize) {
    match &mut pos.pending {
        Pending::Choice { seat, .. } => *seat = ((*seat as usize + 1) % seats) as u8,
        Pending::Together { seats: s, .. } => s[0] = ((s[0] as usize + 1) % seats) as u8,
        _ => {}
    }
}

/// The options of the saved decision (the first seat's, for a secret one).
fn options(pos: &mut Position) -> Option<&mut Vec<paradox::engine::Opt>> {
    match &mut pos.pending {
        Pending::Choice { options, .. } => Some(options),
        Pending::Together { options, .. } => options.first_mut(),
        _ => None,
    }
}

fn add_option(pos: &mut Position) {
    if let Some(o) = options(pos) {
        let first = o[0];
        o.push(first);
    }
}

fn drop_option(pos: &mut Position) {
    if let Some(o) = options(pos) {
        if o.len() > 1 {
            o.pop();
        } else {
            o[0].declared = !o[0].declared;
        }
    }
}

fn retier(pos: &mut Position) {
    if let Some(o) = options(pos) {
        o[0].tier += 1;
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
    while !matches!(state.position().pending, Pending::Together { .. }) {
        assert!(step(&mut state, &mut bot), "anarchy asks for secret bids");
    }
    let mut pos = saved(&state);
    if let Pending::Together { options, chosen, .. } = &mut pos.pending {
        chosen[0] = Some(options[0].len() as u32);
    }
    assert!(restore(&game, pos).is_err(), "a chosen index past the options is refused");
    for (what, pos) in damages(&state) {
        assert!(restore(&game, pos).is_err(), "a secret decision: {what} is refused");
    }
}
