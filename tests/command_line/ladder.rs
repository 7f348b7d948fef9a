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
    let one = [
        "ladder",
        "rules/costly-tricks.cards",
        "--set",
        "chips_to_win=1",
        "--games",
        "1",
        "--players",
        "random,greedy",
    ];
    let text = paradox(one).expect(0).stdout.clone();
    assert!(text.contains("2 matches (1 deal from seed 1,"), "{text}");
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

/// The ladder of the random player, greedy and the solver in Higher number (one secret choice a
/// match, so that some matches have no winner), four matches a pair, on the interpreter.
const HIGHER: [&str; 10] = [
    "ladder",
    "tests/fixtures/players/higher-number.cards",
    "--players",
    "random,greedy,solver",
    "--games",
    "4",
    "--seed",
    "2",
    "--engine",
    "interpreted",
];

/// `paradox ARGS` run to a success: its standard output.
fn ok(args: &[&str]) -> String {
    paradox(args).expect(0).stdout.clone()
}

/// `paradox ARGS` refused with exit code 2: its standard error.
fn refused(args: &[&str]) -> String {
    paradox(args).expect(2).stderr.clone()
}

/// Shards `I/N` of the ladder `args` (each in `wanted`), written into `dir` as `NAME-I.json`.
fn shards(dir: &tempfile::TempDir, name: &str, args: &[&str], wanted: &[&str]) -> Vec<String> {
    let write = |i: &&str| {
        let path = dir.path().join(format!("{name}-{}.json", i.replace('/', "-of-")));
        std::fs::write(&path, ok(&[args, &["--shard", i]].concat())).expect("a shard file");
        path.display().to_string()
    };
    wanted.iter().map(write).collect()
}

/// `merge` of `files`, with any more arguments.
fn merge<'a>(files: &'a [String], more: &[&'a str]) -> Vec<&'a str> {
    [&["merge"][..], &files.iter().map(String::as_str).collect::<Vec<_>>(), more].concat()
}

#[test]
fn a_ladder_played_in_three_shards_merges_into_the_table_of_one_run_byte_for_byte() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut files = shards(&dir, "higher", &HIGHER, &["1/3", "2/3", "3/3"]);
    // Each shard holds a slice of the matches, deal by deal (each pair's first deal here), and
    // no engine.
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).expect("a shard")).expect("a shard as JSON");
    let counted: Vec<u64> =
        first["tallies"].as_array().expect("tallies").iter().map(|p| p["points"]["n"].as_u64().unwrap()).collect();
    assert_eq!(counted, [2, 2, 0], "{first}");
    assert!(!first.to_string().contains("interpreted"), "{first}");
    // Given in another order, which does not matter.
    files.rotate_left(1);
    for format in ["text", "json"] {
        let whole = ok(&[&HIGHER[..], &["--format", format]].concat());
        assert_eq!(ok(&merge(&files, &["--format", format])), whole, "{format}");
    }
    let text = ok(&merge(&files, &[]));
    assert!(text.contains("had no winner") && text.contains("greedy    75.0 (33.9-91.6)"), "{text}");
}

#[test]
fn merge_refuses_ladder_shards_that_are_not_every_shard_of_one_ladder_once() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Random and greedy players in a game of one choice with parameters, six matches.
    let ladder = |more: &[&'static str]| -> Vec<&'static str> {
        let defaults = [("--players", "random,greedy"), ("--seed", "2"), ("--games", "6")];
        let mut args = vec!["ladder", "tests/fixtures/lab/fair-coin.cards"];
        args.extend(more);
        args.extend(defaults.iter().filter(|(flag, _)| !more.contains(flag)).flat_map(|(f, v)| [*f, *v]));
        args
    };
    let files = shards(&dir, "cheap", &ladder(&[]), &["1/3", "2/3", "3/3"]);
    assert!(refused(&merge(&files[..2], &[])).contains("shard 3 of 3 is missing"));
    let twice = [&files[..], &files[..1]].concat();
    assert!(refused(&merge(&twice, &[])).contains("shard 1 of 3 is given twice"));
    // Another seed, other players, matches, settings or variant make another run.
    let others: [&[&str]; 5] = [
        &["--seed", "3"],
        &["--players", "greedy,random"],
        &["--games", "8"],
        &["--set", "warmup=1"],
        &["--variant", "reshuffled"],
    ];
    for other in others {
        let shard = shards(&dir, other[0].trim_start_matches('-'), &ladder(other), &["3/3"]);
        let err = refused(&merge(&[&files[..2], &shard[..]].concat(), &[]));
        assert!(err.contains("is a shard of another run than"), "{other:?}: {err}");
    }
    // A shard of `sim` does not merge with those of a ladder, either way round.
    let sim = shards(&dir, "sim", &["sim", "tests/fixtures/lab/fair-coin.cards", "--games", "6"], &["3/3"]);
    let err = refused(&merge(&[&files[..2], &sim[..]].concat(), &[]));
    assert!(err.contains("is a shard of paradox sim or compare, not of paradox ladder like"), "{err}");
    let err = refused(&merge(&[&sim[..], &files[..2]].concat(), &[]));
    assert!(err.contains("is a shard of paradox ladder, not of paradox sim or compare like"), "{err}");
    // A ladder's table has no CSV and no picture.
    assert!(refused(&merge(&files, &["--format", "csv"])).contains("not CSV"));
    assert!(refused(&merge(&files, &["--plot", "ladder.svg"])).contains("no picture"));
    assert!(!std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ladder.svg").exists());
}

#[test]
fn merge_refuses_a_damaged_ladder_shard_without_a_crash() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cheap: Vec<&str> = [&HIGHER[..2], &["--players", "random,greedy", "--games", "4", "--seed", "2"]].concat();
    let whole = shards(&dir, "whole", &cheap, &["1/1"]);
    let shard: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&whole[0]).expect("a shard")).expect("a shard as JSON");
    // The shard with the value at `pointer` replaced, written as `what.json`.
    let damaged = |what: &str, pointer: &str, value: serde_json::Value| {
        let mut edited = shard.clone();
        *edited.pointer_mut(pointer).unwrap_or_else(|| panic!("{pointer} in {shard}")) = value;
        let path = dir.path().join(format!("{what}.json"));
        std::fs::write(&path, edited.to_string()).expect("a shard file");
        path.display().to_string()
    };
    let pair = shard["tallies"][0].clone();
    let no_match = "points that no 4 matches give";
    let cases = [
        ("fewer-matches", "/tallies/0/points/n", 3.into(), no_match),
        ("negative-points", "/tallies/0/points/sum", (-1).into(), no_match),
        ("too-many-points", "/tallies/0/points/sum", 4_000_000.into(), no_match),
        ("more-no-winner", "/tallies/0/no_winner", 5.into(), no_match),
        ("two-pairs", "/tallies", serde_json::json!([pair, pair]), "2 pairs counted, not the 1"),
        ("cheat", "/run/players/1", "cheat".into(), "unknown player `cheat`"),
        ("odd-games", "/run/games", 3.into(), "3 matches a pair"),
    ];
    for (what, pointer, value, says) in cases {
        let err = refused(&["merge", &damaged(what, pointer, value)]);
        assert!(err.contains("the counts do not fit shard 1 of 1") && err.contains(says), "{what}: {err}");
    }
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, &shard.to_string()[..60]).expect("a file");
    assert!(refused(&["merge", truncated.to_str().unwrap()]).contains("is not a shard"));
    let format = damaged("format", "/paradox_shard", 1.into());
    assert!(refused(&["merge", &format]).contains("shard format 1"));
    let kind = damaged("kind", "/kind", "tournament".into());
    assert!(refused(&["merge", &kind]).contains("is not a shard"));
}

#[test]
fn a_shard_of_a_ladder_is_asked_for_as_i_of_n_without_a_format() {
    let cheap = ["ladder", HIGHER[1], "--players", "random,greedy", "--games", "2"];
    assert!(refused(&[&cheap[..], &["--shard", "4/3"]].concat()).contains("--shard 4/3"));
    assert!(refused(&[&cheap[..], &["--shard", "1/2", "--format", "json"]].concat()).contains("cannot be used with"));
}
