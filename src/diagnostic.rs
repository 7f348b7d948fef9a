//! Problems found in a rule file, as plain data with byte spans.
//!
//! The library reports every mistake as a [`Problem`]; only `report` turns problems into
//! rendered miette diagnostics with the source text attached.

use crate::syntax::ast::Span;
use serde::{Deserialize, Serialize};

/// A stable diagnostic code. The numbers never change meaning; new codes get new numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Code {
    /// The text does not follow the grammar.
    Syntax,
    /// Brackets or blocks nested deeper than the parser allows.
    TooDeep,
    /// A number too large, or a string with an unknown escape.
    BadLiteral,
    /// A name that is not defined anywhere in scope.
    UnknownName,
    /// The same name defined twice.
    Duplicate,
    /// A value of one type where another is needed.
    TypeMismatch,
    /// A seat, side or zone where a card, number or other value is needed.
    WrongKind,
    /// A parameter's default (or a `set`) outside its declared range.
    OutOfRange,
    /// A variant or override that names an unknown parameter, phase or variant.
    UnknownTarget,
    /// A decision that can never have a legal option.
    NoAction,
    /// A flow that can be seen statically never to end.
    EndlessFlow,
    /// A required part of a rule file is missing (game name, cards, play block, ...).
    Missing,
    /// A call with the wrong number or kind of arguments.
    Arguments,
    /// An assignment to something that cannot change (a parameter, a loop variable, ...).
    NotAssignable,
    /// A statement used where it has no meaning (`choose` in `deck`, `redo` outside its phase).
    Misplaced,
    /// A card description that matches no card, or leaves out an attribute.
    BadCard,
    /// A seat, player or side declaration that does not add up.
    Seating,
    /// A scenario whose base rule file cannot be read.
    Extends,
    /// A `show` line, or a value kept in a variable or a `let` name, that reads what some
    /// player may not see.
    Hidden,
    /// A move the rules do not allow now (found during play, for a person's move).
    NotAllowed,
}

impl Code {
    /// Every code, in the order of their numbers.
    pub const ALL: [Code; 20] = [
        Code::Syntax,
        Code::TooDeep,
        Code::BadLiteral,
        Code::UnknownName,
        Code::Duplicate,
        Code::TypeMismatch,
        Code::WrongKind,
        Code::OutOfRange,
        Code::UnknownTarget,
        Code::NoAction,
        Code::EndlessFlow,
        Code::Missing,
        Code::Arguments,
        Code::NotAssignable,
        Code::Misplaced,
        Code::BadCard,
        Code::Seating,
        Code::Extends,
        Code::Hidden,
        Code::NotAllowed,
    ];

    /// The code as printed: `paradox::E0104`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "paradox::E0001",
            Code::TooDeep => "paradox::E0002",
            Code::BadLiteral => "paradox::E0003",
            Code::UnknownName => "paradox::E0101",
            Code::Duplicate => "paradox::E0102",
            Code::TypeMismatch => "paradox::E0103",
            Code::WrongKind => "paradox::E0104",
            Code::OutOfRange => "paradox::E0105",
            Code::UnknownTarget => "paradox::E0106",
            Code::NoAction => "paradox::E0107",
            Code::EndlessFlow => "paradox::E0108",
            Code::Missing => "paradox::E0109",
            Code::Arguments => "paradox::E0110",
            Code::NotAssignable => "paradox::E0111",
            Code::Misplaced => "paradox::E0112",
            Code::BadCard => "paradox::E0113",
            Code::Seating => "paradox::E0114",
            Code::Extends => "paradox::E0115",
            Code::Hidden => "paradox::E0116",
            Code::NotAllowed => "paradox::E0117",
        }
    }
}

/// A secondary place in the file that explains a problem ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Note {
    /// Where in the file.
    pub span: Span,
    /// What the note says there.
    pub label: String,
}

/// An edit that fixes a problem: write `replacement` in place of the text at `span`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fix {
    /// What the edit does, in a few words: "Replace `shap` with `shape`".
    pub title: String,
    /// The text replaced.
    pub span: Span,
    /// The text written there instead.
    pub replacement: String,
}

/// One problem in a rule file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Problem {
    /// What kind of problem it is; its number and its line in the documentation.
    pub code: Code,
    /// One line saying what is wrong, without the location.
    pub message: String,
    /// Where in the file the problem is.
    pub span: Span,
    /// A short label printed at the span.
    pub label: String,
    /// Advice: what to write instead.
    pub help: Option<String>,
    /// Other places that explain the problem.
    pub notes: Vec<Note>,
    /// Edits that would fix it (an editor offers them as quick fixes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<Fix>,
}

impl Problem {
    /// A problem with its code, its message, and the label drawn at `span`; no help and no notes.
    pub fn new(code: Code, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Problem {
            code,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            notes: Vec::new(),
            fixes: Vec::new(),
        }
    }

    /// The problem with this advice added.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The problem with the advice to write `name` in place of `written`, the text at `span`:
    /// as help ("did you mean `name`?") and as a fix.
    pub fn did_you_mean(mut self, span: Span, written: &str, name: &str) -> Self {
        self.fixes.push(Fix {
            title: format!("Replace `{written}` with `{name}`"),
            span,
            replacement: name.to_string(),
        });
        self.help(format!("did you mean `{name}`?"))
    }

    /// The problem with a note at `span` added.
    pub fn note(mut self, span: Span, label: impl Into<String>) -> Self {
        self.notes.push(Note { span, label: label.into() });
        self
    }
}

/// The closest of `candidates` to `name`, if it is close enough to suggest.
pub(crate) fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(name, c), c))
        .filter(|(score, _)| *score > 0.8)
        // Equal scores go to the name first in order, so the advice never depends on the order
        // the candidates come in.
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, c)| c)
}
