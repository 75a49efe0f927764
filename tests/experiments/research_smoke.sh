#!/usr/bin/env bash
# CI smoke run of the research suite: `schedmate experiments run
# configs/research --only lucid-physical` end to end (3 seeds of the
# research's physical-run setting, a few seconds), then checks the report:
# the table with ours (mean ± sd) beside the research's numbers, the setting,
# the semantic layer's cost, the plots, and the re-render.
# Usage: research_smoke.sh SCHEDMATE_BIN SOURCE_DIR. Exit 77 (CTest SKIP) without ../shared.
set -euo pipefail
bin=$(realpath "${1:?usage: research_smoke.sh SCHEDMATE_BIN SOURCE_DIR}")
src=$(realpath "${2:?usage: research_smoke.sh SCHEDMATE_BIN SOURCE_DIR}")
shared=${SCHEDMATE_SHARED:-$src/../shared}
if [[ ! -f $shared/traces/philly/philly.csv ]]; then
  echo "SKIP: no $shared/traces/philly/philly.csv"
  exit 77
fi
work=$(mktemp -d /tmp/schedmate-research-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "research smoke: FAIL: $*" >&2; exit 1; }

cd "$src"
SECONDS=0
"$bin" experiments run configs/research --only lucid-physical --out "$work/report" -j 2 > "$work/out.txt" 2> "$work/err.txt" ||
  { cat "$work/err.txt" >&2; fail "experiments run exited $?"; }
echo "experiments run --only lucid-physical: ${SECONDS} s"
md=$work/report/README.md
[[ -f $md ]] || fail "no README.md"
grep -q '^## Lucid + schedmate vs Lucid, physical-run setting (simulated)$' "$md" || fail "no physical-run table"
# Ours (mean ± sd over 3 seeds) beside the research's 6.85 / 5.53 h.
grep -Eq '^\| 241 jobs, 16 x 8 GPUs \| 3/3 \| [0-9.]+ ± [0-9.]+ \| 6\.85 \(sim 6\.79\) \| [0-9.]+ ± [0-9.]+ \| 5\.53 \(sim 5\.64\) \|' "$md" ||
  fail "the table row lacks ours beside the research: $(grep '^| 241' "$md" || true)"
grep -q 'offered load' "$md" || fail "no setting line"
grep -q '^| 241 jobs, 16 x 8 GPUs | lucid+schedmate | 241 ± 0 |' "$md" || fail "no semantic-layer cost row"
grep -q 'End to end: \*\*' "$md" || fail "no end-to-end time"
grep -q '^## Not in this suite' "$md" || fail "no list of what the suite does not run"
for f in lucid-physical_bars.svg lucid-physical_cdf_physical.svg; do
  grep -q '<svg' "$work/report/$f" || fail "no plot $f"
done
grep -q 'polyline' "$work/report/lucid-physical_cdf_physical.svg" || fail "the JCT CDF has no curve"
# Re-rendering from the results gives the same tables.
cp "$md" "$work/first.md"
"$bin" experiments report "$work/report" > /dev/null || fail "experiments report exited $?"
diff <(grep '^|' "$work/first.md") <(grep '^|' "$md") > /dev/null || fail "experiments report changed the tables"
echo "research smoke: ok"
