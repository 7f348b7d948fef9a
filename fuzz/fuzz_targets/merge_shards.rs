//! Any bytes as the shards of a `sim` or `compare` run, cut at each NUL into files: each read as
//! `paradox merge` reads a shard, added up, and the report given in every format (text, JSON,
//! CSV) and drawn as the picture of `--plot` (not written to a file).

#![no_main]

use libfuzzer_sys::fuzz_target;
use paradox::compare::report::Report;
use paradox::compare::shard::{Merge, Shard};

/// How many shards one run reads.
const SHARDS: usize = 16;

fuzz_target!(|data: &[u8]| {
    let mut merge = Merge::default();
    for (i, bytes) in data.split(|b| *b == 0).take(SHARDS).enumerate() {
        let Ok(shard) = serde_json::from_slice::<Shard>(bytes) else { return };
        if merge.add(&format!("shard{i}.json"), shard).is_err() {
            return;
        }
    }
    let Ok((run, tallies)) = merge.finish() else { return };
    let report = Report::of(&run, &tallies);
    let _ = paradox::compare::text::render(&report, false);
    let _ = paradox::compare::csv::render(&report);
    let _ = serde_json::to_string_pretty(&report);
    let _ = paradox::compare::plot::svg(&run, &tallies, &report);
});
