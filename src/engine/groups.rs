//! Choices of several cards at once (`choose 2 cards p from hand[s] by s`). The groups of the
//! decision's cards of each size it allows are gone through one at a time, never all built:
//! smallest first, then in the order the cards lie. The options are the groups allowed by the
//! first tier that allows any. A decision looks at no more than [`MAX_GROUPS`] groups. A menu
//! beside the cards (`or m from Move`) adds its actions after the groups, under the same tiers.

use super::program::Ask;
use super::vm::Vm;
use super::*;
use crate::diagnostic::Code;
use crate::eval::{Halt, Out};

/// The most groups one decision looks at.
pub(super) const MAX_GROUPS: u64 = 65_536;

/// Adds to `options` the legal groups of `cards` for a choice of several cards, then the legal
/// menu `actions`.
pub(super) fn legal_groups(
    vm: &mut Vm<'_>,
    ask: &Ask,
    cards: &[CardId],
    actions: &[Value],
    options: &mut Vec<Opt>,
) -> Out<()> {
    let Some((least, most)) = &ask.group else { return Ok(()) };
    let n = cards.len();
    let (least, most) = (vm.int(least)?, most.as_ref().map(|m| vm.int(m)).transpose()?);
    let most = most.unwrap_or(n as i64);
    if most < least {
        return Err(no_size(vm, ask, least, most));
    }
    // Below 0 counts as 0, beyond the cards there are as all of them.
    let clamp = |k: i64| k.clamp(0, n as i64) as usize;
    let sizes = clamp(least)..=clamp(most);
    let count = sizes.clone().fold(0u64, |sum, k| sum.saturating_add(binomial(n, k)));
    if count > MAX_GROUPS {
        return Err(too_many(vm, ask, n));
    }
    vm.charge(count as usize, ask.at)?;
    let first = options.len();
    let mut best: Option<u32> = None;
    let mut ids: Vec<CardId> = Vec::with_capacity(clamp(most));
    for k in sizes {
        let mut picks: Vec<usize> = (0..k).collect();
        loop {
            ids.clear();
            ids.extend(picks.iter().map(|&i| cards[i]));
            let group = CardGroup::of(&ids).ok_or_else(|| too_large(vm, ask, k))?;
            let value = Value::Group(group);
            offer(vm, ask, value, &mut best, options, first)?;
            if !next_pick(&mut picks, n) {
                break;
            }
        }
    }
    for &value in actions {
        offer(vm, ask, value, &mut best, options, first)?;
    }
    Ok(())
}

/// Adds `value` to the options (those from `first` on) if a tier allows it and it is no
/// later than the options kept so far, which it replaces if it comes earlier.
fn offer(
    vm: &mut Vm<'_>,
    ask: &Ask,
    value: Value,
    best: &mut Option<u32>,
    options: &mut Vec<Opt>,
    first: usize,
) -> Out<()> {
    if let Some(tier) = first_tier(vm, ask, value, *best)? {
        if best.is_none_or(|b| tier < b) {
            options.truncate(first);
            *best = Some(tier);
        }
        options.push(Opt { value, declared: false, tier });
    }
    Ok(())
}

/// The first tier that allows `value`, if it is no later than `best` (the tier of the groups
/// found so far).
fn first_tier(vm: &mut Vm<'_>, ask: &Ask, value: Value, best: Option<u32>) -> Out<Option<u32>> {
    if ask.tiers.is_empty() {
        return Ok(Some(0));
    }
    vm.set_names(ask, value);
    let last = best.map_or(ask.tiers.len(), |b| b as usize + 1);
    for (t, (cond, _)) in ask.tiers.iter().enumerate().take(last) {
        if cond.as_ref().map_or(Ok(true), |c| vm.keep(c))? {
            return Ok(Some(t as u32));
        }
    }
    Ok(None)
}

/// Moves `picks` (increasing indices below `n`) on to the next group of its size in order;
/// false after the last.
fn next_pick(picks: &mut [usize], n: usize) -> bool {
    let k = picks.len();
    let Some(i) = (0..k).rev().find(|&i| picks[i] < n - k + i) else { return false };
    picks[i] += 1;
    for j in i + 1..k {
        picks[j] = picks[j - 1] + 1;
    }
    true
}

/// How many groups of `k` of `n` cards there are, at most `u64::MAX`.
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut c = 1u128;
    for i in 0..k.min(n - k) {
        c = c * (n - i) as u128 / (i + 1) as u128;
        if c >= u64::MAX as u128 {
            return u64::MAX;
        }
    }
    c as u64
}

fn no_size(vm: &Vm<'_>, ask: &Ask, least: i64, most: i64) -> Box<Halt> {
    Halt::new(
        Code::NoAction,
        vm.prog.span(ask.at),
        &format!("no group of cards has a size from {least} to {most}"),
        "the size's end is below its start here",
        "make the range's end at least its start when the decision comes (`1..3 cards`)",
    )
}

fn too_many(vm: &Vm<'_>, ask: &Ask, n: usize) -> Box<Halt> {
    Halt::new(
        Code::OutOfRange,
        vm.prog.span(ask.at),
        &format!("more than {MAX_GROUPS} groups of cards to choose from"),
        &format!("{n} cards to choose from here"),
        "a choice of several cards looks at no more groups than that: give it a size (`choose 2 cards ...` or `1..3 cards`), or choose from fewer cards",
    )
}

fn too_large(vm: &Vm<'_>, ask: &Ask, k: usize) -> Box<Halt> {
    Halt::new(
        Code::OutOfRange,
        vm.prog.span(ask.at),
        &format!("a group of {k} cards from a pack of {} cards", vm.game.cards.len()),
        "too many cards at once",
        &format!(
            "a choice of several cards takes at most {MAX_LISTED} cards in a pack of more than {SMALL_PACK}: give the most it takes, e.g. `1..{MAX_LISTED} cards`"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_go_through_every_group_in_order() {
        let mut picks = vec![0, 1];
        let mut seen = vec![picks.clone()];
        while next_pick(&mut picks, 4) {
            seen.push(picks.clone());
        }
        assert_eq!(seen, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert!(!next_pick(&mut [], 3));
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(4, 2), 6);
        assert_eq!(binomial(52, 5), 2_598_960);
        assert_eq!(binomial(3, 0), 1);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(200, 100), u64::MAX);
    }
}
