//! `--plot FILE.svg` (or `.png`): the configurations side by side in one picture (plotters):
//! every figure that is a share with its 95 % interval (who wins, the starter, skill, drama,
//! security, convergence), the lead-history trend (the winners' lead at each tenth of the match,
//! with its band), then histograms of the match length (decisions) and of the winning margin,
//! as shares of each configuration's matches.

use super::report::{Figures, Report};
use super::{Described, Run};
use crate::sim::Tallies;
use crate::stats::{Estimate, Histogram};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;

/// One colour per configuration, in order (then round again).
const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// At most this many bars per configuration in a histogram.
const BINS: u64 = 30;

/// The picture's size in pixels.
const SIZE: (u32, u32) = (1100, 1500);

/// Where a PNG finds its letters: plotters draws text into a bitmap with a TrueType font it is
/// given, and the DejaVu fonts are the ones most systems have.
#[cfg(feature = "png")]
const FONTS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
];

type Failure = Box<dyn std::error::Error>;
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws the picture into `path`: a PNG when its name ends in `.png` (in a build with the `png`
/// feature), SVG otherwise.
pub fn write(path: &Path, run: &Run, tallies: &Tallies, report: &Report) -> Result<(), String> {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
        return png(path, run, tallies, report);
    }
    let svg = svg(run, tallies, report)?;
    std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(feature = "png")]
fn png(path: &Path, run: &Run, tallies: &Tallies, report: &Report) -> Result<(), String> {
    register_font()?;
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    draw(&root, run, tallies, report).map_err(|e| format!("the plot could not be drawn: {e}"))
}

#[cfg(not(feature = "png"))]
fn png(path: &Path, _: &Run, _: &Tallies, _: &Report) -> Result<(), String> {
    Err(format!(
        "cannot draw {}: this paradox was built without PNG plots (build it with `--features png`); draw an .svg instead",
        path.display()
    ))
}

/// The picture as SVG text.
pub fn svg(run: &Run, tallies: &Tallies, report: &Report) -> Result<String, String> {
    // With the `png` feature plotters measures an SVG's letters with the font as well.
    #[cfg(feature = "png")]
    register_font()?;
    let mut text = String::new();
    let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
    draw(&root, run, tallies, report).map_err(|e| format!("the plot could not be drawn: {e}"))?;
    drop(root);
    Ok(text)
}

/// Gives plotters a font for the letters of a PNG, once.
#[cfg(feature = "png")]
fn register_font() -> Result<(), String> {
    static FONT: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    FONT.get_or_init(|| {
        let bytes = FONTS.iter().find_map(|f| std::fs::read(f).ok()).ok_or_else(|| {
            format!("a PNG needs the DejaVu Sans font, found in none of {}; draw an .svg instead", FONTS.join(", "))
        })?;
        // The font lives as long as the program: plotters keeps it for every PNG.
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .map_err(|_| "the DejaVu Sans font could not be read".to_string())
    })
    .clone()
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    run: &Run,
    tallies: &Tallies,
    report: &Report,
) -> Result<(), Failure>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let title = format!("{}: {} matches per configuration, bots {}", run.game, report.matches, run.bots);
    let root = root.titled(&title, ("sans-serif", 22))?;
    let (top, rest) = root.split_vertically(440);
    let (trend_area, rest) = rest.split_vertically(340);
    let (middle, bottom) = rest.split_vertically(330);
    let labels: Vec<String> = run.configurations.iter().map(|d| d.config.label.clone()).collect();
    shares(&top, &run.configurations, report, &labels)?;
    trend(&trend_area, report, &labels)?;
    let lengths: Vec<&Histogram> = tallies.configurations.iter().map(|t| &t.decisions).collect();
    histogram(&middle, ("Match length", "decisions"), &lengths, &labels)?;
    let key = run.configurations.first().map_or(String::new(), |d| d.key.clone());
    let margins: Vec<&Histogram> = tallies.configurations.iter().map(|t| &t.margin).collect();
    histogram(&bottom, (&format!("Winning margin in {key}"), &key), &margins, &labels)?;
    root.present()?;
    Ok(())
}

/// Every figure that is a share, named, with each configuration's value.
fn share_figures(described: &[Described], configs: &[Figures]) -> Vec<(String, Vec<Option<Estimate>>)> {
    let mut figures: Vec<(String, Vec<Option<Estimate>>)> = Vec::new();
    let mut add = |name: String, value: &dyn Fn(&Figures) -> Option<Estimate>| {
        let values: Vec<Option<Estimate>> = configs.iter().map(value).collect();
        if values.iter().any(Option::is_some) {
            figures.push((name, values));
        }
    };
    let players = described.iter().map(|d| d.players.len()).max().unwrap_or(0);
    for p in 0..players {
        add(format!("player {} wins", p + 1), &|f| f.players.get(p).and_then(|s| s.share));
    }
    let sides = configs.iter().map(|f| f.sides.len()).max().unwrap_or(0);
    for t in 0..sides {
        let who = configs.iter().find_map(|f| f.sides.get(t)).map_or(String::new(), |s| s.who.clone());
        add(format!("{who} wins"), &|f| f.sides.get(t).and_then(|s| s.share));
    }
    add("draws".to_string(), &|f| f.draws.share);
    add("starter wins".to_string(), &|f| f.starter.as_ref().and_then(|s| s.share));
    add("strong player wins".to_string(), &|f| f.skill.as_ref().and_then(|s| s.share));
    add("won from behind".to_string(), &|f| f.comebacks);
    add("half-time leader wins".to_string(), &|f| f.security);
    add("settled after (of match)".to_string(), &|f| f.settled);
    figures
}

/// Each share of each configuration as a bar with its interval, grouped by figure.
fn shares<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    described: &[Described],
    report: &Report,
    labels: &[String],
) -> Result<(), Failure>
where
    DB::ErrorType: 'static,
{
    let configs = &report.configurations;
    let figures = share_figures(described, configs);
    let names: Vec<String> = figures.iter().map(|(n, _)| n.clone()).collect();
    let n = names.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption("Every share with its 95 % interval", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..118.0)?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_labels(names.len() + 1)
        .x_label_formatter(&label)
        .x_label_style(("sans-serif", 11))
        .y_desc("% of matches")
        .y_labels(7)
        .y_label_formatter(&|y| if *y <= 100.0 { format!("{y:.0}") } else { String::new() })
        .disable_x_mesh()
        .draw()?;
    let width = 0.8 / configs.len() as f64;
    for (c, name) in labels.iter().enumerate() {
        let colour = COLOURS[c % COLOURS.len()];
        let left = |i: usize| i as f64 - 0.4 + c as f64 * width;
        let values = || figures.iter().enumerate().filter_map(|(i, (_, v))| v[c].map(|e| (i, e.scaled(100.0))));
        let bars =
            values().map(|(i, e)| Rectangle::new([(left(i), 0.0), (left(i) + width * 0.9, e.value)], colour.filled()));
        chart
            .draw_series(bars)?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        let bars =
            values().map(|(i, e)| ErrorBar::new_vertical(left(i) + width * 0.45, e.low, e.value, e.high, BLACK, 6));
        chart.draw_series(bars)?;
    }
    legend(&mut chart)
}

/// The lead-history trend: for each configuration, the winners' lead over the best of the
/// others at each tenth of the match, with its 95 % band.
fn trend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, report: &Report, labels: &[String]) -> Result<(), Failure>
where
    DB::ErrorType: 'static,
{
    let configs = &report.configurations;
    let points = |f: &Figures| -> Vec<(f64, Estimate)> {
        f.trend.iter().enumerate().filter_map(|(t, e)| e.map(|e| (10.0 * t as f64, e))).collect()
    };
    let all: Vec<Estimate> = configs.iter().flat_map(|f| points(f).into_iter().map(|(_, e)| e)).collect();
    let low = all.iter().map(|e| e.low).fold(0.0, f64::min);
    let high = all.iter().map(|e| e.high).fold(1.0, f64::max);
    let pad = (high - low) * 0.15;
    let key = configs.first().map_or(String::new(), |f| f.key.clone());
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Lead history: the winner's lead over the best of the others, in {key}"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..100.0, low - pad..high + pad)?;
    chart
        .configure_mesh()
        .x_desc("% of the match (in decisions)")
        .y_desc(key.as_str())
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    for (c, (f, name)) in configs.iter().zip(labels).enumerate() {
        let colour = COLOURS[c % COLOURS.len()];
        let line = points(f);
        let band: Vec<(f64, f64)> =
            line.iter().map(|(x, e)| (*x, e.high)).chain(line.iter().rev().map(|(x, e)| (*x, e.low))).collect();
        chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.2).filled())))?;
        chart
            .draw_series(LineSeries::new(line.iter().map(|(x, e)| (*x, e.value)), colour.stroke_width(2)))?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    legend(&mut chart)
}

/// Histograms of one per-match count, one colour per configuration, as shares of its matches;
/// the bars stop at the largest 99th percentile, and the caption says what the last one holds.
fn histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (caption, unit): (&str, &str),
    histograms: &[&Histogram],
    labels: &[String],
) -> Result<(), Failure>
where
    DB::ErrorType: 'static,
{
    let low = histograms.iter().filter_map(|h| h.0.keys().next()).min().copied().unwrap_or(0);
    // Up to the largest 99th percentile, so that a long tail leaves room for the rest.
    let high = histograms.iter().filter_map(|h| h.quantile(0.99)).map(|e| e.value as u64).max().unwrap_or(low);
    let bin = (high - low).div_ceil(BINS).max(1);
    let bins = (high - low) / bin + 1;
    let last = low + (bins - 1) * bin;
    let largest = histograms.iter().filter_map(|h| h.0.keys().next_back()).max().copied().unwrap_or(low);
    let caption = if largest >= last + bin {
        format!("{caption}; the last bar counts every match of {last} {unit} or more, up to {largest}")
    } else {
        caption.to_string()
    };
    let shares: Vec<Vec<f64>> = histograms
        .iter()
        .map(|h| {
            let total = h.count().unwrap_or(0).max(1) as f64;
            let mut counts = vec![0u64; bins as usize];
            for (&value, &count) in &h.0 {
                counts[((value.max(low) - low) / bin).min(bins - 1) as usize] += count;
            }
            counts.into_iter().map(|c| 100.0 * c as f64 / total).collect()
        })
        .collect();
    let top = shares.iter().flatten().copied().fold(1.0, f64::max) * 1.3;
    // Bin b holds the values from low + b * bin on, drawn over the width they cover.
    let (from, to) = (low as f64 - 0.5, (low + bins * bin) as f64 - 0.5);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(from..to, 0.0..top)?;
    let whole = |x: &f64| if (x - x.round()).abs() < 1e-9 { format!("{x:.0}") } else { String::new() };
    chart
        .configure_mesh()
        .y_desc("% of matches")
        .x_label_formatter(&whole)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .disable_x_mesh()
        .draw()?;
    let width = 0.8 * bin as f64 / histograms.len() as f64;
    for (c, (name, row)) in labels.iter().zip(&shares).enumerate() {
        let colour = COLOURS[c % COLOURS.len()];
        let bars = row.iter().enumerate().map(|(b, share)| {
            let left = from + (b as u64 * bin) as f64 + 0.1 * bin as f64 + c as f64 * width;
            Rectangle::new([(left, 0.0), (left + width * 0.95, *share)], colour.filled())
        });
        chart
            .draw_series(bars)?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    legend(&mut chart)
}

/// The configurations' colours, in the upper right corner.
fn legend<'a, DB: DrawingBackend + 'a>(chart: &mut Chart<'a, DB>) -> Result<(), Failure>
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
