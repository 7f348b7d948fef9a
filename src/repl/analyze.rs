//! `analyze`: each decision of the current phase so far, with its value by exact analysis and
//! the best alternative ("A played red 5, worth +9; green 4 was worth +11").

use crate::engine::{Action, State};
use crate::game::{SeatId, Value};
use crate::solve::{Limits, QUICK_BUDGET, analyze_within, prepare};

/// One decision made: the state before it, the seat and the action.
pub(super) type Decided = (State, SeatId, Action);

/// The decisions of the phase the solver would stop at now, each judged.
pub(super) fn report(decided: &[Decided], now: &State) -> String {
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
    let mut out = format!("The decisions of this {phase} so far, by exact analysis:\n");
    for (state, seat, action) in mine {
        out.push_str(&judge(state, *seat, *action));
    }
    out
}

/// One decision: its value and the best one, or why it cannot be judged.
fn judge(state: &State, seat: SeatId, action: Action) -> String {
    let who = state.game().names().show_loose(Value::Seat(seat));
    let played = state.action_name(seat, action).unwrap_or_default();
    let answer = prepare(state, None).and_then(|task| analyze_within(state, &task, Limits::positions(QUICK_BUDGET)));
    let Ok(analysis) = answer else { return format!("  {who} played {played}: too large to solve quickly\n") };
    let two = analysis.answers.len() == 1;
    let Some(answer) = analysis.answers.iter().find(|a| two || a.mover_maximises) else {
        return format!("  {who} played {played}\n");
    };
    let worth = answer.moves.iter().find(|(n, _)| *n == played).map_or(0, |(_, v)| *v);
    if worth == answer.value {
        return format!("  {who} played {played}, worth {worth:+}: a best move\n");
    }
    let best = answer.line.first().map_or(String::new(), |(_, m)| m.clone());
    format!("  {who} played {played}, worth {worth:+}; {best} was worth {:+} ({})\n", answer.value, answer.measure)
}
