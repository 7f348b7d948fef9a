//! The table model ([`Table`]) drawn as text: the seats laid out from the bottom seat (then
//! clockwise; four seats as a bridge diagram), each seat's piles under it, the shared piles in
//! the middle, then the status lines, the news before it all and the decision asked after.
//!
//! On a screen of a known height the whole fits: the decision asked and the player's own hand
//! are always drawn; the other seats, the middle and the status lines are compacted, and only
//! the latest news is shown (`log` pages back), until it fits.

use super::model::{Card, Cards, Colour, Group, Pile, Seat, Table};

/// How wide a line of cards under a seat may grow.
const WRAP: usize = 40;

/// How narrow lines of cards may be made to keep a bridge diagram within the screen's width.
const NARROWEST: usize = 16;

/// How narrow lines of cards may be made to fit the middle of a bridge diagram between its side
/// seats (narrower, a side seat's few piles would take a line a word; the middle goes under).
const BESIDE: usize = 20;

/// The least room between the left and right seats of a bridge diagram.
const MIDDLE: usize = 10;

/// A shared pile (not a trick) with more cards than this is counted on a compact table.
const COMPACT_LISTED: usize = 4;

/// Paints card names in their suit's colour, or not.
pub(super) struct Painter {
    pub colour: bool,
}

impl Painter {
    fn paint(&self, text: &str, colour: Option<Colour>) -> String {
        let code = match colour {
            Some(Colour::Red) => 31,
            Some(Colour::Green) => 32,
            Some(Colour::Yellow) => 33,
            Some(Colour::Blue) => 34,
            Some(Colour::Purple) => 35,
            Some(Colour::Cyan) => 36,
            None => return text.to_string(),
        };
        if self.colour { format!("\u{1b}[{code}m{text}\u{1b}[0m") } else { text.to_string() }
    }

    /// A card in a group: its short name, `×N` for several of one name.
    fn short(&self, card: &Card) -> String {
        let times = if card.times > 1 { format!(" ×{}", card.times) } else { String::new() };
        format!("{}{times}", self.paint(&card.short, card.colour))
    }

    /// A card in a shared pile: its name, with who played it unless the name says so already.
    fn played(&self, card: &Card) -> String {
        let name = self.paint(&card.name, card.colour);
        match &card.by {
            Some(who) if !card.name.starts_with(who.as_str()) => format!("{name} ({who})"),
            _ => name,
        }
    }

    /// A group's lines: `clubs: 2 7 Q`, or its cards' whole names.
    fn group(&self, group: &Group, limit: usize) -> Vec<String> {
        let names: Vec<String> = group.cards.iter().map(|c| self.short(c)).collect();
        let gap = if group.cards.iter().all(|c| !c.short.contains(' ') && c.times == 1) { " " } else { ", " };
        let head = group.label.as_ref().map_or(String::new(), |l| format!("{}: ", self.paint(l, group.colour)));
        wrap(&head, &names, gap, limit)
    }
}

/// `head` and the items joined by `gap`, in lines of at most `limit` characters (unless one
/// item is longer), the later lines indented under the first item.
pub(super) fn wrap(head: &str, items: &[String], gap: &str, limit: usize) -> Vec<String> {
    let indent = " ".repeat(width(head));
    let mut lines = vec![head.to_string()];
    for (i, item) in items.iter().enumerate() {
        let last = lines.len() - 1;
        let sep = if i == 0 { "" } else { gap };
        if i > 0 && width(&lines[last]) + sep.len() + width(item) > limit {
            lines[last].push_str(sep.trim_end());
            lines.push(format!("{indent}{item}"));
        } else {
            lines[last].push_str(&format!("{sep}{item}"));
        }
    }
    lines
}

/// A text in lines of at most `limit` columns, broken between words (a word longer than the
/// line stands alone); the later lines indented by `indent`.
pub(super) fn words(text: &str, limit: usize, indent: &str) -> Vec<String> {
    let items: Vec<String> = text.split(' ').map(String::from).collect();
    let mut lines = wrap("", &items, " ", limit.saturating_sub(indent.len()).max(1));
    for line in lines.iter_mut().skip(1) {
        *line = format!("{indent}{}", line.trim_start());
    }
    lines
}

/// A sentence that lists things (`5 moves: 2, 6 of diamonds; 4 of spades`) in lines of at most
/// `limit` columns, broken after a comma or semicolon where it can be, else between words; the
/// later lines indented two columns more than the first.
pub(super) fn sentence(text: &str, limit: usize) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find([',', ';']).filter(|at| rest[at + 1..].starts_with(' ')) {
        items.push(rest[..=at].to_string());
        rest = &rest[at + 2..];
    }
    items.push(rest.to_string());
    // The later lines two columns in from the first.
    let indent = " ".repeat(text.len() - text.trim_start().len() + 2);
    let lines = wrap("", &items, " ", limit.saturating_sub(2));
    let lines: Vec<String> = (lines.iter().enumerate())
        .map(|(i, l)| if i == 0 { l.clone() } else { format!("{indent}{}", l.trim_start()) })
        .collect();
    lines.iter().flat_map(|l| if width(l) > limit { words(l, limit, &indent) } else { vec![l.clone()] }).collect()
}

/// The width of a line on screen, colour codes left out.
fn width(line: &str) -> usize {
    let mut n = 0;
    let mut escape = false;
    for c in line.chars() {
        match c {
            '\u{1b}' => escape = true,
            'm' if escape => escape = false,
            _ if escape => {}
            _ => n += 1,
        }
    }
    n
}

/// A line cut to `columns` on screen, ending in `…` where something is cut off (colour codes
/// kept, and reset after the cut).
pub(super) fn cut_to(line: &str, columns: usize) -> String {
    if width(line) <= columns {
        return line.to_string();
    }
    let (mut out, mut shown, mut escape) = (String::new(), 0, false);
    for c in line.chars() {
        match c {
            '\u{1b}' => escape = true,
            'm' if escape => escape = false,
            _ if escape => {}
            _ if shown + 1 >= columns => break,
            _ => shown += 1,
        }
        out.push(c);
    }
    if line.contains('\u{1b}') {
        out.push_str("\u{1b}[0m");
    }
    out.push('…');
    out
}

fn pad(line: &str, to: usize) -> String {
    format!("{line}{}", " ".repeat(to.saturating_sub(width(line))))
}

/// How much a drawing leaves out to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Detail {
    /// Every pile in full.
    Full,
    /// The other seats on a line each, long shared piles counted, no blank lines.
    Compact,
    /// Compact, and the player's seats not deciding on a line each too, the seat deciding in
    /// lines as wide as the screen, the status lines and the decision cut short.
    Tight,
    /// Tight, and the last trick left out: the news kept above the table tells how it went.
    Bare,
}

/// The most lines of status, and of the decision asked, on a tight table.
const TIGHT_LINES: usize = 2;

/// The screen's size, and how many of the last lines of news it must keep (the others' moves
/// since the player last looked, and what followed them).
#[derive(Clone, Copy, Debug)]
pub(super) struct Screen {
    pub columns: usize,
    /// Its height; none when the lines just scroll.
    pub rows: Option<usize>,
    /// How many news items, counted from the last, stay on screen if any drawing lets them.
    pub kept: usize,
}

/// The screen: the news, the table, the status lines and `footer` (the decision asked, or how
/// the match ended), within the screen's width and, when given, its height (the last row left
/// for the prompt). The table is compacted until the news to keep fits.
pub(super) fn render(table: &Table, painter: &Painter, screen: Screen, footer: &str) -> String {
    let columns = screen.columns;
    let whole: Vec<String> = footer.lines().flat_map(|l| sentence(l, columns)).collect();
    let status = |detail: Detail| status_lines(&table.status, detail, columns);
    let body = |detail: Detail| [diagram(table, painter, columns, detail), status(detail)].concat();
    let mut footer = whole.clone();
    let Some(rows) = screen.rows else {
        let mut lines = news_lines(&table.news, usize::MAX, columns);
        lines.extend(body(Detail::Full));
        lines.push(String::new());
        lines.extend(footer);
        return finish(lines);
    };
    // Rows for the news: what the body and the footer leave, with a blank line and the prompt.
    let room = |body: &[String], footer: &[String]| rows.saturating_sub(body.len() + footer.len() + 2);
    // The news to keep takes its lines, the line counting the earlier ones and a blank line.
    let kept = &table.news[table.news.len().saturating_sub(screen.kept)..];
    let least = match news_lines(kept, usize::MAX, columns).len() {
        0 => table.news.len().min(2),
        lines => lines + 1,
    };
    let fits = |body: &[String], footer: &[String]| body.len() + footer.len() + 2 + least <= rows;
    let (mut drawn, mut detail) = (body(Detail::Full), Detail::Full);
    for next in [Detail::Compact, Detail::Tight, Detail::Bare] {
        if fits(&drawn, &footer) || (next == Detail::Bare && screen.kept == 0) {
            break;
        }
        if next == Detail::Tight {
            footer = cut(&whole, "(`moves` lists them all)");
        }
        (drawn, detail) = (body(next), next);
    }
    let body = drawn;
    let mut lines = if detail == Detail::Bare {
        // At its barest, the table gives the news its blank line too.
        let mut news = news_lines(&table.news, room(&body, &footer) + 1, columns);
        news.pop_if(|l| l.is_empty());
        news
    } else {
        news_lines(&table.news, room(&body, &footer), columns)
    };
    lines.extend(body);
    lines.push(String::new());
    lines.extend(footer);
    finish(lines)
}

fn finish(lines: Vec<String>) -> String {
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The news, indented and within `columns`; when more than `room` lines, the latest, under a line saying how many
/// earlier ones `log` shows.
pub(super) fn news_lines(news: &[String], room: usize, columns: usize) -> Vec<String> {
    let lines: Vec<String> =
        news.iter().flat_map(|l| l.lines()).flat_map(|l| sentence(l, columns.saturating_sub(2))).collect();
    if lines.is_empty() {
        return Vec::new();
    }
    if lines.len() < room {
        let mut out: Vec<String> = lines.iter().map(|l| format!("  {l}")).collect();
        out.push(String::new());
        return out;
    }
    if room == 0 {
        return Vec::new();
    }
    let keep = room.saturating_sub(2);
    let earlier = lines.len() - keep;
    let mut out = vec![format!("  ({earlier} earlier lines of news: `log` shows them)")];
    out.extend(lines[earlier..].iter().map(|l| format!("  {l}")));
    if room >= 2 {
        out.push(String::new());
    }
    out
}

/// The status lines; compact, run together in as few lines as fit.
fn status_lines(status: &[String], detail: Detail, columns: usize) -> Vec<String> {
    match detail {
        Detail::Full => status.to_vec(),
        Detail::Compact => words(&merged(status).join("; "), columns, ""),
        Detail::Tight | Detail::Bare => cut(&words(&merged(status).join("; "), columns, ""), "(`show` shows them all)"),
    }
}

/// Status lines one after another that each say one thing of the same subject, named with
/// `'s` (`The set's colour: red`, `The set's shape: circle`), said as one: `The set's colour:
/// red, shape: circle`.
fn merged(status: &[String]) -> Vec<String> {
    // The subject and the rest of a line `SUBJECT NAME: VALUE`, its value free of lists.
    let split = |line: &str| {
        let (before, value) = line.split_once(": ")?;
        let (subject, _) = before.rsplit_once(' ').filter(|(subject, _)| subject.ends_with("'s"))?;
        (!value.contains([',', ';', ':'])).then(|| (subject.to_string(), line[subject.len() + 1..].to_string()))
    };
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<String> = None;
    for line in status {
        match (split(line), &last) {
            (Some((subject, rest)), Some(previous)) if *previous == subject => {
                out.last_mut().expect("a line of the subject").push_str(&format!(", {rest}"));
            }
            (split, _) => {
                last = split.map(|(subject, _)| subject);
                out.push(line.clone());
            }
        }
    }
    out
}

/// At most [`TIGHT_LINES`] of `lines`, the last ending in `more` where some are left out.
fn cut(lines: &[String], more: &str) -> Vec<String> {
    if lines.len() <= TIGHT_LINES {
        return lines.to_vec();
    }
    let mut kept = lines[..TIGHT_LINES].to_vec();
    let last = &mut kept[TIGHT_LINES - 1];
    let mut text: Vec<&str> = last.split(' ').collect();
    let room = lines[0].chars().count().max(width(last));
    while !text.is_empty() && text.join(" ").chars().count() + more.len() + 5 > room {
        text.pop();
    }
    *last = format!("{} ... {more}", text.join(" "));
    kept
}

/// The seats and piles: four seats as a bridge diagram within `columns` where the cards allow
/// (lines of cards wrapped narrower if need be, and a line saying so when even that is too
/// wide), other numbers of seats one under another.
pub(super) fn diagram(table: &Table, painter: &Painter, columns: usize, detail: Detail) -> Vec<String> {
    let seats = &table.seats;
    let Some((home, around)) = seats.split_last() else { return Vec::new() };
    let wide = columns.saturating_sub(8).max(NARROWEST);
    let block = |s: &Seat, limit: usize| seat_block(s, painter, limit, detail, wide);
    let middle = |limit: usize| middle_block(table, painter, limit, detail);
    let fits = |lines: &[String]| lines.iter().all(|l| width(l) <= columns);
    let mut lines = if let [left, top, right] = around {
        // The middle between the side seats if it fits there, else under them.
        let draw = |limit: usize, between: bool| {
            let sides = [block(left, limit), block(right, limit)];
            let under = columns.saturating_sub(8).max(NARROWEST);
            let middle = middle(if between { limit } else { under });
            // Compact, the top and bottom seats take the whole width.
            let across = if detail == Detail::Full { limit } else { wide };
            bridge(&block(top, across), &sides, &middle, between, &block(home, across), detail)
        };
        let widest = if detail == Detail::Full { WRAP } else { columns / 2 };
        let least = |between: bool| if between { BESIDE } else { NARROWEST };
        let tries =
            [true, false].into_iter().flat_map(|between| (least(between)..=widest).rev().map(move |l| (l, between)));
        let fitting = tries.map(|(limit, between)| draw(limit, between)).filter(|lines| fits(lines));
        // The lowest of the drawings that fit; the first of the lowest.
        fitting.min_by_key(Vec::len).unwrap_or_else(|| draw(NARROWEST, false))
    } else {
        let widest = if detail == Detail::Full { WRAP } else { columns };
        let limit = widest.min(columns.saturating_sub(8)).max(NARROWEST);
        let mut lines: Vec<String> = Vec::new();
        for s in around {
            lines.extend(block(s, limit));
        }
        gap(&mut lines, detail);
        lines.extend(middle(columns.saturating_sub(8).max(NARROWEST)).iter().map(|l| format!("    {l}")));
        gap(&mut lines, detail);
        lines.extend(block(home, limit));
        lines
    };
    if !fits(&lines) {
        let needed = lines.iter().map(|l| width(l)).max().unwrap_or(0);
        lines.push(format!(
            "(The table needs {needed} columns and the screen has {columns}: widen it to see it whole.)"
        ));
    }
    lines
}

/// A blank line between parts of a full drawing.
fn gap(lines: &mut Vec<String>, detail: Detail) {
    if detail == Detail::Full {
        lines.push(String::new());
    }
}

/// Four seats as a bridge diagram: the opposite seat on top, left and right on the sides, the
/// shared piles in the middle, the bottom seat at the bottom; the top and bottom seats centred
/// over the whole width.
/// Without room `between` the side seats, the middle goes under them, indented as they are apart.
fn bridge(
    top: &[String],
    sides: &[Vec<String>; 2],
    middle: &[String],
    between: bool,
    bottom: &[String],
    detail: Detail,
) -> Vec<String> {
    let [left, right] = sides;
    let widest = |b: &[String]| b.iter().map(|l| width(l)).max().unwrap_or(0);
    let west = widest(left) + 3;
    let inside = if between { middle } else { &[] };
    let centre = widest(inside).max(MIDDLE) + 3;
    let whole = (west + centre + widest(right)).max(if between { 0 } else { widest(middle) + 4 });
    let centred = |b: &[String]| {
        let indent = " ".repeat(whole.saturating_sub(widest(b)) / 2);
        b.iter().map(|l| format!("{indent}{l}")).collect::<Vec<String>>()
    };
    let mut lines = centred(top);
    gap(&mut lines, detail);
    let rows = left.len().max(inside.len()).max(right.len());
    let cell = |b: &[String], i: usize| b.get(i).cloned().unwrap_or_default();
    for i in 0..rows {
        let row = format!("{}{}{}", pad(&cell(left, i), west), pad(&cell(inside, i), centre), cell(right, i));
        lines.push(row.trim_end().to_string());
    }
    gap(&mut lines, detail);
    if !between {
        lines.extend(middle.iter().map(|l| format!("    {l}")));
        gap(&mut lines, detail);
    }
    lines.extend(centred(bottom));
    lines
}

/// A seat's name, `(you)` for the player's own seats, `*` for a seat to decide, and its piles;
/// on a compact table another's seat in as few lines as its piles allow.
/// On a tight table the seat deciding takes lines up to `wide`.
fn seat_block(seat: &Seat, painter: &Painter, limit: usize, detail: Detail, wide: usize) -> Vec<String> {
    let mut title = seat.name.clone();
    if seat.you {
        title.push_str(" (you)");
    }
    if seat.to_act {
        title.push_str(" *");
    }
    let tight = detail >= Detail::Tight;
    if (detail == Detail::Compact && !seat.you) || (tight && !seat.to_act) {
        let piles: Vec<String> = seat.piles.iter().map(|p| pile_in_line(p, painter)).collect();
        return sentence(&format!("{title}: {}", piles.join("; ")), limit);
    }
    if tight {
        let mut lines = vec![title];
        for pile in &seat.piles {
            lines.extend(sentence(&pile_in_line(pile, painter), wide).iter().map(|l| format!("  {l}")));
        }
        return lines;
    }
    let mut lines = vec![title];
    for pile in &seat.piles {
        match &pile.cards {
            Cards::Counted => lines.push(format!("  {}: {}", pile.label, counted(pile.count))),
            Cards::Grouped(groups) => {
                lines.push(format!("  {}:", pile.label));
                for group in groups {
                    lines.extend(painter.group(group, limit).into_iter().map(|l| format!("    {l}")));
                }
            }
            Cards::InOrder(cards) => {
                let names: Vec<String> = cards.iter().map(|c| painter.played(c)).collect();
                lines.extend(wrap(&format!("  {}: ", pile.label), &names, ", ", limit));
            }
        }
    }
    lines
}

/// A pile in a few words: `hand: 13 cards`, `won: 4 of spades`, `hand: clubs 2 7 Q, hearts 3`.
fn pile_in_line(pile: &Pile, painter: &Painter) -> String {
    let names: Vec<String> = match &pile.cards {
        Cards::Counted => return format!("{} {}", pile.label, counted(pile.count)),
        // A few cards by their whole names (`4 of spades`), unless named after their owner.
        Cards::Grouped(groups) if pile.count <= COMPACT_LISTED => (groups.iter())
            .flat_map(|g| {
                g.cards.iter().map(move |c| if g.label.is_some() { painter.whole(c) } else { painter.short(c) })
            })
            .collect(),
        Cards::Grouped(groups) => {
            groups.iter().map(|g| painter.group(g, usize::MAX).join(" ").replace(": ", " ")).collect()
        }
        Cards::InOrder(cards) => cards.iter().map(|c| painter.played(c)).collect(),
    };
    format!("{}: {}", pile.label, names.join(", "))
}

impl Painter {
    /// A card of a group by its whole name, `×N` for several of one name.
    fn whole(&self, card: &Card) -> String {
        let times = if card.times > 1 { format!(" ×{}", card.times) } else { String::new() };
        format!("{}{times}", self.paint(&card.name, card.colour))
    }
}

/// Where the match stands (`round 2, trick 3 of 11`), then the shared piles: a trick with who
/// played each card, the last one and who took it, the other piles by their cards or, when long
/// (or long on a compact table), their count.
fn middle_block(table: &Table, painter: &Painter, limit: usize, detail: Detail) -> Vec<String> {
    let mut lines = Vec::new();
    if !table.heading.is_empty() {
        lines.extend(wrap("", &table.heading, ", ", limit));
    }
    // The sides' piles all listed or, on a compact table when one is long, all counted.
    let kinds = |p: &Pile| match &p.cards {
        Cards::Grouped(groups) => groups.iter().map(|g| g.cards.len()).sum(),
        _ => 0,
    };
    let listed = detail == Detail::Full || table.middle.iter().all(|p| kinds(p) <= COMPACT_LISTED);
    // Piles counted one after another: a line each, or on a tight table said together.
    let mut counts: Vec<String> = Vec::new();
    for pile in table.middle.iter().filter(|p| !(p.taken && detail == Detail::Bare)) {
        match shared_pile(pile, painter, limit, detail, listed) {
            Shown::Counted(count) => counts.push(count),
            Shown::Listed(listed) => {
                lines.extend(together(std::mem::take(&mut counts), detail, limit));
                lines.extend(listed);
            }
        }
    }
    lines.extend(together(counts, detail, limit));
    lines
}

/// How the middle shows a pile: its cards, or how many it holds.
enum Shown {
    Listed(Vec<String>),
    Counted(String),
}

/// A shared pile's lines: a trick with who played each card, a short pile listed, a long one
/// counted on a compact table.
fn shared_pile(pile: &Pile, painter: &Painter, limit: usize, detail: Detail, listed: bool) -> Shown {
    let label = &pile.label;
    let mut lines = Vec::new();
    match &pile.cards {
        Cards::InOrder(cards) if cards.iter().any(|c| c.by.is_some()) => {
            // A trick's cards with who played them, under its name to leave room for both.
            let names: Vec<String> = cards.iter().map(|c| painter.played(c)).collect();
            // A name too long to have the cards beside it (`last trick, True card to team A,
            // the rest to discard`) stands alone.
            let long = names.iter().any(|n| width(label) + 2 + width(n) > limit);
            match detail {
                _ if long => {
                    lines.extend(words(&format!("{label}:"), limit, "  "));
                    lines.extend(wrap("  ", &names, ", ", limit));
                }
                Detail::Full => {
                    lines.push(format!("{label}:"));
                    lines.extend(wrap("", &names, ", ", limit));
                }
                _ => lines.extend(wrap(&format!("{label}: "), &names, ", ", limit)),
            }
        }
        Cards::InOrder(cards) if detail == Detail::Full || cards.len() <= COMPACT_LISTED => {
            let names: Vec<String> = cards.iter().map(|c| painter.played(c)).collect();
            let head = if cards.len() > 1 { format!("{label} ({}): ", cards.len()) } else { format!("{label}: ") };
            lines.extend(wrap(&head, &names, ", ", limit));
        }
        Cards::Grouped(groups) if listed => {
            let names: Vec<String> = groups.iter().flat_map(|g| &g.cards).map(|c| painter.whole(c)).collect();
            let head = if pile.count > 1 { format!("{label} ({}): ", pile.count) } else { format!("{label}: ") };
            lines.extend(wrap(&head, &names, ", ", limit));
        }
        _ => return Shown::Counted(format!("{label}: {}", counted(pile.count))),
    }
    Shown::Listed(lines)
}

/// The counts of piles: a line each, or on a tight table run together.
fn together(counts: Vec<String>, detail: Detail, limit: usize) -> Vec<String> {
    match detail {
        Detail::Tight | Detail::Bare if !counts.is_empty() => wrap("", &counts, "; ", limit),
        _ => counts,
    }
}

fn counted(n: usize) -> String {
    crate::engine::counted(n, "card")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_groups_wrap_under_their_first_card() {
        let items: Vec<String> = (0..20).map(|n| format!("P1's {n}")).collect();
        let lines = wrap("", &items, ", ", WRAP);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= WRAP), "{lines:?}");
        assert_eq!(lines.join(" "), items.join(", "));
        let short: Vec<String> = ["1", "2"].iter().map(|s| s.to_string()).collect();
        assert_eq!(wrap("red: ", &short, " ", WRAP), vec!["red: 1 2"]);
    }

    #[test]
    fn text_breaks_between_words() {
        let text = "Your turn at North (*), 3 moves: blue Single ×2, hollow blue triangle Complete";
        let lines = words(text, 30, "  ");
        assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
        assert_eq!(lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" "), text);
        assert!(lines[1].starts_with("  ") && !lines[1].starts_with("   "), "{lines:?}");
    }

    #[test]
    fn a_list_breaks_after_its_commas() {
        let text = "Your turn at North (*), 5 moves: 2, 6, 9, 10, A of diamonds; 3 of hearts; 4 of spades";
        let lines = sentence(text, 40);
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{lines:?}");
        assert!(lines.iter().all(|l| !l.ends_with(" of") && !l.trim_start().starts_with("of ")), "{lines:?}");
        assert_eq!(lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" "), text);
    }

    #[test]
    fn news_beyond_the_room_left_is_paged() {
        let news: Vec<String> = (1..=10).map(|n| format!("line {n}")).collect();
        let lines = news_lines(&news, 5, 80);
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(lines[0].contains("7 earlier lines"), "{lines:?}");
        assert_eq!(lines[3], "  line 10");
        assert_eq!(news_lines(&news, 11, 80).len(), 11);
    }

    #[test]
    fn a_line_too_wide_is_cut_with_an_ellipsis() {
        assert_eq!(cut_to("abcdef", 6), "abcdef");
        assert_eq!(cut_to("abcdefg", 6), "abcde…");
        let red = cut_to("\u{1b}[31mabcdefg\u{1b}[0m", 4);
        assert_eq!((width(&red), red.as_str()), (4, "\u{1b}[31mabc\u{1b}[0m…"));
    }

    #[test]
    fn status_lines_of_one_subject_are_said_once() {
        let status: Vec<String> =
            ["The set's colour: red", "The set's shape: circle", "team A: 1 pair", "team B: 0 pairs"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let lines = merged(&status);
        assert_eq!(lines, ["The set's colour: red, shape: circle", "team A: 1 pair", "team B: 0 pairs"]);
    }

    #[test]
    fn colour_codes_take_no_room() {
        assert_eq!(width("\u{1b}[31mred 5\u{1b}[0m"), 5);
        assert_eq!(pad("\u{1b}[31mab\u{1b}[0m", 4).len(), "\u{1b}[31mab\u{1b}[0m".len() + 2);
    }
}
