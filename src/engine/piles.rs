//! Moving cards between piles: the one implementation both engines run. [`Position`] moves its
//! cards through a [`Piles`] view of itself, and the compiled engine's kernel has this file's
//! text in its source (`src/compiled/generate.rs`) and moves the cards of the position lent to
//! it the same way, in place. So this file names nothing outside itself and uses plain Rust
//! that builds in both editions.
//!
//! The cards lie in one array, pile after pile, bottom first: pile `p` is
//! `cards[start[p]..start[p + 1]]`; `place[c]` is card `c`'s pile, `came_from[c]` the seat
//! whose per-seat pile it last left (`NO_SEAT` for none), and `zobrist` the XOR of
//! `keys[c * piles + place[c]]` over the cards, kept up to date by every move.
//!
//! [`Position`]: super::Position

/// No seat: a card that never left a per-seat pile.
pub(crate) const NO_SEAT: u8 = u8::MAX;

/// A position's cards, lent to be moved. `seat_of(p)` is the seat that owns pile `p`, if it is a
/// per-seat pile.
pub(crate) struct Piles<'a, S: Fn(usize) -> Option<u8>> {
    pub(crate) cards: &'a mut [u16],
    pub(crate) start: &'a mut [u16],
    pub(crate) place: &'a mut [u16],
    pub(crate) came_from: &'a mut [u8],
    pub(crate) zobrist: &'a mut u64,
    /// The position hash's random numbers: `keys[card * piles + pile]`.
    pub(crate) keys: &'a [u64],
    pub(crate) seat_of: S,
}

impl<S: Fn(usize) -> Option<u8>> Piles<'_, S> {
    /// Moves cards onto the top of pile `dest`, as if one by one in order, starting with
    /// `cards[0]` and as many of the cards after it as lie right above it in its pile, in
    /// order (they move together, [`Piles::shift`]): the pile they came from and how many
    /// moved, or `None` (nothing moved) if `cards[0]` is not in any pile.
    pub(crate) fn move_run(&mut self, cards: &[u16], dest: usize) -> Option<(usize, usize)> {
        let (&first, rest) = cards.split_first()?;
        let from = *self.place.get(first as usize)? as usize;
        let (a, end) = (*self.start.get(from)? as usize, *self.start.get(from + 1)? as usize);
        // Cards mostly leave from the top of a pile: look from there.
        let i = a + self.cards.get(a..end)?.iter().rposition(|c| *c == first)?;
        let n = 1 + rest.iter().zip(&self.cards[i + 1..end]).take_while(|(c, d)| c == d).count();
        self.shift(i, n, from, dest);
        Some((from, n))
    }

    /// Deals `total` cards from the top of pile `source` (which holds at least that many), one
    /// at a time, the `k`-th onto pile `base + (first + k) % hands` (`first < hands`): what
    /// `total` moves of one card each ([`Piles::move_run`]) do, in one pass over the piles from
    /// `source` to the hands. `source` is none of the `hands` piles from `base`.
    pub(crate) fn deal(&mut self, source: usize, total: usize, base: usize, hands: usize, first: usize) {
        let (lo, hi) = (source.min(base), source.max(base + hands - 1));
        let (a, b, top) = (self.start[lo] as usize, self.start[hi + 1] as usize, self.start[source + 1] as usize);
        let (seat, piles) = ((self.seat_of)(source), self.start.len() - 1);
        let mut span = Vec::with_capacity(b - a);
        for p in lo..=hi {
            let (pa, pb) = (self.start[p] as usize, self.start[p + 1] as usize);
            self.start[p] = (a + span.len()) as u16;
            if p == source {
                span.extend_from_slice(&self.cards[pa..pb - total]);
                continue;
            }
            span.extend_from_slice(&self.cards[pa..pb]);
            if p < base || p >= base + hands {
                continue;
            }
            // This hand's cards: the `k`-th from the top of `source` for each `k` dealt to it.
            let mut k = (p - base + hands - first) % hands;
            while k < total {
                let card = self.cards[top - 1 - k];
                span.push(card);
                if let Some(seat) = seat {
                    self.came_from[card as usize] = seat;
                }
                self.place[card as usize] = p as u16;
                *self.zobrist ^= self.keys[card as usize * piles + source] ^ self.keys[card as usize * piles + p];
                k += hands;
            }
        }
        self.cards[a..b].copy_from_slice(&span);
    }

    /// Moves the `n` cards of the card array from `i`, consecutive cards of pile `from`, onto
    /// the top of pile `dest` in the same order: as if they were moved one by one, bottom first.
    fn shift(&mut self, i: usize, n: usize, from: usize, dest: usize) {
        let top = self.start[dest + 1] as usize;
        let moved = if from <= dest {
            // Shift the cards after the run, up to the top of `dest`, down over it.
            rotate_left(&mut self.cards[i..top], n);
            for s in &mut self.start[from + 1..=dest] {
                *s -= n as u16;
            }
            top - n..top
        } else {
            // Shift the cards from the top of `dest` up to the run, up over it.
            rotate_left(&mut self.cards[top..i + n], i - top);
            for s in &mut self.start[dest + 1..=from] {
                *s += n as u16;
            }
            top..top + n
        };
        let seat = (self.seat_of)(from);
        let piles = self.start.len() - 1;
        for &card in &self.cards[moved] {
            let card = card as usize;
            if let Some(seat) = seat {
                self.came_from[card] = seat;
            }
            self.place[card] = dest as u16;
            *self.zobrist ^= self.keys[card * piles + from] ^ self.keys[card * piles + dest];
        }
    }
}

/// Rotates a slice left by `k` (at most its length): by one place either way (a card moved) as
/// one shift, a short rotation (a trick) as two copies through a buffer, a long one by the
/// standard library.
pub(crate) fn rotate_left(cards: &mut [u16], k: usize) {
    const SHORT: usize = 16;
    let n = cards.len();
    if k == 0 || k == n {
        return;
    }
    // One card, the most common move: a single shift, no buffer.
    if k == 1 {
        let first = cards[0];
        cards.copy_within(1.., 0);
        cards[n - 1] = first;
    } else if n - k == 1 {
        let last = cards[n - 1];
        cards.copy_within(..n - 1, 1);
        cards[0] = last;
    } else if k <= SHORT {
        let mut buf = [0; SHORT];
        buf[..k].copy_from_slice(&cards[..k]);
        cards.copy_within(k.., 0);
        cards[n - k..].copy_from_slice(&buf[..k]);
    } else if n - k <= SHORT {
        let mut buf = [0; SHORT];
        buf[..n - k].copy_from_slice(&cards[k..]);
        cards.copy_within(..k, n - k);
        cards[..n - k].copy_from_slice(&buf[..n - k]);
    } else {
        cards.rotate_left(k);
    }
}

#[cfg(test)]
mod tests {
    use super::{NO_SEAT, Piles, rotate_left};

    /// Piles of `sizes` cards each, the cards in order, each pile `p` below 3 owned by seat `p`.
    fn laid_out(sizes: &[usize]) -> (Vec<u16>, Vec<u16>, Vec<u16>, Vec<u8>) {
        let mut start = vec![0u16];
        let mut place = Vec::new();
        for (p, n) in sizes.iter().enumerate() {
            start.push(start[p] + *n as u16);
            place.extend(std::iter::repeat_n(p as u16, *n));
        }
        let cards = (0..place.len() as u16).collect();
        let came_from = vec![NO_SEAT; place.len()];
        (cards, start, place, came_from)
    }

    #[test]
    fn a_deal_in_one_pass_is_the_same_as_one_card_at_a_time() {
        let keys: Vec<u64> = (0..40 * 6).map(|i| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        let seat_of = |p: usize| (p < 3).then_some(p as u8);
        // Sources before, after and among the hands' piles, dealing all or some.
        let cases = [(0, 1, 3, 0, 20), (0, 2, 3, 2, 12), (5, 1, 3, 1, 9), (4, 0, 3, 2, 6), (1, 2, 3, 0, 0)];
        for (source, base, hands, first, total) in cases {
            let sizes = [3, 1, 0, 4, 2, 2];
            let mut sizes = sizes.to_vec();
            sizes[source] = total + 2;
            let (mut c1, mut s1, mut p1, mut f1) = laid_out(&sizes);
            let (mut c2, mut s2, mut p2, mut f2) = (c1.clone(), s1.clone(), p1.clone(), f1.clone());
            let (mut z1, mut z2) = (7u64, 7u64);
            let mut one = Piles {
                cards: &mut c1,
                start: &mut s1,
                place: &mut p1,
                came_from: &mut f1,
                zobrist: &mut z1,
                keys: &keys,
                seat_of,
            };
            for k in 0..total {
                let top = one.start[source + 1] as usize - 1;
                let card = one.cards[top];
                one.move_run(&[card], base + (first + k) % hands);
            }
            let mut all = Piles {
                cards: &mut c2,
                start: &mut s2,
                place: &mut p2,
                came_from: &mut f2,
                zobrist: &mut z2,
                keys: &keys,
                seat_of,
            };
            all.deal(source, total, base, hands, first);
            let case = (source, base, hands, first, total);
            assert_eq!((&c1, &s1, &p1, &f1, z1), (&c2, &s2, &p2, &f2, z2), "{case:?}");
        }
    }

    #[test]
    fn rotating_a_run_of_cards_is_the_standard_rotation() {
        for n in 0..40u16 {
            for k in 0..=n as usize {
                let mut ours: Vec<u16> = (0..n).collect();
                let mut theirs = ours.clone();
                rotate_left(&mut ours, k);
                theirs.rotate_left(k);
                assert_eq!(ours, theirs, "{n} cards by {k}");
            }
        }
    }
}
