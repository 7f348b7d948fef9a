#!/usr/bin/env bash
# The default bot's time per move and the exact solver's positions per second, on the
# interpreter and on the compiled engine, alternated in one run (release build): prints each
# figure and the ratio, round by round.
#
#   bash benches/search-engines.sh [ROUNDS] [BOT_MOVES]
#
# PARADOX_BIN names a release binary already built (else this builds one).
# Run it from the project's root on a quiet machine; see benches/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
moves=${2:-12}
bin=${PARADOX_BIN:-}
if [ -z "$bin" ]; then
  cargo build --quiet --release
  bin="$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | sed 's/.*:"//; s/"$//')/release/paradox"
fi
games="costly-tricks buddy-on-your-left third-man anarchy tantony pairadox"
# The solver's question: a round of Costly Tricks from its fifth trick on (seed 1).
tricks="green 4, green 3, green 8, green 5, blue 1, blue 5, blue 10, blue 4, red 2, red 4, red 8, red 5"
solve_args=(rules/costly-tricks.cards --seed 1 --after "${SOLVE_AFTER:-$tricks, purple 0, purple 5, purple 8, purple 7}")
# The compiled engines are built once, into the cache (`paradox build`).
for g in $games; do "$bin" build "rules/$g.cards" >/dev/null; done

median() { grep -o '"median_seconds": *[0-9.e-]*' | head -n 1 | sed 's/.*: *//'; }
bot() { "$bin" bench "rules/$1.cards" --seconds 0.2 --bot-moves "$moves" --format json --engine "$2" | median; }
rate() { "$bin" solve "${solve_args[@]}" --format json --engine "$1" | grep -o '"nodes":[0-9]*,"seconds":[0-9.e-]*' | awk -F'[:,]' '{ printf "%.0f", $2 / $4 }'; }

for i in $(seq "$rounds"); do
  for g in $games; do
    a=$(bot "$g" interpreted)
    b=$(bot "$g" compiled)
    echo "round $i: $g default bot median $a s interpreted, $b s compiled: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')x"
  done
  a=$(rate interpreted)
  b=$(rate compiled)
  echo "round $i: solver $a positions/s interpreted, $b compiled: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')x"
done
