//! Exact analysis of open positions: the value of best play up to the end of a phase.
//!
//! [`analyze`] takes a state where nothing is hidden and nothing is left to chance before the
//! end of the chosen phase, and works out, over the State API alone, the quantity the rule
//! file's `solve` declaration names (or the result's key where none does):
//! - for two seats or sides, the minimax value of the first one's key minus the second one's,
//!   the first one's seats maximising and all others minimising;
//! - for three or more, each one's guaranteed value: its key when every other seat plays
//!   against it.
//!
//! The search (`search`) is alpha-beta with a transposition table keyed by
//! [`State::search_key`], the table's best move and a history of good moves tried first, and
//! moves that lead to one same position searched once. Its table tells positions apart only by
//! what the rest of the phase can tell apart (`relevance`).

mod relevance;
mod report;
mod search;

pub use report::{play_moves, text};
pub use search::{BYTES_PER_POSITION, Limits, MAX_TABLE_BYTES, Objective, Searcher};

use crate::engine::{Actor, Pending, State};
use crate::game::*;
use serde::Serialize;
use std::time::Instant;

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsolvable {
    /// `--until` names no phase of the game.
    #[error("there is no phase `{0}` in this game")]
    NoPhase(String),
    /// The flow is not inside the phase to solve to.
    #[error("the flow is not inside phase `{0}` here, so it has no end to solve to")]
    NotInPhase(String),
    /// Nothing says what best play means here.
    #[error(
        "the rule file names no quantity to solve for (add `solve PHASE for t in sides by ...`), and the result's key cannot be worked out here"
    )]
    NoQuantity,
    /// The match has ended.
    #[error("the match is over: nothing is left to decide")]
    Over,
    /// Some cards are hidden from some players.
    #[error("{0} are seen by some players and not by others: the position is not open")]
    Hidden(String),
    /// A secret decision is pending.
    #[error("a secret, simultaneous decision is pending: the position is not open")]
    Secret,
    /// Chance is drawn before the phase ends.
    #[error("chance is drawn before the end of phase `{0}`: the solver needs the rest of the phase to be fixed")]
    Chance(String),
    /// The match stopped on a run-time problem.
    #[error("the match stopped on a problem in the rule file: {0}")]
    Failed(String),
    /// The quantity cannot be worked out where the phase ends.
    #[error("the quantity to solve for cannot be worked out at the end of phase `{0}`")]
    NoValue(String),
    /// The search would exceed its limit of positions.
    #[error("the position needs more than {0} positions searched")]
    TooLarge(u64),
    /// The search's table of positions would exceed its memory.
    #[error("the table of positions searched would pass {}, the memory it may take", crate::files::size(*.0))]
    TooMuchMemory(u64),
}

/// What the solver was asked, as found by [`prepare`]: where to stop and what to count.
#[derive(Clone, Debug)]
pub struct Task {
    /// The phase whose current instance ends the search, and where its frame lies.
    pub until: PhaseId,
    /// Where the frame of that phase lies in the flow's frames.
    pub frame: usize,
    /// The phase whose `solve` gives the quantity (`None`: the result's key).
    pub quantity: Option<PhaseId>,
}

/// The answer to one question: a value for the position and for each move.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// What is measured, in words: "side A's net minus side B's", "P1's total, guaranteed".
    pub measure: String,
    /// Who maximises it.
    pub maximiser: String,
    /// Whether the seat to move is among those who maximise.
    pub mover_maximises: bool,
    /// The value of the position under best play.
    pub value: i64,
    /// Each legal move of the seat to decide, with its value, in the order shown to people.
    pub moves: Vec<(String, i64)>,
    /// The best line of play from here, each move with the seat that makes it.
    pub line: Vec<(String, String)>,
    /// Each seat's or side's key at the end of the best line.
    pub keys: Vec<(String, i64)>,
}

/// Everything `paradox solve` reports.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The phase the search goes to the end of.
    pub until: String,
    /// The seat to decide now.
    pub to_move: String,
    /// "minimax" for two opposed seats or sides, "guaranteed" for three or more.
    pub kind: String,
    /// One answer for two opposed seats or sides; one per seat or side for three or more.
    pub answers: Vec<Answer>,
    /// The zones and variables the search told positions apart without, as only ever added to
    /// before the phase ends (positions differing there share a table entry, values shifted).
    pub added_to: Vec<String>,
    /// The zones and variables it told positions apart without, as not read before the phase ends.
    pub unread: Vec<String>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub seconds: f64,
}

/// Checks that `state` can be solved to the end of phase `until` (by default the innermost
/// phase with a `solve` declaration the flow is in), and says where to stop.
pub fn prepare(state: &State, until: Option<&str>) -> Result<Task, Unsolvable> {
    let game = state.game();
    if let Some(problem) = state.failure() {
        return Err(Unsolvable::Failed(problem.message.clone()));
    }
    if state.is_over() {
        return Err(Unsolvable::Over);
    }
    let solved = state.solved_phases();
    let inside = |p: PhaseId| state.phase_frame(p).map(|f| (p, f));
    let (phase, frame) = match until {
        Some(name) => {
            let p = game.phases.iter().position(|x| x.name == name).ok_or_else(|| Unsolvable::NoPhase(name.into()))?;
            inside(p as PhaseId).ok_or_else(|| Unsolvable::NotInPhase(name.into()))?
        }
        None => {
            let found = solved.iter().filter_map(|p| inside(*p)).max_by_key(|(_, f)| *f);
            found.ok_or(Unsolvable::NoQuantity)?
        }
    };
    let quantity = solved.iter().filter_map(|p| inside(*p)).min_by_key(|(_, f)| *f).map(|(p, _)| p);
    if quantity.is_none() && state.standings().is_empty() {
        return Err(Unsolvable::NoQuantity);
    }
    open(state)?;
    Ok(Task { until: phase, frame, quantity })
}

/// Refuses a position with a card some player sees and another does not, or a secret decision
/// pending. Cards that no player sees (a stock left aside) are the same unknown to everyone and
/// are taken as they lie: a search that drew from them would draw chance, and be refused then.
fn open(state: &State) -> Result<(), Unsolvable> {
    if matches!(state.position().pending(), Pending::Together { .. }) {
        return Err(Unsolvable::Secret);
    }
    let layout = state.layout();
    let unseen = |pile: usize| layout.see.iter().all(|player| !player[pile]);
    for (pile, cards) in state.position().piles().enumerate() {
        if !cards.is_empty() && !layout.open[pile] && !unseen(pile) {
            let n = cards.len();
            let what = if n == 1 { "1 card".to_string() } else { format!("{n} cards") };
            let name = crate::engine::pile_name(state.game(), layout, pile);
            return Err(Unsolvable::Hidden(format!("{what} in {name}")));
        }
    }
    Ok(())
}

/// The quantity at a state where the search stops: each seat's or side's key.
pub fn keys(state: &State, task: &Task) -> Option<Vec<(Value, i64)>> {
    match task.quantity {
        Some(p) => state.solve_keys(p),
        None => state.result_values(),
    }
}

/// Solves `state` for `task`: one question for two opposed seats or sides, one per seat or
/// side for three or more.
pub fn analyze(state: &State, task: &Task) -> Result<Analysis, Unsolvable> {
    analyze_within(state, task, Limits::positions(u64::MAX))
}

/// [`analyze`], giving up past the limits for each question.
pub fn analyze_within(state: &State, task: &Task, limits: Limits) -> Result<Analysis, Unsolvable> {
    let started = Instant::now();
    let state = &state.unobserved();
    let game = state.game();
    let items: Vec<Value> = keys(state, task).ok_or(Unsolvable::NoQuantity)?.into_iter().map(|(v, _)| v).collect();
    let Actor::Seat(seat) = state.actor() else { return Err(Unsolvable::Secret) };
    let names = game.names();
    let objectives: Vec<Objective> = if items.len() == 2 {
        vec![Objective::difference(game, items[0], items[1])]
    } else {
        items.iter().map(|&item| Objective::alone(game, item)).collect()
    };
    let mut answers = Vec::new();
    let mut nodes = 0;
    let mut set_aside = relevance::Abstraction::of(state, task);
    for objective in objectives {
        let mut searcher = Searcher::new(task.clone(), objective.clone()).limited(limits);
        answers.push(answer(&mut searcher, state, &objective, task)?);
        nodes += searcher.nodes;
        if searcher.abstraction() != &set_aside {
            set_aside = relevance::Abstraction::exact();
        }
    }
    let phase_name = |p: PhaseId| game.phases[p as usize].name.clone();
    Ok(Analysis {
        until: phase_name(task.until),
        to_move: names.show_loose(Value::Seat(seat)),
        kind: if items.len() == 2 { "minimax" } else { "guaranteed" }.to_string(),
        answers,
        added_to: set_aside.added_to,
        unread: set_aside.unread,
        nodes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The value of the root, of each move, and the best line, for one objective.
fn answer(searcher: &mut Searcher, state: &State, objective: &Objective, task: &Task) -> Result<Answer, Unsolvable> {
    let game = state.game();
    let names = game.names();
    let Actor::Seat(seat) = state.actor() else { return Err(Unsolvable::Secret) };
    let values = searcher.move_values(state)?;
    let maxing = objective.maximises(game, seat);
    let value = best(&values, maxing).ok_or(Unsolvable::Over)?;
    let moves = state
        .shown_actions(seat)
        .into_iter()
        .filter_map(|a| Some((state.action_name(seat, a)?, values[a as usize])))
        .collect();
    let (line, end) = searcher.best_line(state)?;
    let end_keys =
        keys(&end, task).ok_or_else(|| Unsolvable::NoValue(game.phases[task.until as usize].name.clone()))?;
    Ok(Answer {
        measure: objective.describe(game),
        maximiser: objective.maximiser(game),
        mover_maximises: maxing,
        value,
        moves,
        line,
        keys: end_keys.into_iter().map(|(v, k)| (names.show_loose(v), k)).collect(),
    })
}

/// The best of some values for the side to move.
pub fn best(values: &[i64], maxing: bool) -> Option<i64> {
    if maxing { values.iter().copied().max() } else { values.iter().copied().min() }
}

/// The most positions a quick answer (`hint`, the `solver` bot) may search: a fraction of a
/// second.
pub const QUICK_BUDGET: u64 = 200_000;

/// The best move of the seat to decide by exact analysis, with the answer it comes from, where
/// the position is open and solves within [`QUICK_BUDGET`] positions.
pub fn quick_best(state: &State) -> Option<(crate::engine::Action, Answer, String)> {
    let task = prepare(state, None).ok()?;
    let analysis = analyze_within(state, &task, Limits::positions(QUICK_BUDGET)).ok()?;
    let two = analysis.answers.len() == 1;
    let answer = analysis.answers.into_iter().find(|a| two || a.mover_maximises)?;
    let Actor::Seat(seat) = state.actor() else { return None };
    let (_, best) = answer.line.first()?;
    let action = (0..state.action_count(seat) as u32).find(|&a| state.action_name(seat, a).as_ref() == Some(best))?;
    Some((action, answer, analysis.until))
}
