//! The exact solver: agreement with a brute-force search without any pruning on many small
//! random positions of every rule file with a `solve` declaration, the best line replayed, and
//! the refusals of positions that are not open.

use crate::position::random_position;
use crate::run::paradox;
use paradox::solve::{Task, Unsolvable, analyze, keys, prepare};
use paradox::{Actor, Game, Settings, State, Value, load};
use std::path::Path;
use std::sync::Arc;

fn game(file: &str) -> Arc<Game> {
    Arc::new(load(Path::new(file), &Settings::default()).unwrap_or_else(|e| panic!("{file}: {e:?}")))
}

/// The players a seat or side stands for.
fn players(game: &Game, item: Value) -> Vec<usize> {
    match item {
        Value::Seat(s) => vec![game.seats[s as usize].player],
        Value::Side(t) => game.sides[t as usize].seats.iter().map(|s| game.seats[*s as usize].player).collect(),
        _ => Vec::new(),
    }
}

/// What a question measures: `plus`'s key, less `minus`'s.
struct Goal {
    plus: Value,
    minus: Option<Value>,
    players: Vec<usize>,
}

fn goals(game: &Game, items: &[Value]) -> Vec<Goal> {
    if items.len() == 2 {
        vec![Goal { plus: items[0], minus: Some(items[1]), players: players(game, items[0]) }]
    } else {
        items.iter().map(|&i| Goal { plus: i, minus: None, players: players(game, i) }).collect()
    }
}

fn measure(goal: &Goal, keys: &[(Value, i64)]) -> i64 {
    let of = |item: Value| keys.iter().find(|(v, _)| *v == item).unwrap().1;
    of(goal.plus) - goal.minus.map_or(0, of)
}

/// Plain minimax over every line, no table, no pruning.
fn brute(state: &State, task: &Task, goal: &Goal) -> i64 {
    let Actor::Seat(seat) = state.actor() else { panic!("no single seat to decide") };
    let maxing = goal.players.contains(&state.game().seats[seat as usize].player);
    let values = (0..state.action_count(seat) as u32).map(|a| {
        let mut child = state.clone();
        let ended = child.apply_within(seat, a, task.frame).unwrap();
        if ended || child.is_over() { measure(goal, &keys(&child, task).unwrap()) } else { brute(&child, task, goal) }
    });
    if maxing { values.max().unwrap() } else { values.min().unwrap() }
}

/// Solver and brute force agree on the position and on every move; the best line reaches
/// the value claimed.
fn agree(file: &str, seeds: std::ops::Range<u64>, per_trick: usize) {
    let game = game(file);
    for seed in seeds {
        let left = per_trick * (2 + seed as usize % 3);
        let state = random_position(&game, seed, left);
        let task = prepare(&state, None).unwrap_or_else(|e| panic!("{file} seed {seed}: {e}"));
        let analysis = analyze(&state, &task).unwrap();
        let items: Vec<Value> = keys(&state, &task).unwrap().into_iter().map(|(v, _)| v).collect();
        let Actor::Seat(seat) = state.actor() else { unreachable!() };
        for (goal, answer) in goals(&game, &items).iter().zip(&analysis.answers) {
            let mut exact_moves = Vec::new();
            for (name, value) in &answer.moves {
                let a =
                    (0..state.action_count(seat) as u32).find(|&a| state.action_name(seat, a).as_ref() == Some(name));
                let mut child = state.clone();
                let ended = child.apply_within(seat, a.unwrap(), task.frame).unwrap();
                let exact =
                    if ended { measure(goal, &keys(&child, &task).unwrap()) } else { brute(&child, &task, goal) };
                assert_eq!(*value, exact, "{file} seed {seed}: move {name}");
                exact_moves.push(exact);
            }
            let maxing = goal.players.contains(&game.seats[seat as usize].player);
            let exact = if maxing { exact_moves.iter().max() } else { exact_moves.iter().min() };
            assert_eq!(Some(&answer.value), exact, "{file} seed {seed}: {}", answer.measure);
            let mut replay = state.clone();
            for (i, (_, name)) in answer.line.iter().enumerate() {
                let Actor::Seat(s) = replay.actor() else { unreachable!() };
                let a = (0..replay.action_count(s) as u32).find(|&a| replay.action_name(s, a).as_ref() == Some(name));
                let ended = replay.apply_within(s, a.unwrap(), task.frame).unwrap();
                assert_eq!(ended, i + 1 == answer.line.len(), "{file} seed {seed}: the line ends where the phase does");
            }
            let reached = keys(&replay, &task).unwrap();
            if goal.minus.is_some() {
                assert_eq!(measure(goal, &reached), answer.value, "{file} seed {seed}: the best line");
            }
        }
    }
}

#[test]
fn costly_tricks_agrees_with_brute_force() {
    agree("rules/costly-tricks.cards", 0..200, 4);
}

#[test]
fn buddy_agrees_with_brute_force() {
    agree("rules/buddy-on-your-left.cards", 0..100, 2);
}

#[test]
fn a_card_taken_back_out_of_a_summed_pile_is_noticed_and_the_search_stays_exact() {
    let file = "tests/fixtures/solve/take-back.cards";
    agree(file, 0..60, 2);
    let state = State::bare(game(file), 1);
    let analysis = analyze(&state, &prepare(&state, None).unwrap()).unwrap();
    assert!(
        analysis.added_to.is_empty() && analysis.unread.is_empty(),
        "{:?} {:?}",
        analysis.added_to,
        analysis.unread
    );
}

#[test]
fn the_rulebook_trick_is_solved() {
    let state = State::bare(game("examples/costly-tricks-rulebook-trick.cards"), 1);
    let task = prepare(&state, None).unwrap();
    let analysis = analyze(&state, &task).unwrap();
    assert_eq!(analysis.kind, "minimax");
    assert_eq!(analysis.answers[0].moves.len(), 3);
    assert_eq!(analysis.answers[0].line.len(), 12);
}

#[test]
fn positions_that_are_not_open_are_refused() {
    let hidden = State::bare(game("rules/third-man.cards"), 1);
    assert_eq!(prepare(&hidden, None).unwrap_err(), Unsolvable::NoQuantity);
    let hidden = State::bare(game("rules/pairadox.cards"), 1);
    assert!(matches!(prepare(&hidden, Some("round")), Err(Unsolvable::Hidden(_))));
    let open = State::bare(game("rules/costly-tricks.cards"), 1);
    assert_eq!(prepare(&open, Some("nowhere")).unwrap_err(), Unsolvable::NoPhase("nowhere".into()));
    assert_eq!(prepare(&open, Some("deal")).unwrap_err(), Unsolvable::NotInPhase("deal".into()));
}

#[test]
fn the_command_answers_in_text_and_json_and_refuses_with_a_reason() {
    let file = "examples/costly-tricks-rulebook-trick.cards";
    let text = paradox(["solve", file, "--after", "red 5"]);
    let out = &text.expect(0).stdout;
    assert!(out.starts_with("B to move"), "{out}");
    assert!(out.contains("green 2  best"), "{out}");
    let json = paradox(["solve", file, "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json.expect(0).stdout).expect("one JSON object");
    assert_eq!(value["kind"], "minimax");
    assert_eq!(value["answers"][0]["moves"].as_array().map(Vec::len), Some(3));
    let refused = paradox(["solve", "rules/pairadox.cards", "--until", "round"]);
    assert!(refused.expect(1).stderr.contains("not open"), "{refused}");
    let wrong = paradox(["solve", file, "--after", "purple 99"]);
    assert!(wrong.expect(2).stderr.contains("not a legal move"), "{wrong}");
    // A phase the game does not have is a mistake on the command line too, with the phases it has.
    let unknown = paradox(["solve", file, "--until", "nosuch"]);
    assert!(unknown.expect(2).stderr.contains("phases: `round`, `deal`, `trick`"), "{unknown}");
    let capped = paradox(["solve", file, "--max-positions", "50"]);
    let why = &capped.expect(1).stderr;
    assert!(why.contains("more than 50 positions") && why.contains("--max-positions"), "{why}");
}

/// With no limit of positions, the table's memory still stops the search, with a message.
#[test]
fn the_search_stops_at_its_stated_memory() {
    let args = ["solve", "rules/costly-tricks.cards", "--max-positions", "18446744073709551615", "--max-memory", "1"];
    let stopped = paradox(args);
    let why = &stopped.expect(1).stderr;
    assert!(why.contains("the table of positions searched would pass 1 MiB") && why.contains("--max-memory"), "{why}");
}

#[test]
fn the_search_keys_positions_without_what_is_only_added_to_or_never_read() {
    let out = paradox(["solve", "examples/costly-tricks-rulebook-trick.cards"]);
    let text = &out.expect(0).stdout;
    let expected = "positions told apart without: won, tricks (only added to); stock, chips, first_lead (not read before the round ends)";
    assert!(text.contains(expected), "{text}");
    let buddy = paradox(["solve", "examples/buddy-round-end.cards", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&buddy.expect(0).stdout).expect("one JSON object");
    assert_eq!(value["added_to"], serde_json::json!(["swept"]), "the hauls are only added to");
    assert!(value["unread"].as_array().is_some_and(|u| u.contains(&"total".into())), "{value}");
}

/// The figures (release, one core): `cargo test --release --test tools figures --
/// --ignored --nocapture`. Positions with `SOLVE_CARDS` cards left in the hands (default 20),
/// of `SOLVE_FILE`, over `SOLVE_SEEDS` seeds, each given up past `SOLVE_BUDGET` positions
/// (counted as taking longer than any solved one in the median).
#[test]
#[ignore]
fn figures() {
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_string());
    let file = var("SOLVE_FILE", "rules/costly-tricks.cards");
    let cards: usize = var("SOLVE_CARDS", "20").parse().unwrap();
    let seeds: u64 = var("SOLVE_SEEDS", "20").parse().unwrap();
    let budget: u64 = var("SOLVE_BUDGET", "100000000").parse().unwrap();
    let game = game(&file);
    let mut times = Vec::new();
    let (mut nodes, mut seconds, mut given_up) = (0, 0.0, 0);
    for seed in 1..=seeds {
        let state = random_position(&game, seed, cards);
        let task = prepare(&state, None).unwrap();
        let started = std::time::Instant::now();
        let searcher = paradox::solve::Searcher::new(task.clone(), objective(&state, &task)).within(budget);
        let took = || started.elapsed().as_secs_f64();
        match searcher.value_of(&state) {
            Ok((value, searched)) => {
                println!("seed {seed}: value {value:+}, {searched} positions, {:.4} s", took());
                times.push(took());
                nodes += searched;
            }
            Err(why) => {
                println!("seed {seed}: given up after {:.1} s: {why}", took());
                times.push(f64::INFINITY);
                given_up += 1;
                nodes += budget;
            }
        }
        seconds += took();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{file}, {cards} cards left: median {:.4} s, max {:.4} s, {given_up} of {seeds} given up, {:.2} M positions/s",
        times[times.len() / 2],
        times[times.len() - 1],
        nodes as f64 / seconds / 1e6
    );
}

/// The first question's objective, as `analyze` builds it.
fn objective(state: &State, task: &Task) -> paradox::solve::Objective {
    let items: Vec<Value> = keys(state, task).unwrap().into_iter().map(|(v, _)| v).collect();
    match items.as_slice() {
        [a, b] => paradox::solve::Objective::difference(state.game(), *a, *b),
        _ => paradox::solve::Objective::alone(state.game(), items[0]),
    }
}

#[test]
fn the_solver_bot_plays_the_best_move_and_hint_names_it() {
    use paradox::{Bot, Kind, parse_kinds};
    let state = State::new(game("examples/costly-tricks-rulebook-trick.cards"), 1);
    let Actor::Seat(seat) = state.actor() else { unreachable!() };
    let kinds = parse_kinds("solver", 2).unwrap();
    assert_eq!(kinds[0], Kind::Solver);
    let mut bot: Box<dyn Bot> = kinds[0].bot(1, 0);
    let chosen = bot.choose(&state.seen_by(0), seat).unwrap();
    assert_eq!(state.action_name(seat, chosen).as_deref(), Some("green 4"));
    let (_, answer, until) = paradox::solve::quick_best(&state).unwrap();
    assert_eq!((answer.value, until.as_str()), (11, "round"));
}
