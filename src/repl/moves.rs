//! Finding the move a player typed among the legal move names: the exact name (any case), `#N`
//! for the N-th move, or a forgiving short form — words shortened to a prefix or run together as
//! initials (`r5`, `red5`, `give w`), numbers given whole (`7` for `bid 7`), in any order
//! (`d6`, `6d`, `spades 4` for `6 of diamonds` and `4 of spades`).
//!
//! The work is linear in the number of moves: the search for a short form skips the ways that
//! differ only in which of two equal words of a name is taken, and all the names together get
//! at most [`MAX_TRIES`] tries; past that the typed text is refused as too vague ([`Found::TooVague`]).

/// What a typed text names among the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// Exactly one move: its index.
    One(usize),
    /// Several moves fit equally well: their indices.
    Several(Vec<usize>),
    /// `#N` with no N-th move.
    OutOfRange(usize),
    /// No move fits.
    None,
    /// The short form could be read in more ways than are tried ([`MAX_TRIES`]).
    TooVague,
}

/// How many ways of reading a short form are tried, over all the moves together.
pub(super) const MAX_TRIES: usize = 1_000_000;

/// Finds the move `typed` names among `names`.
pub(super) fn find(typed: &str, names: &[String]) -> Found {
    let mut tries = MAX_TRIES;
    find_within(typed, names, &mut tries)
}

/// [`find`] out of `tries`, which it counts down.
fn find_within(typed: &str, names: &[String], tries: &mut usize) -> Found {
    let typed = typed.trim();
    if let Some(n) = typed.strip_prefix('#').and_then(|n| n.trim().parse::<usize>().ok()) {
        return if (1..=names.len()).contains(&n) { Found::One(n - 1) } else { Found::OutOfRange(n) };
    }
    let wanted = words(typed);
    if wanted.is_empty() {
        return Found::None;
    }
    let named: Vec<Vec<String>> = names.iter().map(|n| words(n)).collect();
    if let Some(i) = named.iter().position(|n| *n == wanted) {
        return Found::One(i);
    }
    let mut fits: Vec<(usize, Cost)> = Vec::new();
    for (i, name) in named.iter().enumerate() {
        match cost(&wanted, name, tries) {
            Err(OutOfTries) => return Found::TooVague,
            Ok(Some(c)) => fits.push((i, c)),
            Ok(None) => {}
        }
    }
    let Some(best) = fits.iter().map(|(_, c)| *c).min() else { return Found::None };
    let first = fits.iter().find(|(_, c)| *c == best).map_or(0, |(i, _)| *i);
    // Moves of one name are the same to the player (like cards of one kind): take the first. A
    // move that fits less well still counts, unless its name only adds words to the best's
    // (`A of spades low` beside `A of spades`): `b` is `blacks` or `best suit`.
    let rivals: Vec<usize> = (fits.into_iter())
        .filter(|(i, c)| *c == best || !named[*i].starts_with(&named[first]))
        .map(|(i, _)| i)
        .collect();
    match rivals[..] {
        [first, ..] if rivals.iter().all(|&i| names[i] == names[first]) => Found::One(first),
        _ => Found::Several(rivals),
    }
}

/// The moves of a decision as typed text is read against them: their names and, for a choice
/// of several cards at once, each move's cards.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    pub names: Vec<String>,
    pub groups: Option<Groups>,
}

/// The cards of a choice of several at once: the name of every card it chooses among (in a
/// move or not, so that a card in none is still read as that card), and each move's card
/// names, both in pack order. Cards of one name are the same to the player.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    pub cards: Vec<String>,
    pub of_move: Vec<Vec<String>>,
    /// Each move's declaration, if it is made with one (`flush`).
    pub declared: Vec<Option<String>>,
}

impl Groups {
    /// How many cards a move takes: `2 cards`, `1 to 3 cards`.
    pub fn sizes(&self) -> String {
        let least = self.of_move.iter().map(Vec::len).min().unwrap_or(0);
        let most = self.of_move.iter().map(Vec::len).max().unwrap_or(0);
        let s = if most == 1 { "" } else { "s" };
        if least == most { format!("{most} card{s}") } else { format!("{least} to {most} cards") }
    }

    /// The moves in one line: what they are made of and how to type one.
    pub fn summary(&self) -> String {
        format!(
            "{} from {} (type the cards on one line, in any order; `moves` lists them)",
            self.sizes(),
            self.cards.join(", ")
        )
    }

    /// Every move, numbered, a line for each first card: `2 of cups + ...: 3 of cups #1, ...`.
    pub fn listing(&self) -> String {
        let mut out = format!("{} moves of {}, by their first card:\n", self.of_move.len(), self.sizes());
        let mut k = 0;
        while k < self.of_move.len() {
            let first = self.of_move[k].first().cloned();
            let mut rest = Vec::new();
            while k < self.of_move.len() && self.of_move[k].first() == first.as_ref() {
                let more = self.of_move[k].get(1..).unwrap_or_default().join(" + ");
                let more = if more.is_empty() { "alone".to_string() } else { more };
                let declared = self.declared.get(k).cloned().flatten().map_or(String::new(), |d| format!(" {d}"));
                rest.push(format!("{more}{declared} #{}", k + 1));
                k += 1;
            }
            let head = first.map_or("no cards".to_string(), |f| format!("{f} + ..."));
            out.push_str(&format!("  {head}: {}\n", rest.join(", ")));
        }
        out
    }
}

/// The most words of a typed group whose ways of being cut into cards are all tried.
const MAX_CUT_WORDS: usize = 12;

impl Moves {
    /// Finds the move `typed` names (see [`find`] and [`find_group`]).
    pub fn find(&self, typed: &str) -> Found {
        match &self.groups {
            Some(groups) => find_group(typed, &self.names, groups),
            None => find(typed, &self.names),
        }
    }
}

/// Finds the move `typed` names where each move is a group of cards: the typed words are cut
/// into runs that each name one card as [`find`] reads a name (`+` and `,` always cut), in any
/// order; the move is the group of exactly those cards, made with the declaration if its word
/// is typed. Text that names no cards this way (`#2`, a label) is looked for among the names.
pub(super) fn find_group(typed: &str, names: &[String], groups: &Groups) -> Found {
    if typed.trim().starts_with('#') {
        return find(typed, names);
    }
    let (named, declared) = read_group(typed, names, groups);
    let moves: Vec<Vec<String>> = groups.of_move.iter().map(|g| sorted(g)).collect();
    let as_declared = |m: &usize| groups.declared.get(*m).cloned().flatten() == declared;
    let exact = (0..moves.len()).filter(|m| named.contains(&moves[*m]) && as_declared(m)).collect::<Vec<_>>();
    // Cards that are only part of a move: the moves they could start.
    let holding =
        (0..moves.len()).filter(|m| named.iter().any(|n| holds(&moves[*m], n)) && as_declared(m)).collect::<Vec<_>>();
    match (&exact[..], &holding[..]) {
        ([one], _) => Found::One(*one),
        ([_, _, ..], _) => Found::Several(exact),
        ([], [_, ..]) => Found::Several(holding),
        ([], []) if !named.is_empty() => Found::None,
        ([], []) => find(typed, names),
    }
}

/// The cards a typed group names (sorted), in its first reading, if it names cards.
pub(super) fn cards_typed(typed: &str, names: &[String], groups: &Groups) -> Option<Vec<String>> {
    read_group(typed, names, groups).0.into_iter().next()
}

/// Every way typed text names cards (each sorted), and the declaration it names. The words
/// every move's name has besides its cards (`take` of `take {group}`) say nothing.
fn read_group(typed: &str, names: &[String], groups: &Groups) -> (Vec<Vec<String>>, Option<String>) {
    let label = label_words(names, &groups.cards);
    let mut declared = None;
    let mut parts: Vec<Vec<String>> = Vec::new();
    for part in typed.split(['+', ',']) {
        let mut kept = Vec::new();
        for word in words(part) {
            if groups.declared.iter().flatten().any(|d| *d == word) {
                declared = Some(word);
            } else if !label.contains(&word) {
                kept.push(word);
            }
        }
        if !kept.is_empty() {
            parts.push(kept);
        }
    }
    let total: usize = parts.iter().map(Vec::len).sum();
    let named = if total <= MAX_CUT_WORDS {
        cuttings(&parts).iter().filter_map(|runs| cards_named(runs, &groups.cards)).collect()
    } else {
        Vec::new()
    };
    (named, declared)
}

/// The words of every name that are in no card's name.
fn label_words(names: &[String], cards: &[String]) -> Vec<String> {
    let card_words: Vec<String> = cards.iter().flat_map(|c| words(c)).collect();
    let Some((first, rest)) = names.split_first() else { return Vec::new() };
    let mut label = words(first);
    label.retain(|w| !card_words.contains(w) && rest.iter().all(|n| words(n).contains(w)));
    label
}

/// Whether sorted names `all` hold every one of sorted names `part` (as many times).
fn holds(all: &[String], part: &[String]) -> bool {
    let mut rest = all.iter();
    part.iter().all(|p| rest.any(|a| a == p))
}

/// Every way of cutting each part's words into runs of consecutive words.
fn cuttings(parts: &[Vec<String>]) -> Vec<Vec<Vec<String>>> {
    let mut ways: Vec<Vec<Vec<String>>> = vec![Vec::new()];
    for part in parts {
        let gaps = part.len() - 1;
        let mut next = Vec::new();
        for way in &ways {
            for cuts in 0..1usize << gaps {
                let mut runs = way.clone();
                let mut run = vec![part[0].clone()];
                for (i, word) in part.iter().enumerate().skip(1) {
                    if cuts >> (i - 1) & 1 == 1 {
                        runs.push(std::mem::take(&mut run));
                    }
                    run.push(word.clone());
                }
                runs.push(run);
                next.push(runs);
            }
        }
        ways = next;
    }
    ways
}

/// The names of the cards runs of words name, sorted, if each names exactly one card.
fn cards_named(runs: &[Vec<String>], cards: &[String]) -> Option<Vec<String>> {
    let mut named = Vec::with_capacity(runs.len());
    for run in runs {
        let Found::One(c) = find(&run.join(" "), cards) else { return None };
        named.push(cards[c].clone());
    }
    named.sort_unstable();
    Some(named)
}

fn sorted(names: &[String]) -> Vec<String> {
    let mut names = names.to_vec();
    names.sort_unstable();
    names
}

/// A text as lower-case words, letters and digits split apart (`R5` is `r`, `5`); anything
/// else separates words, but for a sign that starts a number (`-1`, `+3`), which is part of
/// it: `-1` is not `1`.
fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<bool> = None;
    let mut sign: Option<char> = None;
    let mut chars = text.chars().flat_map(char::to_lowercase).peekable();
    while let Some(c) = chars.next() {
        let digit = c.is_ascii_digit();
        if !c.is_alphanumeric() {
            let starts_number = last.is_none() && chars.peek().is_some_and(char::is_ascii_digit);
            sign = ((c == '-' || c == '+') && starts_number).then_some(c);
            last = None;
            continue;
        }
        match out.last_mut() {
            Some(word) if last == Some(digit) => word.push(c),
            _ => out.push(sign.take().into_iter().chain([c]).collect()),
        }
        last = Some(digit);
    }
    out
}

fn is_number(word: &str) -> bool {
    word.strip_prefix(['-', '+']).unwrap_or(word).chars().all(|c| c.is_ascii_digit())
}

/// Words a name may hold that nobody types: leaving them out costs nothing.
pub(super) const FILLER: [&str; 3] = ["of", "the", "to"];

/// How well typed words fit a name: how many of the name's words (filler aside) they leave
/// out, then whether they take the words out of the name's order. Less is better.
type Cost = (usize, bool);

/// The tries ran out before the search ended.
struct OutOfTries;

/// How well the typed words fit the name, if each fits words of it not taken by another: a
/// number equals a word; letters are a word's prefix, or spell out prefixes of several words
/// (`as` for `A of spades`, `d6` for `6 of diamonds`). Each way tried takes one of `tries`.
fn cost(typed: &[String], name: &[String], tries: &mut usize) -> Result<Option<Cost>, OutOfTries> {
    let mut search = Search { name, taken: vec![false; name.len()], best: None, tries };
    search.fits(typed, "", None, false)?;
    Ok(search.best)
}

/// The search for the best way typed words take words of one name.
struct Search<'a> {
    name: &'a [String],
    taken: Vec<bool>,
    best: Option<Cost>,
    tries: &'a mut usize,
}

impl Search<'_> {
    /// Tries every way the typed words (`rest` the part of the current word still to place) take
    /// words of the name, keeping the best cost.
    fn fits(&mut self, typed: &[String], rest: &str, last: Option<usize>, disorder: bool) -> Result<(), OutOfTries> {
        *self.tries = self.tries.checked_sub(1).ok_or(OutOfTries)?;
        if rest.is_empty() {
            let Some((word, more)) = typed.split_first() else {
                let name = self.name;
                let left = (0..name.len()).filter(|&k| !self.taken[k] && !FILLER.contains(&name[k].as_str())).count();
                if self.best.is_none_or(|b| (left, disorder) < b) {
                    self.best = Some((left, disorder));
                }
                return Ok(());
            };
            return self.fits(more, word, last, disorder);
        }
        for k in 0..self.name.len() {
            if self.taken[k] || self.same_as_earlier(k, last, disorder) {
                continue;
            }
            for end in taking(rest, &self.name[k]) {
                self.taken[k] = true;
                let disorder = disorder || last.is_some_and(|l| l > k);
                let tried = self.fits(typed, &rest[end..], Some(k), disorder);
                self.taken[k] = false;
                tried?;
            }
        }
        Ok(())
    }

    /// Whether an earlier free word of the name equal to word `k` is as good a place as `k`:
    /// taking one or the other changes which words are left only in order, and only when both
    /// come after the last word taken (or both before it) while the order still counts.
    fn same_as_earlier(&self, k: usize, last: Option<usize>, disorder: bool) -> bool {
        let side = |j: usize| disorder || last.is_none_or(|l| j > l);
        (0..k).any(|j| !self.taken[j] && self.name[j] == self.name[k] && side(j) == side(k))
    }
}

/// How many bytes of `rest` a word of a name may take: all of it when they are the same number
/// or `rest` starts the word; else each length of the letters they share (initials run together).
fn taking(rest: &str, word: &str) -> Vec<usize> {
    if is_number(rest) || is_number(word) {
        if rest == word { vec![rest.len()] } else { Vec::new() }
    } else if word.starts_with(rest) {
        // Letters that start a word are taken by it whole, not cut up as initials.
        vec![rest.len()]
    } else {
        let common = rest.chars().zip(word.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8());
        common.scan(0, |at, n| Some(*at + n).inspect(|end| *at = *end)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Groups of the cards named, each a list of indices into `cards`.
    fn groups(cards: &[&str], of_move: &[&[usize]]) -> (Vec<String>, Groups) {
        let of_move: Vec<Vec<String>> =
            of_move.iter().map(|g| g.iter().map(|&i| cards[i].to_string()).collect()).collect();
        let names = of_move.iter().map(|g| g.join(" + ")).collect();
        let declared = vec![None; of_move.len()];
        (names, Groups { cards: names_of(cards), of_move, declared })
    }

    fn names_of(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_group_typed_card_by_card_in_any_order() {
        let cards = ["red 3", "red 5", "green 3", "green 5"];
        let (names, g) = groups(&cards, &[&[0, 1], &[1, 2], &[0, 3], &[2, 3]]);
        assert_eq!(find_group("r3 r5", &names, &g), Found::One(0));
        assert_eq!(find_group("red 5 + red 3", &names, &g), Found::One(0));
        assert_eq!(find_group("g3, r5", &names, &g), Found::One(1));
        assert_eq!(find_group("5g 3g", &names, &g), Found::One(3));
        // Red 3 with green 3 is not a move: the cards are named, so nothing is guessed.
        assert_eq!(find_group("r3 g3", &names, &g), Found::None);
        // `3` alone is either 3: no card is named, so the text is read against the names.
        assert_eq!(find_group("#2", &names, &g), Found::One(1));
        assert_eq!(find_group("r3", &names, &g), Found::Several(vec![0, 2]));
    }

    #[test]
    fn a_label_word_is_not_a_card_and_a_declaration_picks_its_move() {
        let cards = ["red 3", "red 5", "green 3"];
        let of_move =
            vec![names_of(&["red 3", "red 5"]), names_of(&["red 3", "red 5"]), names_of(&["red 5", "green 3"])];
        let names = names_of(&["lay red 3 + red 5", "lay red 3 + red 5 flush", "lay red 5 + green 3"]);
        let g = Groups { cards: names_of(&cards), of_move, declared: vec![None, Some("flush".into()), None] };
        assert_eq!(find_group("r3 r5", &names, &g), Found::One(0));
        assert_eq!(find_group("r5 r3 flush", &names, &g), Found::One(1));
        assert_eq!(find_group("lay g3 red 5", &names, &g), Found::One(2));
        assert_eq!(find_group("lay red 5", &names, &g), Found::Several(vec![0, 2]));
        assert!(g.listing().contains("red 5 flush #2"), "{}", g.listing());
    }

    #[test]
    fn groups_list_by_their_first_card() {
        let cards = ["red 3", "red 5", "green 3"];
        let (_, g) = groups(&cards, &[&[0, 1], &[0, 2], &[1, 2]]);
        assert_eq!(
            g.listing(),
            "3 moves of 2 cards, by their first card:\n  red 3 + ...: red 5 #1, green 3 #2\n  red 5 + ...: green 3 #3\n"
        );
        assert_eq!(
            g.summary(),
            "2 cards from red 3, red 5, green 3 (type the cards on one line, in any order; `moves` lists them)"
        );
    }

    #[test]
    fn exact_names_in_any_case() {
        let moves = names(&["red 5", "Red 10", "green 5"]);
        assert_eq!(find("red 5", &moves), Found::One(0));
        assert_eq!(find("  RED   10 ", &moves), Found::One(1));
    }

    #[test]
    fn initials_and_numbers() {
        let moves = names(&["red 1", "red 10", "green 1", "purple 0"]);
        assert_eq!(find("r1", &moves), Found::One(0));
        assert_eq!(find("r10", &moves), Found::One(1));
        assert_eq!(find("g 1", &moves), Found::One(2));
        assert_eq!(find("p0", &moves), Found::One(3));
        assert_eq!(find("10", &moves), Found::One(1));
        assert_eq!(find("1", &moves), Found::Several(vec![0, 2]));
        assert_eq!(find("b5", &moves), Found::None);
    }

    #[test]
    fn prefixes_and_runs_of_initials() {
        let moves = names(&["give to West", "give to East", "A of spades", "A of spades low"]);
        assert_eq!(find("give w", &moves), Found::One(0));
        assert_eq!(find("gte", &moves), Found::One(1));
        assert_eq!(find("give", &moves), Found::Several(vec![0, 1]));
        // The move that leaves fewer words out wins over one that only adds words to it.
        assert_eq!(find("as", &moves), Found::One(2));
        assert_eq!(find("a s low", &moves), Found::One(3));
    }

    #[test]
    fn a_bare_number_names_the_one_move_holding_it() {
        let moves = names(&["bid 1", "bid 7", "pass"]);
        assert_eq!(find("7", &moves), Found::One(1));
        assert_eq!(find("bid 7", &moves), Found::One(1));
        assert_eq!(find("p", &moves), Found::One(2));
    }

    #[test]
    fn moves_of_one_name_are_one_move() {
        let moves = names(&["blue Single", "partial Single", "partial Single", "partial Pair", "partial Single"]);
        assert_eq!(find("partial single", &moves), Found::One(1));
        assert_eq!(find("p s", &moves), Found::One(1));
        assert_eq!(find("partial", &moves), Found::Several(vec![1, 2, 3, 4]));
        assert_eq!(find("#3", &moves), Found::One(2));
        let same = names(&["partial Single", "partial Single"]);
        assert_eq!(find("partial", &same), Found::One(0));
        assert_eq!(find("single", &same), Found::One(0));
    }

    #[test]
    fn a_short_form_that_starts_several_names_is_ambiguous() {
        let moves = names(&["reds", "blacks", "best suit", "spades", "shorts"]);
        assert_eq!(find("b", &moves), Found::Several(vec![1, 2]));
        assert_eq!(find("bl", &moves), Found::One(1));
        assert_eq!(find("best", &moves), Found::One(2));
        assert_eq!(find("s", &moves), Found::Several(vec![2, 3, 4]));
        assert_eq!(find("sh", &moves), Found::One(4));
    }

    #[test]
    fn numbered_moves() {
        let moves = names(&["bid 1", "bid 7"]);
        assert_eq!(find("#2", &moves), Found::One(1));
        assert_eq!(find("#3", &moves), Found::OutOfRange(3));
        assert_eq!(find("#0", &moves), Found::OutOfRange(0));
    }

    #[test]
    fn a_signed_number_is_not_the_number() {
        let moves = names(&["bid 1", "bid 3", "move -1"]);
        for typed in ["-3", "+3", "bid -3", "#-2", "bid +1"] {
            assert_eq!(find(typed, &moves), Found::None, "{typed}");
        }
        assert_eq!(find("-1", &moves), Found::One(2));
        assert_eq!(find("-", &names(&["move -12"])), Found::None);
        assert_eq!(find("-1", &names(&["move -12"])), Found::None);
        assert_eq!(find("bid 3", &moves), Found::One(1));
        // A hyphen between words or after a letter still only separates them.
        assert_eq!(find("bid-3", &moves), Found::One(1));
    }

    #[test]
    fn nothing_typed_or_punctuation_only_matches_nothing() {
        let moves = names(&["bid 1"]);
        assert_eq!(find("", &moves), Found::None);
        assert_eq!(find("?!", &moves), Found::None);
        assert_eq!(find("\u{fffd}\u{fffd}", &moves), Found::None);
    }

    #[test]
    fn rank_and_suit_in_either_order_for_names_of_the_form_x_of_y() {
        let moves = names(&["6 of diamonds", "10 of diamonds", "A of diamonds", "4 of spades", "6 of spades"]);
        for typed in ["d6", "6d", "6 d", "d 6", "diamonds 6", "6 diamonds", "6 of diamonds", "6 OF DIAM"] {
            assert_eq!(find(typed, &moves), Found::One(0), "{typed}");
        }
        for typed in ["s4", "4s", "spades 4", "4 spades", "sp4", "4"] {
            assert_eq!(find(typed, &moves), Found::One(3), "{typed}");
        }
        assert_eq!(find("d10", &moves), Found::One(1));
        assert_eq!(find("ad", &moves), Found::One(2));
        assert_eq!(find("da", &moves), Found::One(2));
        assert_eq!(find("6", &moves), Found::Several(vec![0, 4]));
        assert_eq!(find("d", &moves), Found::Several(vec![0, 1, 2]));
        assert_eq!(find("h6", &moves), Found::None);
        assert_eq!(find("6 6", &moves), Found::None, "one word of the name takes one typed word");
    }

    #[test]
    fn a_declaration_is_the_name_with_one_word_more() {
        let moves = names(&["A of diamonds", "A of diamonds low", "7 of clubs"]);
        assert_eq!(find("ad", &moves), Found::One(0));
        assert_eq!(find("ad low", &moves), Found::One(1));
        assert_eq!(find("low", &moves), Found::One(1));
        assert_eq!(find("c7", &moves), Found::One(2));
    }

    /// `find` and how many tries it took: the matcher's work in its own unit, the same on any
    /// machine. The searches these tests guard against took minutes: every order of twelve
    /// equal words, or a search of each move for every other.
    fn tried(typed: &str, moves: &[String]) -> (Found, usize) {
        let mut tries = MAX_TRIES;
        let found = find_within(typed, moves, &mut tries);
        (found, MAX_TRIES - tries)
    }

    /// The most tries a name of twelve equal words takes.
    const TRIES_EQUAL: usize = 1_000;

    #[test]
    fn a_name_of_many_equal_words_is_searched_without_trying_each_order() {
        // Each of the ten typed words could take any of twelve equal words: 12!/2! orders.
        let moves = names(&["a a a a a a a a a a a a 1", "a a a a a a a a a a a a 2"]);
        let (found, tries) = tried("a a a a a a a a a a", &moves);
        assert_eq!(found, Found::Several(vec![0, 1]));
        assert!(tries <= TRIES_EQUAL, "{tries} tries");
        let (found, tries) = tried("a a a a a a a a a a 2", &moves);
        assert_eq!(found, Found::One(1));
        assert!(tries <= TRIES_EQUAL, "{tries} tries");
        assert_eq!(find("aaaaaaaaaaaa1", &moves), Found::One(0));
    }

    #[test]
    fn a_short_form_read_in_too_many_ways_is_refused_as_vague() {
        // Words that all start alike, none equal: every order is a different way.
        let long: Vec<String> = (1..=12).map(|n| "a".repeat(n)).collect();
        let moves = vec![long.join(" ")];
        assert_eq!(tried("a a a a a a a a a a", &moves), (Found::TooVague, MAX_TRIES));
        assert_eq!(tried(&moves[0].to_uppercase(), &moves), (Found::One(0), 0), "the full name is always found");
    }

    #[test]
    fn many_moves_are_searched_in_linear_time() {
        let moves: Vec<String> = (1..=100_000).map(|n| n.to_string()).collect();
        assert_eq!(tried("99999", &moves), (Found::One(99_998), 0));
        let (found, tries) = tried("x", &moves);
        assert_eq!(found, Found::None);
        assert!(tries <= 2 * moves.len(), "{tries} tries for {} moves: not two a move", moves.len());
    }
}
