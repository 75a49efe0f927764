#!/usr/bin/env bash
# The scheduled fuzzing run (issue 16): every libFuzzer target for at least
# SECONDS (default 600 = 10 minutes) with ASan + UBSan, on its seed corpus plus
# the corpus the earlier runs grew (build-fuzz/corpus/, kept between runs).
# Writes a dated summary to results/fuzz/ and exits non-zero when any target
# found a crash, a leak or undefined behaviour (the reproducer is in build-fuzz/).
#
# Too long for CI (16 targets × 10 min); run it from cron, e.g. every Saturday:
#   0 2 * * 6  cd /srv/schedmate && bash scripts/fuzz_scheduled.sh >> /var/log/schedmate-fuzz.log 2>&1
# Usage: scripts/fuzz_scheduled.sh [SECONDS] [TARGET-NAME-FILTER]
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
filter=${2:-}
if (( seconds < 600 )); then
  echo "note: $seconds s per target is below the scheduled run's 10 minutes" >&2
fi
mkdir -p results/fuzz
summary=results/fuzz/$(date -u +%Y-%m-%dT%H%M%SZ).txt
start=$(date +%s)
bash scripts/fuzz.sh "$seconds" "$filter" | tee "$summary"
status=${PIPESTATUS[0]}
echo "fuzz run: $(( $(date +%s) - start )) s, $( ((status == 0)) && echo "no findings" || echo "FINDINGS (see build-fuzz/*.log)")" \
  | tee -a "$summary"
exit "$status"
