//! `solve` declarations: the quantity an exact solver optimises in a phase, one number for
//! each seat or side (`solve round for t in sides by net(t)`). Checked like the result: the
//! phase must exist, the domain is `seats` or `sides`, the key is a number; one per phase.

use super::Checker;
use super::decls::{Parts, SeatsOrSides};
use crate::diagnostic::{Code, Problem, did_you_mean};
use crate::game::*;
use crate::syntax::ast::{self, Span};

impl Checker {
    /// Checks and compiles the `solve` declarations, in the order written.
    pub(super) fn check_solves(&mut self, parts: &Parts) -> Vec<SolveSpec> {
        let mut specs: Vec<SolveSpec> = Vec::new();
        for decl in &parts.solves {
            let Some(spec) = self.solve(decl) else { continue };
            if let Some(first) = specs.iter().find(|s| s.phase == spec.phase) {
                self.report(
                    Problem::new(
                        Code::Duplicate,
                        format!("phase `{}` has two `solve` declarations", decl.phase.name),
                        decl.span,
                        "declared again here",
                    )
                    .note(first.span, "first declared here")
                    .help("keep one quantity per phase"),
                );
                continue;
            }
            specs.push(spec);
        }
        specs
    }

    fn solve(&mut self, decl: &ast::SolveDecl) -> Option<SolveSpec> {
        let phase = self.named_phase(&decl.phase, "solve");
        let (domain, elem) = self.seats_or_sides(
            &decl.domain,
            SeatsOrSides {
                not_them: "a `solve` gives a number to each seat or side, not to",
                write: "write `solve PHASE for s in seats by ...` or `... for t in sides by ...`",
                no_sides: "the `solve` names sides, but the game declares none",
                or_seats: "use the seats: `for s in seats`",
            },
        );
        let (slot, key) = self.scoped(|c| {
            let slot = c.bind(&decl.binder.name, elem, false);
            (slot, c.expect(&decl.key, &Type::Int, "the quantity of `solve`"))
        });
        Some(SolveSpec { phase: phase?, slot, domain, key, span: decl.span })
    }

    /// The phase a `solve` or a `sheet` names, reported when there is none of that name
    /// (`no phase `x` to {what}`).
    pub(super) fn named_phase(&mut self, name: &ast::Ident, what: &str) -> Option<PhaseId> {
        if let Some(i) = self.phases.iter().position(|p| p.name == name.name) {
            return Some(i as PhaseId);
        }
        let problem = Problem::new(
            Code::UnknownTarget,
            format!("no phase `{}` to {what}", name.name),
            name.span,
            "no such phase in `play`",
        );
        let problem = self.phase_advice(problem, name.span, &name.name);
        self.report(problem);
        None
    }

    /// `problem` with advice on the phase meant by `name`, written at `span`: the phase with the
    /// closest name, else the list of phases.
    pub(super) fn phase_advice(&self, problem: Problem, span: Span, name: &str) -> Problem {
        if !self.may_suggest(self.phases.len()) {
            return problem.help("check the spelling against the phases of `play`");
        }
        let names: Vec<&str> = self.phases.iter().map(|p| p.name.as_str()).collect();
        match did_you_mean(name, names.iter().copied()) {
            Some(s) => problem.did_you_mean(span, name, s),
            None => problem.help(format!("the phases of this game are: {}", names.join(", "))),
        }
    }
}
