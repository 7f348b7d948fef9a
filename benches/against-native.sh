#!/usr/bin/env bash
# Random play of Costly Tricks, paradox (interpreted and compiled) against the hand-written native
# engine, alternated in one run: prints each run's decisions/s and the ratios. Optional: a second paradox binary (an older
# build) measured in the same rounds.
#
#   bash benches/against-native.sh [ROUNDS] [OLD_PARADOX_BINARY]
#
# Run it from the project's root on a quiet machine; see benches/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
old=${2:-}
native_dir=${NATIVE_DIR:-../shared/bench/native-costly-tricks}
native_target=${NATIVE_TARGET_DIR:-/tmp/native-target}
# PARADOX_BIN names a release binary already built (else this builds one).
new=${PARADOX_BIN:-}
if [ -z "$new" ]; then
  cargo build --quiet --release
  new="$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | sed 's/.*:"//; s/"$//')/release/paradox"
fi
# shared/ is read-only in CI, so the reference is built elsewhere.
CARGO_TARGET_DIR=$native_target cargo build --quiet --release --manifest-path "$native_dir/Cargo.toml"
native="$native_target/release/native-costly-tricks"

rate() { grep -o '"decisions_per_second": *[0-9.]*' | head -n 1 | sed 's/.*: *//' | awk '{ printf "%.0f", $1 }'; }
bench() { "$1" bench rules/costly-tricks.cards --seconds 2 --format json --engine "${2:-interpreted}" | rate; }
# The compiled engine is built once, into the cache (`paradox build`).
"$new" build rules/costly-tricks.cards >/dev/null

for i in $(seq "$rounds"); do
  n=$("$native" 2000000 | rate)
  p=$(bench "$new")
  c=$(bench "$new" compiled)
  line="round $i: native $n/s, paradox $p/s, ratio $(awk -v p="$p" -v n="$n" 'BEGIN { printf "%.3f", p / n }')"
  line="$line; compiled $c/s, ratio $(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.3f", c / n }'), compiled/interpreted $(awk -v c="$c" -v p="$p" 'BEGIN { printf "%.2f", c / p }')"
  if [ -n "$old" ]; then
    o=$(bench "$old")
    line="$line; old paradox $o/s, new/old $(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.2f", p / o }')"
  fi
  echo "$line"
done
