//! Where the steps went, once a match has spent half of a budget: a match that runs out of one
//! stops at the statement or definition that took most of the steps counted, not at whichever
//! statement happened to be running.
//!
//! Counting starts with the first step taken once half the decision's budget
//! ([`TALLY_FROM`]) or half the match's ([`MATCH_TALLY_FROM`]) is spent, so play within its
//! budgets counts nothing and keeps no tally. The compiled engine hands every step past either
//! mark to the interpreter (`native/prelude.rs` yields at the same marks), so both engines count
//! the same steps and stop with the same diagnostic.

use super::position::Loc;
use super::program::Program;
use crate::eval::{Halt, STEP_BUDGET};
use crate::game::{FnId, Game};
use std::collections::HashMap;

/// The steps since the last decision from which each step is counted where it goes.
pub(crate) const TALLY_FROM: usize = STEP_BUDGET / 2;

/// The steps of a whole match from which each step is counted where it goes.
pub(crate) const MATCH_TALLY_FROM: u64 = super::run::MATCH_BUDGET / 2;

/// The advice of a decision's budget run out, at the site that took most of it.
pub(crate) const DECISION_HELP: &str = "a million steps without a decision, most of them here: make sure the loop that repeats this can end, or that this does less work";

/// The advice of the match's budget run out, at the site that took most of it.
pub(crate) fn match_help() -> String {
    format!(
        "a match may take {} million steps in all, most of them here, decision after decision: do less work here, or end the match sooner",
        super::run::MATCH_BUDGET / 1_000_000
    )
}

/// What a step or a piece of evaluation work is counted to: the statement it runs (a loop's
/// turns and conditions count to the loop), or the definition it works out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Site {
    Stmt(Loc),
    Def(FnId),
}

/// The steps counted to each site: since the last decision, or, once the match has spent
/// [`MATCH_TALLY_FROM`], since then.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepTally {
    steps: HashMap<Site, u64>,
}

impl StepTally {
    pub(crate) fn add(&mut self, site: Site, n: usize) {
        let steps = self.steps.entry(site).or_insert(0);
        *steps = steps.saturating_add(n as u64);
    }

    pub(crate) fn clear(&mut self) {
        self.steps.clear();
    }

    /// The site that took the most steps (the first in the file of those that took as many),
    /// with its share of all the steps counted, in percent.
    fn most(&self, game: &Game, prog: &Program) -> Option<(Site, u64)> {
        let total: u64 = self.steps.values().sum();
        let (site, steps) = self
            .steps
            .iter()
            .max_by_key(|(site, steps)| (**steps, std::cmp::Reverse((span_of(**site, game, prog).start, **site))))?;
        Some((*site, steps.saturating_mul(100) / total.max(1)))
    }

    /// `halt`, a budget run out while `halt.span` was running, moved to the site that took the
    /// most steps counted, with `help` and a note where it was running; unchanged if nothing was
    /// counted.
    pub(crate) fn blame(&self, game: &Game, prog: &Program, halt: Box<Halt>, help: &str) -> Box<Halt> {
        let Some((site, share)) = self.most(game, prog) else { return halt };
        let (running, span) = (halt.span, span_of(site, game, prog));
        let label = match site {
            Site::Stmt(_) => format!("{share}% of the steps counted went here"),
            Site::Def(f) => format!("{share}% of the steps counted went to `{}`", game.functions[f as usize].name),
        };
        let mut moved =
            Halt { span, label, help: format!("{help} (steps are counted from half the budget on)"), ..*halt };
        if running != span {
            moved.notes.push((running, "still running here".into()));
        }
        Box::new(moved)
    }
}

/// The place of a site in the rule file: the statement, or the definition's body.
fn span_of(site: Site, game: &Game, prog: &Program) -> crate::vocab::Span {
    match site {
        Site::Stmt(at) => game
            .blocks
            .get(at.block as usize)
            .and_then(|b| b.stmts.get(at.index as usize))
            .map(|s| s.span)
            .unwrap_or_default(),
        Site::Def(f) => prog.functions.get(f as usize).map(|func| prog.span(func.body.at)).unwrap_or_default(),
    }
}

/// The tally and the site an evaluation counts its work to, while steps are counted.
pub(crate) fn counting(tally: &mut Option<Box<StepTally>>, site: Option<Site>) -> Option<(&mut StepTally, Site)> {
    Some((tally.as_deref_mut()?, site?))
}
