//! The one place that formats diagnostics: problems plus their source text become miette reports,
//! rendered in colour on a terminal and plain otherwise.

use crate::diagnostic::Problem;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
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

/// One problem as a miette diagnostic.
#[derive(Debug)]
struct Rendered {
    problem: Problem,
    source: NamedSource<String>,
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
        let len = self.source.inner().len();
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
    let theme = match style {
        Style::Colour => GraphicalTheme::unicode(),
        Style::Plain => GraphicalTheme::unicode_nocolor(),
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    let mut total = 0;
    for f in findings {
        for problem in &f.problems {
            let source = NamedSource::new(f.source.name.clone(), f.source.text.clone());
            let rendered = Rendered { problem: problem.clone(), source };
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, &rendered);
            out.push('\n');
            total += 1;
        }
    }
    let s = if total == 1 { "" } else { "s" };
    out.push_str(&format!("{total} problem{s} found\n"));
    out
}
