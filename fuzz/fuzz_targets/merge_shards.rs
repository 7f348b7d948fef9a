//! Any bytes as the shards of a `sim`, `compare` or `ladder` run, cut at each NUL into files:
//! each read as `paradox merge` reads a shard (its kind from the first), added up, and the
//! report given in every format (text, JSON, CSV) and drawn as the picture of `--plot` (not
//! written to a file), or the ladder's table given as text and JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use paradox::compare::report::Report;
use paradox::compare::shard::{Merged, merge_read};

/// How many shards one run reads.
const SHARDS: usize = 16;

fuzz_target!(|data: &[u8]| {
    let files = data.split(|b| *b == 0).take(SHARDS).enumerate();
    let Ok(merged) = merge_read(files.map(|(i, bytes)| Ok((format!("shard{i}.json"), bytes.to_vec())))) else {
        return;
    };
    match merged {
        Merged::Lab(run, tallies) => {
            let report = Report::of(&run, &tallies);
            let _ = paradox::compare::text::render(&report, false);
            let _ = paradox::compare::csv::render(&report);
            let _ = serde_json::to_string_pretty(&report);
            let _ = paradox::compare::plot::svg(&run, &tallies, &report);
        }
        Merged::Ladder(ladder) => {
            let _ = ladder.text();
            let _ = serde_json::to_string_pretty(&ladder);
        }
    }
});
