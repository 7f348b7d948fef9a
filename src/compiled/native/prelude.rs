// The fixed part of every compiled kernel (paradox `src/compiled`): the C interface it shares
// with paradox, and the helpers the generated part calls. The generated part, appended to this
// text, holds the game's tables as integer data and one function per statement, loop condition
// and definition it compiles; nothing of the rule file's text is in either part.
//
// Every function returns `R<_>`: `Err(())` means "the interpreter takes this step", and is
// returned before anything but local names and the step counter has changed (the caller puts
// the counter back), so the interpreter then takes the same step from the same position.
#![allow(dead_code, unused_variables, unused_mut, unused_parens, unused_braces, non_snake_case)]
#![allow(unreachable_code, unused_labels, clippy::all)]

use std::ffi::c_void;

/// The interface's version: paradox refuses a kernel of another version.
pub const ABI_VERSION: u64 = 4;
/// The step budgets of the interpreter (`src/eval.rs`, `src/engine/run.rs`).
pub const STEP_BUDGET: u64 = 1_000_000;
pub const MATCH_BUDGET: u64 = 5_000_000;
/// Where the interpreter starts counting where the steps go (`src/engine/tally.rs`): every step
/// from there on is the interpreter's.
pub const TALLY_FROM: u64 = STEP_BUDGET / 2;
pub const MATCH_TALLY_FROM: u64 = MATCH_BUDGET / 2;
pub const MAX_NESTING: usize = 512;
/// The narration limits of the interpreter (`src/engine/run.rs`).
pub const MAX_LINE: usize = 10_000;
pub const MAX_NARRATION: u64 = 4 << 20;
const MEMOS: usize = 16;
const NO_SEAT: u8 = u8::MAX;

/// paradox's `Value`, with the same C layout.
#[repr(C, u8)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum V {
    None,
    Int(i64),
    Bool(bool),
    Seat(u8),
    Side(u8),
    Card(u16),
    Enum(u16),
    Set(u64),
    Group(u64),
}

/// paradox's `Loc`.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Loc {
    pub block: u32,
    pub index: u32,
}

/// paradox's `Frame`, with the same C layout.
#[repr(C, u8)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum F {
    Block { block: u32, pc: u32 },
    Repeat { body: u32, left: i64 },
    While { at: Loc },
    Until { at: Loc, started: bool },
    For { at: Loc, level: u32, base: u32, len: u32, next: u32 },
    Phase { at: Loc, entered: bool },
    Together { at: Loc, base: u32, seats: u32, next: u32 },
}

/// paradox's `Opt`.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Opt {
    pub value: V,
    pub declared: bool,
    pub tier: u32,
}

/// A vector of paradox's, lent: its elements, how many, and room for how many.
#[repr(C)]
pub struct Buf<T> {
    pub ptr: *mut T,
    pub len: usize,
    pub cap: usize,
}

/// What paradox lends a kernel: the position's parts, the step counters, where a decision is
/// opened, and the host's services. The pointers are valid until the next service call, after
/// which they are read again. The kernel moves cards itself, in place (`piles`, the
/// interpreter's own code); working out keys, it is lent the position to be read only.
#[repr(C)]
pub struct Io {
    pub cards: *mut u16,
    pub start: *mut u16,
    pub place: *mut u16,
    pub came_from: *mut u8,
    pub n_cards: usize,
    pub n_piles: usize,
    /// The position's hash of where each card lies, kept up to date by the moves made here.
    pub zobrist: u64,
    /// The hash's random numbers, `keys[card * n_piles + pile]` (`n_keys` of them).
    pub keys: *const u64,
    pub n_keys: usize,
    pub vars: *mut V,
    pub n_vars: usize,
    pub locals: *mut V,
    pub n_locals: usize,
    pub phase_counts: *mut u32,
    pub n_phases: usize,
    pub frames: Buf<F>,
    pub stack: Buf<V>,
    pub options: Buf<Opt>,
    /// The seats of a secret round opened: each seat, where its options start, how many.
    pub secrets: Buf<[u32; 3]>,
    pub spent: u64,
    pub work: u64,
    /// Bytes of narration said so far in the match.
    pub narrated: u64,
    pub at: Loc,
    pub seat: u32,
    /// The index among the frames of the phase whose end stops the run before its next step,
    /// as the interpreter's search stops (`usize::MAX`: none).
    pub stop: usize,
    pub host: *mut c_void,
    /// Makes room for `additional` more elements in vector `which` (0 frames, 1 stack, 2 options).
    pub grow: extern "C" fn(*mut Io, u32, usize),
    /// Shuffles a pile.
    pub shuffle: extern "C" fn(*mut Io, u32),
    /// A number drawn by lot below the one given.
    pub below: extern "C" fn(*mut Io, u64) -> u64,
    /// Shuffles the stack from `base` partly, `n` elements drawn to its end.
    pub partial_shuffle: extern "C" fn(*mut Io, usize, usize),
}

/// The sizes of the shared types, checked by paradox when it loads the kernel.
#[no_mangle]
pub extern "C" fn paradox_kernel_shape(out: *mut u64, n: usize) {
    let sizes = [
        ABI_VERSION,
        KEY,
        std::mem::size_of::<V>() as u64,
        std::mem::align_of::<V>() as u64,
        std::mem::size_of::<F>() as u64,
        std::mem::size_of::<Opt>() as u64,
        std::mem::size_of::<Io>() as u64,
        std::mem::size_of::<Buf<V>>() as u64,
    ];
    for (i, s) in sizes.iter().enumerate().take(n) {
        // SAFETY: paradox passes room for `n` numbers.
        unsafe { *out.add(i) = *s };
    }
}

/// How a run stopped: the next step is the interpreter's.
pub const YIELD: u32 = 0;
/// How a run stopped: a decision was opened at `io.at` for `io.seat`.
pub const CHOICE: u32 = 1;
/// How a run stopped: a secret round was opened at `io.at` for the seats in `io.secrets`.
pub const TOGETHER: u32 = 2;

/// Runs steps until a decision is opened or a step is left to the interpreter.
#[no_mangle]
pub extern "C" fn paradox_kernel_run(io: *mut Io) -> u32 {
    let mut k = K { io, before: 0 };
    k.run()
}

/// One element of a result's (or a `solve` quantity's) domain with its key.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Keyed {
    pub item: V,
    pub key: i64,
}

/// The most local names a key is worked out with on the stack (more go to the heap).
const KEY_LOCALS: usize = 64;

/// Works out the keys `which` names (0 the result's, then each `solve` declaration's) into
/// `out`, room for `n`: how many, or -1 when the interpreter works them out. `io` lends the
/// position to be read only: the local names are copied here first, the only part written.
#[no_mangle]
pub extern "C" fn paradox_kernel_keys(io: *mut Io, which: u32, out: *mut Keyed, n: usize) -> i64 {
    // SAFETY: paradox lends a valid `Io` and room for `n` elements at `out`.
    let (io_ref, keyed) = unsafe { (&mut *io, std::slice::from_raw_parts_mut(out, n)) };
    let count = io_ref.n_locals;
    let mut small = [const { std::mem::MaybeUninit::<V>::uninit() }; KEY_LOCALS];
    let mut large = Vec::new();
    let locals: *mut V = if count <= KEY_LOCALS {
        small.as_mut_ptr().cast()
    } else {
        large.resize(count, V::None);
        large.as_mut_ptr()
    };
    // SAFETY: paradox lends `n_locals` valid values, copied into room for as many.
    unsafe { std::ptr::copy_nonoverlapping(io_ref.locals, locals, count) };
    io_ref.locals = locals;
    let mut k = K { io, before: 0 };
    match k.keys(which, keyed) {
        Ok(found) => found as i64,
        Err(()) => -1,
    }
}

pub type R<T> = Result<T, ()>;

/// What a step did.
pub enum Go {
    On,
    Choice(u8),
    Together,
}

/// A run in progress.
pub struct K {
    io: *mut Io,
    /// The work spent before the step under way: what a hand-back puts back.
    before: u64,
}

/// One evaluation, as the interpreter's `Vm`: definitions already worked out, and nesting.
/// The memo is left unwritten until used (an evaluation starts at every statement, and most
/// call no definition): the first `memos` entries are the ones written.
pub struct Vm {
    memo: [std::mem::MaybeUninit<(u16, V, V, V)>; MEMOS],
    memos: usize,
    nesting: usize,
}

impl Vm {
    pub fn new() -> Vm {
        Vm { memo: [const { std::mem::MaybeUninit::uninit() }; MEMOS], memos: 0, nesting: 0 }
    }

    pub fn recall(&self, f: u16, a: V, b: V) -> Option<V> {
        self.memo[..self.memos]
            .iter()
            // SAFETY: the first `memos` entries were written by `keep`.
            .map(|m| unsafe { m.assume_init_ref() })
            .find(|m| m.0 == f && m.1 == a && m.2 == b)
            .map(|m| m.3)
    }

    pub fn keep(&mut self, f: u16, a: V, b: V, v: V) {
        if self.memos < MEMOS {
            self.memo[self.memos].write((f, a, b, v));
            self.memos += 1;
        }
    }
}

/// What an aggregate has gathered so far (the interpreter's `Tally`).
pub struct Tally {
    op: u8,
    count: i64,
    total: i64,
    best: Option<(V, i64)>,
    decided: Option<bool>,
}

pub const SUM: u8 = 0;
pub const MAX: u8 = 1;
pub const MIN: u8 = 2;
pub const COUNT: u8 = 3;
pub const EXISTS: u8 = 4;
pub const EVERY: u8 = 5;
pub const HIGHEST: u8 = 6;
pub const LOWEST: u8 = 7;

impl Tally {
    pub fn new(op: u8) -> Tally {
        Tally { op, count: 0, total: 0, best: None, decided: None }
    }

    pub fn reject(&mut self) -> bool {
        if self.op == EVERY {
            self.decided = Some(false);
        }
        self.decided.is_none()
    }

    pub fn count(&mut self) -> bool {
        self.count += 1;
        if self.op == EXISTS {
            self.decided = Some(true);
        }
        self.decided.is_none()
    }

    pub fn add(&mut self, item: V, value: V) -> R<()> {
        let key = match value {
            V::Int(n) => n,
            V::Enum(v) => v as i64,
            _ => return Err(()),
        };
        self.add_key(item, value, key)
    }

    pub fn add_key(&mut self, item: V, value: V, key: i64) -> R<()> {
        if self.op == SUM {
            self.total = self.total.checked_add(key).ok_or(())?;
            return Ok(());
        }
        let better = match (self.op, self.best) {
            (_, None) => true,
            (MAX | HIGHEST, Some((_, k))) => key > k,
            (_, Some((_, k))) => key < k,
        };
        if better {
            let kept = if self.op == HIGHEST || self.op == LOWEST { item } else { value };
            self.best = Some((kept, key));
        }
        Ok(())
    }

    pub fn result(self) -> R<V> {
        if let Some(b) = self.decided {
            return Ok(V::Bool(b));
        }
        Ok(match self.op {
            COUNT => V::Int(self.count),
            EXISTS => V::Bool(false),
            EVERY => V::Bool(true),
            SUM => V::Int(self.total),
            _ => self.best.map(|(v, _)| v).ok_or(())?,
        })
    }
}

pub fn truth(v: V) -> R<bool> {
    match v {
        V::Bool(b) => Ok(b),
        _ => Err(()),
    }
}

pub fn int(v: V) -> R<i64> {
    match v {
        V::Int(n) => Ok(n),
        _ => Err(()),
    }
}

pub fn index(v: V) -> R<usize> {
    match v {
        V::Seat(s) | V::Side(s) => Ok(s as usize),
        _ => Err(()),
    }
}

pub fn ordinal(v: V) -> Option<i64> {
    match v {
        V::Int(n) => Some(n),
        V::Enum(v) => Some(v as i64),
        _ => None,
    }
}

pub fn compare(v: V, w: V, op: u8) -> R<bool> {
    let (Some(a), Some(b)) = (ordinal(v), ordinal(w)) else { return Err(()) };
    Ok(match op {
        0 => a < b,
        1 => a <= b,
        2 => a > b,
        _ => a >= b,
    })
}

/// The interpreter's `arith`: 0 add, 1 sub, 2 mul, 3 div, 4 rem.
pub fn arith(op: u8, v: V, w: V) -> R<V> {
    let (V::Int(x), V::Int(y)) = (v, w) else { return Err(()) };
    let r = match op {
        0 => x.checked_add(y),
        1 => x.checked_sub(y),
        2 => x.checked_mul(y),
        3 if y != 0 => x.checked_div(y),
        4 if y != 0 => x.checked_rem(y),
        _ => None,
    };
    r.map(V::Int).ok_or(())
}

/// The interpreter's `member_of`; a group of cards is left to the interpreter.
pub fn member_of(x: V, set: V) -> R<bool> {
    Ok(match (x, set) {
        (V::Card(_), V::Group(_)) => return Err(()),
        (V::Enum(v), V::Set(bits)) => v < 64 && bits & (1u64 << v) != 0,
        (V::Seat(s), V::Set(bits)) => s < 64 && bits & (1u64 << s) != 0,
        _ => false,
    })
}

/// The bit of a set that a value stands for (the interpreter's `bit`).
pub fn bit(x: V) -> u64 {
    match x {
        V::Enum(i) if i < 64 => 1 << i,
        V::Seat(s) if s < 64 => 1 << s,
        _ => 0,
    }
}

impl K {
    fn io(&self) -> &Io {
        // SAFETY: paradox lends a valid `Io` for the whole run.
        unsafe { &*self.io }
    }

    fn io_mut(&mut self) -> &mut Io {
        // SAFETY: as above; nothing else uses it during the run.
        unsafe { &mut *self.io }
    }

    /// The interpreter's loop (`Flow::advance_within`), step by step, up to where the
    /// interpreter counts where the steps go (and so before the budgets run out).
    fn run(&mut self) -> u32 {
        loop {
            if self.phase_ends() {
                return YIELD;
            }
            if !self.count_step() {
                return YIELD;
            }
            let mark = self.io().stack.len;
            let frames = self.io().frames.len;
            let options = self.io().options.len;
            match self.step() {
                Ok(Go::On) => {}
                Ok(Go::Choice(seat)) => {
                    self.io_mut().seat = seat as u32;
                    return CHOICE;
                }
                Ok(Go::Together) => return TOGETHER,
                Err(()) => {
                    self.io_mut().spent = self.before;
                    self.io_mut().stack.len = mark;
                    self.io_mut().frames.len = frames;
                    self.io_mut().options.len = options;
                    return YIELD;
                }
            }
        }
    }

    /// Counts the next step, as the interpreter's loop does, unless the budgets are to be
    /// tallied by the interpreter from it on (false: the step is left undone).
    fn count_step(&mut self) -> bool {
        let before = self.io().spent;
        let spent = before + 1;
        if self.io().work + spent > MATCH_TALLY_FROM || spent > TALLY_FROM {
            return false;
        }
        self.before = before;
        self.io_mut().spent = spent;
        true
    }

    /// The end of a block reached by a statement that changed no frame: the block's frame
    /// left at once, as the loop's next step would leave it.
    fn end_in_row(&mut self) -> R<Go> {
        if self.count_step() {
            self.pop();
        }
        Ok(Go::On)
    }

    /// Whether the phase at `io.stop` among the frames has ended, or ends with the next step
    /// (the interpreter's `Flow::phase_ends`).
    fn phase_ends(&self) -> bool {
        let (stop, frames) = (self.io().stop, &self.io().frames);
        if stop == usize::MAX {
            return false;
        }
        // SAFETY: paradox lends `frames.len` valid frames.
        let at = |i: usize| unsafe { *frames.ptr.add(i) };
        frames.len <= stop || (frames.len == stop + 1 && matches!(at(stop), F::Phase { entered: true, .. }))
    }

    /// One step: a statement of the innermost block, or one turn of a control frame.
    fn step(&mut self) -> R<Go> {
        let Some(top) = self.top() else { return Err(()) };
        match top {
            F::Block { block, pc } => {
                if (pc as usize) < BLOCK_LEN.get(block as usize).copied().ok_or(())? as usize {
                    self.exec(block, pc)
                } else {
                    self.pop();
                    Ok(Go::On)
                }
            }
            F::Repeat { body, left } => {
                if left > 0 {
                    self.set_top(F::Repeat { body, left: left - 1 });
                    self.push_block(body);
                } else {
                    self.pop();
                }
                Ok(Go::On)
            }
            F::While { at } => {
                let (go, body) = self.loop_test(at)?;
                if go {
                    self.push_block(body);
                } else {
                    self.pop();
                }
                Ok(Go::On)
            }
            F::Until { at, started } => {
                if !started {
                    let body = self.loop_body(at)?;
                    self.set_top(F::Until { at, started: true });
                    self.push_block(body);
                } else {
                    let (done, body) = self.loop_test(at)?;
                    if done {
                        self.pop();
                    } else {
                        self.push_block(body);
                    }
                }
                Ok(Go::On)
            }
            F::Phase { at, entered } => {
                let body = self.phase_body(at)?;
                if !entered {
                    self.set_top(F::Phase { at, entered: true });
                    self.push_block(body);
                } else {
                    // Leaving a phase writes only to the log, which a state with a kernel has not.
                    self.pop();
                }
                Ok(Go::On)
            }
            F::For { at, level, base, len, next } => {
                if next >= len {
                    self.pop();
                    self.io_mut().stack.len = base as usize;
                    return Ok(Go::On);
                }
                let item = self.stack_at(base + next)?;
                let (slot, last, body) = self.for_level(at, level)?;
                if last {
                    self.set_top(F::For { at, level, base, len, next: next + 1 });
                    self.set_local(slot, item);
                    self.push_block(body);
                } else {
                    let old = self.local(slot);
                    self.set_local(slot, item);
                    let mark = self.io().stack.len;
                    match self.bind_for(at, level + 1) {
                        Ok(n) => {
                            self.set_top(F::For { at, level, base, len, next: next + 1 });
                            let f = F::For { at, level: level + 1, base: mark as u32, len: n, next: 0 };
                            self.push_frame(f);
                        }
                        Err(()) => {
                            self.set_local(slot, old);
                            return Err(());
                        }
                    }
                }
                Ok(Go::On)
            }
            F::Together { .. } => Err(()),
        }
    }

    /// The loop condition of a `while` (true: go on) or of a `repeat until` (true: stop), and
    /// the loop's body.
    fn loop_test(&mut self, at: Loc) -> R<(bool, u32)> {
        let body = self.loop_body(at)?;
        let mut vm = Vm::new();
        let go = self.cond(&mut vm, at)?;
        Ok((go, body))
    }

    fn top(&self) -> Option<F> {
        let b = &self.io().frames;
        // SAFETY: the frames lent are `len` valid frames.
        (b.len > 0).then(|| unsafe { *b.ptr.add(b.len - 1) })
    }

    fn set_top(&mut self, f: F) {
        let b = &mut self.io_mut().frames;
        if b.len > 0 {
            // SAFETY: as above.
            unsafe { *b.ptr.add(b.len - 1) = f };
        }
    }

    fn pop(&mut self) {
        let b = &mut self.io_mut().frames;
        b.len = b.len.saturating_sub(1);
    }

    fn push_frame(&mut self, f: F) {
        if self.io().frames.len == self.io().frames.cap {
            (self.io().grow)(self.io, 0, 1);
        }
        let b = &mut self.io_mut().frames;
        // SAFETY: the host made room for one more.
        unsafe { b.ptr.add(b.len).write(f) };
        b.len += 1;
    }

    fn push_block(&mut self, block: u32) {
        self.push_frame(F::Block { block, pc: 0 });
    }

    /// Moves the innermost block on past the statement being run.
    fn next_pc(&mut self) {
        if let Some(F::Block { block, pc }) = self.top() {
            self.set_top(F::Block { block, pc: pc + 1 });
        }
    }

    fn push(&mut self, v: V) {
        if self.io().stack.len == self.io().stack.cap {
            (self.io().grow)(self.io, 1, 1);
        }
        let b = &mut self.io_mut().stack;
        // SAFETY: the host made room for one more.
        unsafe { b.ptr.add(b.len).write(v) };
        b.len += 1;
    }

    fn stack_at(&self, i: u32) -> R<V> {
        let b = &self.io().stack;
        // SAFETY: in bounds.
        ((i as usize) < b.len).then(|| unsafe { *b.ptr.add(i as usize) }).ok_or(())
    }

    fn local(&self, s: usize) -> V {
        let io = self.io();
        // SAFETY: in bounds.
        if s < io.n_locals { unsafe { *io.locals.add(s) } } else { V::None }
    }

    fn set_local(&mut self, s: usize, v: V) {
        let io = self.io_mut();
        if s < io.n_locals {
            // SAFETY: in bounds.
            unsafe { *io.locals.add(s) = v };
        }
    }

    fn var(&self, i: usize) -> V {
        let io = self.io();
        // SAFETY: in bounds.
        if i < io.n_vars { unsafe { *io.vars.add(i) } } else { V::None }
    }

    fn set_var(&mut self, i: usize, v: V) -> R<()> {
        let io = self.io_mut();
        if i >= io.n_vars {
            return Err(());
        }
        // SAFETY: in bounds.
        unsafe { *io.vars.add(i) = v };
        Ok(())
    }

    fn charge(&mut self, n: u64) -> R<()> {
        let io = self.io_mut();
        io.spent = io.spent.saturating_add(n);
        if io.spent > STEP_BUDGET { Err(()) } else { Ok(()) }
    }

    /// The cards of consecutive piles, bottom first.
    fn run_of(&self, from: usize, to: usize) -> &[u16] {
        let io = self.io();
        if from > to || to > io.n_piles {
            return &[];
        }
        // SAFETY: `start` has `n_piles + 1` entries and each is at most `n_cards`.
        unsafe {
            let (a, b) = (*io.start.add(from) as usize, *io.start.add(to) as usize);
            if a > b || b > io.n_cards {
                return &[];
            }
            std::slice::from_raw_parts(io.cards.add(a), b - a)
        }
    }

    fn pile(&self, p: usize) -> &[u16] {
        self.run_of(p, p + 1)
    }

    fn place(&self, c: u16) -> usize {
        let io = self.io();
        // SAFETY: in bounds.
        if (c as usize) < io.n_cards { unsafe { *io.place.add(c as usize) as usize } } else { 0 }
    }

    fn came_from(&self, c: u16) -> V {
        let io = self.io();
        // SAFETY: in bounds.
        let s = if (c as usize) < io.n_cards { unsafe { *io.came_from.add(c as usize) } } else { NO_SEAT };
        if s == NO_SEAT { V::None } else { V::Seat(s) }
    }

    /// The position's cards, to be moved in place as the interpreter moves them (`piles`).
    fn piles(&mut self) -> piles::Piles<'_, impl Fn(usize) -> Option<u8>> {
        let io = self.io_mut();
        let (n_cards, n_piles) = (io.n_cards, io.n_piles);
        // SAFETY: paradox lends `n_cards` cards, places and seats, `n_piles + 1` pile starts and
        // `n_keys` random numbers, none of them aliased while the kernel runs.
        unsafe {
            piles::Piles {
                cards: std::slice::from_raw_parts_mut(io.cards, n_cards),
                start: std::slice::from_raw_parts_mut(io.start, n_piles + 1),
                place: std::slice::from_raw_parts_mut(io.place, n_cards),
                came_from: std::slice::from_raw_parts_mut(io.came_from, n_cards),
                zobrist: &mut io.zobrist,
                keys: std::slice::from_raw_parts(io.keys, io.n_keys),
                seat_of: |p: usize| match PILE_SEAT.get(p) {
                    Some(V::Seat(s)) => Some(*s),
                    _ => None,
                },
            }
        }
    }

    /// Whether the position has these cards and this pile, and the hash's numbers for them.
    fn movable(&self, cards: &[u16], pile: usize) -> bool {
        let io = self.io();
        pile < io.n_piles && io.n_keys >= io.n_cards * io.n_piles && cards.iter().all(|c| (*c as usize) < io.n_cards)
    }

    /// Moves cards (not the position's: a copy) onto the top of a pile, as if one by one in
    /// order, as the interpreter does (nothing for a card or pile the position has not).
    fn move_cards(&mut self, cards: &[u16], pile: usize) {
        if !self.movable(cards, pile) {
            return;
        }
        let mut piles = self.piles();
        let mut k = 0;
        while k < cards.len() {
            k += piles.move_run(&cards[k..], pile).map_or(1, |(_, n)| n);
        }
    }

    /// Deals `total` cards from the top of pile `source`, one at a time, to the `SEATS` piles
    /// from `base` starting with seat `first`, as the interpreter does (`piles::Piles::deal`);
    /// nothing if the piles or the cards are not there.
    fn deal(&mut self, source: usize, total: usize, base: usize, first: usize) {
        let hands = base..base + SEATS;
        let fits = SEATS > 0 && first < SEATS && hands.end <= self.io().n_piles && !hands.contains(&source);
        if !fits || !self.movable(&[], source) || self.pile(source).len() < total {
            return;
        }
        self.piles().deal(source, total, base, SEATS, first);
    }

    /// Moves the cards on the stack from `from` onto a pile, in order, a few at a time.
    fn move_stack(&mut self, from: usize, pile: usize) -> R<()> {
        let mut buf = [0u16; 64];
        let mut n = 0;
        for i in from..self.io().stack.len {
            let V::Card(c) = self.stack_at(i as u32)? else { return Err(()) };
            buf[n] = c;
            n += 1;
            if n == buf.len() {
                self.move_cards(&buf, pile);
                n = 0;
            }
        }
        self.move_cards(&buf[..n], pile);
        Ok(())
    }

    fn shuffle(&mut self, pile: usize) {
        (self.io().shuffle)(self.io, pile as u32);
    }

    fn phase_count_up(&mut self, phase: usize) {
        let io = self.io_mut();
        if phase < io.n_phases {
            // SAFETY: in bounds.
            unsafe {
                let c = io.phase_counts.add(phase);
                *c = (*c).saturating_add(1);
            }
        }
    }

    /// A card's attribute (`Err` for a card or attribute the pack has not).
    fn attr(&self, c: u16, a: usize) -> R<V> {
        if (c as usize) < CARDS && a < ATTRS { Ok(CARD_ATTRS[c as usize * ATTRS + a]) } else { Err(()) }
    }

    fn seat(&self, v: V) -> R<u8> {
        match v {
            V::Seat(s) if (s as usize) < SEATS => Ok(s),
            _ => Err(()),
        }
    }

    fn around(&self, s: u8, k: i64) -> V {
        let n = (SEATS as i64).max(1);
        V::Seat((s as i64 + k.rem_euclid(n)).rem_euclid(n) as u8)
    }

    /// The pile of a zone for the owner `v` (`None`: an owner the zone has not).
    fn owned(&self, base: usize, count: usize, v: V) -> R<Option<usize>> {
        let i = index(v)?;
        Ok((i < count).then_some(base + i))
    }

    /// `holder(c)` and `player(c)`.
    fn holder(&self, v: V, holder: bool) -> R<V> {
        match v {
            V::Card(c) if (c as usize) < CARDS => {
                Ok(if holder { PILE_SEAT.get(self.place(c)).copied().unwrap_or(V::None) } else { self.came_from(c) })
            }
            V::Card(_) => Err(()),
            _ => Ok(V::None),
        }
    }
}

/// The elements of a decision's domain: cards where they lie, or values pushed on the stack.
pub enum Items {
    Cards((usize, usize)),
    Stack(usize, usize),
}

/// The interpreter's assignment operators: 0 set, 1 add, 2 subtract.
pub fn combine(op: u8, old: V, v: V) -> R<V> {
    Ok(match (op, old, v) {
        (0, _, v) => v,
        (1, V::Int(a), V::Int(b)) => V::Int(a.checked_add(b).ok_or(())?),
        (2, V::Int(a), V::Int(b)) => V::Int(a.checked_sub(b).ok_or(())?),
        (1 | 2, V::Set(bits), x) => {
            // The interpreter's `set_op`: a set, `none` or one member; anything else stops there.
            let b = match x {
                V::Set(b) => b,
                V::None => 0,
                V::Enum(_) | V::Seat(_) if bit(x) != 0 => bit(x),
                _ => return Err(()),
            };
            V::Set(if op == 1 { bits | b } else { bits & !b })
        }
        _ => return Err(()),
    })
}

impl K {
    /// Where the cards of piles `from..to` lie in the card array.
    fn bounds(&self, from: usize, to: usize) -> (usize, usize) {
        let io = self.io();
        if from > to || to > io.n_piles {
            return (0, 0);
        }
        // SAFETY: `start` has `n_piles + 1` entries.
        let (a, b) = unsafe { (*io.start.add(from) as usize, *io.start.add(to) as usize) };
        if a <= b && b <= io.n_cards { (a, b) } else { (0, 0) }
    }

    fn card_at(&self, i: usize) -> u16 {
        let io = self.io();
        // SAFETY: in bounds.
        if i < io.n_cards { unsafe { *io.cards.add(i) } } else { 0 }
    }

    fn set_stack(&mut self, i: usize, v: V) {
        let b = &mut self.io_mut().stack;
        if i < b.len {
            // SAFETY: in bounds.
            unsafe { *b.ptr.add(i) = v };
        }
    }

    /// Turns the stack from `base` so that it starts at `first`, if it holds it.
    fn rotate_to(&mut self, base: usize, first: V) {
        let b = &mut self.io_mut().stack;
        if base > b.len {
            return;
        }
        // SAFETY: the stack lent is `len` valid values.
        let s = unsafe { std::slice::from_raw_parts_mut(b.ptr.add(base), b.len - base) };
        if let Some(i) = s.iter().position(|x| *x == first) {
            s.rotate_left(i);
        }
    }

    fn vars_now(&self) -> Vec<V> {
        (0..self.io().n_vars).map(|i| self.var(i)).collect()
    }

    fn restore_vars(&mut self, saved: &[V]) {
        for (i, v) in saved.iter().enumerate() {
            let _ = self.set_var(i, *v);
        }
    }

    fn count_items(&self, items: &Items) -> usize {
        match *items {
            Items::Cards((a, b)) => b - a,
            Items::Stack(a, b) => b - a,
        }
    }

    fn item(&self, items: &Items, j: usize) -> R<V> {
        match *items {
            Items::Cards((a, _)) => Ok(V::Card(self.card_at(a + j))),
            Items::Stack(a, _) => self.stack_at((a + j) as u32),
        }
    }

    fn drop_items(&mut self, items: &Items) {
        if let Items::Stack(a, _) = *items {
            self.io_mut().stack.len = a;
        }
    }

    /// Hands paradox the seats of a secret round.
    fn set_secrets(&mut self, secrets: &[[u32; 3]]) {
        if self.io().secrets.cap < secrets.len() {
            (self.io().grow)(self.io, 3, secrets.len());
        }
        let b = &mut self.io_mut().secrets;
        // SAFETY: the host made room for them.
        unsafe { std::ptr::copy_nonoverlapping(secrets.as_ptr(), b.ptr, secrets.len()) };
        b.len = secrets.len();
    }

    fn push_opt(&mut self, value: V, tier: u32) {
        if self.io().options.len == self.io().options.cap {
            (self.io().grow)(self.io, 2, 1);
        }
        let b = &mut self.io_mut().options;
        // SAFETY: the host made room for one more.
        unsafe { b.ptr.add(b.len).write(Opt { value, declared: false, tier }) };
        b.len += 1;
    }
}

impl K {
    /// The option at index `i` of the position's (below their number).
    fn opt_at(&self, i: usize) -> Opt {
        let b = &self.io().options;
        debug_assert!(i < b.len);
        // SAFETY: the options lent are `len` valid options.
        unsafe { *b.ptr.add(i) }
    }

    /// Appends an option as it is (declared or not).
    fn push_whole(&mut self, opt: Opt) {
        if self.io().options.len == self.io().options.cap {
            (self.io().grow)(self.io, 2, 1);
        }
        let b = &mut self.io_mut().options;
        // SAFETY: the host made room for one more.
        unsafe { b.ptr.add(b.len).write(opt) };
        b.len += 1;
    }

    /// Takes the options `from..to` out, those after them moving down (`Vec::drain`).
    fn drop_options(&mut self, from: usize, to: usize) {
        let b = &mut self.io_mut().options;
        debug_assert!(from <= to && to <= b.len);
        // SAFETY: both ranges lie within the `len` valid options; `Opt` is `Copy`.
        unsafe { std::ptr::copy(b.ptr.add(to), b.ptr.add(from), b.len - to) };
        b.len -= to - from;
    }
}

/// A set of cards (paradox's `CardSet`): card `c` at bit `c % 64` of word `c / 64`.
pub type CS = [u64; 4];
pub const CS0: CS = [0; 4];

/// `s` with card `c` (a card past the set's last word is left out). Each word is worked out on
/// its own, so that a set built card by card in a loop stays in registers: writing the word the
/// card picks would go through memory, and reading the set back then waits on that write.
pub fn cs_with(s: CS, c: u16) -> CS {
    let (word, bit) = (c as usize / 64, 1u64 << (c % 64));
    [0, 1, 2, 3].map(|w| if w == word { s[w] | bit } else { s[w] })
}

pub fn cs_has(s: CS, c: u16) -> bool {
    s.get(c as usize / 64).is_some_and(|w| w >> (c % 64) & 1 == 1)
}

pub fn cs_empty(s: CS) -> bool {
    s == CS0
}

pub fn cs_len(s: CS) -> i64 {
    s.iter().map(|w| w.count_ones() as i64).sum()
}

pub fn cs_and(a: CS, b: CS) -> CS {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}

pub fn cs_or(a: CS, b: CS) -> CS {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

pub fn cs_minus(a: CS, b: CS) -> CS {
    [a[0] & !b[0], a[1] & !b[1], a[2] & !b[2], a[3] & !b[3]]
}

/// The cards of a set, lowest first.
pub fn cs_cards(s: CS) -> impl Iterator<Item = u16> {
    (0..4).flat_map(move |w| {
        let mut bits = s[w];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                (w * 64) as u16 + b as u16
            })
        })
    })
}

/// The cards whose value in a table is `v`.
pub fn table_equal(table: &[(V, CS)], v: V) -> CS {
    table.iter().find(|(x, _)| *x == v).map_or(CS0, |(_, s)| *s)
}

/// The cards whose value in a table is (or is not) a member of `set`.
pub fn table_in(table: &[(V, CS)], set: V) -> R<CS> {
    let mut found = CS0;
    for (v, cards) in table {
        if member_of(*v, set)? {
            found = cs_or(found, *cards);
        }
    }
    Ok(found)
}

/// The candidates whose value in a table compares with `v` (`flip`: `v` on the left).
pub fn table_order(table: &[(V, CS)], cand: CS, v: V, op: u8, flip: bool) -> R<CS> {
    let mut out = CS0;
    for (value, cards) in table {
        if cs_empty(cs_and(*cards, cand)) {
            continue;
        }
        let (a, b) = if flip { (v, *value) } else { (*value, v) };
        if compare(a, b, op)? {
            out = cs_or(out, *cards);
        }
    }
    Ok(cs_and(cand, out))
}

impl K {
    /// The cards of the card array's range `a..b`, as a set.
    fn run_set(&self, a: usize, b: usize) -> CS {
        (a..b).fold(CS0, |s, i| cs_with(s, self.card_at(i)))
    }

    /// The stack from `base` as a set of cards, if every value there is a card.
    fn stack_cards(&self, base: usize) -> R<Option<CS>> {
        let mut s = CS0;
        for i in base..self.io().stack.len {
            match self.stack_at(i as u32)? {
                V::Card(c) => s = cs_with(s, c),
                _ => return Ok(None),
            }
        }
        Ok(Some(s))
    }

    /// A decision's items as a set of cards, if every one is a card.
    fn items_cards(&self, items: &Items, n: usize) -> R<Option<CS>> {
        let mut s = CS0;
        for j in 0..n {
            match self.item(items, j)? {
                V::Card(c) => s = cs_with(s, c),
                _ => return Ok(None),
            }
        }
        Ok(Some(s))
    }
}

/// How long a number is written out (`format!("{n}")`).
pub fn int_len(n: i64) -> usize {
    let mut len = if n < 0 { 2 } else { 1 };
    let mut m = n.unsigned_abs();
    while m >= 10 {
        m /= 10;
        len += 1;
    }
    len
}

/// How long a set is written out: `[a, b]`, each member's name as long as `names` says.
pub fn set_len(bits: u64, names: &[usize]) -> R<usize> {
    let mut len = 2;
    let mut k = 0;
    for i in 0..64usize {
        if bits & (1u64 << i) == 0 {
            continue;
        }
        len += names.get(i).copied().ok_or(())? + if k > 0 { 2 } else { 0 };
        k += 1;
    }
    Ok(len)
}

impl K {
    /// Where the innermost frame of a phase is among the frames, with the lowest stack base of
    /// the loops inside it (the interpreter's `unwind_to`, before anything is popped).
    fn phase_frame(&self, phase: u16) -> R<(usize, usize)> {
        let b = &self.io().frames;
        let mut stack = self.io().stack.len;
        for i in (0..b.len).rev() {
            // SAFETY: in bounds.
            match unsafe { *b.ptr.add(i) } {
                F::Phase { at, .. } if phase_of(at) == Some(phase) => return Ok((i, stack)),
                F::For { base, .. } | F::Together { base, .. } => stack = stack.min(base as usize),
                _ => {}
            }
        }
        Err(())
    }
}
