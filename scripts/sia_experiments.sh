#!/usr/bin/env bash
# Issue 17's Sia table: plain Sia and Sia + schedmate (`schedmate sia`, both
# runs on the same jobs) on every workload file of configs/sia/{philly,saturn,
# newtrace}.json, one file per process so a stopped run resumes where it was
# (a file whose output exists is skipped; --force reruns). Writes OUT/runs/
# <workload>/<file>.txt (default OUT docs/results/sia) and OUT/README.md with
# mean ± std over the files beside the research's and Sia's published numbers
# (scripts/sia_summary.py). CPU-heavy (~40 s per 160-job file, minutes per
# newtrace file); run it niced: nice -n 10 bash scripts/sia_experiments.sh
#   bash scripts/sia_experiments.sh [--out DIR] [--only philly|saturn|newtrace] [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/results/sia only="" force=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n 2,11p "$0"; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
bin=${SCHEDMATE:-build/bin/schedmate}
[[ -x "$bin" ]] || { echo "error: $bin not built (bash scripts/build.sh)" >&2; exit 2; }
shared=${SHARED:-../shared}
for name in philly saturn newtrace; do
  [[ -n "$only" && "$name" != "$only" ]] && continue
  mkdir -p "$out/runs/$name"
  for f in $(ls "$shared/traces/sia/workloads/$name"/*.csv | sort -V); do
    dest="$out/runs/$name/$(basename "$f" .csv).txt"
    [[ $force == 0 && -s "$dest" ]] && continue
    t0=$SECONDS
    "$bin" sia --config "configs/sia/$name.json" --workloads "$f" > "$dest.tmp"
    mv "$dest.tmp" "$dest"
    echo "$name $(basename "$f"): $((SECONDS - t0)) s" >&2
  done
done
python3 scripts/sia_summary.py "$out" > "$out/README.md"
echo "wrote $out/README.md" >&2
