#!/usr/bin/env bash
# The pictures of docs/pictures.md, drawn from the example campaign by the binary itself and
# rendered to PNG by examples/render.rs, so that the docs show what sowbridge draws today.
# Run it from anywhere after a change to the pictures, and look at the PNGs before committing:
#
#   scripts/doc-pictures.sh
#
# It works in a temporary folder: `sowbridge demo` (the example campaign with the battle of
# Medellín exported), `map`, a side's map, the battle's result applied, the turn advanced,
# the example orders marched and the next turn advanced (the turn's map of their marches).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
cargo build --quiet --bin sowbridge --example render
target="${CARGO_TARGET_DIR:-$repo/target}"
bin="$target/debug/sowbridge"
render="$target/debug/examples/render"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
docs="$repo/docs"

cd "$work"
"$bin" demo >/dev/null 2>&1
c="$work/sowbridge-demo/campaign"
s() { "$bin" --campaign "$c" "$@" >/dev/null 2>&1; }
battle="$c/battles/T20-18.28"

s map --out "$work/map.svg"
"$render" "$work/map.svg" "$docs/map-medellin.png" --crop 650,1750,1000,650
"$render" "$battle/battle.svg" "$docs/medellin-battle.png"
"$render" "$battle/briefings/french.svg" "$docs/medellin-french-view.png" --crop 0,0,600,760
s map --out "$work/allies.svg" --side allies
"$render" "$work/allies.svg" "$docs/map-allies-view.png" --crop 0,1300,1300,1000 --scale 0.7

s apply "$repo/fixtures/results/T20-18.28-example.result.csv"
"$render" "$battle/aftermath.svg" "$docs/medellin-aftermath.png" --crop 0,0,912,904

s turn advance
# The example orders, but for the Army of Extremadura's retreat: it withdrew after the battle.
printf 'force,to\nBR-LIS,10.29\n' > "$work/allies.csv"
s move "$repo/fixtures/orders/french.csv" "$work/allies.csv"
s turn advance
"$render" "$c/turns/T22/marches.svg" "$docs/turn-marches.png" --crop 300,1450,1600,800 --scale 0.7
echo "wrote the pictures of docs/pictures.md into $docs"
