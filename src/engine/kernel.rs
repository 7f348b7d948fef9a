//! The hook by which a faster engine runs the flow: a [`Kernel`] made from a game outside the
//! engine (the compiled engine, `src/compiled`), carried by a [`Playable`](super::Playable) and
//! used by the states that keep no observers (no event log, no knowledge: [`State::bare`]).
//!
//! A kernel takes the steps it can and hands every other step back to the interpreter, which
//! takes that one step and calls the kernel again. A step the kernel cannot take (a statement
//! it was not built for, the end of the match, or a step that would stop the match with a
//! problem) is therefore always the interpreter's: both engines read and write the one
//! [`Position`], count the same steps against the same budgets, and stop at the same place with
//! the same diagnostic.
//!
//! [`State::bare`]: super::State::bare

use super::position::{Frame, Loc, Opt, Position};
use super::program::Program;
use crate::game::{SeatId, Value};

/// Runs steps of the flow natively. See the module documentation.
pub(crate) trait Kernel: Send + Sync + std::fmt::Debug {
    /// Takes steps from where the position stands, until a decision is opened, a step is left
    /// to the interpreter, or the phase `lent.stop` names ends. Every step it takes is one the interpreter would have taken
    /// the same way, counted the same way in `lent.spent`.
    fn run(&self, lent: &mut Lent<'_>) -> Ran;

    /// Each element of the result's domain (`which` 0) or of the `which`-th `solve`
    /// declaration's (from 1), with its key, worked out as the interpreter's `keys_of` does
    /// into `out`: how many, or `None` when the interpreter is to work them out (a step it
    /// could stop at, or more elements than `out` holds). The position is only read.
    fn keys(&self, parts: ReadParts<'_>, which: usize, out: &mut [Keyed]) -> Option<usize>;
}

/// An element of a domain with its key, as a kernel writes them (C's layout).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Keyed {
    pub item: Value,
    pub key: i64,
}

/// How a kernel stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ran {
    /// The next step is the interpreter's: nothing of it has been done.
    Yield,
    /// A decision was opened at `at` for `seat`; its options are in the position.
    Choice {
        /// The `choose` statement.
        at: Loc,
        /// The seat that decides.
        seat: SeatId,
    },
    /// A round of secret decisions was opened at `at`: each seat with where its options start
    /// among the position's options, and how many it has.
    Together {
        /// The `simultaneously` statement.
        at: Loc,
        /// Each seat, the start of its options, and their number.
        seats: Vec<(SeatId, u32, u32)>,
    },
}

/// A position lent to a kernel, with the program it belongs to and the step counters.
pub(crate) struct Lent<'a> {
    pub(crate) pos: &'a mut Position,
    pub(crate) prog: &'a Program,
    /// Steps spent since the last decision (see [`super::State::work`]).
    pub(crate) spent: &'a mut usize,
    /// Steps spent before the last decision.
    pub(crate) work: u64,
    /// Where the kernel stops, before its next step, as the interpreter's search does: when the
    /// phase whose frame is at this index of the frames ends (`usize::MAX`: nowhere).
    pub(crate) stop: usize,
}

/// The parts of a position a kernel reads and writes in place.
pub(crate) struct Parts<'a> {
    pub cards: &'a mut [u16],
    pub start: &'a mut [u16],
    pub place: &'a mut [u16],
    pub came_from: &'a mut [u8],
    /// The position's hash, which the kernel keeps up to date as it moves cards.
    pub zobrist: &'a mut u64,
    /// The hash's random numbers (the program's).
    pub keys: &'a [u64],
    pub vars: &'a mut [Value],
    pub locals: &'a mut [Value],
    pub phase_counts: &'a mut [u32],
    pub frames: &'a mut Vec<Frame>,
    pub stack: &'a mut Vec<Value>,
    pub options: &'a mut Vec<Opt>,
    pub narrated: &'a mut u64,
}

/// The parts of a position a kernel reads to work out keys.
pub(crate) struct ReadParts<'a> {
    pub cards: &'a [u16],
    pub start: &'a [u16],
    pub place: &'a [u16],
    pub came_from: &'a [u8],
    pub vars: &'a [Value],
    pub locals: &'a [Value],
    pub phase_counts: &'a [u32],
}

impl Lent<'_> {
    /// The position's parts, to be read and written in place.
    pub(crate) fn parts(&mut self) -> Parts<'_> {
        self.pos.kernel_parts(&self.prog.zobrist)
    }

    /// Shuffles a pile with the position's generator, as the interpreter does.
    pub(crate) fn shuffle(&mut self, pile: usize) {
        if pile < self.pos.pile_count() {
            self.pos.shuffle(pile);
        }
    }

    /// Shuffles the stack from `base` partly with the position's generator, `n` elements drawn
    /// to its end, as the interpreter does for a move of cards drawn by lot.
    pub(crate) fn partial_shuffle(&mut self, base: usize, n: usize) {
        use rand::seq::SliceRandom;
        let pos = &mut *self.pos;
        if base <= pos.stack.len() && n <= pos.stack.len() - base {
            let _ = pos.stack[base..].partial_shuffle(&mut pos.rng, n);
        }
    }

    /// A number drawn by lot below `n` (at least 1) with the position's generator, as the
    /// interpreter draws one.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        use rand::RngExt;
        self.pos.rng.random_range(0..n.max(1) as usize) as u64
    }
}
