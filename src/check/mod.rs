//! The checker: resolves every name and type of a parsed rule file, collects every problem in one
//! pass, and compiles the file into a [`Game`] for one set of parameter values.
//!
//! The work is split by what is checked: `decls` (seats, enums, cards, zones, variables),
//! `expr` and `stmt` (the flow), `deck` (building the pack), `settings` (parameters, variants
//! and command-line overrides), `flow` (whole-flow checks such as endless loops), `show`
//! (the lines of state every player sees), `hidden` (what those lines, variables and names
//! may not read) and `leaks` (what the flow may not do on conditions over hidden cards).

mod consteval;
mod deck;
mod decls;
mod expr;
mod flow;
mod hidden;
mod leaks;
mod piles;
mod procedure;
mod settings;
mod show;
mod solve;
mod stmt;
mod stops;
mod types;

pub use settings::Settings;
pub(crate) use types::BUILTIN_NAMES;

use crate::diagnostic::{Code, Problem, did_you_mean};
use crate::game::*;
use crate::syntax::ast::{self, Span};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many names, in all, "did you mean" may look through. Each unknown name is compared with
/// every candidate, so thousands of unknown names in a file that declares thousands of names
/// would take minutes (and the help listing the candidates would run to megabytes); past this
/// budget the help stays general.
const SUGGESTION_BUDGET: usize = 1_000_000;

/// Where a problem's span points: the rule file, the scenario extending it, or the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The rule file itself.
    Rules,
    /// The scenario that extends it.
    Scenario,
    /// The `--set` and `--variant` arguments (spans into [`Settings::layout`]'s text).
    Arguments,
}

/// A problem and the text its span points into.
pub type Found = (Origin, Problem);

/// Checks a rule file (with a scenario's changes, if any, and the user's settings) and compiles it.
pub fn check(rules: &[ast::Item], scenario: Option<&ast::Scenario>, settings: &Settings) -> Result<Game, Vec<Found>> {
    let mut checker = Checker::default();
    let game = checker.run(rules, scenario, settings);
    // A mistake in a procedure is found at each of its calls: it is reported once.
    let mut seen = std::collections::HashSet::new();
    checker.problems.retain(|(origin, problem)| seen.insert((*origin, problem.clone())));
    // What a seat may learn is worked out from where the cards go: beside another mistake (a
    // card moved to a pile the move could not name), its findings are mostly that mistake's
    // echoes, so they wait until the others are fixed.
    if checker.problems.iter().any(|(_, problem)| problem.code != Code::Hidden) {
        checker.problems.retain(|(_, problem)| problem.code != Code::Hidden);
    }
    if checker.problems.is_empty() { game.ok_or_else(Vec::new) } else { Err(checker.problems) }
}

/// What a name in the global namespace stands for.
#[derive(Clone, Copy, Debug)]
enum Global {
    Param(usize),
    Seat(SeatId),
    Side(SideId),
    Member(EnumId, u16),
    EnumType(EnumId),
    Zone(ZoneId),
    Var(VarId),
    Fn(FnId),
    Procedure(usize),
}

/// A local name: a `let`, a loop or aggregate binder, a choice, a definition's parameter.
#[derive(Clone, Debug)]
struct Local {
    name: String,
    slot: Slot,
    ty: Type,
    assignable: bool,
    /// For a `zone` parameter, the pile it stands for: its zone, and the slot holding the
    /// seat or side of a per-seat or per-side zone (see [`piles`]).
    pile: Option<(ZoneId, Option<Slot>)>,
}

/// Where statements are being checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Deck,
    Play,
}

#[derive(Clone, Debug)]
struct FnSig {
    params: Vec<Type>,
    ret: Type,
}

#[derive(Default)]
struct Checker {
    problems: Vec<Found>,
    origin: Option<Origin>,
    globals: HashMap<String, (Global, Span)>,
    // Declarations, in the shape the game will have.
    name: Option<String>,
    players: usize,
    seats: Vec<SeatInfo>,
    /// The seat declared `at bottom`.
    bottom: Option<SeatId>,
    sides: Vec<SideInfo>,
    params: Vec<ParamInfo>,
    enums: Vec<EnumInfo>,
    attrs: Vec<AttrInfo>,
    zones: Vec<ZoneInfo>,
    vars: Vec<VarInfo>,
    fn_sigs: Vec<FnSig>,
    functions: Vec<FnInfo>,
    phases: Vec<PhaseInfo>,
    cards: Vec<Vec<Value>>,
    card_names: Vec<String>,
    blocks: Vec<Block>,
    // Scope while checking.
    locals: Vec<Local>,
    slots: usize,
    phase_stack: Vec<PhaseId>,
    /// Definitions called while checking a definition's body: (caller, callee, span).
    calls: Vec<(FnId, FnId, Span)>,
    current_fn: Option<FnId>,
    /// For each definition id, the declaration it was made from and the zones its `zone`
    /// parameters stand for (see [`piles`]), and the id of each such instance.
    fn_origins: Vec<(usize, Vec<ZoneId>)>,
    fn_instances: HashMap<(FnId, Vec<ZoneId>), FnId>,
    /// Whether the players, parameters and seats were read without a mistake, so that counts
    /// worked out from them (cards dealt to every seat) mean what the file means.
    seating_read: bool,
    /// The procedures, and those whose calls are being checked, innermost last.
    procedures: Vec<procedure::Procedure>,
    expanding: Vec<usize>,
    /// How many bytes of procedures their calls have unfolded into (see [`procedure::UNFOLD_LIMIT`]).
    unfolded: usize,
    /// The `let` names holding a card everyone may be able to name (see [`hidden`]): `holder` of
    /// one tells where that card lies.
    known_cards: std::collections::HashSet<Slot>,
    /// The names of cards taken from a zone not everyone sees, with the pile the card lies in
    /// as far as known: reading one in a value every player sees reads that zone.
    hidden_cards: HashMap<Slot, hidden::HiddenCard>,
    /// The names of choices of several cards: how many cards each holds is told to everyone.
    groups: std::collections::HashSet<Slot>,
    /// The conditions on hidden cards the flow being checked is under (see [`leaks`]).
    guards: Vec<leaks::Guard>,
    /// What `reveal` has shown that still lies as shown (see [`leaks`]).
    shown: Vec<leaks::Shown>,
    /// The declared range of each card attribute written as `LOW..HIGH`.
    attr_ranges: Vec<Option<(i64, i64)>>,
    /// Where each card attribute was declared.
    attr_spans: Vec<Span>,
    /// How many names "did you mean" has looked through (atomic, as the checker is shared with
    /// the evaluator's thread).
    suggested: AtomicUsize,
}

impl Checker {
    fn origin(&self) -> Origin {
        self.origin.unwrap_or(Origin::Rules)
    }

    fn report(&mut self, problem: Problem) {
        let origin = self.origin();
        self.problems.push((origin, problem));
    }

    fn error(
        &mut self,
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.report(Problem::new(code, message, span, label).help(help));
    }

    /// Adds a global name, reporting a duplicate with both places labelled.
    fn define_global(&mut self, ident: &ast::Ident, global: Global) {
        if let Some((_, first)) = self.globals.get(&ident.name) {
            let first = *first;
            self.report(
                Problem::new(
                    Code::Duplicate,
                    format!("`{}` is defined twice", ident.name),
                    ident.span,
                    "defined again here",
                )
                .note(first, "first defined here")
                .help("give one of them another name: seats, sides, parameters, enumeration members, zones, variables and definitions share one namespace"),
            );
            return;
        }
        self.globals.insert(ident.name.clone(), (global, ident.span));
    }

    fn new_slot(&mut self) -> Slot {
        self.slots += 1;
        (self.slots - 1) as Slot
    }

    /// Declares a local in the innermost scope and returns its slot.
    fn bind(&mut self, name: &str, ty: Type, assignable: bool) -> Slot {
        let slot = self.new_slot();
        self.locals.push(Local { name: name.to_string(), slot, ty, assignable, pile: None });
        slot
    }

    fn lookup_local(&self, name: &str) -> Option<&Local> {
        self.locals.iter().rev().find(|l| l.name == name)
    }

    /// Runs `f` in a new scope: locals declared inside are gone afterwards.
    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let mark = self.locals.len();
        let out = f(self);
        self.locals.truncate(mark);
        out
    }

    fn add_block(&mut self, block: Block) -> BlockId {
        self.blocks.push(block);
        (self.blocks.len() - 1) as BlockId
    }

    /// Whether "did you mean" may still look through (or list) `n` more names: see
    /// [`SUGGESTION_BUDGET`].
    fn may_suggest(&self, n: usize) -> bool {
        self.suggested.fetch_add(n, Ordering::Relaxed).saturating_add(n) <= SUGGESTION_BUDGET
    }

    /// Every name a person might have meant, for "did you mean".
    fn known_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.locals.iter().map(|l| l.name.clone()).collect();
        names.extend(self.globals.keys().cloned());
        names.extend(types::BUILTIN_NAMES.iter().map(|s| s.to_string()));
        names
    }

    fn unknown_name(&mut self, ident: &ast::Ident, what: &str) {
        // With no seats at all (no `players` declaration, which is told on its own), `P1` is
        // unknown only for that.
        let digits = ident.name.strip_prefix('P').unwrap_or_default();
        if self.seats.is_empty() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        let in_scope = self.locals.len() + self.globals.len() + types::BUILTIN_NAMES.len();
        let suggestion = if self.may_suggest(in_scope) {
            let names = self.known_names();
            did_you_mean(&ident.name, names.iter().map(String::as_str)).map(str::to_string)
        } else {
            None
        };
        let problem =
            Problem::new(Code::UnknownName, format!("unknown name `{}`", ident.name), ident.span, "not defined");
        self.report(match suggestion {
            Some(s) => problem.did_you_mean(ident.span, &ident.name, &s),
            None if !self.expanding.is_empty() => problem.help(
                "a procedure sees its parameters and the file's names, not the names of the flow where it is called: pass the value as a parameter",
            ),
            None => problem.help(format!("declare it first, or check the spelling; {what}")),
        });
    }

    fn run(&mut self, items: &[ast::Item], scenario: Option<&ast::Scenario>, settings: &Settings) -> Option<Game> {
        let parts = decls::Parts::sort(self, items);
        let before = self.problems.len();
        self.declare_game(&parts);
        let changes = self.collect_changes(&parts, scenario, settings);
        self.declare_enums(&parts);
        self.declare_params(&parts, &changes);
        self.declare_seating(&parts);
        self.seating_read = self.problems.len() == before;
        self.declare_card(&parts);
        self.declare_zones(&parts);
        self.declare_phases(&parts, &changes);
        self.declare_functions(&parts);
        self.declare_procedures(&parts.procedures);
        self.declare_vars(&parts);
        self.check_function_bodies(&parts);
        let deck = self.build_deck(&parts);
        self.check_var_inits(&parts);
        let play = self.check_play(&parts, &changes);
        self.check_uncalled_procedures(&stmt::Flow { changes: &changes, ctx: Ctx::Play });
        let result = self.check_result(&parts);
        let shows = self.check_shows(&parts);
        let solves = self.check_solves(&parts);
        let sheet = self.check_sheet(&parts);
        self.check_endless_definitions();
        deck?;
        let (play, result) = (play?, result?);
        Some(Game {
            name: self.name.clone()?,
            players: self.players,
            seats: std::mem::take(&mut self.seats),
            bottom: self.bottom,
            sides: std::mem::take(&mut self.sides),
            params: std::mem::take(&mut self.params),
            enums: std::mem::take(&mut self.enums),
            attrs: std::mem::take(&mut self.attrs),
            cards: std::mem::take(&mut self.cards),
            card_names: std::mem::take(&mut self.card_names),
            zones: std::mem::take(&mut self.zones),
            vars: std::mem::take(&mut self.vars),
            functions: std::mem::take(&mut self.functions),
            phases: std::mem::take(&mut self.phases),
            slots: self.slots,
            blocks: std::mem::take(&mut self.blocks),
            play,
            result,
            shows,
            solves,
            sheet,
            variants: parts
                .variants
                .iter()
                .map(|v| VariantInfo { name: v.name.name.clone(), doc: v.doc.as_ref().map(|d| d.value.clone()) })
                .collect(),
            variant: changes.variant_name.clone(),
            scenario: scenario.map(|s| s.name.value.clone()),
        })
    }
}
