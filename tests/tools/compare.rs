//! `paradox compare`, `paradox sim` and `paradox merge` end to end: the report in its three
//! formats, the same bytes whatever the number of threads, shards that merge into the report
//! of one run, the plot, and mistakes on the command line.

use crate::run::paradox;
use std::path::{Path, PathBuf};

const COIN: &str = "tests/fixtures/lab/fair-coin.cards";
const COSTLY: &str = "rules/costly-tricks.cards";

/// The standard output of a run that must succeed.
fn ok(args: &[&str]) -> String {
    paradox(args).expect(0).stdout.clone()
}

/// The standard error of a run that must end with exit code `code`.
fn stderr(args: &[&str], code: i32) -> String {
    paradox(args).expect(code).stderr.clone()
}

fn temp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("compare-{}-{name}", std::process::id()))
}

#[test]
fn a_small_comparison_reads_as_it_should() {
    let text = ok(&["compare", COIN, "base", "variant:favour_first_seat", "--games", "400", "--seed", "1000"]);
    insta::assert_snapshot!(text);
}

#[test]
fn the_costly_tricks_comparison_of_the_issue_prints_and_parses() {
    let args = ["compare", COSTLY, "base", "set:trick_cost=15", "--games", "300"];
    let text = ok(&args);
    for needle in [
        "[1] base",
        "[2] set:trick_cost=15",
        "player 1 (side A: A, A's ghost) wins",
        "winning margin in chips",
        "paired by seed",
    ] {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&ok(&[&args[..], &["--format", "json"]].concat())).expect("JSON");
    assert_eq!(json["matches"], 300);
    assert_eq!(json["configurations"].as_array().map(Vec::len), Some(2));
    let first = &json["configurations"][0];
    let share = first["players"][0]["share"]["value"].as_f64().expect("a share");
    let wins = first["players"][0]["count"].as_f64().expect("a count");
    assert_eq!(share, wins / 300.0);
    assert!(first["players"][0]["share"]["low"].as_f64() < Some(share));
    assert!(json["comparisons"][0]["differences"].as_array().is_some_and(|d| !d.is_empty()));
}

#[test]
fn settings_given_to_every_configuration_are_named_in_the_verdicts() {
    // `--set` and `--variant` apply to every configuration, so `base` is not the file as
    // written, and a configuration's own setting of the same parameter replaces the common one.
    let text = ok(&["compare", COIN, "--set", "seat_edge=10", "base", "set:seat_edge=20", "--games", "300"]);
    assert!(!text.contains("as written"), "{text}");
    assert!(text.contains(") with seat_edge=10, ") && text.contains(") with seat_edge=20: "), "{text}");
    // The verdicts name each setting with the parameter's description.
    let explained = "(percentage points added to P1's chance of winning)";
    let heading = format!("\nWith seat_edge=20 {explained}, against with seat_edge=10 {explained}:\n");
    assert!(text.contains(&heading), "{text}");
    assert!(!text.contains("seat_edge=10, seat_edge=20"), "{text}");
    let text = ok(&["compare", COIN, "--variant", "favour_the_starter", "base", "set:seat_edge=20", "--games", "300"]);
    assert!(!text.contains("as written"), "{text}");
    assert!(
        text.contains(") with variant favour_the_starter, ")
            && text.contains(") with variant favour_the_starter, seat_edge=20: "),
        "{text}"
    );
}

#[test]
fn the_thread_count_changes_nothing() {
    let args = ["compare", COSTLY, "base", "variant:cheap_tricks", "--games", "120", "--seed", "9", "--format", "json"];
    let one = ok(&[&args[..], &["--threads", "1"]].concat());
    let four = ok(&[&args[..], &["--threads", "4"]].concat());
    assert_eq!(one, four);
    let sim = ["sim", COSTLY, "--games", "90", "--format", "csv"];
    assert_eq!(ok(&[&sim[..], &["--threads", "1"]].concat()), ok(&[&sim[..], &["--threads", "3"]].concat()));
}

#[test]
fn four_shards_merge_into_one_run() {
    let run = ["compare", COSTLY, "base", "set:chips_to_win=2", "--games", "103", "--seed", "20"];
    let mut files = Vec::new();
    for i in 1..=4 {
        let shard = ok(&[&run[..], &["--shard", &format!("{i}/4")]].concat());
        let path = temp(&format!("shard-{i}.json"));
        std::fs::write(&path, shard).expect("a shard file");
        files.push(path.display().to_string());
    }
    // Given in another order, which does not matter.
    files.reverse();
    let shards: Vec<&str> = files.iter().map(String::as_str).collect();
    for format in ["json", "csv", "text"] {
        let whole = ok(&[&run[..], &["--format", format]].concat());
        let merged = ok(&[&["merge"][..], &shards, &["--format", format]].concat());
        assert_eq!(whole, merged, "{format}");
    }
    // A shard missing, given twice, or from another run is refused.
    let err = stderr(&[&["merge"][..], &shards[..3]].concat(), 2);
    assert!(err.contains("is missing"), "{err}");
    let err = stderr(&[&["merge"][..], &shards, &shards[..1]].concat(), 2);
    assert!(err.contains("given twice"), "{err}");
    let other =
        ok(&["compare", COSTLY, "base", "set:chips_to_win=2", "--games", "103", "--seed", "21", "--shard", "1/4"]);
    let path = temp("other.json");
    std::fs::write(&path, other).expect("a shard file");
    let err = stderr(&[&["merge"][..], &shards[1..], &[path.to_str().expect("a path")]].concat(), 2);
    assert!(err.contains("another run"), "{err}");
    // A shard of very many (a slip of the keyboard) is refused at once, without room for each.
    let slip = ok(&["sim", COSTLY, "--games", "5", "--shard", "1/18446744073709551615"]);
    let path = temp("slip.json");
    std::fs::write(&path, slip).expect("a shard file");
    let err = stderr(&["merge", path.to_str().expect("a path")], 2);
    assert!(err.contains("shard 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 18446744073709551604 more of"), "{err}");
    // A shard edited by hand into counts its run does not have is refused, not a crash.
    let whole = ok(&["compare", COSTLY, "base", "set:chips_to_win=2", "--games", "5", "--shard", "1/1"]);
    let mut edited: serde_json::Value = serde_json::from_str(&whole).expect("JSON");
    for pair in edited["tallies"]["pairs"].as_array_mut().expect("pairs") {
        pair["wins"].as_array_mut().expect("wins").push(serde_json::json!({"first": 0, "second": 0}));
    }
    let path = temp("edited.json");
    std::fs::write(&path, edited.to_string()).expect("a shard file");
    let err = stderr(&["merge", path.to_str().expect("a path")], 2);
    assert!(err.contains("the counts do not fit shard 1 of 1"), "{err}");
    let junk = temp("junk.json");
    std::fs::write(&junk, "{\"paradox_shard\": 1}").expect("a file");
    let err = stderr(&["merge", junk.to_str().expect("a path")], 2);
    assert!(err.contains("is not a shard"), "{err}");
}

/// The fuzzer's seeds for `merge_shards` start it from shards `paradox merge` takes: seeds of
/// an old format would be refused at once and leave most of the merge unfuzzed.
#[test]
fn the_fuzzers_shard_seeds_are_shards_of_today_that_merge() {
    let seeds = std::fs::read_dir("fuzz/seeds/merge_shards").expect("the seeds of merge_shards");
    let mut kinds = Vec::new();
    for seed in seeds {
        let seed = seed.expect("a seed").path();
        let bytes = std::fs::read(&seed).expect("a seed file");
        let name = seed.file_name().and_then(|n| n.to_str()).expect("a name").to_string();
        let files: Vec<String> = bytes
            .split(|b| *b == 0)
            .enumerate()
            .map(|(i, shard)| {
                let path = temp(&format!("seed-{name}-{i}.json"));
                std::fs::write(&path, shard).expect("a shard file");
                path.display().to_string()
            })
            .collect();
        let shards: Vec<&str> = files.iter().map(String::as_str).collect();
        // The temporary files are named after the seed, and a refusal names its file.
        kinds.push(ok(&[&["merge"][..], &shards].concat()).contains("Elo-like ratings"));
    }
    assert!(kinds.contains(&true) && kinds.contains(&false), "seeds of a ladder and of a lab run: {kinds:?}");
}

#[test]
fn sim_reports_one_configuration_with_intervals() {
    let text = ok(&["sim", COSTLY, "--games", "60", "--seed", "3"]);
    for needle in
        ["60 matches (seeds 3 to 62)", "player 1 (side A: A, A's ghost) wins", "decisions per match, mean", "%"]
    {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
    let err = stderr(&["sim", COSTLY, "--games", "60", "--seed", "3"], 0);
    assert!(err.contains("60 matches in") && err.contains("matches/s"), "the speed on standard error: {err}");
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "sim",
        COSTLY,
        "--games",
        "60",
        "--variant",
        "tug_of_war_short",
        "--format",
        "json",
    ]))
    .expect("JSON");
    assert_eq!(json["configurations"][0]["label"], "variant:tug_of_war_short");
    assert!(json["comparisons"].as_array().is_some_and(Vec::is_empty));
    // A thinking bot plays, and its moves are timed.
    let err = stderr(&["sim", COIN, "--games", "4", "--bots", "default,random"], 0);
    assert!(err.contains("thinking bots:"), "{err}");
}

#[test]
fn each_configuration_says_what_a_match_cost() {
    let err = stderr(&["compare", COIN, "base", "set:warmup=2", "--games", "6", "--bots", "greedy"], 0);
    assert!(err.contains("what a match cost, on one thread:\n  [1] base: "), "{err}");
    // One decision a match, the call of heads or tails: a choice the bot searches.
    assert!(err.contains(", 1.0 decisions, 1.0 moves searched by bots\n  [2] set:warmup=2: "), "{err}");
    assert!(err.contains("1000 more matches of each would take about "), "{err}");
}

#[test]
fn precision_decides_how_many_matches() {
    let args = ["compare", COIN, "base", "variant:favour_first_seat", "--precision", "3", "--skill", "greedy/random"];
    let text = ok(&[&args[..], &["--format", "json", "--threads", "1"]].concat());
    assert_eq!(text, ok(&[&args[..], &["--format", "json", "--threads", "3"]].concat()), "the same on any threads");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    // A share near a half is known within ±3 points after about 1070 matches: 200 first,
    // then enough more, rounded up to a hundred (it was 2000, in thousands after 1000 first).
    assert_eq!(json["matches"], 1100);
    assert!(json["precision"]["reached"].as_f64().is_some_and(|p| p <= 3.0), "{}", json["precision"]);
    // Every headline share is that precise, not only the wins.
    for config in json["configurations"].as_array().expect("configurations") {
        let skill = &config["skill"]["share"];
        let starter = &config["starter"]["share"];
        let comebacks = &config["comebacks"];
        for share in [&config["players"][0]["share"], &config["players"][1]["share"], skill, starter, comebacks] {
            let (low, high) = (share["low"].as_f64().expect("low"), share["high"].as_f64().expect("high"));
            let value = share["value"].as_f64().expect("value");
            assert!((value - low).max(high - value) <= 0.03, "{share}");
        }
    }
}

#[test]
fn the_plot_is_an_svg_with_every_configuration() {
    let path = temp("plot.svg");
    let p = path.to_str().expect("a path");
    ok(&["compare", COSTLY, "base", "variant:tug_of_war_short", "--games", "50", "--plot", p]);
    let svg = std::fs::read_to_string(&path).expect("the plot");
    for needle in [
        "<svg",
        "Every share with its 95 % interval",
        "Lead history",
        "Match length",
        "Winning margin",
        "variant:tug_of_war_short",
    ] {
        assert!(svg.contains(needle), "no {needle:?} in the plot");
    }
}

#[test]
fn mistakes_on_the_command_line_are_reported() {
    for (args, code, needle) in [
        (&["compare", COSTLY, "base"][..], 2, "CONFIG"),
        (&["compare", COSTLY, "base", "sett:trick_cost=1"][..], 2, "is none of these"),
        (&["compare", COSTLY, "base", "set:trick_cost"][..], 2, "sets no value"),
        (&["compare", COSTLY, "base", "base"][..], 2, "given twice"),
        (&["compare", COSTLY, "base", "set:trik_cost=15"][..], 1, "did you mean `trick_cost`?"),
        (&["compare", COSTLY, "base", "variant:cheap_trick"][..], 1, "configuration `variant:cheap_trick`"),
        (&["compare", COSTLY, "base", "variant:cheap_tricks", "--variant", "tug_of_war_short"][..], 2, "one at a time"),
        (&["compare", COSTLY, "base", "set:trick_cost=5", "--precision", "0"][..], 2, "--precision"),
        (&["compare", COSTLY, "base", "set:trick_cost=5", "--shard", "5/4"][..], 2, "--shard 5/4"),
        (&["compare", COSTLY, "base", "set:trick_cost=5", "--bots", "random,random,random"][..], 2, "--bots"),
        (&["sim", COSTLY, "--shard", "1/2", "--format", "json"][..], 2, "cannot be used with"),
        (&["merge", "no-such-shard.json"][..], 2, "cannot read no-such-shard.json"),
        // A device is refused before it is read (/dev/zero would fill the memory).
        (&["merge", "/dev/zero"][..], 2, "not a regular file"),
        (&["sim", COSTLY, "--threads", "100000"][..], 2, "--threads"),
        (&["sim", COSTLY, "--precision", "nan"][..], 2, "--precision"),
    ] {
        let err = stderr(args, code);
        assert!(err.contains(needle), "{args:?}: no {needle:?} in\n{err}");
    }
}

/// The `paradox` command of a cluster example, with the scheduler's variables filled in and
/// fewer matches: its words, quotes and the redirection of its output left out.
fn example_command(path: &str, fill: &[(&str, &str)]) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("the example");
    let start = text.rfind("paradox compare ").expect("a paradox command");
    let command = &text[start..text[start..].find(" > ").map_or(text.len(), |end| start + end)];
    let mut command = command.replace('\\', " ");
    for (from, to) in fill {
        command = command.replace(from, to);
    }
    command.split_whitespace().skip(1).map(|w| w.trim_matches('"').to_string()).collect()
}

#[test]
fn the_cluster_examples_run_as_written() {
    let slurm = example_command(
        "docs/cluster/compare.slurm",
        &[
            ("$GAMES", "40"),
            ("$SEED", "1"),
            ("$SLURM_CPUS_PER_TASK", "1"),
            ("$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT", "2/8"),
        ],
    );
    let kubernetes = example_command(
        "docs/cluster/compare-job.yaml",
        &[("/rules/", "rules/"), ("200000", "40"), ("$((JOB_COMPLETION_INDEX + 1))/8", "2/8")],
    );
    for args in [slurm, kubernetes] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let shard: serde_json::Value = serde_json::from_str(&ok(&args)).expect("a shard");
        assert_eq!(shard["shard"], serde_json::json!([2, 8]), "{args:?}");
        assert_eq!(shard["tallies"]["configurations"][0]["matches"], 5, "{args:?}");
    }
}

#[test]
fn a_result_over_a_list_of_seats_reads_the_lead_in_seat_order() {
    // The Third Man ranked over its seats in another order: the same matches, the same figures.
    let rules = std::fs::read_to_string("rules/third-man.cards").expect("the rule file");
    let written = "result highest s in seats by chips[s]";
    assert!(rules.contains(written), "the result line moved");
    let listed = temp("third-man-listed.cards");
    std::fs::write(&listed, rules.replace(written, "result highest s in [P3, P1, P2, P4] by chips[s]"))
        .expect("a file");
    let figures = |file: &str| {
        let json = ok(&["sim", file, "--games", "200", "--format", "json"]);
        let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let c = &json["configurations"][0];
        (c["players"].clone(), c["margin"].clone(), c["lead"].clone())
    };
    assert_eq!(figures(listed.to_str().expect("a path")), figures("rules/third-man.cards"));
}

/// `merge` checks every count of a shard against the matches it claims, and adds them up with
/// overflow checks: a count no match can give is refused, naming the file and the count.
#[test]
fn merge_refuses_counts_that_the_matches_cannot_give() {
    use serde_json::{Value, json};
    let shard = |i: u64| -> Value {
        let text = ok(&["sim", COIN, "--games", "20", "--seed", "5", "--shard", &format!("{i}/2")]);
        serde_json::from_str(&text).expect("a shard")
    };
    let write = |name: &str, shard: &Value| {
        let path = temp(name);
        std::fs::write(&path, shard.to_string()).expect("a shard file");
        path.display().to_string()
    };
    let real = write("real-2.json", &shard(2));
    let started = shard(1)["tallies"]["configurations"][0]["started"].as_u64().expect("a count");
    let starters = format!("starter_wins is {}, more than the {started} matches started", started + 1);
    // Each case: its name, an edit of the first configuration's tally, and what is refused.
    type Edit = fn(&mut Value);
    let cases: [(&str, Edit, &str); 7] = [
        ("draws", |t| t["draws"] = json!(1000), "draws is 1000, more than the 10 matches finished"),
        ("wins", |t| t["wins"] = json!([1u64 << 63, 7]), "wins of player 1 is 9223372036854775808, more than the 10"),
        ("wrap", |t| t["wins"][0] = json!(u64::MAX), "wins of player 1 is 18446744073709551615, more than the 10"),
        ("count", |t| t["decisions"] = json!({ "1": u64::MAX }), "decisions counts 18446744073709551615 matches"),
        ("sum", |t| t["rounds"] = json!({ "1": u64::MAX, "2": 11 }), "rounds counts more than 2^64 matches"),
        ("squares", |t| t["edge"]["squares"] = json!(-1), "edge: sums that no 10 matches of 2 players give"),
        ("starters", |t| t["starter_wins"] = json!(t["started"].as_u64().unwrap_or(0) + 1), ""),
    ];
    for (name, edit, expected) in cases {
        let mut damaged = shard(1);
        edit(&mut damaged["tallies"]["configurations"][0]);
        let path = write(&format!("damaged-{name}.json"), &damaged);
        let run = paradox(["merge", &real, &path]);
        let err = &run.expect(2).stderr;
        let expected = if expected.is_empty() { starters.as_str() } else { expected };
        assert!(err.starts_with(&format!("error: {path}: the counts do not fit shard 1 of 2")), "{name}: {err}");
        assert!(err.contains(&format!("configuration 1: {expected}")), "{name}: {err}");
    }
    // Values each shard may hold, whose squares add up past 128 bits over the two.
    let large = |i: u64| {
        let mut s = shard(i);
        s["tallies"]["configurations"][0]["decisions"] = json!({ "3700000000000000000": 10 });
        write(&format!("large-{i}.json"), &s)
    };
    let run = paradox(["merge", &large(1), &large(2)]);
    let err = &run.expect(2).stderr;
    assert!(err.contains("the counts cannot be added to those before: configuration 1: decisions"), "{err}");
}

/// The shards are measured before any is read: past 256 MiB in all, none is.
#[test]
fn merge_reads_the_shards_within_a_stated_memory() {
    let files: Vec<String> = (0..5)
        .map(|i| {
            let path = temp(&format!("large-shard-{i}.json"));
            let file = std::fs::File::create(&path).expect("a file");
            file.set_len(60 << 20).expect("a sparse file of 60 MiB");
            path.display().to_string()
        })
        .collect();
    let args: Vec<&str> = std::iter::once("merge").chain(files.iter().map(String::as_str)).collect();
    let run = paradox(&args);
    let err = &run.expect(2).stderr;
    assert!(err.contains("the shards come to more than 256 MiB, the most paradox merge reads in all"), "{err}");
    for file in files {
        std::fs::remove_file(file).expect("removed");
    }
}

/// The figures of play quality and of `--skill` are counts in the shards like the others: the
/// shards of a run merge into its report byte for byte, and a count its matches cannot give is
/// refused.
#[test]
fn shards_of_a_run_with_skill_merge_into_one_run() {
    const ROUNDS: &str = "tests/fixtures/lab/coin-rounds.cards";
    let run = ["compare", ROUNDS, "base", "set:rounds=7", "--games", "61", "--seed", "3", "--skill", "random/random"];
    let shards: Vec<String> = (1..=3)
        .map(|i| {
            let path = temp(&format!("skill-shard-{i}.json"));
            std::fs::write(&path, ok(&[&run[..], &["--shard", &format!("{i}/3")]].concat())).expect("a shard file");
            path.display().to_string()
        })
        .collect();
    let shards: Vec<&str> = shards.iter().map(String::as_str).collect();
    for format in ["json", "text"] {
        let whole = ok(&[&run[..], &["--format", format]].concat());
        assert!(whole.contains("strong player"), "{whole}");
        assert_eq!(whole, ok(&[&["merge"][..], &shards, &["--format", format]].concat()), "{format}");
    }
    // Each damage: a count of the first configuration's tally and what the refusal says.
    type Edit = fn(&mut serde_json::Value);
    let damages: [(Edit, &str); 4] = [
        (|t| t["comebacks"] = serde_json::json!(1000), "comebacks is 1000, more than the"),
        (|t| t["skill"]["wins"] = serde_json::json!(1000), "skill wins is 1000, more than the"),
        (|t| t["leader"][4][1] = serde_json::json!(1000), "leader's wins at tenth 5 is 1000"),
        (|t| t["trend"].as_array_mut().expect("tenths").pop().map_or((), drop), "not the shape of this run"),
    ];
    for (i, (edit, expected)) in damages.into_iter().enumerate() {
        let mut shard: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(shards[0]).expect("a shard")).expect("JSON");
        edit(&mut shard["tallies"]["configurations"][0]);
        let path = temp(&format!("skill-damaged-{i}.json"));
        std::fs::write(&path, shard.to_string()).expect("a shard file");
        let err = stderr(&["merge", path.to_str().expect("a path"), shards[1], shards[2]], 2);
        assert!(err.contains(expected), "{expected}: {err}");
    }
}
