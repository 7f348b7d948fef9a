//! `analyze`: each decision of the current phase so far, with its value by exact analysis and
//! the best alternative ("A played red 5, worth +9; green 4 was worth +11"). The decisions are
//! judged latest first (the fewer cards left, the smaller the search) within one budget of
//! positions for the whole command, [`ANALYZE_BUDGET`]: a decision too large for what is left
//! stops the judging, as the earlier ones are larger still.

use crate::engine::{Action, State};
use crate::game::{SeatId, Value};
use crate::solve::{Limits, QUICK_BUDGET, analyze_within, prepare};

/// One decision made: the state before it, the seat and the action.
pub(super) type Decided = (State, SeatId, Action);

/// The most positions `analyze` searches in all, over every decision it judges: about a second
/// of work on a laptop.
pub(super) const ANALYZE_BUDGET: u64 = 2 * QUICK_BUDGET;

/// The decisions of the phase the solver would stop at now, each judged, within `budget`
/// positions in all; `progress` is told, before each decision is judged, which one it is and
/// how much of the budget is spent (a terminal shows it while the work goes on).
pub(super) fn report(decided: &[Decided], now: &State, budget: u64, progress: &mut dyn FnMut(&str)) -> String {
    let Ok(task) = prepare(now, None) else {
        return "There is nothing to analyse here: the position is not open, or the rule file names no quantity (`solve`).\n".into();
    };
    let phase = now.game().phases[task.until as usize].name.clone();
    let instance = |s: &State| s.phase_frame(task.until).map(|_| s.position().phase_counts[task.until as usize]);
    let current = instance(now);
    let mine: Vec<&Decided> = decided.iter().filter(|(s, _, _)| instance(s) == current).collect();
    if mine.is_empty() {
        return format!("No decision has been made yet in this {phase}.\n");
    }
    let mut left = budget;
    let mut judged = Vec::new();
    for (k, (state, seat, action)) in mine.iter().rev().enumerate() {
        progress(&format!(
            "Analysing decision {} of {}, latest first: {} of {budget} positions",
            k + 1,
            mine.len(),
            budget - left
        ));
        match judge(state, *seat, *action, left.min(QUICK_BUDGET)) {
            Some((line, nodes)) => {
                judged.push(line);
                left = left.saturating_sub(nodes);
            }
            None => break,
        }
    }
    let mut out = format!("The decisions of this {phase} so far, by exact analysis:\n");
    let unjudged = mine.len() - judged.len();
    if unjudged > 0 {
        let which = if judged.is_empty() { "" } else { " earlier" };
        let s = if unjudged == 1 { "" } else { "s" };
        out.push_str(&format!(
            "  (not judged: {unjudged}{which} decision{s}, too large to solve within {budget} positions in all)\n"
        ));
    }
    for line in judged.iter().rev() {
        out.push_str(line);
    }
    out
}

/// One decision: its value and the best one, with the positions searched; `None` if it cannot
/// be judged within `positions`.
fn judge(state: &State, seat: SeatId, action: Action, positions: u64) -> Option<(String, u64)> {
    let who = state.game().names().show_loose(Value::Seat(seat));
    let played = state.action_name(seat, action).unwrap_or_default();
    let analysis =
        prepare(state, None).and_then(|task| analyze_within(state, &task, Limits::positions(positions))).ok()?;
    let two = analysis.answers.len() == 1;
    let Some(answer) = analysis.answers.iter().find(|a| two || a.mover_maximises) else {
        return Some((format!("  {who} played {played}\n"), analysis.nodes));
    };
    let worth = answer.moves.iter().find(|(n, _)| *n == played).map_or(0, |(_, v)| *v);
    let line = if worth == answer.value {
        format!("  {who} played {played}, worth {worth:+}: a best move\n")
    } else {
        let best = answer.line.first().map_or(String::new(), |(_, m)| m.clone());
        format!("  {who} played {played}, worth {worth:+}; {best} was worth {:+} ({})\n", answer.value, answer.measure)
    };
    Some((line, analysis.nodes))
}
