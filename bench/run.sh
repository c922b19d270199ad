#!/usr/bin/env bash
# Benchmarks of sowbridge at growing campaign sizes. Not run by the tests or CI: it builds in
# release mode and takes a few minutes.
#
#   bench/run.sh                         # fixture, 100, 1,000 and 10,000 forces, 7 runs each
#   SIZES=fixture,100,1000 RUNS=3 bench/run.sh
#   WORK=/tmp/sowbridge-bench bench/run.sh
#   LATENCY_FILES=0 bench/run.sh         # without the watcher latency (10 files by default)
#   ONLY=check,move SIZES=10000 bench/run.sh   # only these slots (first words of the commands)
#
# For each size it generates a synthetic campaign (examples/gen_campaign.rs; the fixture is
# fixtures/peninsula), times `check`, `contacts`, `map`, `map export` and `map import` (the Tiled
# map, against 3x `check`), `export hex <a contact hex>`, `move` of
# every force (against 5x `check`), `move` with no file continuing the same marches as
# standing orders of every force (against 5x `check`), `supply` (against 3x `check`), and with
# that battle pending `battle template`, `inspect` of a hand-settled result and `apply` of
# it, then `audit`, and prints the median wall time beside the
# floor (every file of the campaign folder and the result file apply is given, read and
# parsed with the csv and toml crates alone, and the same output bytes written and synced),
# the growth between sizes, and the peak memory, then the watcher's latency, each with PASS
# or FAIL against its target: a command within 3x its floor (`map`: or within 3x `check`
# on the same campaign in the same run); ten times the units in at most
# twelve times the time; under 200 MiB at the largest size; a result committed within the
# settle window + 300 ms (median). Exit status 0 when all pass.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES="${SIZES:-fixture,100,1000,10000}"
RUNS="${RUNS:-7}"
WORK="${WORK:-${TMPDIR:-/tmp}/sowbridge-bench}"
SEED="${SEED:-1808}"

LATENCY_FILES="${LATENCY_FILES:-10}"

cargo build --release --quiet --bin sowbridge --example bench --example gen_campaign --example watch_latency
echo "machine: $(nproc) cores, $(uname -sm)"
status=0
target/release/examples/bench --bin target/release/sowbridge --sizes "$SIZES" --runs "$RUNS" \
  --work "$WORK" --seed "$SEED" || status=1
# Watcher latency (examples/watch_latency.rs): a complete dump renamed into the inbox until
# the campaign is committed, against the settle window + 300 ms. LATENCY_FILES=0 skips it.
if [ "$LATENCY_FILES" != 0 ]; then
  echo
  echo "# watcher latency"
  target/release/examples/watch_latency --files "$LATENCY_FILES" || status=1
fi
exit "$status"
