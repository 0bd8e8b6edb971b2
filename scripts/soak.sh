#!/usr/bin/env bash
# The long counts the test suite keeps short: the rules' invariants over many more random games,
# the server's races many more times, and the CPU players' strength floors over bigger arenas,
# each `LUDO_SOAK` times the suite's count (20 unless given: `scripts/soak.sh 50`), in the test
# builds the suite uses (the engine and the CPU players are optimised there too). Run it before a
# release, and after a change to the engine's rules, the rooms' concurrency or a CPU level. Prints
# what each part measured; fails if any part does. How long it takes: docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export LUDO_SOAK=${1:-20}
echo "== soak at ${LUDO_SOAK} times the suite's counts"
started=$SECONDS
cargo test -p ludo-rules --test invariants -- --nocapture
cargo test -p ludo-server --test races -- --nocapture
cargo test -p ludo-bots --test bots -- --nocapture
echo "== soak passed in $((SECONDS - started)) s"
