#!/usr/bin/env bash
# Fuzzes one target for SECONDS (60 if not given) on the nightly toolchain, from the seeds of
# the repository (rule files, examples, fixtures, scripted sessions, save files):
#   cargo install cargo-fuzz    # once
#   fuzz/run.sh check_render 1800
# The targets: check_render, check_play, repl_lines, save_files. New inputs go to
# fuzz/corpus/TARGET, crashes to fuzz/artifacts/TARGET (both ignored by git). Safe Rust needs no
# address sanitizer: without it a run goes several times faster.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?name a target: check_render, check_play, repl_lines or save_files}
seconds=${2:-60}
case $target in
  check_render | check_play) seeds=(../rules ../examples ../tests/fixtures/valid ../tests/fixtures/invalid ../tests/fixtures/runtime) ;;
  repl_lines) seeds=(../tests/sessions) ;;
  save_files) seeds=(seeds/save_files ../tests/sessions) ;;
  *) echo "no target $target" >&2; exit 2 ;;
esac
mkdir -p "corpus/$target"
exec cargo +nightly fuzz run --sanitizer none "$target" "corpus/$target" "${seeds[@]}" -- \
  -dict=paradox.dict -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1
