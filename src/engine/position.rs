//! The position: everything that changes during a match and nothing else. Plain data: it
//! clones with a handful of allocations, compares, hashes, and serialises for save files.
//!
//! The cards lie in one array, pile after pile, bottom first, so that all piles together are one
//! allocation and moving a card shifts at most the cards between two piles. Order is kept
//! because the rules read it (the options of a decision come in pile order; `first`, `last`,
//! `deal` and ties in `highest` depend on it). A Zobrist hash of where each card lies is kept up
//! to date by every move, for searches that look positions up ([`Position::zobrist`]).

use super::piles::{NO_SEAT, Piles};
use super::restore::Unfit;
use crate::diagnostic::Problem;
use crate::game::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// Where a statement is: its block and its index in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(C)]
pub struct Loc {
    pub block: BlockId,
    pub index: u32,
}

/// One option of a decision: the value chosen, whether the declaration is made with it, and
/// the tier that allowed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(C)]
pub struct Opt {
    pub value: Value,
    pub declared: bool,
    pub tier: u32,
}

/// One seat of a round of secret choices: its options (a range of [`Position::options`]) and
/// what it chose, if it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Secret {
    pub seat: SeatId,
    pub start: u32,
    pub len: u32,
    pub chosen: Option<u32>,
}

/// What the state waits for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pending {
    /// Nothing: the flow runs on.
    Running,
    /// One seat chooses among [`Position::options`].
    Choice {
        /// Where the flow waits.
        at: Loc,
        /// The seat that chooses.
        seat: SeatId,
    },
    /// Several seats choose in secret, at the same time.
    Together {
        /// Where the flow waits.
        at: Loc,
        /// The seats that choose, each with where its options are and its choice once made.
        seats: Vec<Secret>,
    },
    /// The match ended with this outcome.
    Over(Outcome),
    /// The rule file reached something it cannot do; the problem points at the rule.
    Failed(Problem),
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning players (empty for a draw).
    pub winners: Vec<usize>,
    /// 1 for a win, -1 for a loss, 0 for a draw, one per player.
    pub returns: Vec<i64>,
    /// Each seat's or side's key in the result (`chips`, `score`), in the order of the result's domain.
    pub standings: Vec<(String, i64)>,
}

/// A control frame of the flow: where the interpreter is, as data. Its layout is C's, like
/// [`Value`]'s, for the compiled engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(C, u8)]
pub(crate) enum Frame {
    Block {
        block: BlockId,
        pc: u32,
    },
    Repeat {
        body: BlockId,
        left: i64,
    },
    While {
        at: Loc,
    },
    Until {
        at: Loc,
        started: bool,
    },
    /// A `for` at one of its bindings: its elements are `stack[base..base + len]`.
    For {
        at: Loc,
        level: u32,
        base: u32,
        len: u32,
        next: u32,
    },
    Phase {
        at: Loc,
        entered: bool,
    },
    /// The rest of a `simultaneously` block, run for each seat after everyone chose: each seat's
    /// choice is three values of the stack from `base` ([`Position::secret_choice`]).
    Together {
        at: Loc,
        base: u32,
        seats: u32,
        next: u32,
    },
}

/// Everything that changes during a match. Plain data: clone it, save it, compare it, hash it.
/// `clone_from` reuses the memory of the position it overwrites: copy-make search (try a move
/// on a copy, drop the copy) allocates nothing once its copies exist.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// Every card, pile by pile, bottom first: pile `p` is `cards[start[p]..start[p + 1]]`.
    cards: Vec<CardId>,
    start: Vec<u16>,
    /// The pile each card is in.
    place: Vec<u16>,
    /// The seat from whose per-seat pile each card last came (`NO_SEAT` for none).
    came_from: Vec<u8>,
    pub(crate) vars: Vec<Value>,
    pub(crate) locals: Vec<Value>,
    pub(crate) frames: Vec<Frame>,
    /// The elements of the `for` loops in progress and the choices of a revealed
    /// `simultaneously`, innermost last.
    pub(crate) stack: Vec<Value>,
    pub(crate) pending: Pending,
    /// The options of the decision pending (for secret choices, every seat's, one after another).
    pub(crate) options: Vec<Opt>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) phase_counts: Vec<u32>,
    /// How many decisions have been made.
    pub decisions: u64,
    /// How many bytes of narration the match has said (against its limit).
    pub(crate) narrated: u64,
    /// Worked out afresh on restore: a save file is not trusted with it.
    #[serde(skip)]
    zobrist: u64,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            cards: self.cards.clone(),
            start: self.start.clone(),
            place: self.place.clone(),
            came_from: self.came_from.clone(),
            vars: self.vars.clone(),
            locals: self.locals.clone(),
            frames: self.frames.clone(),
            stack: self.stack.clone(),
            pending: self.pending.clone(),
            options: self.options.clone(),
            rng: self.rng.clone(),
            phase_counts: self.phase_counts.clone(),
            decisions: self.decisions,
            narrated: self.narrated,
            zobrist: self.zobrist,
        }
    }

    fn clone_from(&mut self, o: &Position) {
        self.cards.clone_from(&o.cards);
        self.start.clone_from(&o.start);
        self.place.clone_from(&o.place);
        self.came_from.clone_from(&o.came_from);
        self.vars.clone_from(&o.vars);
        self.locals.clone_from(&o.locals);
        self.frames.clone_from(&o.frames);
        self.stack.clone_from(&o.stack);
        self.pending.clone_from(&o.pending);
        self.options.clone_from(&o.options);
        self.rng.clone_from(&o.rng);
        self.phase_counts.clone_from(&o.phase_counts);
        self.decisions = o.decisions;
        self.narrated = o.narrated;
        self.zobrist = o.zobrist;
    }
}

/// The most decisions a position may have counted: far more than any match reaches (a thousand
/// years at thirty decisions a second), and far enough from the counter's end that it never
/// wraps. A restored position beyond it is refused.
pub(crate) const MAX_DECISION_COUNT: u64 = 1 << 40;

/// What expressions read of a position: the piles, where each card is, and the variables.
#[derive(Clone, Copy)]
pub(crate) struct Board<'a> {
    cards: &'a [CardId],
    start: &'a [u16],
    place: &'a [u16],
    came_from: &'a [u8],
    pub vars: &'a [Value],
}

impl<'a> Board<'a> {
    /// The cards of a pile, bottom first (none for a pile that does not exist).
    pub(crate) fn pile(&self, pile: usize) -> &'a [CardId] {
        match (self.start.get(pile), self.start.get(pile + 1)) {
            (Some(&a), Some(&b)) => &self.cards[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The cards of consecutive piles, one after another (the piles of a zone lie together).
    pub(crate) fn run(&self, piles: std::ops::Range<usize>) -> &'a [CardId] {
        match (self.start.get(piles.start), self.start.get(piles.end)) {
            (Some(&a), Some(&b)) if a <= b => &self.cards[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The pile a card is in.
    pub(crate) fn place(&self, card: CardId) -> usize {
        self.place[card as usize] as usize
    }

    /// The seat from whose per-seat pile `card` last came, if any.
    pub(crate) fn came_from(&self, card: CardId) -> Option<SeatId> {
        self.came_from.get(card as usize).copied().filter(|s| *s != NO_SEAT)
    }
}

impl Hash for Position {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.cards.hash(h);
        self.start.hash(h);
        self.came_from.hash(h);
        self.vars.hash(h);
        self.locals.hash(h);
        self.frames.hash(h);
        self.stack.hash(h);
        self.pending.hash(h);
        self.options.hash(h);
        (self.rng.get_seed(), self.rng.get_stream(), self.rng.get_word_pos()).hash(h);
        self.phase_counts.hash(h);
        self.decisions.hash(h);
        self.narrated.hash(h);
    }
}

impl Position {
    /// The position before anything happens: every card in the first pile in pack order,
    /// variables and names unset, the flow at the start of `play`.
    pub(crate) fn start(game: &Game, prog: &super::Program, seed: u64) -> Position {
        let (cards, piles, var_slots) = (game.cards.len(), prog.layout.pile_zone.len(), prog.layout.var_slots);
        let mut start = vec![cards as u16; piles + 1];
        start[0] = 0;
        let mut pos = Position {
            cards: (0..cards as CardId).collect(),
            start,
            place: vec![0; cards],
            came_from: vec![NO_SEAT; cards],
            vars: vec![Value::None; var_slots],
            locals: vec![Value::None; game.slots],
            frames: vec![Frame::Block { block: game.play, pc: 0 }],
            stack: Vec::new(),
            pending: Pending::Running,
            options: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            phase_counts: vec![0; game.phases.len()],
            decisions: 0,
            narrated: 0,
            zobrist: 0,
        };
        pos.zobrist = pos.zobrist_from_scratch(prog);
        pos
    }

    /// What the position waits for.
    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    /// The options of the decision pending (for secret choices, every seat's, one after another).
    pub fn options(&self) -> &[Opt] {
        &self.options
    }

    /// How many cards there are.
    pub fn card_count(&self) -> usize {
        self.place.len()
    }

    /// How many piles there are.
    pub fn pile_count(&self) -> usize {
        self.start.len() - 1
    }

    /// The cards of a pile, bottom first (none for a pile that does not exist).
    pub fn pile(&self, pile: usize) -> &[CardId] {
        self.board().pile(pile)
    }

    /// Every pile, in order.
    pub fn piles(&self) -> impl Iterator<Item = &[CardId]> {
        (0..self.pile_count()).map(|p| self.pile(p))
    }

    /// Where pile `p` lies in the card array.
    fn range(&self, pile: usize) -> (usize, usize) {
        (self.start[pile] as usize, self.start[pile + 1] as usize)
    }

    /// What expressions read of the position.
    pub(crate) fn board(&self) -> Board<'_> {
        Board {
            cards: &self.cards,
            start: &self.start,
            place: &self.place,
            came_from: &self.came_from,
            vars: &self.vars,
        }
    }

    /// The position taken apart for the interpreter: what expressions read, and what the flow
    /// writes while they are worked out (local names, the stack, the options).
    pub(crate) fn parts(&mut self) -> (Board<'_>, &mut Vec<Value>, &mut Vec<Value>, &mut Vec<Opt>) {
        let board = Board {
            cards: &self.cards,
            start: &self.start,
            place: &self.place,
            came_from: &self.came_from,
            vars: &self.vars,
        };
        (board, &mut self.locals, &mut self.stack, &mut self.options)
    }

    /// The parts of the position a kernel reads and writes in place, with the hash's random
    /// numbers (`keys`, the program's) for the cards it moves.
    pub(crate) fn kernel_parts<'a>(&'a mut self, keys: &'a [u64]) -> super::kernel::Parts<'a> {
        super::kernel::Parts {
            cards: &mut self.cards,
            start: &mut self.start,
            place: &mut self.place,
            came_from: &mut self.came_from,
            zobrist: &mut self.zobrist,
            keys,
            vars: &mut self.vars,
            locals: &mut self.locals,
            phase_counts: &mut self.phase_counts,
            frames: &mut self.frames,
            stack: &mut self.stack,
            options: &mut self.options,
            narrated: &mut self.narrated,
        }
    }

    /// The parts of the position a kernel reads to work out keys.
    pub(crate) fn kernel_view(&self) -> super::kernel::ReadParts<'_> {
        super::kernel::ReadParts {
            cards: &self.cards,
            start: &self.start,
            place: &self.place,
            came_from: &self.came_from,
            vars: &self.vars,
            locals: &self.locals,
            phase_counts: &self.phase_counts,
        }
    }

    /// The pile a card is in.
    pub fn place(&self, card: CardId) -> usize {
        self.place[card as usize] as usize
    }

    /// The seat from whose per-seat pile `card` last came, if any.
    pub fn came_from(&self, card: CardId) -> Option<SeatId> {
        self.board().came_from(card)
    }

    /// The seat each card last came from, by card (`NO_SEAT` for none): what
    /// [`Position::came_from`] reads, in one slice.
    pub(crate) fn origins(&self) -> &[u8] {
        &self.came_from
    }

    /// Hashes the cards in their piles, in order, and the seat each last came from: a few
    /// long writes, for the keys of positions.
    pub(crate) fn hash_cards<H: Hasher>(&self, h: &mut H) {
        self.cards.hash(h);
        self.start.hash(h);
        self.came_from.hash(h);
    }

    /// Whether the future play of two positions is the same: the same cards in the same order
    /// in the same piles, from the same seats, and the same variables, local names, flow and
    /// decision pending. The generator, the counts and the narration said are not compared.
    pub(crate) fn same_flow(&self, o: &Position) -> bool {
        self.zobrist == o.zobrist
            && self.vars == o.vars
            && self.frames == o.frames
            && self.cards == o.cards
            && self.start == o.start
            && self.came_from == o.came_from
            && self.locals == o.locals
            && self.stack == o.stack
            && self.pending == o.pending
            && self.options == o.options
    }

    /// A hash of which pile each card is in, kept up to date by every move.
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    fn zobrist_from_scratch(&self, prog: &super::Program) -> u64 {
        let piles = self.pile_count();
        (0..self.place.len()).fold(0, |h, c| h ^ prog.zobrist[c * piles + self.place[c] as usize])
    }

    /// The cards lent to be moved, with the program's hash keys and per-seat piles.
    fn moving<'a>(&'a mut self, prog: &'a super::Program) -> Piles<'a, impl Fn(usize) -> Option<SeatId> + 'a> {
        Piles {
            cards: &mut self.cards,
            start: &mut self.start,
            place: &mut self.place,
            came_from: &mut self.came_from,
            zobrist: &mut self.zobrist,
            keys: &prog.zobrist,
            seat_of: |pile| prog.layout.seat_of_pile(pile),
        }
    }

    /// Moves one card onto the top of a pile, remembering the seat whose pile it left.
    pub(crate) fn put(&mut self, prog: &super::Program, card: CardId, dest: usize) {
        self.moving(prog).move_run(&[card], dest);
    }

    /// Deals `total` cards from the top of pile `source` one at a time, the `k`-th onto pile
    /// `base + (first + k) % hands`, in one pass ([`Piles::deal`]). `source` holds at least
    /// `total` cards and is none of those piles, and `first < hands`.
    pub(crate) fn deal(
        &mut self,
        prog: &super::Program,
        source: usize,
        total: usize,
        base: usize,
        hands: usize,
        first: usize,
    ) {
        self.moving(prog).deal(source, total, base, hands, first);
    }

    /// Moves cards onto the top of a pile, as if one by one in order: cards that lie together
    /// in one pile, in order, move together ([`Piles::move_run`]). `moved` is told each run
    /// moved and the pile it came from, once it has moved.
    pub(crate) fn move_all(
        &mut self,
        prog: &super::Program,
        cards: &[CardId],
        dest: usize,
        mut moved: impl FnMut(&Position, &[CardId], usize),
    ) {
        let mut k = 0;
        while k < cards.len() {
            let Some((from, n)) = self.moving(prog).move_run(&cards[k..], dest) else {
                k += 1;
                continue;
            };
            moved(self, &cards[k..k + n], from);
            k += n;
        }
    }

    /// Shuffles one pile in place with the position's generator.
    pub(crate) fn shuffle(&mut self, pile: usize) {
        use rand::seq::SliceRandom;
        let (a, b) = self.range(pile);
        self.cards[a..b].shuffle(&mut self.rng);
    }

    /// Makes this position `o` with every card `c` renamed `map[c]` (a world dealt afresh),
    /// in this position's memory: nothing is allocated once it has held a position of the game.
    pub(crate) fn rename_from(&mut self, o: &Position, prog: &super::Program, map: &[CardId]) {
        let value = |v: &Value| match v {
            Value::Card(c) => Value::Card(map[*c as usize]),
            // A world renames cards among cards of the same kind of place: a group stays one.
            Value::Group(g) => g.map(|c| map[c as usize]).map_or(*v, Value::Group),
            v => *v,
        };
        let renamed = |to: &mut Vec<Value>, from: &[Value]| {
            to.clear();
            to.extend(from.iter().map(value));
        };
        self.cards.clear();
        self.cards.extend(o.cards.iter().map(|c| map[*c as usize]));
        self.start.clone_from(&o.start);
        self.place.clone_from(&o.place);
        self.came_from.clone_from(&o.came_from);
        for (c, &to) in map.iter().enumerate() {
            self.place[to as usize] = o.place[c];
            self.came_from[to as usize] = o.came_from[c];
        }
        renamed(&mut self.vars, &o.vars);
        renamed(&mut self.locals, &o.locals);
        self.frames.clone_from(&o.frames);
        renamed(&mut self.stack, &o.stack);
        self.pending.clone_from(&o.pending);
        self.options.clear();
        self.options.extend(o.options.iter().map(|p| Opt { value: value(&p.value), ..*p }));
        self.rng.clone_from(&o.rng);
        self.phase_counts.clone_from(&o.phase_counts);
        self.decisions = o.decisions;
        self.narrated = o.narrated;
        self.zobrist = self.zobrist_from_scratch(prog);
    }

    /// The seat, value and option of the `i`-th seat of a revealed `simultaneously` whose
    /// choices start at `base` on the stack.
    pub(crate) fn secret_choice(&self, base: u32, i: u32) -> Option<(SeatId, Opt)> {
        let at = base as usize + 3 * i as usize;
        let (Value::Seat(seat), value, Value::Int(how)) =
            (self.stack.get(at)?, self.stack.get(at + 1)?, self.stack.get(at + 2)?)
        else {
            return None;
        };
        Some((*seat, Opt { value: *value, declared: how & 1 == 1, tier: (*how >> 1) as u32 }))
    }

    /// Pushes one seat's revealed choice (see [`Position::secret_choice`]).
    pub(crate) fn push_secret_choice(&mut self, seat: SeatId, opt: Opt) {
        let how = (i64::from(opt.tier) << 1) | i64::from(opt.declared);
        self.stack.extend([Value::Seat(seat), opt.value, Value::Int(how)]);
    }

    /// Checks the card array against the places (for restored positions): every card in
    /// exactly one pile, as its place says, and the pile bounds in order.
    pub(crate) fn cards_fit(&self, cards: usize, piles: usize, seats: usize) -> Result<(), Unfit> {
        if self.cards.len() != cards || self.place.len() != cards || self.came_from.len() != cards {
            return Err(Unfit::Cards(cards));
        }
        if self.start.len() != piles + 1
            || self.start.first() != Some(&0)
            || self.start.last().map(|s| *s as usize) != Some(cards)
            || self.start.windows(2).any(|w| w[0] > w[1])
        {
            return Err(Unfit::Piles(piles));
        }
        let mut seen = vec![false; cards];
        for p in 0..piles {
            for &c in self.pile(p) {
                let ok = (c as usize) < cards
                    && !std::mem::replace(&mut seen[c as usize], true)
                    && self.place[c as usize] as usize == p;
                if !ok {
                    return Err(Unfit::Place(c));
                }
            }
        }
        if self.came_from.iter().any(|s| *s != NO_SEAT && *s as usize >= seats) {
            return Err(Unfit::CameFrom);
        }
        Ok(())
    }

    /// After a restore: the hash worked out afresh (a save file does not need to be trusted
    /// with it).
    pub(crate) fn rehash(&mut self, prog: &super::Program) {
        self.zobrist = self.zobrist_from_scratch(prog);
    }
}
