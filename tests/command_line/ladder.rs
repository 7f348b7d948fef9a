//! `paradox ladder`: every pair of players on the same deals, the seats swapped, each pair's win
//! share with its interval, as a table and as JSON.

use crate::run::paradox;

/// The ladder of `players` in Costly Tricks played to one chip (short matches), eight matches a
/// pair, with any more arguments.
fn ladder(players: &str, more: &[&str]) -> String {
    let mut args =
        vec!["ladder", "rules/costly-tricks.cards", "--set", "chips_to_win=1", "--games", "8", "--seed", "3"];
    args.extend(["--players", players]);
    args.extend(more);
    paradox(&args).expect(0).stdout.clone()
}

#[test]
fn the_ladder_gives_each_pair_its_share_and_the_stronger_player_wins_more() {
    let json: serde_json::Value =
        serde_json::from_str(&ladder("random,greedy", &["--format", "json"])).expect("the ladder as JSON");
    let pairs = json["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 1, "{json}");
    let pair = &pairs[0];
    assert_eq!((pair["first"].as_str(), pair["second"].as_str()), (Some("random"), Some("greedy")));
    assert_eq!(pair["matches"].as_u64(), Some(8));
    // Random against the search on a small budget: the row player, random, wins less.
    let share = pair["share"]["value"].as_f64().expect("a share");
    let (low, high) = (pair["share"]["low"].as_f64().unwrap(), pair["share"]["high"].as_f64().unwrap());
    assert!(share < 0.5 && low <= share && share <= high, "{pair}");
}

#[test]
fn each_player_is_rated_and_the_ratings_do_not_depend_on_the_order_they_are_listed_in() {
    let rated = |players: &str| -> Vec<(String, f64)> {
        let json: serde_json::Value =
            serde_json::from_str(&ladder(players, &["--format", "json"])).expect("the ladder as JSON");
        let names = json["players"].as_array().expect("players").iter().map(|n| n.as_str().unwrap().to_string());
        let ratings = json["ratings"].as_array().expect("ratings").iter().map(|r| r.as_f64().expect("a rating"));
        let mut rated: Vec<(String, f64)> = names.zip(ratings).collect();
        rated.sort_by(|a, b| a.0.cmp(&b.0));
        rated
    };
    let rated_one_way = rated("random,greedy");
    assert_eq!(rated_one_way, rated("greedy,random"));
    // greedy beats random: it is rated higher, and the two average 1500.
    let [(greedy, g), (random, r)] = &rated_one_way[..] else { panic!("{rated_one_way:?}") };
    assert_eq!((greedy.as_str(), random.as_str()), ("greedy", "random"));
    assert!(g > r && (g + r - 3000.0).abs() < 0.2, "{rated_one_way:?}");
    let text = ladder("random,greedy", &[]);
    assert!(
        text.contains(&format!(
            "Elo-like ratings (averaging 1500; 400 points above means odds of ten to one): random {r:.0}, greedy {g:.0}"
        )),
        "{text}"
    );
}

#[test]
fn the_table_reads_both_ways_and_does_not_depend_on_the_threads() {
    let text = ladder("random,greedy", &["--threads", "1"]);
    assert_eq!(text, ladder("random,greedy", &["--threads", "2"]));
    // The row player's share against the column player's: random's and greedy's add up to 100.
    let row = |name: &str| -> Vec<f64> {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no row {name}:\n{text}"));
        line.split_whitespace().skip(1).filter_map(|w| w.parse().ok()).collect()
    };
    let (random, greedy) = (row("random"), row("greedy"));
    assert_eq!((random.len(), greedy.len()), (1, 1), "{text}");
    assert!((random[0] + greedy[0] - 100.0).abs() < 1e-9 && greedy[0] > 50.0, "{text}");
    assert!(text.contains("8 matches (4 deals from seed 3"), "{text}");
}

#[test]
fn a_ladder_needs_two_players_each_named_once() {
    for (players, says) in
        [("random", "two players"), ("random,greedy,random", "named twice"), ("random,cheat", "`cheat`")]
    {
        let run = paradox(["ladder", "rules/costly-tricks.cards", "--games", "2", "--players", players]);
        run.expect(2);
        assert!(run.stderr.contains(says), "{run}");
    }
}
