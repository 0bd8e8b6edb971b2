#!/usr/bin/env bash
# The whole test suite: `cargo test --workspace` (with any arguments given), then the list of
# every suite that skipped itself because the machine lacks what it needs (Chromium, Node,
# PostgreSQL, HAProxy; see crates/ludo-server/src/skips.rs), so that a green run says what it
# did not run. Under CI a suite never skips: it fails instead, and so does this script if
# anything was listed.
set -uo pipefail
cd "$(dirname "$0")/.."
skipped=$(mktemp)
trap 'rm -f "$skipped"' EXIT
LUDO_SKIPPED=$skipped cargo test --workspace "$@"
status=$?
if [ -s "$skipped" ]; then
  printf '\nSkipped, for want of what they need:\n'
  sort -u "$skipped" | sed 's/^/  - /'
  if [ -n "${CI:-}" ]; then
    status=1
  else
    printf 'How to run them: docs/testing.md.\n'
  fi
else
  printf '\nEvery suite ran.\n'
fi
exit "$status"
