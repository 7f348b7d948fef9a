//! Finding the move a player typed among the legal move names: the exact name (any case), `#N`
//! for the N-th move, or a forgiving short form — words shortened to a prefix or run together as
//! initials (`r5`, `red5`, `give w`), numbers given whole (`7` for `bid 7`), in any order
//! (`d6`, `6d`, `spades 4` for `6 of diamonds` and `4 of spades`).

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
}

/// Finds the move `typed` names among `names`.
pub fn find(typed: &str, names: &[String]) -> Found {
    let typed = typed.trim();
    if let Some(n) = typed.strip_prefix('#').and_then(|n| n.trim().parse::<usize>().ok()) {
        return if (1..=names.len()).contains(&n) { Found::One(n - 1) } else { Found::OutOfRange(n) };
    }
    let wanted = words(typed);
    if wanted.is_empty() {
        return Found::None;
    }
    if let Some(i) = names.iter().position(|n| words(n) == wanted) {
        return Found::One(i);
    }
    let fits: Vec<(usize, Cost)> =
        names.iter().enumerate().filter_map(|(i, n)| cost(&wanted, &words(n)).map(|c| (i, c))).collect();
    let Some(best) = fits.iter().map(|(_, c)| *c).min() else { return Found::None };
    let best: Vec<usize> = fits.into_iter().filter(|(_, c)| *c == best).map(|(i, _)| i).collect();
    // Moves of one name are the same to the player (like cards of one kind): take the first.
    match best[..] {
        [first, ..] if best.iter().all(|&i| names[i] == names[first]) => Found::One(first),
        _ => Found::Several(best),
    }
}

/// A text as lower-case words, letters and digits split apart (`R5` is `r`, `5`); anything
/// else separates words.
fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<bool> = None;
    for c in text.chars().flat_map(char::to_lowercase) {
        let digit = c.is_ascii_digit();
        if !c.is_alphanumeric() {
            last = None;
            continue;
        }
        match out.last_mut() {
            Some(word) if last == Some(digit) => word.push(c),
            _ => out.push(c.to_string()),
        }
        last = Some(digit);
    }
    out
}

fn is_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit())
}

/// Words a name may hold that nobody types: leaving them out costs nothing.
const FILLER: [&str; 3] = ["of", "the", "to"];

/// How well typed words fit a name: how many of the name's words (filler aside) they leave
/// out, then whether they take the words out of the name's order. Less is better.
type Cost = (usize, bool);

/// How well the typed words fit the name, if each fits words of it not taken by another: a
/// number equals a word; letters are a word's prefix, or spell out prefixes of several words
/// (`as` for `A of spades`, `d6` for `6 of diamonds`).
fn cost(typed: &[String], name: &[String]) -> Option<Cost> {
    let mut taken = vec![false; name.len()];
    let mut best = None;
    fits(typed, "", name, &mut taken, None, false, &mut best);
    best
}

/// Tries every way the typed words (`rest` the part of the current word still to place) take
/// words of the name, keeping the best cost in `best`.
fn fits(
    typed: &[String],
    rest: &str,
    name: &[String],
    taken: &mut [bool],
    last: Option<usize>,
    disorder: bool,
    best: &mut Option<Cost>,
) {
    if rest.is_empty() {
        let Some((word, more)) = typed.split_first() else {
            let left = (0..name.len()).filter(|&k| !taken[k] && !FILLER.contains(&name[k].as_str())).count();
            if best.is_none_or(|b| (left, disorder) < b) {
                *best = Some((left, disorder));
            }
            return;
        };
        return fits(more, word, name, taken, last, disorder, best);
    }
    for (k, word) in name.iter().enumerate() {
        if taken[k] {
            continue;
        }
        let lengths: Vec<usize> = if is_number(rest) || is_number(word) {
            if rest == word { vec![rest.len()] } else { Vec::new() }
        } else if word.starts_with(rest) {
            // Letters that start a word are taken by it whole, not cut up as initials.
            vec![rest.len()]
        } else {
            let common = rest.chars().zip(word.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8());
            common.scan(0, |at, n| Some(*at + n).inspect(|end| *at = *end)).collect()
        };
        for end in lengths {
            taken[k] = true;
            let disorder = disorder || last.is_some_and(|l| l > k);
            fits(typed, &rest[end..], name, taken, Some(k), disorder, best);
            taken[k] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
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
        // The move that leaves fewer words out wins.
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
    fn numbered_moves() {
        let moves = names(&["bid 1", "bid 7"]);
        assert_eq!(find("#2", &moves), Found::One(1));
        assert_eq!(find("#3", &moves), Found::OutOfRange(3));
        assert_eq!(find("#0", &moves), Found::OutOfRange(0));
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
}
