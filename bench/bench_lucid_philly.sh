#!/usr/bin/env bash
# The whole Philly trace (82,247 jobs) under Lucid and under Lucid + schedmate
# with the components running for real (issue 7 target: <= 60 s on one core
# for the schedmate run). Prints both wall times and their ratio, from one
# run of `schedmate lucid`. Skips when ../shared is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SCHEDMATE_BIN:-build/bin/schedmate}
if [[ ! -f ../shared/traces/philly/philly.csv ]]; then
  echo "skip: ../shared/traces/philly/philly.csv is absent"; exit 0
fi
[[ -x $bin ]] || { echo "build first: bash scripts/test.sh (or cmake --build build)"; exit 1; }
out=$(taskset -c 0 "$bin" lucid --config configs/lucid/philly_full.json --json --progress off)
python3 - "$out" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
base, sm = d["runs"][0], d["runs"][1]
print(d["setting"])
print(f"lucid            {base['wall_s']:7.1f} s")
print(f"lucid+schedmate  {sm['wall_s']:7.1f} s  ({sm['wall_s']/base['wall_s']:.1f}x Lucid's replay; target <= 60 s)")
s = sm["schedmate"]
print(f"  of which: extraction {s['extract_ms_total']/1e3:.1f} s ({s['repositories_extracted']} repositories), "
      f"retrieval+estimate {(s['advisor_ms_total']-s['extract_ms_total'])/1e3:.1f} s, "
      f"write-back {s['write_back_ms_total']/1e3:.1f} s, tracker {s['tracker_ms_total']/1e3:.1f} s ({s['checks']} checks)")
PY
