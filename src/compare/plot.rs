//! `--plot FILE.svg`: the configurations side by side in one picture (plotters): the win
//! shares with their 95 % intervals, then histograms of the match length (decisions) and of
//! the winning margin, as shares of each configuration's matches.

use super::report::Report;
use super::{Described, Run};
use crate::sim::Tallies;
use crate::stats::{Estimate, Histogram};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

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

type Failure = Box<dyn std::error::Error>;
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The picture as SVG text.
pub fn svg(run: &Run, tallies: &Tallies, report: &Report) -> Result<String, String> {
    let mut text = String::new();
    draw(&mut text, run, tallies, report).map_err(|e| format!("the plot could not be drawn: {e}"))?;
    Ok(text)
}

fn draw(text: &mut String, run: &Run, tallies: &Tallies, report: &Report) -> Result<(), Failure> {
    let root = SVGBackend::with_string(text, (1000, 1140)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("{}: {} matches per configuration, bots {}", run.game, report.matches, run.bots);
    let root = root.titled(&title, ("sans-serif", 22))?;
    let (top, rest) = root.split_vertically(400);
    let (middle, bottom) = rest.split_vertically(350);
    let labels: Vec<String> = run.configurations.iter().map(|d| d.config.label.clone()).collect();
    shares(&top, &run.configurations, report, &labels)?;
    let lengths: Vec<&Histogram> = tallies.configurations.iter().map(|t| &t.decisions).collect();
    histogram(&middle, "Match length (decisions)", &lengths, &labels)?;
    let key = run.configurations.first().map_or(String::new(), |d| d.key.clone());
    let margins: Vec<&Histogram> = tallies.configurations.iter().map(|t| &t.margin).collect();
    histogram(&bottom, &format!("Winning margin ({key})"), &margins, &labels)?;
    root.present()?;
    Ok(())
}

/// Each share of each configuration as a bar with its interval, grouped by figure.
fn shares(area: &Area<'_>, described: &[Described], report: &Report, labels: &[String]) -> Result<(), Failure> {
    let configs = &report.configurations;
    // The figures: every player and side any configuration has, the draws and the starter.
    let mut names: Vec<String> = Vec::new();
    let mut values: Vec<Vec<Option<Estimate>>> = Vec::new();
    let players = described.iter().map(|d| d.players.len()).max().unwrap_or(0);
    for p in 0..players {
        names.push(format!("player {}", p + 1));
        values.push(configs.iter().map(|f| f.players.get(p).and_then(|s| s.share)).collect());
    }
    let sides = configs.iter().map(|f| f.sides.len()).max().unwrap_or(0);
    for t in 0..sides {
        let who = configs.iter().find_map(|f| f.sides.get(t)).map_or(String::new(), |s| s.who.clone());
        names.push(who);
        values.push(configs.iter().map(|f| f.sides.get(t).and_then(|s| s.share)).collect());
    }
    names.push("draws".to_string());
    values.push(configs.iter().map(|f| f.draws.share).collect());
    if configs.iter().any(|f| f.starter.is_some()) {
        names.push("starting player".to_string());
        values.push(configs.iter().map(|f| f.starter.as_ref().and_then(|s| s.share)).collect());
    }
    let n = names.len() as f64;
    let top = values.iter().flatten().flatten().map(|e| e.high * 100.0).fold(10.0, f64::max) * 1.3;
    let mut chart = ChartBuilder::on(area)
        .caption("Win shares with their 95 % intervals", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..top.min(100.0))?;
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
        .y_desc("% of matches")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .disable_x_mesh()
        .draw()?;
    let k = configs.len() as f64;
    let width = 0.8 / k;
    for (c, name) in labels.iter().enumerate() {
        let colour = COLOURS[c % COLOURS.len()];
        let left = |i: usize| i as f64 - 0.4 + c as f64 * width;
        let bars = values.iter().enumerate().filter_map(|(i, v)| {
            v[c].map(|e| Rectangle::new([(left(i), 0.0), (left(i) + width * 0.9, e.value * 100.0)], colour.filled()))
        });
        chart
            .draw_series(bars)?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        let bars = values.iter().enumerate().filter_map(|(i, v)| {
            let centre = left(i) + width * 0.45;
            v[c].map(|e| ErrorBar::new_vertical(centre, e.low * 100.0, e.value * 100.0, e.high * 100.0, BLACK, 8))
        });
        chart.draw_series(bars)?;
    }
    legend(&mut chart)
}

/// Histograms of one per-match count, one colour per configuration, as shares of its matches.
fn histogram(area: &Area<'_>, caption: &str, histograms: &[&Histogram], labels: &[String]) -> Result<(), Failure> {
    let low = histograms.iter().filter_map(|h| h.0.keys().next()).min().copied().unwrap_or(0);
    // Up to the largest 99th percentile, so that a long tail leaves room for the rest.
    let high = histograms.iter().filter_map(|h| h.quantile(0.99)).map(|e| e.value as u64).max().unwrap_or(low);
    let bin = (high - low).div_ceil(BINS).max(1);
    let bins = (high - low) / bin + 1;
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
fn legend<'a>(chart: &mut Chart<'a, 'a>) -> Result<(), Failure> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
