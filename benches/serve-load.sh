#!/usr/bin/env bash
# Load on `paradox serve`: TABLES tables at once (one `paradox serve` process each, on the
# loopback address), each with one scripted person playing legal moves through the WebSocket
# and bots at the other seats, for SECONDS. Prints the moves made, the errors, the lost moves
# and the servers' memory (RSS at the start and the end, peak VmHWM). Exits 1 on any error or
# lost move. See benches/serve-load.rs.
#
#   bash benches/serve-load.sh [--tables 50] [--seconds 60] [--rules rules/costly-tricks.cards] [--bots default]
#
# PARADOX_BIN names a release binary already built (else this builds one).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release --bin paradox
target="$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | sed 's/.*:"//; s/"$//')"
exec cargo bench --quiet --bench serve-load -- --paradox "${PARADOX_BIN:-$target/release/paradox}" "$@"
