//! The compiled game: what the checker makes of the rule files (pack, derived attributes,
//! seats and players, enumeration values).

use paradox::{Game, Settings, Value, load};
use std::path::Path;

fn game(file: &str, sets: &[&str]) -> Game {
    let settings = Settings { sets: sets.iter().map(|s| s.to_string()).collect(), ..Settings::default() };
    load(Path::new(file), &settings).unwrap_or_else(|e| panic!("{file} does not load: {e:?}"))
}

fn attr(game: &Game, name: &str) -> usize {
    game.attrs.iter().position(|a| a.name == name).unwrap_or_else(|| panic!("no attribute {name}"))
}

/// The value of attribute `name` of the card called `card`.
fn value_of(game: &Game, card: &str, name: &str) -> Value {
    let c = game
        .card_names
        .iter()
        .position(|n| n == card)
        .unwrap_or_else(|| panic!("no card {card}: {:?}", game.card_names));
    game.cards[c][attr(game, name)]
}

#[test]
fn costly_tricks_cards_score_their_rank_and_ghosts_belong_to_players() {
    let g = game("rules/costly-tricks.cards", &[]);
    assert_eq!(g.cards.len(), 44);
    assert_eq!(value_of(&g, "purple 7", "points"), Value::Int(7));
    assert_eq!(value_of(&g, "red 0", "points"), Value::Int(0));
    let players: Vec<usize> = g.seats.iter().map(|s| s.player).collect();
    assert_eq!(players, vec![0, 1, 0, 1], "A and A's ghost are one player");
    assert_eq!(g.players, 2);
    assert_eq!(g.seats[2].display, "A's ghost");
    let sides: Vec<Option<u8>> = g.seats.iter().map(|s| s.side).collect();
    assert_eq!(sides, vec![Some(0), Some(1), Some(0), Some(1)]);
}

#[test]
fn derived_attributes_follow_parameters() {
    let plain = game("rules/tantony.cards", &[]);
    let high = game("rules/tantony.cards", &["high_court_values=true"]);
    for (card, low_value, high_value) in
        [("7 of spades", 7, 7), ("J of hearts", 15, 15), ("K of clubs", 15, 25), ("A of diamonds", 20, 30)]
    {
        assert_eq!(value_of(&plain, card, "value"), Value::Int(low_value), "{card}");
        assert_eq!(value_of(&high, card, "value"), Value::Int(high_value), "{card} with high courts");
    }
    let buddy = game("rules/buddy-on-your-left.cards", &["top_scoring_rank=3"]);
    let points: i64 = buddy
        .cards
        .iter()
        .map(|c| match c[attr(&buddy, "points")] {
            Value::Int(n) => n,
            v => panic!("points is {v:?}"),
        })
        .sum();
    assert_eq!(points, 3 * (1 + 2 + 3), "only ranks up to 3 score");
}

#[test]
fn pairadox_has_identical_copies_and_names_without_blank_parts() {
    let g = game("rules/pairadox.cards", &[]);
    assert_eq!(g.cards.len(), 36 + 27 + 20);
    let filled = g.card_names.iter().filter(|n| n.as_str() == "filled Single").count();
    assert_eq!(filled, 4, "four identical copies of each Single");
    let first = g.card_names.iter().position(|n| n == "filled Single").unwrap();
    let copies = g.cards.iter().filter(|c| **c == g.cards[first]).count();
    assert_eq!(copies, 4, "the copies have identical attributes");
    assert!(g.card_names.iter().any(|n| n == "partial red square Complete"), "{:?}", g.card_names);
    assert!(g.card_names.iter().all(|n| !n.contains("  ") && n.trim() == n), "no blank parts");
}

#[test]
fn a_payload_member_stands_for_one_value_per_payload() {
    let g = game("rules/anarchy.cards", &[]);
    let bid = g.enums.iter().find(|e| e.name == "Bid").expect("enum Bid");
    let shown: Vec<&str> = bid.values.iter().map(|v| v.display.as_str()).collect();
    assert_eq!(shown.len(), 5 + 4, "five plain bids and one per suit: {shown:?}");
    assert!(shown.contains(&"hearts") && shown.contains(&"shorts"), "{shown:?}");
}

#[test]
fn seats_are_named_after_players_when_not_listed() {
    let g = game("rules/anarchy.cards", &["players=5"]);
    let names: Vec<&str> = g.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec!["P1", "P2", "P3", "P4", "P5"]);
    assert_eq!(g.players, 5);
}

#[test]
fn a_variant_changes_the_parameters_it_sets() {
    let settings = Settings { variant: Some("tug_of_war_long".into()), ..Settings::default() };
    let g = load(Path::new("rules/costly-tricks.cards"), &settings).expect("variant loads");
    let value = |name: &str| g.params.iter().find(|p| p.name == name).map(|p| p.value);
    assert_eq!(value("tug_of_war"), Some(Value::Bool(true)));
    assert_eq!(value("chips_to_win"), Some(Value::Int(5)));
    assert_eq!(g.variant.as_deref(), Some("tug_of_war_long"));
}

/// The compiled program of every rule file, example and valid fixture, as a readable listing:
/// a change to one is a change to what the checker makes of the file.
#[test]
fn compiled_programs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in ["rules", "examples", "tests/fixtures/valid"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(folder))
            .expect("a folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "cards"))
            .collect();
        files.sort();
        for path in files {
            let game = load(&path, &Settings::default()).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            let name = format!("{folder}/{}", path.file_name().and_then(|n| n.to_str()).expect("a name"));
            insta::assert_snapshot!(name.replace('/', "__"), game.dump());
        }
    }
}
