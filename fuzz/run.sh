#!/usr/bin/env bash
# Fuzzes one target for SECONDS (60 if not given) with debug assertions on (`-a`: overflow
# checks and `debug_assert!`s hold), on the nightly toolchain (cargo-fuzz's builds need it), from
# the seeds of the repository (rule files, examples, fixtures, scripted sessions, save files,
# shards, messages, command lines), in one process:
#   cargo install cargo-fuzz    # once
#   fuzz/run.sh check_render 1800
# The targets: check_render, check_play, fmt, solve, repl_lines, save_files, lsp_messages,
# merge_shards, command_line. New inputs go to fuzz/corpus/TARGET, crashes to
# fuzz/artifacts/TARGET (both ignored by git); a crash is replayed with
#   cargo +nightly fuzz run -s none -a TARGET fuzz/artifacts/TARGET/crash-...
# Safe Rust needs no address sanitizer: without it a run goes several times faster. libFuzzer's
# last lines give the executions (`stat::number_of_executed_units`) and the coverage (`cov:`,
# `ft:` on its last `#N` line).
set -euo pipefail
cd "$(dirname "$0")"
targets="check_render, check_play, fmt, solve, repl_lines, save_files, lsp_messages, merge_shards or command_line"
target=${1:?name a target: $targets}
seconds=${2:-60}
rules=(../rules ../examples ../tests/fixtures/valid ../tests/fixtures/invalid ../tests/fixtures/runtime)
options=(-dict=paradox.dict)
case $target in
  check_render | check_play) seeds=("${rules[@]}") ;;
  fmt) seeds=("${rules[@]}" ../tests/fixtures/format) ;;
  solve) seeds=(../tests/fixtures/solve "${rules[@]}") ;;
  repl_lines) seeds=(../tests/sessions) ;;
  save_files) seeds=(seeds/save_files ../tests/sessions) ;;
  lsp_messages | merge_shards) seeds=("seeds/$target") options=() ;;
  # The command prints much: its output is closed (libFuzzer still reports on its own copy).
  command_line) seeds=(seeds/command_line) options=(-close_fd_mask=3) ;;
  *) echo "no target $target: name $targets" >&2; exit 2 ;;
esac
mkdir -p "corpus/$target"
exec cargo +nightly fuzz run --sanitizer none --debug-assertions "$target" "corpus/$target" "${seeds[@]}" -- \
  "${options[@]}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 </dev/null
