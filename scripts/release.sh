#!/usr/bin/env bash
# Builds what an umpire downloads, for use without Rust:
#   target/release-dist/sowbridge-<version>-windows-x86_64.zip     sowbridge.exe
#   target/release-dist/sowbridge-<version>-linux-x86_64.tar.gz    sowbridge
# each with README.md, LICENSE, docs/ and the example campaign (fixtures/peninsula
# as committed) in example-campaign/. The Windows build needs the x86_64-pc-windows-gnu
# target and Debian's gcc-mingw-w64 (`.ci/run` installs both).
#
#   scripts/release.sh                   both
#   scripts/release.sh --windows-only    the zip only (what CI smoke-runs under Wine)
set -euo pipefail
cd "$(dirname "$0")/.."

windows=1
linux=1
case "${1:-}" in
  "") ;;
  --windows-only) linux=0 ;;
  --linux-only) windows=0 ;;
  *) echo "usage: $0 [--windows-only | --linux-only]" >&2; exit 2 ;;
esac

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target/release-dist"
dist=$(realpath "$target/release-dist")

# The files every package holds besides the program, laid out in folder $1.
common_files() {
  local into=$1
  cp README.md LICENSE CHANGELOG.md "$into/"
  # The READMEs the README links: the profiles' and the map catalogue's.
  for f in templates/*/README.md sow-maps/README.md; do
    mkdir -p "$into/$(dirname "$f")"
    cp "$f" "$into/$f"
  done
  mkdir -p "$into/docs"
  cp docs/*.md "$into/docs/"
  # The pictures the documentation shows.
  cp docs/*.png "$into/docs/"
  # The example result for the example campaign's battle of Medellín, for practice.
  cp fixtures/results/T20-18.28-example.result.csv "$into/"
  # The example campaign as committed: nothing the README's commands wrote into it.
  git ls-files -z fixtures/peninsula | while IFS= read -r -d '' f; do
    local rel=${f#fixtures/peninsula/}
    [ "$rel" = .gitignore ] && continue
    mkdir -p "$into/example-campaign/$(dirname "$rel")"
    cp "$f" "$into/example-campaign/$rel"
  done
}

if ((windows)); then
  name="sowbridge-$version-windows-x86_64"
  cargo build --release --locked --target x86_64-pc-windows-gnu
  stage=$(mktemp -d)
  mkdir "$stage/$name"
  cp "$target"/x86_64-pc-windows-gnu/release/sowbridge.exe "$stage/$name/"
  common_files "$stage/$name"
  rm -f "$dist/$name.zip"
  (cd "$stage" && zip -qr -X "$dist/$name.zip" "$name")
  rm -rf "$stage"
  echo "$dist/$name.zip"
fi

if ((linux)); then
  name="sowbridge-$version-linux-x86_64"
  cargo build --release --locked
  stage=$(mktemp -d)
  mkdir "$stage/$name"
  cp "$target"/release/sowbridge "$stage/$name/"
  common_files "$stage/$name"
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -czf "$dist/$name.tar.gz" "$name"
  rm -rf "$stage"
  echo "$dist/$name.tar.gz"
fi
