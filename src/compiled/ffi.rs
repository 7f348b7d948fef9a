//! The one module with `unsafe`: a built kernel loaded from its shared library, and the C
//! interface through which it reads and writes a position (the mirror of `native/prelude.rs`).
//!
//! The shared types ([`Value`], [`Frame`], [`Opt`], [`Loc`]) have C's layout on both sides
//! (`#[repr(C)]`), and the kernel's sizes, interface version and game key are checked when it
//! is loaded, before it is ever run.

use crate::engine::{Frame, Kernel, Keyed, Lent, Loc, Opt, Ran, ReadParts};
use crate::game::Value;
use std::ffi::c_void;
use std::path::Path;

/// The interface version, the same as the prelude's `ABI_VERSION`.
const ABI_VERSION: u64 = 4;

/// A vector of the position's, lent to the kernel.
#[repr(C)]
struct Buf<T> {
    ptr: *mut T,
    len: usize,
    cap: usize,
}

/// The prelude's `Io`, field for field.
#[repr(C)]
struct Io {
    cards: *mut u16,
    start: *mut u16,
    place: *mut u16,
    came_from: *mut u8,
    n_cards: usize,
    n_piles: usize,
    zobrist: u64,
    keys: *const u64,
    n_keys: usize,
    vars: *mut Value,
    n_vars: usize,
    locals: *mut Value,
    n_locals: usize,
    phase_counts: *mut u32,
    n_phases: usize,
    frames: Buf<Frame>,
    stack: Buf<Value>,
    options: Buf<Opt>,
    secrets: Buf<[u32; 3]>,
    spent: u64,
    work: u64,
    narrated: u64,
    at: Loc,
    seat: u32,
    stop: usize,
    host: *mut c_void,
    grow: extern "C" fn(*mut Io, u32, usize),
    shuffle: extern "C" fn(*mut Io, u32),
    below: extern "C" fn(*mut Io, u64) -> u64,
    partial_shuffle: extern "C" fn(*mut Io, usize, usize),
}

type RunFn = unsafe extern "C" fn(*mut Io) -> u32;
type KeysFn = unsafe extern "C" fn(*mut Io, u32, *mut Keyed, usize) -> i64;
type ShapeFn = unsafe extern "C" fn(*mut u64, usize);

/// A kernel loaded from its shared library.
pub(crate) struct Loaded {
    run: RunFn,
    keys: KeysFn,
    /// Kept loaded as long as `run` may be called.
    _library: libloading::Library,
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("compiled kernel")
    }
}

/// Loads a kernel built by this version of paradox for the game with this key.
pub(crate) fn load(path: &Path, key: u64) -> Result<Loaded, String> {
    // SAFETY: the library is one this module's caller built from generated source (or found in
    // the cache under the name of its key); its initialisers are those of a plain Rust cdylib
    // with no dependencies. Its interface is checked below before anything else is called.
    let library =
        unsafe { libloading::Library::new(path) }.map_err(|e| format!("cannot load {}: {e}", path.display()))?;
    // SAFETY: the symbols are looked up with the types the prelude defines them with.
    let (shape, run, keys) = unsafe {
        let shape: libloading::Symbol<'_, ShapeFn> =
            library.get(b"paradox_kernel_shape").map_err(|e| format!("not a kernel: {e}"))?;
        let run: libloading::Symbol<'_, RunFn> =
            library.get(b"paradox_kernel_run").map_err(|e| format!("not a kernel: {e}"))?;
        let keys: libloading::Symbol<'_, KeysFn> =
            library.get(b"paradox_kernel_keys").map_err(|e| format!("not a kernel: {e}"))?;
        (*shape, *run, *keys)
    };
    let mut got = [0u64; 8];
    // SAFETY: `shape` writes at most the 8 numbers it is given room for.
    unsafe { shape(got.as_mut_ptr(), got.len()) };
    let want = [
        ABI_VERSION,
        key,
        size_of::<Value>() as u64,
        align_of::<Value>() as u64,
        size_of::<Frame>() as u64,
        size_of::<Opt>() as u64,
        size_of::<Io>() as u64,
        size_of::<Buf<Value>>() as u64,
    ];
    if got != want {
        return Err(format!("{} was built for another game or another version of paradox", path.display()));
    }
    Ok(Loaded { run, keys, _library: library })
}

/// What the host's services reach through `Io::host`.
struct Host<'l, 'a> {
    lent: &'l mut Lent<'a>,
    /// The seats of a secret round the kernel opens.
    secrets: Vec<[u32; 3]>,
}

impl Kernel for Loaded {
    fn run(&self, lent: &mut Lent<'_>) -> Ran {
        let work = lent.work;
        let spent = *lent.spent as u64;
        let stop = lent.stop;
        let mut host = Host { lent, secrets: Vec::new() };
        let mut io = Io::unlent(grow, shuffle, below, partial_shuffle);
        (io.spent, io.work, io.stop) = (spent, work, stop);
        io.host = (&raw mut host).cast();
        lend(&mut host, &mut io);
        // SAFETY: `io` lends the position's parts as the prelude expects them: each pointer with
        // its length, valid until the next service call (every service lends them again) and
        // until `run` returns; the kernel writes only valid values of the shared types.
        let stopped = unsafe { (self.run)(&raw mut io) };
        take_back(&mut host, &io);
        *host.lent.spent = io.spent as usize;
        match stopped {
            1 => Ran::Choice { at: io.at, seat: io.seat as u8 },
            2 => {
                let seats = host.secrets.iter().map(|&[seat, start, len]| (seat as u8, start, len)).collect();
                Ran::Together { at: io.at, seats }
            }
            _ => Ran::Yield,
        }
    }

    fn keys(&self, view: ReadParts<'_>, which: usize, out: &mut [Keyed]) -> Option<usize> {
        let mut scratch = Scratch::default();
        let mut io = Io::unlent(grow_scratch, shuffles_nothing, draws_nothing, shuffles_nothing_partly);
        // Read only: the kernel copies the local names before it writes any, and keys are
        // expressions, which write nothing else of the position's (no card moves).
        io.cards = view.cards.as_ptr().cast_mut();
        io.start = view.start.as_ptr().cast_mut();
        io.place = view.place.as_ptr().cast_mut();
        io.came_from = view.came_from.as_ptr().cast_mut();
        io.n_cards = view.cards.len().min(view.place.len()).min(view.came_from.len());
        io.n_piles = view.start.len().saturating_sub(1);
        io.vars = view.vars.as_ptr().cast_mut();
        io.n_vars = view.vars.len();
        io.locals = view.locals.as_ptr().cast_mut();
        io.n_locals = view.locals.len();
        io.phase_counts = view.phase_counts.as_ptr().cast_mut();
        io.n_phases = view.phase_counts.len();
        io.frames = Buf::of(&mut scratch.frames);
        io.stack = Buf::of(&mut scratch.stack);
        io.options = Buf::of(&mut scratch.options);
        io.secrets = Buf::of(&mut scratch.secrets);
        io.host = (&raw mut scratch).cast();
        // SAFETY: `io` lends the position's parts as `run` does, to be read only (see above),
        // and vectors of its own for anything the kernel would push; `out` has room for its
        // length of `Keyed`, the prelude's type of the same layout.
        let found = unsafe { (self.keys)(&raw mut io, which as u32, out.as_mut_ptr(), out.len()) };
        let found = usize::try_from(found).ok().filter(|n| *n <= out.len())?;
        Some(found)
    }
}

impl Io {
    /// An `Io` lending nothing yet, with these services.
    fn unlent(
        grow: extern "C" fn(*mut Io, u32, usize),
        shuffle: extern "C" fn(*mut Io, u32),
        below: extern "C" fn(*mut Io, u64) -> u64,
        partial_shuffle: extern "C" fn(*mut Io, usize, usize),
    ) -> Io {
        Io {
            cards: std::ptr::null_mut(),
            start: std::ptr::null_mut(),
            place: std::ptr::null_mut(),
            came_from: std::ptr::null_mut(),
            n_cards: 0,
            n_piles: 0,
            zobrist: 0,
            keys: std::ptr::null(),
            n_keys: 0,
            vars: std::ptr::null_mut(),
            n_vars: 0,
            locals: std::ptr::null_mut(),
            n_locals: 0,
            phase_counts: std::ptr::null_mut(),
            n_phases: 0,
            frames: Buf { ptr: std::ptr::null_mut(), len: 0, cap: 0 },
            stack: Buf { ptr: std::ptr::null_mut(), len: 0, cap: 0 },
            options: Buf { ptr: std::ptr::null_mut(), len: 0, cap: 0 },
            secrets: Buf { ptr: std::ptr::null_mut(), len: 0, cap: 0 },
            spent: 0,
            work: 0,
            narrated: 0,
            at: Loc { block: 0, index: 0 },
            seat: 0,
            stop: usize::MAX,
            host: std::ptr::null_mut(),
            grow,
            shuffle,
            below,
            partial_shuffle,
        }
    }
}

impl<T> Buf<T> {
    /// A vector lent as it is.
    fn of(v: &mut Vec<T>) -> Buf<T> {
        Buf { ptr: v.as_mut_ptr(), len: v.len(), cap: v.capacity() }
    }
}

/// Points `io` at the position's parts, as they are now.
fn lend(host: &mut Host<'_, '_>, io: &mut Io) {
    let parts = host.lent.parts();
    io.n_cards = parts.cards.len().min(parts.place.len()).min(parts.came_from.len());
    io.n_piles = parts.start.len().saturating_sub(1);
    io.cards = parts.cards.as_mut_ptr();
    io.start = parts.start.as_mut_ptr();
    io.place = parts.place.as_mut_ptr();
    io.came_from = parts.came_from.as_mut_ptr();
    io.zobrist = *parts.zobrist;
    io.keys = parts.keys.as_ptr();
    io.n_keys = parts.keys.len();
    io.vars = parts.vars.as_mut_ptr();
    io.n_vars = parts.vars.len();
    io.locals = parts.locals.as_mut_ptr();
    io.n_locals = parts.locals.len();
    io.phase_counts = parts.phase_counts.as_mut_ptr();
    io.n_phases = parts.phase_counts.len();
    io.frames = Buf::of(parts.frames);
    io.stack = Buf::of(parts.stack);
    io.options = Buf::of(parts.options);
    io.narrated = *parts.narrated;
    io.secrets = Buf::of(&mut host.secrets);
}

/// Gives the vectors the lengths the kernel left them with.
fn take_back(host: &mut Host<'_, '_>, io: &Io) {
    let parts = host.lent.parts();
    *parts.narrated = io.narrated;
    *parts.zobrist = io.zobrist;
    // SAFETY: the kernel keeps each length within the capacity lent (it asks `grow` for more)
    // and writes a valid element at every index below it; the elements are `Copy`.
    unsafe {
        parts.frames.set_len(io.frames.len.min(parts.frames.capacity()));
        parts.stack.set_len(io.stack.len.min(parts.stack.capacity()));
        parts.options.set_len(io.options.len.min(parts.options.capacity()));
        host.secrets.set_len(io.secrets.len.min(host.secrets.capacity()));
    }
}

/// The host behind an `Io` the kernel passes back.
///
/// # Safety
/// `io` must be the `Io` made in [`Loaded::run`], during that run.
unsafe fn host<'h>(io: *mut Io) -> (&'h mut Host<'h, 'h>, &'h mut Io) {
    // SAFETY: as the caller promises; the kernel holds no reference into them while it waits
    // for the service.
    unsafe {
        let io = &mut *io;
        (&mut *io.host.cast::<Host<'h, 'h>>(), io)
    }
}

extern "C" fn grow(io: *mut Io, which: u32, additional: usize) {
    // SAFETY: called by the kernel during `Loaded::run` with its `Io`.
    let (host, io) = unsafe { host(io) };
    take_back(host, io);
    {
        let parts = host.lent.parts();
        match which {
            0 => parts.frames.reserve(additional),
            1 => parts.stack.reserve(additional),
            2 => parts.options.reserve(additional),
            _ => host.secrets.reserve(additional),
        }
    }
    lend(host, io);
}

extern "C" fn shuffle(io: *mut Io, pile: u32) {
    // SAFETY: as in `grow`.
    let (host, io) = unsafe { host(io) };
    take_back(host, io);
    host.lent.shuffle(pile as usize);
    lend(host, io);
}

extern "C" fn below(io: *mut Io, n: u64) -> u64 {
    // SAFETY: as in `grow`; only the generator changes.
    let (host, _) = unsafe { host(io) };
    host.lent.below(n)
}

extern "C" fn partial_shuffle(io: *mut Io, base: usize, n: usize) {
    // SAFETY: as in `grow`.
    let (host, io) = unsafe { host(io) };
    take_back(host, io);
    host.lent.partial_shuffle(base, n);
    lend(host, io);
}

/// The vectors lent to a kernel working out keys, which has no position's to push on (keys
/// are expressions: they push nothing, but the services stay sound if one did).
#[derive(Default)]
struct Scratch {
    frames: Vec<Frame>,
    stack: Vec<Value>,
    options: Vec<Opt>,
    secrets: Vec<[u32; 3]>,
}

/// Makes room in a scratch vector with the elements the kernel wrote kept, and lends it again.
fn regrow<T: Copy>(buf: &mut Buf<T>, v: &mut Vec<T>, additional: usize) {
    // SAFETY: the kernel keeps `len` within the capacity lent and writes every element below it.
    unsafe { v.set_len(buf.len.min(v.capacity())) };
    v.reserve(additional);
    *buf = Buf::of(v);
}

extern "C" fn grow_scratch(io: *mut Io, which: u32, additional: usize) {
    // SAFETY: called by the kernel during `Loaded::keys` with its `Io`, whose host is the
    // `Scratch` made there.
    let (scratch, io) = unsafe {
        let io = &mut *io;
        (&mut *io.host.cast::<Scratch>(), io)
    };
    match which {
        0 => regrow(&mut io.frames, &mut scratch.frames, additional),
        1 => regrow(&mut io.stack, &mut scratch.stack, additional),
        2 => regrow(&mut io.options, &mut scratch.options, additional),
        _ => regrow(&mut io.secrets, &mut scratch.secrets, additional),
    }
}

extern "C" fn shuffles_nothing(_: *mut Io, _: u32) {}

extern "C" fn draws_nothing(_: *mut Io, _: u64) -> u64 {
    0
}

extern "C" fn shuffles_nothing_partly(_: *mut Io, _: usize, _: usize) {}
