//! Where two texts differ, line by line: the runs of lines of the old text that the new one
//! replaces (hunks), for range formatting. Lines both texts start and end with are set aside
//! first; the rest is matched by longest common subsequence when it is small enough (at most
//! [`MOST_CELLS`] pairs of lines), and is one hunk otherwise.

use std::ops::Range;

/// The most pairs of lines compared between the common start and end (a table of 16 MiB).
const MOST_CELLS: usize = 1 << 22;

/// One run of changed lines: the lines `old` of the old text replaced by the lines `new` of the
/// new one (either may be empty), as line numbers from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hunk {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// The hunks that turn `old` into `new`, in order, each separated from the next by lines both
/// share.
pub(super) fn hunks(old: &[&str], new: &[&str]) -> Vec<Hunk> {
    let start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let end = old[start..].iter().rev().zip(new[start..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&old[start..old.len() - end], &new[start..new.len() - end]);
    if a.is_empty() && b.is_empty() {
        return Vec::new();
    }
    let whole = || vec![Hunk { old: start..start + a.len(), new: start..start + b.len() }];
    if (a.len() + 1).saturating_mul(b.len() + 1) > MOST_CELLS {
        return whole();
    }
    // `longest[i][j]`: the longest common subsequence of a[i..] and b[j..].
    let width = b.len() + 1;
    let mut longest = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            longest[i * width + j] = if a[i] == b[j] {
                longest[(i + 1) * width + j + 1] + 1
            } else {
                longest[(i + 1) * width + j].max(longest[i * width + j + 1])
            };
        }
    }
    let mut found = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut open: Option<(usize, usize)> = None;
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            if let Some((oi, oj)) = open.take() {
                found.push(Hunk { old: start + oi..start + i, new: start + oj..start + j });
            }
            (i, j) = (i + 1, j + 1);
            continue;
        }
        open.get_or_insert((i, j));
        if j == b.len() || (i < a.len() && longest[(i + 1) * width + j] >= longest[i * width + j + 1]) {
            i += 1;
        } else {
            j += 1;
        }
    }
    if let Some((oi, oj)) = open {
        found.push(Hunk { old: start + oi..start + a.len(), new: start + oj..start + b.len() });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(old: &str, new: &str) -> Vec<(Range<usize>, Range<usize>)> {
        let (old, new): (Vec<&str>, Vec<&str>) =
            (old.split_inclusive('\n').collect(), new.split_inclusive('\n').collect());
        hunks(&old, &new).into_iter().map(|h| (h.old, h.new)).collect()
    }

    #[test]
    fn separate_changes_are_separate_hunks() {
        assert_eq!(of("a\nb\nc\n", "a\nb\nc\n"), vec![]);
        assert_eq!(of("a\n b\nc\n d\ne\n", "a\nb\nc\nd\ne\n"), vec![(1..2, 1..2), (3..4, 3..4)]);
        // A line split in two, a line removed, a line added at the end.
        assert_eq!(of("x y\nk\ngone\nk\n", "x\ny\nk\nk\nnew\n"), vec![(0..1, 0..2), (2..3, 3..3), (4..4, 4..5)]);
    }
}
