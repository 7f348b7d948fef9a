//! The comments and empty lines of a rule file, which the grammar skips: found once when the
//! file is read and kept with its syntax tree (as [`File::extra`](crate::syntax::ast::File)),
//! for the formatter, which puts them back, for the language server, which shows the comments
//! above a declaration, and for the table's `rules` command, which tells the rule file's own
//! account of the game.

use crate::syntax::ast::Span;
use crate::syntax::tokens::{Kind, tokens};

/// What a file holds besides its syntax tree: its comments and its empty lines, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extra {
    /// Every comment.
    pub comments: Vec<Comment>,
    /// Where each line that holds only white space (between two tokens) starts.
    pub empty_lines: Vec<usize>,
}

/// One `// ...` comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment {
    /// From `//` to the end of its line (a `\r` before the line end not included).
    pub span: Span,
    /// Whether only white space comes before it on its line.
    pub alone: bool,
}

impl Comment {
    /// The comment as written, `//` included.
    pub fn text(self, source: &str) -> &str {
        source.get(self.span.start..self.span.end).unwrap_or_default()
    }

    /// What the comment says: its text after the `//`, without the white space around it.
    pub fn words(self, source: &str) -> &str {
        let text = self.text(source);
        text.strip_prefix("//").unwrap_or(text).trim()
    }
}

impl Extra {
    /// The comments and empty lines of `source`.
    pub fn of(source: &str) -> Extra {
        let mut extra = Extra::default();
        let mut gap_start = 0;
        for token in tokens(source) {
            extra.add_empty_lines(source, gap_start, token.span.start);
            gap_start = token.span.end;
            if token.kind == Kind::Comment {
                let line_start = source[..token.span.start].rfind('\n').map_or(0, |i| i + 1);
                let alone = source[line_start..token.span.start].trim().is_empty();
                extra.comments.push(Comment { span: token.span, alone });
            }
        }
        extra.add_empty_lines(source, gap_start, source.len());
        extra
    }

    /// Notes the lines that lie wholly inside `source[from..to]`, white space between tokens.
    fn add_empty_lines(&mut self, source: &str, from: usize, to: usize) {
        let mut breaks = source[from..to].match_indices('\n').map(|(i, _)| from + i);
        let Some(mut previous) = breaks.next() else { return };
        for next in breaks {
            self.empty_lines.push(previous + 1);
            previous = next;
        }
    }

    /// Whether an empty line lies between two places with only white space between them.
    pub fn empty_line_between(&self, from: usize, to: usize) -> bool {
        let next = self.empty_lines.partition_point(|&start| start <= from);
        self.empty_lines.get(next).is_some_and(|&start| start < to)
    }

    /// The comments that start inside `span`.
    pub fn within(&self, span: Span) -> &[Comment] {
        let first = self.comments.partition_point(|c| c.span.start < span.start);
        let end = self.comments.partition_point(|c| c.span.start < span.end);
        &self.comments[first..end.max(first)]
    }

    /// The comments alone on the lines right above the line holding byte `at`, with no other
    /// line between them: what is said about the declaration written there.
    pub fn above(&self, source: &str, at: usize) -> &[Comment] {
        let at = at.min(source.len());
        let line_start = source.get(..at).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
        let before = &self.comments[..self.comments.partition_point(|c| c.span.start < line_start)];
        let mut first = before.len();
        let mut below = line_start;
        while let Some(comment) = first.checked_sub(1).map(|i| before[i]) {
            if !comment.alone || !one_line_apart(source, comment.span.end, below) {
                break;
            }
            first -= 1;
            below = comment.span.start;
        }
        &before[first..]
    }

    /// The runs of comments alone on consecutive lines, in order: the paragraphs of prose.
    pub fn paragraphs<'e>(&'e self, source: &str) -> impl Iterator<Item = &'e [Comment]> {
        let mut rest = &self.comments[..];
        std::iter::from_fn(move || {
            rest = &rest[rest.iter().position(|c| c.alone)?..];
            let next_lines =
                rest.windows(2).take_while(|w| w[1].alone && one_line_apart(source, w[0].span.end, w[1].span.start));
            let (run, after) = rest.split_at(1 + next_lines.count());
            rest = after;
            Some(run)
        })
    }
}

/// Whether one line end, and only one, lies between two places.
fn one_line_apart(source: &str, from: usize, to: usize) -> bool {
    source.get(from..to).is_some_and(|between| between.matches('\n').count() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "// one\n// two\n\ngame \"g\" // after\n  // three\n\n\n// four\nplay {}\n";

    fn words(comments: &[Comment]) -> Vec<&'static str> {
        comments.iter().map(|c| c.words(TEXT)).collect()
    }

    #[test]
    fn the_parser_keeps_them_with_the_file_even_when_part_of_it_is_broken() {
        let (file, _) = crate::syntax::parse_partial(TEXT);
        assert_eq!(file.map(|f| f.extra), Some(Extra::of(TEXT)));
        let broken = format!("{TEXT}zone ( // broken\n");
        let (file, problems) = crate::syntax::parse_partial(&broken);
        assert!(!problems.is_empty());
        assert_eq!(file.map(|f| f.extra.comments.len()), Some(6));
    }

    #[test]
    fn comments_are_found_with_whether_they_stand_alone() {
        let extra = Extra::of(TEXT);
        assert_eq!(words(&extra.comments), ["one", "two", "after", "three", "four"]);
        let alone: Vec<bool> = extra.comments.iter().map(|c| c.alone).collect();
        assert_eq!(alone, [true, true, false, true, true]);
    }

    #[test]
    fn empty_lines_are_found_between_tokens() {
        let extra = Extra::of(TEXT);
        let lines: Vec<usize> = extra.empty_lines.iter().map(|&start| TEXT[..start].matches('\n').count()).collect();
        assert_eq!(lines, [2, 5, 6]);
        let game = TEXT.find("game").unwrap_or_default();
        assert!(extra.empty_line_between("// one\n// two".len(), game));
        assert!(!extra.empty_line_between(0, "// one".len() + 1));
    }

    #[test]
    fn the_comments_above_a_line_stop_at_an_empty_line_or_code() {
        let extra = Extra::of(TEXT);
        assert_eq!(words(extra.above(TEXT, TEXT.find("play").unwrap_or_default())), ["four"]);
        assert_eq!(words(extra.above(TEXT, TEXT.find("game").unwrap_or_default())), Vec::<&str>::new());
        let paragraphs: Vec<Vec<&str>> = extra.paragraphs(TEXT).map(words).collect();
        assert_eq!(paragraphs, [vec!["one", "two"], vec!["three"], vec!["four"]]);
    }
}
