#!/usr/bin/env bash
# Runs every Lucid vs Lucid + schedmate experiment of issue 7 (configs/lucid/)
# and collects the tables in one file. Each setting writes its own directory
# (summary.json, table.txt, JCT CDF and queue plots, per-run job CSVs).
# Usage: scripts/lucid_experiments.sh [OUT_DIR] [--quick]
#   --quick skips the whole-Philly replay (~1 min) and the ablations (~2 min).
# Needs ../shared (the Philly trace, Lucid's and Sia's measurements).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/lucid}
quick=${2:-}
bin=build/bin/schedmate
[[ -x $bin ]] || bash scripts/build.sh
if [[ ! -f ../shared/traces/philly/philly.csv ]]; then
  echo "skip: ../shared/traces/philly/philly.csv is absent"; exit 0
fi
mkdir -p "$out"
summary=$out/all_tables.txt
: > "$summary"
run() {  # name, extra flags...
  local name=$1; shift
  echo "== $name" | tee -a "$summary"
  "$bin" lucid --config "configs/lucid/${name%%+*}.json" --out "$out/$name" --progress off "$@" | tee -a "$summary"
  echo >> "$summary"
}
for c in philly_week philly_week_contended venus saturn acme physical; do run "$c"; done
for s in 2 3; do for c in venus saturn acme physical; do run "$c+seed$s" --seed "$s"; done; done
if [[ $quick != --quick ]]; then
  run philly_full
  run "acme+ablations" --ablations
  run "philly_week_contended+ablations" --ablations
fi
echo "all tables: $summary"
