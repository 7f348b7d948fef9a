#!/usr/bin/env bash
# Checks the tree-sitter grammar with the tree-sitter CLI (`cargo install tree-sitter-cli
# --locked`; `tree-sitter generate` also needs node): the committed parser is the one grammar.js
# generates, the corpus (test/corpus) and highlighting (test/highlight) tests pass, and every rule
# file and example of the project parses without an error.
#
# `./test.sh --hash-only` needs no CLI: it checks only that grammar.js is the one the committed
# parser was generated from (src/grammar.js.sha256, which `./test.sh` writes).
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = "--hash-only" ]; then
  sha256sum --check --quiet src/grammar.js.sha256 || {
    echo "editors/tree-sitter-paradox: grammar.js changed since the parser was generated: run ./test.sh" >&2
    exit 1
  }
  exit 0
fi
# ABI 14: the newest that Neovim 0.10 and Helix load (ABI 15 needs Neovim 0.11).
tree-sitter generate --abi 14
sha256sum grammar.js > src/grammar.js.sha256
git diff --exit-code --stat -- src || {
  echo "editors/tree-sitter-paradox: the committed parser differs from what grammar.js generates" >&2
  exit 1
}
tree-sitter test
tree-sitter parse --grammar-path . --quiet --stat ../../rules/*.cards ../../examples/*.cards
