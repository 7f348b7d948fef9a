//! The one place that formats diagnostics: problems plus their source text become miette reports,
//! rendered in colour on a terminal and plain otherwise.

use crate::diagnostic::Problem;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode,
    SourceSpan, SpanContents,
};
use std::fmt;
use std::sync::Arc;

/// A text that problems point into: a rule file, a scenario, or the command line.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file's name as shown above the problems.
    pub name: String,
    /// The file's text, which the problems' spans point into.
    pub text: String,
}

/// The problems found in one source.
#[derive(Clone, Debug)]
pub struct Findings {
    /// The text the problems point into.
    pub source: Source,
    /// The problems, in the order found.
    pub problems: Vec<Problem>,
}

/// How reports are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// With colours, for a terminal.
    Colour,
    /// Plain text, for files and pipes.
    Plain,
}

/// Lines longer than this many bytes are shown only around their labels.
const LONG_LINE: usize = 1000;
/// How many bytes of a long line are shown on each side of a label.
const MARGIN: usize = 40;
/// A label longer than [`LONG_LINE`] bytes, or over more than this many lines, is drawn under
/// its first line only, at most `2 * MARGIN` bytes of it.
const LONG_SPAN_LINES: usize = 20;
/// How many problems are drawn in full; the rest are counted.
pub(crate) const MAX_DRAWN: usize = 50;

/// A source's text with where its lines start, made once and shared by all its problems, so
/// that finding the lines around a label takes time for those lines only, not for the text
/// before them.
#[derive(Debug)]
struct Indexed {
    text: String,
    /// The offset at which each line starts, the first at 0. A line ends at `\n`, `\r\n` or a
    /// lone `\r`, as miette counts lines.
    starts: Vec<usize>,
    /// Where the text holds an escaped character ([`Shown`]): its start and end, and how many
    /// bytes longer it is than the character, in order.
    escapes: Vec<Escape>,
}

/// An escaped character in a text as drawn.
#[derive(Debug, Clone, Copy)]
struct Escape {
    start: usize,
    end: usize,
    added: usize,
}

impl Indexed {
    fn new(text: &str) -> Indexed {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if ends {
                starts.push(i + 1);
            }
        }
        Indexed { text: text.to_string(), starts, escapes: Vec::new() }
    }

    /// `at`, moved back to the start of the escaped character it falls in, if any.
    fn escape_start(&self, at: usize) -> usize {
        let i = self.escapes.partition_point(|e| e.end <= at);
        self.escapes.get(i).filter(|e| e.start < at).map_or(at, |e| e.start)
    }

    /// A column counted in the text as drawn (bytes from `line_start` to `at`), counted in the
    /// source instead: each escaped character before `at` counts as the character it stands for.
    fn source_column(&self, line_start: usize, at: usize) -> usize {
        let first = self.escapes.partition_point(|e| e.start < line_start);
        let added: usize = self.escapes[first..].iter().take_while(|e| e.start < at).map(|e| e.added).sum();
        (at - line_start).saturating_sub(added)
    }

    /// The number of the line (from 0) that holds byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at) - 1
    }
}

/// A source's text as drawn: its control characters escaped ([`crate::printable`]; a `\r`
/// before a `\n` kept, as the end of a line), with where each escape lengthened it, so that
/// the problems' spans move with the text.
struct Shown {
    text: String,
    /// For each escaped character, its offset in the source and how many bytes the escapes
    /// up to it and with it added.
    grown: Vec<(usize, usize)>,
}

impl Shown {
    fn new(source: &str) -> Shown {
        let mut shown = Shown { text: String::with_capacity(source.len()), grown: Vec::new() };
        let mut chars = source.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let line_end = c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n');
            if line_end || !crate::printable::needs_escape(c) {
                shown.text.push(c);
            } else {
                let escaped = crate::printable::escaped_char(c);
                let added = shown.grown.last().map_or(0, |g| g.1) + escaped.len() - c.len_utf8();
                shown.grown.push((at, added));
                shown.text.push_str(&escaped);
            }
        }
        shown
    }

    /// Where source offset `at` is in the text as drawn.
    fn offset(&self, at: usize) -> usize {
        let before = self.grown.partition_point(|&(escaped, _)| escaped < at);
        at + before.checked_sub(1).map_or(0, |i| self.grown[i].1)
    }

    /// The text as drawn, indexed, with where its escapes are.
    fn indexed(&self) -> Indexed {
        let mut indexed = Indexed::new(&self.text);
        let mut before = 0;
        for &(at, added) in &self.grown {
            let start = at + before;
            // An escape is written `\u{…}`: it ends after its brace.
            let end = start + self.text[start..].find('}').map_or(0, |i| i + 1);
            indexed.escapes.push(Escape { start, end, added: added - before });
            before = added;
        }
        indexed
    }

    fn span(&self, span: crate::syntax::ast::Span) -> crate::syntax::ast::Span {
        crate::syntax::ast::Span::new(self.offset(span.start), self.offset(span.end))
    }

    /// `problem` with its spans pointing into the text as drawn.
    fn problem(&self, problem: &Problem) -> Problem {
        let mut moved = problem.clone();
        moved.span = self.span(problem.span);
        for note in &mut moved.notes {
            note.span = self.span(note.span);
        }
        moved
    }
}

/// A text as miette reads it. A line longer than [`LONG_LINE`] is cut to a window around the
/// label on it: nobody reads such a line whole, and miette cannot draw a label that starts
/// beyond column 65535.
#[derive(Debug)]
struct Excerpt {
    name: String,
    source: Arc<Indexed>,
}

impl Excerpt {
    fn text(&self) -> &str {
        &self.source.text
    }

    /// The start and end of the line that holds byte `at`.
    fn line_around(&self, at: usize) -> (usize, usize) {
        let bytes = self.text().as_bytes();
        let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
        (start, end)
    }

    /// `at`, moved back to the start of the character it falls in.
    fn char_start(&self, mut at: usize) -> usize {
        while !self.text().is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    fn contents<'a>(&'a self, data: &'a [u8], span: SourceSpan, line: usize, column: usize) -> MietteSpanContents<'a> {
        let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
        MietteSpanContents::new_named(self.name.clone(), data, span, line, column, lines)
    }

    /// What miette would read for the span from the whole text, read from the lines around it
    /// alone: from the start of a line far enough before the span for the context wanted.
    fn near<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<MietteSpanContents<'a>, MietteError> {
        let first = self.source.line_of(span.offset()).saturating_sub(before + 1);
        let from = self.source.starts[first];
        let window = &self.text().as_bytes()[from..];
        let shifted: SourceSpan = (span.offset() - from, span.len()).into();
        let c = window.read_span(&shifted, before, after)?;
        let at: SourceSpan = (c.span().offset() + from, c.span().len()).into();
        let column = self.source.source_column(span.offset() - c.column(), span.offset());
        let line = c.line() + first;
        let data = &self.text().as_bytes()[at.offset()..at.offset() + at.len()];
        Ok(self.contents(data, at, line, column))
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.text().len() {
            return Err(MietteError::OutOfBounds);
        }
        let (first_start, first_end) = self.line_around(start);
        let (last_start, last_end) = self.line_around(end);
        if first_end - first_start <= LONG_LINE && last_end - last_start <= LONG_LINE {
            return Ok(Box::new(self.near(span, context_lines_before, context_lines_after)?));
        }
        // A window cut from a long line starts and ends between characters, and between escapes.
        let cut = |at: usize| self.source.escape_start(self.char_start(at));
        let from = match context_lines_before {
            0 => start,
            _ => cut(start.saturating_sub(MARGIN).max(first_start)),
        };
        let to = cut((end + MARGIN).min(last_end)).max(end);
        let line = self.source.line_of(from);
        let data = &self.text().as_bytes()[from..to];
        let column = self.source.source_column(first_start, from);
        Ok(Box::new(self.contents(data, (from, to - from).into(), line, column)))
    }
}

/// One problem as a miette diagnostic.
#[derive(Debug)]
struct Rendered {
    problem: Problem,
    source: Excerpt,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&shortened(&self.problem.message))
    }
}

impl std::error::Error for Rendered {}

impl Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.problem.code.as_str()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.problem.help.as_ref().map(|h| Box::new(shortened(h)) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let main = self.label(&self.problem.label, self.problem.span, true);
        let notes = self.problem.notes.iter().map(move |n| self.label(&n.label, n.span, false));
        Some(Box::new(std::iter::once(main).chain(notes)))
    }
}

impl Rendered {
    /// A label at `span`, kept inside the text; a long span is drawn under its start only
    /// ([`LONG_SPAN_LINES`]), its label saying how long it is.
    fn label(&self, text: &str, span: crate::syntax::ast::Span, primary: bool) -> LabeledSpan {
        let source = &self.source.source;
        let len = source.text.len();
        let start = span.start.min(len);
        let end = span.end.clamp(start, len);
        let lines = source.line_of(end) - source.line_of(start);
        let (end, text) = if end - start > LONG_LINE || lines > LONG_SPAN_LINES {
            let line_end = source.starts.get(source.line_of(start) + 1).map_or(len, |&s| s - 1);
            let cut = self.source.char_start(line_end.min(start + 2 * MARGIN)).max(start);
            (cut, format!("{} (a span of {} bytes, its start shown)", shortened(text), end - start))
        } else {
            (end, shortened(text))
        };
        let at = (start, end - start);
        if primary {
            LabeledSpan::new_primary_with_span(Some(text), at)
        } else {
            LabeledSpan::new_with_span(Some(text), at)
        }
    }
}

/// How many characters of a word (a name quoted from the file, say) a message shows.
const LONG_WORD: usize = 60;
/// How many characters of a message, label or help are shown.
const LONG_TEXT: usize = 2000;

/// A message, label or help as drawn: its control characters escaped, a word longer than
/// [`LONG_WORD`] characters cut to its start, and the whole cut after [`LONG_TEXT`] characters,
/// each cut marked with `…`.
fn shortened(text: &str) -> String {
    let text = crate::printable::escape(text);
    let mut out = String::new();
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match word.char_indices().nth(LONG_WORD) {
            Some((at, _)) => {
                out.push_str(&word[..at]);
                out.push('…');
            }
            None => out.push_str(word),
        }
        if let Some((at, _)) = out.char_indices().nth(LONG_TEXT) {
            out.truncate(at);
            out.push('…');
            break;
        }
    }
    out
}

/// Renders the problems of `findings` (`render_problems`), followed by a count of them all.
pub fn render(findings: &[Findings], style: Style, width: usize) -> String {
    let mut out = render_problems(findings, style, width);
    let total: usize = findings.iter().map(|f| f.problems.len()).sum();
    let s = if total == 1 { "" } else { "s" };
    out.push_str(&format!("{total} problem{s} found\n"));
    out
}

/// Renders the problems of `findings`, one report each, without the count (for the REPL, which
/// shows one problem at a time): the first [`MAX_DRAWN`] in full, then how many more there are.
pub(crate) fn render_problems(findings: &[Findings], style: Style, width: usize) -> String {
    let theme = match style {
        Style::Colour => GraphicalTheme::unicode(),
        Style::Plain => GraphicalTheme::unicode_nocolor(),
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    let mut drawn = 0;
    for f in findings {
        let take = f.problems.len().min(MAX_DRAWN - drawn);
        if take == 0 {
            continue;
        }
        let shown = Shown::new(&f.source.text);
        let source = Arc::new(shown.indexed());
        let name = crate::printable::escape(&f.source.name).into_owned();
        for problem in &f.problems[..take] {
            let source = Excerpt { name: name.clone(), source: source.clone() };
            let rendered = Rendered { problem: shown.problem(problem), source };
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, &rendered);
            out.push('\n');
        }
        drawn += take;
    }
    let total: usize = findings.iter().map(|f| f.problems.len()).sum();
    if total > drawn {
        let more = total - drawn;
        let s = if more == 1 { "" } else { "s" };
        out.push_str(&format!("... and {more} more problem{s}, not drawn (only the first {MAX_DRAWN} are)\n"));
    }
    out
}
