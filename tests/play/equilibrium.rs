//! At a decision several seats take at once and in secret, the search bot plays a mixed
//! strategy near an equilibrium: regret matching at the joint decision, and the average
//! strategy played. Checked where the equilibrium is known; and where a search is too short for
//! that, the best move against random players.

use paradox::{Bot, Budget, Game, SearchBot, Settings, State, load};
use std::path::Path;
use std::sync::Arc;

fn fixture(name: &str) -> Arc<Game> {
    let file = format!("tests/fixtures/players/{name}.cards");
    Arc::new(load(Path::new(&file), &Settings::default()).unwrap_or_else(|e| panic!("{file}: {e:?}")))
}

/// The search bot's strategy for `seat` at the match's first decision, by the names of the
/// actions.
fn strategy(game: &Arc<Game>, seat: u8, budget: Budget, seed: u64) -> Vec<(String, f64)> {
    let state = State::new(game.clone(), 1);
    let player = game.seats[seat as usize].player;
    let chances = SearchBot::new(seed, budget).strategy(&state.seen_by(player), seat);
    chances.iter().enumerate().map(|(a, p)| (state.action_name(seat, a as u32).expect("an action"), *p)).collect()
}

/// The largest gap between a strategy and the expected one, by action name.
fn gap(strategy: &[(String, f64)], expected: &[(&str, f64)]) -> f64 {
    assert_eq!(strategy.len(), expected.len(), "{strategy:?}");
    expected
        .iter()
        .map(|(name, p)| {
            let (_, q) =
                strategy.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no `{name}` in {strategy:?}"));
            (p - q).abs()
        })
        .fold(0.0, f64::max)
}

#[test]
fn uneven_rock_paper_scissors_is_played_at_its_equilibrium() {
    let g = fixture("uneven-rock-paper-scissors");
    let budget = Budget { iterations: 8_000, work: u64::MAX };
    let expected = [("rock", 0.25), ("paper", 0.5), ("scissors", 0.25)];
    let mut worst: f64 = 0.0;
    for (seat, seed) in [(0, 1), (1, 2), (0, 3), (1, 4), (0, 5), (1, 6)] {
        let s = strategy(&g, seat, budget, seed);
        worst = worst.max(gap(&s, &expected));
    }
    assert!(worst <= 0.05, "{worst}");
}

#[test]
fn greedy_names_the_number_that_never_loses() {
    // Sixty iterations over six numbers are too few for an average strategy to leave the
    // uniform one it starts from: `greedy` plays the number with the best mean reward, six.
    let g = fixture("higher-number");
    let state = State::new(g.clone(), 1);
    let mut sixes = 0;
    for seed in 1..=20 {
        let action = SearchBot::new(seed, Budget::GREEDY).choose(&state.seen_by(0), 0).expect("a move");
        sixes += usize::from(state.action_name(0, action).as_deref() == Some("name 6"));
    }
    assert!(sixes >= 18, "six named in {sixes} of 20 decisions");
}
