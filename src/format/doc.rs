//! A small pretty printer in the manner of Wadler's "prettier printer": a document is text and
//! places where a line may break, in groups. A group is printed on one line when it fits in the
//! width, else each of its line breaks is taken. Comments after code on a line are lined up with
//! those of the lines next to them.

/// A document to print.
#[derive(Debug)]
pub(super) enum Doc {
    /// Text without line breaks.
    Text(String),
    /// A space when its group is on one line, a line break when it is broken.
    Line,
    /// Nothing when its group is on one line, a line break when it is broken.
    SoftLine,
    /// Always a line break: the groups around it are broken.
    HardLine,
    /// A line break and an empty line (never two empty lines in a row).
    BlankLine,
    /// A comment after code on its line; the line ends after it, so a group with more after
    /// one is broken, and what follows on the next line without a line break of its own is
    /// indented one step further (it continues the line the comment ended).
    Trailing(String),
    /// The line breaks inside are indented one step further.
    Indent(Vec<Doc>),
    /// One line if it fits and `broken` is false.
    Group {
        docs: Vec<Doc>,
        broken: bool,
    },
    /// Items and the breaks between them (`[item, Line, item, Line, item]`): each break is taken
    /// only when the item after it does not fit on the line.
    Fill(Vec<Doc>),
    Concat(Vec<Doc>),
}

/// Spaces per indentation step.
pub(super) const INDENT: usize = 2;

pub(super) fn text(s: impl Into<String>) -> Doc {
    Doc::Text(s.into())
}

/// A single space between two parts of a line.
pub(super) fn sp() -> Doc {
    text(" ")
}

pub(super) fn concat(docs: Vec<Doc>) -> Doc {
    Doc::Concat(docs)
}

pub(super) fn indent(docs: Vec<Doc>) -> Doc {
    Doc::Indent(docs)
}

/// A group; it is broken from the start when it holds a line break that must be taken.
pub(super) fn group(docs: Vec<Doc>) -> Doc {
    let broken = Breaks::of_all(&docs).must;
    Doc::Group { docs, broken }
}

/// A group that is always broken.
pub(super) fn broken(docs: Vec<Doc>) -> Doc {
    Doc::Group { docs, broken: true }
}

/// What a document says about the line breaks of the groups around it.
#[derive(Clone, Copy)]
struct Breaks {
    /// It holds a line break that must be taken.
    must: bool,
    /// It ends with a comment (which ends the line, but breaks nothing if nothing follows).
    ends_in_comment: bool,
    /// It prints nothing.
    empty: bool,
}

impl Breaks {
    fn of(doc: &Doc) -> Breaks {
        let plain = Breaks { must: false, ends_in_comment: false, empty: false };
        match doc {
            Doc::HardLine | Doc::BlankLine => Breaks { must: true, ..plain },
            Doc::Trailing(_) => Breaks { ends_in_comment: true, ..plain },
            Doc::Text(s) => Breaks { empty: s.is_empty(), ..plain },
            Doc::Line | Doc::SoftLine => plain,
            Doc::Group { docs, broken } => Breaks { must: *broken, ..Breaks::of_all(docs) },
            Doc::Indent(docs) | Doc::Concat(docs) | Doc::Fill(docs) => Breaks::of_all(docs),
        }
    }

    fn of_all(docs: &[Doc]) -> Breaks {
        let mut all = Breaks { must: false, ends_in_comment: false, empty: true };
        for doc in docs {
            let one = Breaks::of(doc);
            if one.empty {
                continue;
            }
            all.must |= one.must || all.ends_in_comment;
            all.ends_in_comment = one.ends_in_comment;
            all.empty = false;
        }
        all
    }
}

/// What is still to print: a document with its indentation and whether its group is on one
/// line, or the rest of a fill after an item.
#[derive(Clone, Copy)]
enum Command<'d> {
    Print(usize, bool, &'d Doc),
    FillRest(usize, &'d [Doc]),
}

/// Prints a document within `width` columns where its groups allow; the text ends with a line
/// break and no line ends with a space.
pub(super) fn render(doc: &Doc, width: usize) -> String {
    let mut out = Printer::default();
    let mut stack = vec![Command::Print(0, false, doc)];
    while let Some(command) = stack.pop() {
        let left = width as isize - out.column() as isize;
        let (indent, flat, doc) = match command {
            Command::Print(indent, flat, doc) => (indent, flat, doc),
            Command::FillRest(indent, rest) => {
                if let [separator, item, rest @ ..] = rest {
                    let pair = [Command::Print(indent, true, separator), Command::Print(indent, true, item)];
                    let fits = fits(pair.into_iter(), left);
                    stack.push(Command::FillRest(indent, rest));
                    stack.push(Command::Print(indent, false, item));
                    stack.push(Command::Print(indent, fits, separator));
                }
                continue;
            }
        };
        match doc {
            Doc::Text(s) => out.text(s),
            // After a comment has ended the line, a place that may break is where the next line
            // starts, with its own indentation.
            Doc::Line | Doc::SoftLine if flat && out.line_ended() => out.line_break(1, indent),
            Doc::Line if flat => out.space(),
            Doc::SoftLine if flat => {}
            Doc::Line | Doc::SoftLine | Doc::HardLine => out.line_break(1, indent),
            Doc::BlankLine => out.line_break(2, indent),
            Doc::Trailing(comment) => out.trailing(comment, indent),
            Doc::Indent(docs) => stack.extend(docs.iter().rev().map(|d| Command::Print(indent + INDENT, flat, d))),
            Doc::Concat(docs) => stack.extend(docs.iter().rev().map(|d| Command::Print(indent, flat, d))),
            Doc::Fill(docs) if flat => stack.extend(docs.iter().rev().map(|d| Command::Print(indent, true, d))),
            Doc::Fill(docs) => {
                if let [first, rest @ ..] = docs.as_slice() {
                    stack.push(Command::FillRest(indent, rest));
                    stack.push(Command::Print(indent, false, first));
                }
            }
            Doc::Group { docs, broken } => {
                let on_one_line = docs.iter().map(|d| Command::Print(indent, true, d));
                let flat = flat || (!broken && fits(on_one_line.chain(stack.iter().rev().copied()), left));
                stack.extend(docs.iter().rev().map(|d| Command::Print(indent, flat, d)));
            }
        }
    }
    out.finish()
}

/// Whether the commands, in order, fit in `left` columns up to their first line break (a
/// comment at the end of the line does not count).
fn fits<'d>(mut commands: impl Iterator<Item = Command<'d>>, mut left: isize) -> bool {
    let mut todo: Vec<(bool, &Doc)> = Vec::new();
    loop {
        if left < 0 {
            return false;
        }
        let (flat, doc) = match todo.pop() {
            Some(next) => next,
            None => match commands.next() {
                Some(Command::Print(_, flat, doc)) => (flat, doc),
                Some(Command::FillRest(_, rest)) => {
                    todo.extend(rest.iter().rev().map(|d| (false, d)));
                    continue;
                }
                None => return true,
            },
        };
        match doc {
            Doc::Text(s) => left -= s.chars().count() as isize,
            Doc::Line if flat => left -= 1,
            Doc::SoftLine if flat => {}
            Doc::Trailing(_) => return true,
            Doc::Line | Doc::SoftLine | Doc::HardLine | Doc::BlankLine => return !flat,
            Doc::Indent(docs) | Doc::Concat(docs) | Doc::Group { docs, .. } | Doc::Fill(docs) => {
                todo.extend(docs.iter().rev().map(|d| (flat, d)));
            }
        }
    }
}

/// A printed line: its code and the comment after it.
#[derive(Default)]
struct PrintedLine {
    code: String,
    comment: Option<String>,
}

#[derive(Default)]
struct Printer {
    lines: Vec<PrintedLine>,
    /// Line breaks asked for before the next text, and the indentation of the line after them.
    pending: usize,
    pending_indent: usize,
}

impl Printer {
    fn current(&mut self) -> &mut PrintedLine {
        if self.lines.is_empty() {
            self.lines.push(PrintedLine::default());
        }
        let last = self.lines.len() - 1;
        &mut self.lines[last]
    }

    fn column(&self) -> usize {
        match self.lines.last() {
            Some(line) if self.pending == 0 => line.code.chars().count(),
            _ => self.pending_indent,
        }
    }

    /// Takes the line breaks asked for, if any, and indents the new line.
    fn start_text(&mut self) {
        if self.pending > 0 && !self.lines.is_empty() {
            for _ in 1..self.pending {
                self.lines.push(PrintedLine::default());
            }
            self.lines.push(PrintedLine { code: " ".repeat(self.pending_indent), comment: None });
        }
        self.pending = 0;
    }

    /// Text; a space at the start of a line (after a comment ended the one before) is dropped.
    fn text(&mut self, s: &str) {
        if self.pending > 0 && s.trim().is_empty() {
            return;
        }
        self.start_text();
        self.current().code.push_str(s);
    }

    /// Whether a comment has ended the line and no text has come since.
    fn line_ended(&self) -> bool {
        self.pending > 0
    }

    /// A space, unless at the start of a line.
    fn space(&mut self) {
        if self.pending == 0 && !self.current().code.trim().is_empty() {
            self.current().code.push(' ');
        }
    }

    fn line_break(&mut self, breaks: usize, indent: usize) {
        self.pending = self.pending.max(breaks);
        self.pending_indent = indent;
    }

    /// A comment at the end of the line; a line break of the document after it sets its own
    /// indentation, text right after it continues one step further in.
    fn trailing(&mut self, comment: &str, indent: usize) {
        self.start_text();
        self.current().comment = Some(comment.to_string());
        self.line_break(1, indent + INDENT);
    }

    /// The text: comments after code on consecutive lines start in one column, one space after
    /// the longest code among those lines.
    fn finish(mut self) -> String {
        for line in &mut self.lines {
            line.code.truncate(line.code.trim_end().len());
        }
        let after_code = |l: &PrintedLine| l.comment.is_some() && !l.code.is_empty();
        let mut out = String::new();
        let mut i = 0;
        while i < self.lines.len() {
            let run = self.lines[i..].iter().take_while(|l| after_code(l)).count().max(1);
            let column = self.lines[i..i + run].iter().map(|l| l.code.chars().count()).max().unwrap_or(0) + 1;
            for line in &self.lines[i..i + run] {
                out.push_str(&line.code);
                if let Some(comment) = &line.comment {
                    let pad = if line.code.is_empty() { 0 } else { column - line.code.chars().count() };
                    out.push_str(&" ".repeat(pad));
                    out.push_str(comment);
                }
                out.push('\n');
            }
            i += run;
        }
        out
    }
}
