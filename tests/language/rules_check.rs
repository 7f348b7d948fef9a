//! Every rule file in `rules/` and every scenario in `examples/` passes the checker, with its
//! defaults and with each variant it declares.

use paradox::{LoadError, Settings, Style, load, render};
use std::path::{Path, PathBuf};

fn files_in(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("folder exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cards"))
        .collect();
    files.sort();
    files
}

/// Loads a file, turning problems into a readable failure message.
fn check(path: &Path, settings: &Settings) -> Result<paradox::Game, String> {
    load(path, settings).map_err(|e| match e {
        LoadError::Io(message) => message,
        LoadError::Invalid(findings) => render(&findings, Style::Plain, 100),
    })
}

#[test]
fn the_six_games_are_there() {
    let names: Vec<String> =
        files_in("rules").iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for game in ["anarchy", "buddy-on-your-left", "costly-tricks", "pairadox", "tantony", "third-man"] {
        assert!(names.contains(&format!("{game}.cards")), "rules/{game}.cards is missing: {names:?}");
    }
}

#[test]
fn every_rule_file_and_variant_checks_clean() {
    let mut failures = Vec::new();
    for path in files_in("rules") {
        let game = match check(&path, &Settings::default()) {
            Ok(game) => game,
            Err(report) => {
                failures.push(format!("{}:\n{report}", path.display()));
                continue;
            }
        };
        assert!(!game.variants.is_empty(), "{} offers no variant", path.display());
        for variant in &game.variants {
            let settings = Settings { variant: Some(variant.name.clone()), ..Settings::default() };
            if let Err(report) = check(&path, &settings) {
                failures.push(format!("{} --variant {}:\n{report}", path.display(), variant.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// examples/ holds scenarios of the six games, and small games of its own (fishing, passing,
/// shedding, the sealed bids).
#[test]
fn every_example_checks_clean() {
    let examples = files_in("examples");
    let mut scenarios = 0;
    for path in examples {
        let game = check(&path, &Settings::default()).unwrap_or_else(|report| panic!("{}:\n{report}", path.display()));
        scenarios += usize::from(game.scenario.is_some());
    }
    assert!(scenarios > 0, "examples/ holds no scenario");
}

/// Each switch of RULINGS.md is a parameter of its game, under its name, with its default.
#[test]
fn every_ruling_switch_is_a_parameter_with_its_default() {
    let switches: &[(&str, &str, &str)] = &[
        ("costly-tricks", "free_new_trump", "false"),
        ("costly-tricks", "trick_cost", "20"),
        ("costly-tricks", "chips_to_win", "3"),
        ("costly-tricks", "tug_of_war", "false"),
        ("buddy-on-your-left", "top_scoring_rank", "6"),
        ("buddy-on-your-left", "equal_exception", "true"),
        ("buddy-on-your-left", "second_tie_chips", "1"),
        ("third-man", "prize", "10"),
        ("third-man", "third_multiplier", "2"),
        ("third-man", "board_limit", "20"),
        ("anarchy", "doubled_twos_threes", "false"),
        ("anarchy", "target", "100"),
        ("tantony", "high_court_values", "false"),
        ("tantony", "quota", "3"),
        ("tantony", "deals", "4"),
    ];
    for (file, name, default) in switches {
        let path = PathBuf::from(format!("rules/{file}.cards"));
        let game = check(&path, &Settings::default()).unwrap_or_else(|r| panic!("{r}"));
        let param = game.params.iter().find(|p| p.name == *name).unwrap_or_else(|| panic!("{file} has no `{name}`"));
        assert_eq!(game.show_value(param.value, &param.ty), *default, "{file}: default of `{name}`");
    }
}

/// Anarchy's pack follows the number of players and the doubled Twos and Threes switch.
#[test]
fn anarchy_pack_depends_on_players() {
    let path = Path::new("rules/anarchy.cards");
    for (sets, cards) in [
        (vec!["players=4"], 52),
        (vec!["players=5"], 60),
        (vec!["players=6"], 60),
        (vec!["players=6", "doubled_twos_threes=true"], 60),
    ] {
        let settings = Settings { sets: sets.iter().map(|s| s.to_string()).collect(), ..Settings::default() };
        let game = check(path, &settings).unwrap_or_else(|r| panic!("{r}"));
        assert_eq!(game.cards.len(), cards, "{sets:?}");
    }
    let doubled = Settings { sets: vec!["players=5".into(), "doubled_twos_threes=true".into()], ..Settings::default() };
    let game = check(path, &doubled).unwrap_or_else(|r| panic!("{r}"));
    let twos = game.card_names.iter().filter(|n| n.contains('2') && !n.contains("12")).count();
    assert_eq!(twos, 8, "four extra Twos: {:?}", game.card_names);
}
