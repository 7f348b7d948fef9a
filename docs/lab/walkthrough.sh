#!/usr/bin/env bash
# Regenerates docs/lab/: the comparisons behind the README's section "What does my house rule
# change?", one house rule of each shipped game compared with `greedy` players standing in for
# skilled ones (`--skill greedy/random`), and the timing runs of issue 25's item 2 (Costly Tricks,
# base against trick_cost=15, with greedy and with default players).
#
# For each comparison NAME it writes docs/lab/NAME.json (the counts, as `--shard 1/1` prints them:
# `paradox merge docs/lab/NAME.json --plot x.svg` draws its picture without playing again),
# docs/lab/NAME.txt (the report, byte for byte what `paradox compare` without `--shard` prints) and
# docs/lab/NAME.cost (what standard error said: the time, what a match cost, and what 1,000 more
# matches would take).
#
# Usage: docs/lab/walkthrough.sh [NAME...]   (all of them by default, in this order)
#   costly-tricks buddy third-man anarchy tantony pairadox   the six walk-through comparisons
#   item2-greedy    the item-2 comparison with greedy players, 1,000 matches a side, timed whole
#   item2-default   the same with default players on 16 matches a side: four shards, merged
#                   (item2-default/K plays shard K alone; merge them as item2-default does)
# Environment: PARADOX (the binary, target/release/paradox by default), THREADS (1 by default; the
# reports are the same on any number).
# Time (release build, THREADS=1, under nice, the 2-core machine's other core busy with a ladder):
# 15 minutes of wall time for the six comparisons (Anarchy with five players the dearest, about
# 0.6 CPU seconds a seed), 167 CPU seconds for item2-greedy, and about 12 CPU minutes for
# item2-default (163 to 195 s a shard); docs/lab/*.cost and *.time say more.
set -euo pipefail
cd "$(dirname "$0")/../.."
PARADOX=${PARADOX:-target/release/paradox}
THREADS=${THREADS:-1}
out=docs/lab

# compare NAME FILE [ARGS...]: one comparison as one shard, then its report.
compare() {
    local name=$1
    shift
    nice -n 10 "$PARADOX" compare "$@" --engine compiled --threads "$THREADS" --shard 1/1 \
        >"$out/$name.json" 2>"$out/$name.cost"
    "$PARADOX" merge "$out/$name.json" >"$out/$name.txt"
}

# The walk-through: greedy players everywhere, and one greedy player among random ones for skill.
skilled() {
    local name=$1 games=$2
    shift 2
    compare "$name" "$@" --bots greedy --skill greedy/random --games "$games"
}

run() {
    case $1 in
    costly-tricks) skilled costly-tricks 1000 rules/costly-tricks.cards base set:trick_cost=15 ;;
    buddy) skilled buddy 600 rules/buddy-on-your-left.cards base set:equal_exception=false ;;
    third-man) skilled third-man 300 rules/third-man.cards base set:third_multiplier=1 ;;
    anarchy) skilled anarchy 120 rules/anarchy.cards --set players=5 base set:doubled_twos_threes=true ;;
    tantony) skilled tantony 300 rules/tantony.cards base set:high_court_values=true ;;
    pairadox) skilled pairadox 600 rules/pairadox.cards base set:hand_size=12 ;;
    item2-greedy)
        /usr/bin/time -f "%U s user, %S s system, %e s wall" -o "$out/item2-greedy.time" \
            nice -n 10 "$PARADOX" compare rules/costly-tricks.cards base set:trick_cost=15 \
            --bots greedy --games 1000 --engine compiled --threads "$THREADS" \
            >"$out/item2-greedy.txt" 2>"$out/item2-greedy.cost"
        ;;
    item2-default/[1-4])
        local k=${1#*/}
        /usr/bin/time -f "%U s user, %S s system, %e s wall" -o "$out/item2-default-$k.time" \
            nice -n 10 "$PARADOX" compare rules/costly-tricks.cards base set:trick_cost=15 \
            --bots default --games 16 --engine compiled --threads "$THREADS" --shard "$k/4" \
            >"$out/item2-default-$k.json" 2>"$out/item2-default-$k.cost"
        ;;
    item2-default)
        local k
        for k in 1 2 3 4; do run "item2-default/$k"; done
        "$PARADOX" merge "$out"/item2-default-[1-4].json >"$out/item2-default.txt"
        ;;
    *)
        echo "unknown comparison: $1" >&2
        exit 2
        ;;
    esac
}

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(costly-tricks buddy third-man anarchy tantony pairadox item2-greedy item2-default)
for name in "${names[@]}"; do
    echo "$name: $(date -u +%H:%M:%S)" >&2
    run "$name"
done
