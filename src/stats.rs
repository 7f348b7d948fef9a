//! The arithmetic of many matches: 95 % intervals for shares (Wilson), means (Student's t) and
//! percentiles (order statistics), and the tests that say whether two configurations differ
//! (McNemar's test on paired matches, a paired t-test on per-match differences), with Holm's
//! correction for the number of tests made. Everything is worked out from whole-number counts,
//! so the same counts always give the same figures, however they were gathered.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The two-sided 95 % point of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The level at which a difference is called significant (after Holm's correction).
pub const ALPHA: f64 = 0.05;

/// A figure and its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The figure.
    pub value: f64,
    /// The low end of the interval.
    pub low: f64,
    /// The high end of the interval.
    pub high: f64,
}

impl Estimate {
    /// The largest distance from the figure to an end of its interval.
    pub fn half_width(&self) -> f64 {
        (self.value - self.low).max(self.high - self.value)
    }

    /// The same estimate multiplied by `k` (to percentages, say).
    pub fn scaled(self, k: f64) -> Estimate {
        Estimate { value: self.value * k, low: self.low * k, high: self.high * k }
    }
}

/// The share of `k` successes in `n` trials with its Wilson score interval; `None` for no trials.
pub fn share(k: u64, n: u64) -> Option<Estimate> {
    if n == 0 {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At none or all the interval ends exactly at 0 or 1 (rounding would leave it a hair off,
    // outside the share itself).
    let low = if k == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if k == n { 1.0 } else { (centre + half).min(1.0) };
    Some(Estimate { value: p, low, high })
}

/// Adds `more` to a count; `Err` names the count (`what`) when the sum passes 2^64.
pub fn add_count(count: &mut u64, more: u64, what: &str) -> Result<(), String> {
    *count = count.checked_add(more).ok_or_else(|| format!("{what} adds up past 2^64"))?;
    Ok(())
}

/// Whole-number sums of a quantity over matches: how many, the sum and the sum of squares.
/// Sums of two runs add up exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    /// How many values.
    pub n: u64,
    /// Their sum.
    pub sum: i128,
    /// The sum of their squares.
    pub squares: i128,
}

impl Moments {
    /// Counts one value.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x as i128;
        self.squares += (x as i128) * (x as i128);
    }

    /// Adds the sums of another run; `Err` names the sum that would not fit.
    pub fn merge(&mut self, other: &Moments) -> Result<(), String> {
        add_count(&mut self.n, other.n, "the number of values")?;
        self.sum = self.sum.checked_add(other.sum).ok_or("the sum of the values adds up past 2^127")?;
        self.squares = self.squares.checked_add(other.squares).ok_or("the sum of the squares adds up past 2^127")?;
        Ok(())
    }

    /// Whether some `n` whole numbers have these sums (squares not negative, and not less
    /// than the sum's square over `n`), each at most `bound` in size when one is given.
    pub fn possible(&self, bound: Option<u64>) -> bool {
        if self.squares < 0 || (self.n == 0 && (self.sum != 0 || self.squares != 0)) {
            return false;
        }
        let within = bound.is_none_or(|b| {
            let most = (self.n as i128).saturating_mul(b as i128);
            self.sum.unsigned_abs() <= most as u128 && self.squares <= most.saturating_mul(b as i128)
        });
        let sum_squared = self.sum.unsigned_abs().checked_mul(self.sum.unsigned_abs());
        let n_squares = (self.n as u128).checked_mul(self.squares as u128);
        let spread = match (sum_squared, n_squares) {
            (Some(a), Some(b)) => a <= b,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => (self.sum as f64).powi(2) <= self.n as f64 * self.squares as f64,
        };
        within && spread
    }

    fn mean_and_error(&self) -> Option<(f64, f64)> {
        if self.n < 2 {
            return None;
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        // The spread around the mean, from exact whole-number sums (approximated when they are
        // too large to multiply exactly).
        let exact =
            self.squares.checked_mul(self.n as i128).and_then(|a| a.checked_sub(self.sum.checked_mul(self.sum)?));
        let centred = exact.map_or(self.squares as f64 * n - self.sum as f64 * self.sum as f64, |c| c as f64) / n;
        let variance = (centred / (n - 1.0)).max(0.0);
        Some((mean, (variance / n).sqrt()))
    }

    /// The mean with its 95 % interval by Student's t (as wide as few values call for: twice the
    /// normal one's at three values); `None` below two values.
    pub fn mean(&self) -> Option<Estimate> {
        let (mean, error) = self.mean_and_error()?;
        let t = t95((self.n - 1) as f64);
        Some(Estimate { value: mean, low: mean - t * error, high: mean + t * error })
    }

    /// The mean of values that lie between `low` and `high`, with a 95 % interval that stays
    /// between them and is never empty: the normal interval of the values with z²/2 more at each
    /// bound (Agresti and Coull's interval for a share, carried over to any bounded value). Few
    /// values that happen to be equal (four matches all won by the starter) get an honest width
    /// rather than none. `None` when there is no value.
    pub fn bounded_mean(&self, low: f64, high: f64) -> Option<Estimate> {
        if self.n == 0 {
            return None;
        }
        let (n, z2) = (self.n as f64, Z95 * Z95);
        let value = self.sum as f64 / n;
        let total = n + z2;
        let centre = (self.sum as f64 + z2 / 2.0 * (low + high)) / total;
        let squares = (self.squares as f64 + z2 / 2.0 * (low * low + high * high)) / total;
        let half = Z95 * ((squares - centre * centre).max(0.0) / total).sqrt();
        Some(Estimate { value, low: (centre - half).clamp(low, value), high: (centre + half).clamp(value, high) })
    }

    /// The two-sided p-value of the hypothesis that the mean is 0 (Student's t-test; the values
    /// are per-match differences between two configurations). Equal values give 1 when all are
    /// 0, and otherwise the sign test's p-value, which has no spread to go on: all `n` of one
    /// sign, a chance of 2 in 2^n (0.5 for two matches, not a finding).
    pub fn p_zero_mean(&self) -> Option<f64> {
        let (mean, error) = self.mean_and_error()?;
        if error == 0.0 {
            let all_one_sign = ((1.0 - self.n as f64) * std::f64::consts::LN_2).exp();
            return Some(if mean == 0.0 { 1.0 } else { all_one_sign.min(1.0) });
        }
        Some(t_two_sided_p(mean / error, (self.n - 1) as f64))
    }
}

/// How many matches gave each value (decisions, rounds, a margin): enough to give every
/// percentile exactly, and two histograms add up exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram(pub BTreeMap<u64, u64>);

impl Histogram {
    /// Counts one match that gave `value`.
    pub fn add(&mut self, value: u64) {
        *self.0.entry(value).or_insert(0) += 1;
    }

    /// Adds the counts of another run; `Err` names the count that would not fit.
    pub fn merge(&mut self, other: &Histogram) -> Result<(), String> {
        for (value, count) in &other.0 {
            add_count(self.0.entry(*value).or_insert(0), *count, &format!("the count of {value}"))?;
        }
        Ok(())
    }

    /// How many matches were counted; `None` past 2^64.
    pub fn count(&self) -> Option<u64> {
        self.0.values().try_fold(0u64, |sum, c| sum.checked_add(*c))
    }

    /// The sums of the values counted; `None` when they do not fit.
    pub fn moments(&self) -> Option<Moments> {
        let mut m = Moments::default();
        for (&value, &count) in &self.0 {
            let (v, c) = (value as i128, count as i128);
            m.n = m.n.checked_add(count)?;
            m.sum = m.sum.checked_add(v.checked_mul(c)?)?;
            m.squares = m.squares.checked_add(v.checked_mul(v)?.checked_mul(c)?)?;
        }
        Some(m)
    }

    /// The mean with its normal 95 % interval ([`Moments::mean`]), which stops at 0: the values
    /// counted are never below it, so neither is their mean. `None` below two matches.
    pub fn mean(&self) -> Option<Estimate> {
        let e = self.moments()?.mean()?;
        Some(Estimate { low: e.low.max(0.0), ..e })
    }

    /// The mean with an interval within the smallest and the largest value counted
    /// ([`Moments::bounded_mean`]): for a count that takes few values, mostly one, in few
    /// matches (how far behind a winner was: mostly 1), where the normal interval is too narrow.
    pub fn mean_within_range(&self) -> Option<Estimate> {
        let (low, high) = (*self.0.keys().next()?, *self.0.keys().next_back()?);
        self.moments()?.bounded_mean(low as f64, high as f64)
    }

    /// The value of the `rank`-th match in order (from 1).
    fn ranked(&self, rank: u64) -> u64 {
        let mut seen = 0;
        for (&value, &count) in &self.0 {
            seen += count;
            if seen >= rank {
                return value;
            }
        }
        self.0.keys().next_back().copied().unwrap_or(0)
    }

    /// The `q`-quantile (the smallest value at least a share `q` of matches do not exceed) with
    /// the distribution-free 95 % interval between two order statistics; `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<Estimate> {
        let n = self.count()?;
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let at = |rank: f64| self.ranked((rank.max(1.0) as u64).min(n)) as f64;
        let spread = Z95 * (nf * q * (1.0 - q)).sqrt();
        Some(Estimate {
            value: at((nf * q).ceil()),
            low: at((nf * q - spread).floor()),
            high: at((nf * q + spread).ceil() + 1.0),
        })
    }
}

/// Matches where a yes-or-no figure (a seat won, the match was drawn) differed between two
/// configurations played from the same seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discordant {
    /// Yes in the first configuration only.
    pub first: u64,
    /// Yes in the second configuration only.
    pub second: u64,
}

impl Discordant {
    /// Counts one pair of answers, first configuration then second.
    pub fn add(&mut self, first: bool, second: bool) {
        match (first, second) {
            (true, false) => self.first += 1,
            (false, true) => self.second += 1,
            _ => {}
        }
    }

    /// Adds the counts of another run; `Err` names the count that would not fit.
    pub fn merge(&mut self, other: &Discordant) -> Result<(), String> {
        add_count(&mut self.first, other.first, "first")?;
        add_count(&mut self.second, other.second, "second")
    }

    /// The change from the first configuration to the second in the share of the `n` paired
    /// matches that say yes, with its normal 95 % interval.
    pub fn difference(&self, n: u64) -> Option<Estimate> {
        if n == 0 {
            return None;
        }
        let (a, b, n) = (self.first as f64, self.second as f64, n as f64);
        let d = (b - a) / n;
        let error = (((a + b) / n - d * d).max(0.0) / n).sqrt();
        Some(Estimate { value: d, low: d - Z95 * error, high: d + Z95 * error })
    }

    /// McNemar's two-sided p-value: exact (binomial) up to [`EXACT_MCNEMAR`] differing matches,
    /// the normal form with continuity correction above. No differing match gives 1.
    pub fn p(&self) -> f64 {
        let (a, b) = (self.first, self.second);
        let n = a + b;
        if n == 0 {
            return 1.0;
        }
        if n <= EXACT_MCNEMAR {
            return (2.0 * binomial_tail(a.min(b), n)).min(1.0);
        }
        let z = ((a as f64 - b as f64).abs() - 1.0).max(0.0) / (n as f64).sqrt();
        two_sided_p(z)
    }
}

/// Up to this many differing matches McNemar's test counts exactly.
pub const EXACT_MCNEMAR: u64 = 1000;

/// P(X <= k) for X binomial with `n` trials of chance one half, summed in logarithms.
fn binomial_tail(k: u64, n: u64) -> f64 {
    let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut total = log_pmf.exp();
    for i in 0..k {
        log_pmf += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        total += log_pmf.exp();
    }
    total.min(1.0)
}

/// The p-value of Pearson's chi-squared test that `counts` (wins per seat, say) are equally
/// likely: `None` for fewer than two counts or none counted.
pub fn p_equal(counts: &[u64]) -> Option<f64> {
    let total: f64 = counts.iter().map(|c| *c as f64).sum();
    if counts.len() < 2 || total == 0.0 {
        return None;
    }
    let expected = total / counts.len() as f64;
    let chi2: f64 = counts.iter().map(|c| (*c as f64 - expected).powi(2) / expected).sum();
    Some(chi_squared_tail(chi2, (counts.len() - 1) as f64))
}

/// P(X > x) for X chi-squared with `k` degrees of freedom: the regularized upper incomplete
/// gamma function Q(k/2, x/2), by its series below a + 1 and its continued fraction above
/// (Numerical Recipes, 6.2).
fn chi_squared_tail(x: f64, k: f64) -> f64 {
    let (a, x) = (k / 2.0, x / 2.0);
    if x <= 0.0 {
        return 1.0;
    }
    let front = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        return (1.0 - sum * front).clamp(0.0, 1.0);
    }
    let tiny = 1e-300;
    let mut b = x + 1.0 - a;
    let (mut c, mut d) = (1.0 / tiny, 1.0 / b);
    let mut h = d;
    for i in 1..1000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        d = if d.abs() < tiny { tiny } else { d };
        c = b + an / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    (front * h).clamp(0.0, 1.0)
}

/// The logarithm of the gamma function (Lanczos' approximation, g = 7, 9 terms).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = C[1..].iter().enumerate().fold(C[0], |s, (i, c)| s + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// Beyond this many degrees of freedom Student's t is taken for the normal distribution: they
/// differ by less than a millionth there.
const NORMAL_DF: f64 = 1e7;

/// The two-sided p-value of Student's t statistic `t` with `df` degrees of freedom: the
/// regularized incomplete beta function I_x(df/2, 1/2) at x = df / (df + t²).
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    if df > NORMAL_DF {
        return two_sided_p(t);
    }
    incomplete_beta(df / (df + t * t), df / 2.0, 0.5).clamp(0.0, 1.0)
}

/// The two-sided 95 % point of Student's t distribution with `df` degrees of freedom (12.71 at
/// one, 2.23 at ten, the normal 1.96 in the limit), by bisection to far below the printed digits.
fn t95(df: f64) -> f64 {
    if df > NORMAL_DF {
        return Z95;
    }
    let (mut low, mut high) = (Z95, 1e4);
    for _ in 0..64 {
        let mid = (low + high) / 2.0;
        if t_two_sided_p(mid, df) > 0.05 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// The regularized incomplete beta function I_x(a, b), by its continued fraction on the side
/// where it converges fast (Numerical Recipes, 6.4).
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

/// The continued fraction of the incomplete beta function, by Lentz's method.
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    let tiny = 1e-300;
    let guard = |v: f64| if v.abs() < tiny { tiny } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..10_000 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The two-sided p-value of a standard normal statistic.
pub fn two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error below
/// 1.2e-7 everywhere): enough for p-values.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Holm's step-down correction: each p-value raised so that calling "significant" every
/// adjusted p-value below [`ALPHA`] keeps the chance of any false finding among all of them
/// under [`ALPHA`].
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]).then(a.cmp(&b)));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * ps[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe (1998), table I: 81 of 263 gives 0.2553 to 0.3662.
        let e = share(81, 263).expect("trials");
        assert!(close(e.low, 0.2553, 5e-4) && close(e.high, 0.3662, 5e-4), "{e:?}");
        // None of 10: 0 to 0.2775.
        let e = share(0, 10).expect("trials");
        assert!(e.low == 0.0 && close(e.high, 0.2775, 5e-4), "{e:?}");
        assert_eq!(share(3, 0), None);
        // None or all: the interval holds the share and ends at exactly 0 or 1.
        for (k, n) in [(0, 2000), (0, 7), (2000, 2000), (10, 10), (400, 400)] {
            let e = share(k, n).expect("trials");
            assert!(e.low <= e.value && e.value <= e.high, "{k} of {n}: {e:?}");
            assert!(if k == 0 { e.low == 0.0 } else { e.high == 1.0 }, "{k} of {n}: {e:?}");
        }
    }

    #[test]
    fn normal_tails_are_right() {
        assert!(close(two_sided_p(Z95), 0.05, 1e-6));
        assert!(close(two_sided_p(0.0), 1.0, 1e-6));
        assert!(close(two_sided_p(-3.0), 0.0026998, 1e-6));
    }

    #[test]
    fn student_t_matches_its_tables() {
        // The two-sided 95 % points at 1, 2, 10 and 30 degrees of freedom, and 1,000.
        for (df, point) in [(1.0, 12.706_2), (2.0, 4.302_7), (10.0, 2.228_1), (30.0, 2.042_3), (1000.0, 1.962_3)] {
            assert!((t95(df) - point).abs() < 1e-4, "t95({df}) = {}", t95(df));
        }
        assert!((t_two_sided_p(2.0, 5.0) - 0.101_9).abs() < 1e-4);
        assert!((t_two_sided_p(0.0, 5.0) - 1.0).abs() < 1e-12);
        assert!((t_two_sided_p(3.0, 1e8) - two_sided_p(3.0)).abs() < 1e-12);
    }

    #[test]
    fn a_mean_of_few_values_is_not_called_different_from_zero() {
        // Two matches, each one point apart: no spread, yet no finding.
        let mut two = Moments::default();
        (0..2).for_each(|_| two.add(-1));
        assert_eq!(two.p_zero_mean(), Some(0.5));
        let mut ten = Moments::default();
        (0..10).for_each(|_| ten.add(3));
        assert!((ten.p_zero_mean().expect("a p-value") - 2.0 / 1024.0).abs() < 1e-12);
        // Three values: the interval is Student's, over twice as wide as the normal one.
        let mut three = Moments::default();
        [1, 2, 3].iter().for_each(|&x| three.add(x));
        let e = three.mean().expect("a mean");
        assert!((e.high - 2.0 - 4.302_7 / 3f64.sqrt()).abs() < 1e-3, "{e:?}");
    }

    #[test]
    fn mcnemar_is_exact_for_few_differences() {
        // 2 against 8: P(X <= 2) = 56/1024, doubled.
        let d = Discordant { first: 2, second: 8 };
        assert!(close(d.p(), 112.0 / 1024.0, 1e-12), "{}", d.p());
        assert_eq!(Discordant::default().p(), 1.0);
        // Many differing matches: the normal form, 600 against 500.
        let d = Discordant { first: 600, second: 500 };
        assert!(close(d.p(), two_sided_p(99.0 / 1100f64.sqrt()), 1e-12));
    }

    #[test]
    fn moments_give_mean_and_test() {
        let mut m = Moments::default();
        for x in [2, 4, 4, 4, 5, 5, 7, 9] {
            m.add(x);
        }
        let e = m.mean().expect("values");
        // Sample standard deviation sqrt(32/7); standard error that over sqrt(8).
        let error = (32.0f64 / 7.0 / 8.0).sqrt();
        // Student's t at 7 degrees of freedom: 2.364624 (from tables).
        assert!(close(e.value, 5.0, 1e-12) && close(e.high - e.value, 2.364_624 * error, 1e-5), "{e:?}");
        assert!(close(m.p_zero_mean().expect("values"), t_two_sided_p(5.0 / error, 7.0), 1e-12));
        let mut zero = Moments::default();
        zero.add(0);
        zero.add(0);
        assert_eq!(zero.p_zero_mean(), Some(1.0));
    }

    #[test]
    fn a_histograms_mean_has_no_interval_below_zero() {
        let mut h = Histogram::default();
        for x in [0, 0, 0, 0, 0, 0, 0, 0, 0, 3] {
            h.add(x);
        }
        let normal = h.moments().and_then(|m| m.mean()).expect("values");
        assert!(normal.low < 0.0, "the normal interval reaches below 0 here: {normal:?}");
        let e = h.mean().expect("values");
        assert_eq!((e.value, e.low, e.high), (normal.value, 0.0, normal.high));
    }

    #[test]
    fn quantiles_come_from_the_histogram() {
        let mut h = Histogram::default();
        for v in 1..=100 {
            h.add(v);
        }
        let median = h.quantile(0.5).expect("values");
        assert_eq!(median.value, 50.0);
        // Ranks 50 -/+ 1.96 * 5: the 40th and the 61st values.
        assert_eq!((median.low, median.high), (40.0, 61.0));
        assert_eq!(h.quantile(0.1).expect("values").value, 10.0);
        assert_eq!(h.moments().map(|m| m.sum), Some(5050));
    }

    #[test]
    fn equal_counts_are_tested_with_chi_squared() {
        // 60 against 40: chi-squared 4 on one degree of freedom, the normal tail at 2: erfc(√2).
        assert!(close(p_equal(&[60, 40]).expect("counts"), 0.045_500_263_896_358_4, 1e-12));
        // Three counts: chi-squared 5 on two degrees of freedom has the tail e^-2.5.
        assert!(close(p_equal(&[40, 25, 25]).expect("counts"), (-2.5f64).exp(), 1e-12));
        assert!(close(p_equal(&[10, 10, 10, 10]).expect("counts"), 1.0, 1e-12));
        // A large statistic on five degrees of freedom: 30 has the tail 1.4748581e-5.
        assert!(close(chi_squared_tail(30.0, 5.0), 1.474_858_1e-5, 1e-12));
        assert_eq!(p_equal(&[3]), None);
    }

    #[test]
    fn a_bounded_mean_stays_within_its_bounds_and_is_never_empty() {
        // Four matches all won by the starter of two players: an edge of +1/2 each.
        let mut m = Moments::default();
        for _ in 0..4 {
            m.add(1);
        }
        let e = m.bounded_mean(-1.0, 1.0).expect("values");
        assert!(e.value == 1.0 && e.high == 1.0 && e.low < 0.5 && e.low > -1.0, "{e:?}");
        // Values at both bounds: the interval stays within them.
        let mut m = Moments::default();
        for x in [1, -1, 1] {
            m.add(x);
        }
        let e = m.bounded_mean(-1.0, 1.0).expect("values");
        assert!(e.low >= -1.0 && e.high <= 1.0 && e.low < e.value && e.value < e.high, "{e:?}");
        // A share: the Agresti-Coull interval, 81 of 263 from 0.2556 to 0.3662 or so.
        let mut m = Moments::default();
        for i in 0..263 {
            m.add(i64::from(i < 81));
        }
        let e = m.bounded_mean(0.0, 1.0).expect("values");
        let wilson = share(81, 263).expect("trials");
        assert!(close(e.low, wilson.low, 2e-3) && close(e.high, wilson.high, 2e-3), "{e:?}");
    }

    #[test]
    fn holm_steps_down() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.5]);
        for (a, b) in adjusted.iter().zip([0.04, 0.09, 0.09, 0.5]) {
            assert!(close(*a, b, 1e-12), "{adjusted:?}");
        }
    }
}
