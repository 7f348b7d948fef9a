//! Finding the move a player typed among the legal move names: the exact name (any case), `#N`
//! for the N-th move, or a forgiving short form — words shortened to a prefix or run together as
//! initials (`r5`, `red5`, `give w`), and numbers given whole (`7` for `bid 7`).

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
    let fits: Vec<(usize, usize)> =
        names.iter().enumerate().filter_map(|(i, n)| skipped(&wanted, &words(n)).map(|s| (i, s))).collect();
    let Some(best) = fits.iter().map(|(_, s)| *s).min() else { return Found::None };
    let best: Vec<usize> = fits.into_iter().filter(|(_, s)| *s == best).map(|(i, _)| i).collect();
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

/// If every typed word fits the name's words in order, how few of the name's words went unused.
fn skipped(typed: &[String], name: &[String]) -> Option<usize> {
    let Some((first, rest)) = typed.split_first() else { return Some(name.len()) };
    (0..name.len())
        .filter_map(|k| {
            let (taken, passed) = fit(first, &name[k..])?;
            skipped(rest, &name[k + taken..]).map(|s| s + k + passed)
        })
        .min()
}

/// How many of `name`'s leading words one typed word takes up, and how many of those it passes
/// over, if it fits them: a number must equal the first word; letters must be the first word's
/// prefix, or spell out prefixes of several words in order (`as` for `A of spades`).
fn fit(typed: &str, name: &[String]) -> Option<(usize, usize)> {
    let word = name.first()?;
    if is_number(typed) || is_number(word) {
        return (typed == word).then_some((1, 0));
    }
    if word.starts_with(typed) {
        return Some((1, 0));
    }
    let cuts = (1..typed.len()).filter(|&cut| typed.is_char_boundary(cut) && word.starts_with(&typed[..cut]));
    cuts.flat_map(|cut| (1..name.len()).map(move |j| (cut, j)))
        .filter_map(|(cut, j)| fit(&typed[cut..], &name[j..]).map(|(n, p)| (n + j, p + j - 1)))
        .min_by_key(|(_, p)| *p)
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
}
