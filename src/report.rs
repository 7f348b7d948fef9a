//! The one place that formats diagnostics: problems plus their source text become miette reports,
//! rendered in colour on a terminal and plain otherwise.

use crate::diagnostic::Problem;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode,
    SourceSpan, SpanContents,
};
use std::fmt;

/// A text that problems point into: a rule file, a scenario, or the command line.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// The problems found in one source.
#[derive(Clone, Debug)]
pub struct Findings {
    pub source: Source,
    pub problems: Vec<Problem>,
}

/// How reports are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Colour,
    Plain,
}

/// Lines longer than this many bytes are shown only around their labels.
const LONG_LINE: usize = 1000;
/// How many bytes of a long line are shown on each side of a label.
const MARGIN: usize = 40;

/// A text as miette reads it. A line longer than [`LONG_LINE`] is cut to a window around the
/// label on it: nobody reads such a line whole, and miette cannot draw a label that starts
/// beyond column 65535.
#[derive(Debug)]
struct Excerpt {
    name: String,
    text: String,
}

impl Excerpt {
    /// The start and end of the line that holds byte `at`.
    fn line_around(&self, at: usize) -> (usize, usize) {
        let bytes = self.text.as_bytes();
        let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
        (start, end)
    }

    /// `at`, moved back to the start of the character it falls in.
    fn char_start(&self, mut at: usize) -> usize {
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    fn contents<'a>(&'a self, data: &'a [u8], span: SourceSpan, line: usize, column: usize) -> MietteSpanContents<'a> {
        let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
        MietteSpanContents::new_named(self.name.clone(), data, span, line, column, lines)
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
        if end > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let (first_start, first_end) = self.line_around(start);
        let (last_start, last_end) = self.line_around(end);
        if first_end - first_start <= LONG_LINE && last_end - last_start <= LONG_LINE {
            let c = self.text.read_span(span, context_lines_before, context_lines_after)?;
            return Ok(Box::new(self.contents(c.data(), *c.span(), c.line(), c.column())));
        }
        let from = match context_lines_before {
            0 => start,
            _ => self.char_start(start.saturating_sub(MARGIN).max(first_start)),
        };
        let to = self.char_start((end + MARGIN).min(last_end)).max(end);
        let line = self.text.as_bytes()[..from].iter().filter(|&&b| b == b'\n').count();
        let data = &self.text.as_bytes()[from..to];
        Ok(Box::new(self.contents(data, (from, to - from).into(), line, from - first_start)))
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
        f.write_str(&self.problem.message)
    }
}

impl std::error::Error for Rendered {}

impl Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.problem.code.as_str()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.problem.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.source.text.len();
        let clamp = move |s: crate::syntax::ast::Span| {
            let start = s.start.min(len);
            (start, s.end.clamp(start, len) - start)
        };
        let main = LabeledSpan::new_primary_with_span(Some(self.problem.label.clone()), clamp(self.problem.span));
        let notes =
            self.problem.notes.iter().map(move |n| LabeledSpan::new_with_span(Some(n.label.clone()), clamp(n.span)));
        Some(Box::new(std::iter::once(main).chain(notes)))
    }
}

/// Renders every problem of `findings`, one report each, followed by a count.
pub fn render(findings: &[Findings], style: Style, width: usize) -> String {
    let mut out = render_problems(findings, style, width);
    let total: usize = findings.iter().map(|f| f.problems.len()).sum();
    let s = if total == 1 { "" } else { "s" };
    out.push_str(&format!("{total} problem{s} found\n"));
    out
}

/// Renders every problem of `findings`, one report each, without the count (for the REPL,
/// which shows one problem at a time).
pub fn render_problems(findings: &[Findings], style: Style, width: usize) -> String {
    let theme = match style {
        Style::Colour => GraphicalTheme::unicode(),
        Style::Plain => GraphicalTheme::unicode_nocolor(),
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    for f in findings {
        for problem in &f.problems {
            let source = Excerpt { name: f.source.name.clone(), text: f.source.text.clone() };
            let rendered = Rendered { problem: problem.clone(), source };
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, &rendered);
            out.push('\n');
        }
    }
    out
}
