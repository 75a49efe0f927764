#!/usr/bin/env bash
# End-to-end test of `schedmate experiments run --slurm` against a real SLURM
# cluster started here (scripts/slurm_cluster.sh, 4 nodes, its own port and
# temp dir, so it runs beside tests/agent/slurm_e2e.sh). One small sweep —
# `simulate --synthetic philly --jobs 300` under 2 policies x 2 seeds, plus
# one task that cannot read its trace — runs once as a SLURM job array and
# once locally (-j 2):
#   1. both merges hold the same metrics, task by task and in the means;
#   2. the broken task is reported failed by both, with its stderr path (the
#      file exists and holds the command's error), and the command exits 1;
#   3. the array ran on SLURM (sbatch.json's job id, a slurm.out per task,
#      SLURM's state of the broken task FAILED);
#   4. --no-wait prints the job id at once and `experiments merge` later
#      gives the same numbers.
# Usage: slurm_sweep_e2e.sh SCHEDMATE_BIN. Exit 77 (CTest SKIP) without root or SLURM.
set -euo pipefail

bin=$(realpath "${1:?usage: slurm_sweep_e2e.sh SCHEDMATE_BIN}")
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/support/slurm_prereqs.sh"
require_slurm

work=$(mktemp -d /tmp/schedmate-sweep-e2e.XXXXXX)
cleanup() {
  local rc=$?
  bash "$root/scripts/slurm_cluster.sh" stop --dir "$work/cluster" >/dev/null 2>&1 || true
  if [[ $rc -eq 0 ]]; then rm -rf "$work"; else echo "sweep e2e: FAILED, files kept in $work" >&2; fi
}
trap cleanup EXIT
fail() { echo "sweep e2e: FAIL: $*" >&2; exit 1; }
ok() { echo "sweep e2e: ok: $*"; }
t0=$(date +%s%N)
secs() { echo "$(( ($(date +%s%N) - $1) / 1000000 ))" | sed -E 's/(...)$/.\1/; s/^\./0./'; }  # since $1 (ns), in s

eval "$(bash "$root/scripts/slurm_cluster.sh" start --dir "$work/cluster" --nodes 4 --gpus 0 --port 17200)"
export SLURM_CONF

cat >"$work/sweep.json" <<'JSON'
{
  "name": "e2e-sweep",
  "seeds": [1, 2],
  "experiments": [
    {"name": "philly-syn", "command": "simulate",
     "args": ["--synthetic", "philly", "--jobs", "300", "--nodes", "4"],
     "matrix": {"--policy": ["fifo", "sjf"]}},
    {"name": "broken", "command": "simulate", "args": ["--trace", "no-such-trace.csv"], "seeds": [1]}
  ]
}
JSON
broken=4  # the fifth task: experiments in file order, then settings, then seeds

run_sweep() {  # OUT_DIR FLAGS... → exit code in $rc
  set +e
  "$bin" experiments run "$work/sweep.json" --out "$1" "${@:2}" >"$1.stdout" 2>"$1.stderr"
  rc=$?
  set -e
}
ts=$(date +%s%N)
run_sweep "$work/slurm" --slurm --poll 0.3 --timeout 120
slurm_s=$(secs "$ts")
[[ $rc -eq 1 ]] || { cat "$work/slurm.stderr" >&2; fail "--slurm exited $rc, not 1 (one task is broken)"; }
ts=$(date +%s%N)
run_sweep "$work/local" --local -j 2
local_s=$(secs "$ts")
[[ $rc -eq 1 ]] || { cat "$work/local.stderr" >&2; fail "--local exited $rc, not 1"; }

# The merged numbers, without host, wall time and paths: what must not depend on where a task ran.
metrics() {
  python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
print(json.dumps({"means": s["means"], "ok": s["ok"], "failed": s["failed"], "missing": s["missing"],
                  "runs": [[t["index"], t["status"], t["runs"]] for t in s["results"]]}, sort_keys=True))
PY
}
m_slurm=$(metrics "$work/slurm")
m_local=$(metrics "$work/local")
if [[ "$m_slurm" != "$m_local" ]]; then
  diff <(python3 -m json.tool <<<"$m_slurm") <(python3 -m json.tool <<<"$m_local") >&2
  fail "--slurm and --local merged to different metrics"
fi
n_means=$(python3 -c "import json,sys; s=json.load(open('$work/slurm/summary.json')); print(len(s['means']), s['ok'])")
[[ $n_means == "2 4" ]] || fail "expected 2 means (fifo, sjf) over 4 ok tasks, got '$n_means'"
ok "--slurm (${slurm_s} s) and --local -j 2 (${local_s} s): identical merged metrics, 4 ok tasks, 2 means"

for d in slurm local; do
  python3 - "$work/$d" "$broken" <<'PY' || fail "$d: the broken task is not reported as failed with its stderr"
import json, os, sys
dir, broken = sys.argv[1], int(sys.argv[2])
s = json.load(open(dir + "/summary.json"))
p = [x for x in s["problems"] if x["index"] == broken]
assert s["failed"] == 1 and s["missing"] == 0 and len(p) == 1 and p[0]["status"] == "failed", s["problems"]
assert p[0]["stderr"] == f"{dir}/task-{broken}/stderr.txt" and os.path.exists(p[0]["stderr"]), p[0]
assert "no-such-trace.csv" in open(p[0]["stderr"]).read(), open(p[0]["stderr"]).read()
assert "exit 2" in p[0]["why"] and p[0]["stderr"] in p[0]["why"], p[0]["why"]
PY
  grep -q "FAILED: task $broken (broken / default / seed 1) exit 2; stderr $work/$d/task-$broken/stderr.txt" \
    "$work/$d.stdout" || { cat "$work/$d.stdout" >&2; fail "$d: the printed table does not name the failed task"; }
done
ok "the broken task $broken: failed (exit 2), stderr $work/slurm/task-$broken/stderr.txt named in summary.json and the table"

job=$(python3 -c "import json; print(json.load(open('$work/slurm/slurm.json'))['job_id'])")
for i in 0 1 2 3 4; do [[ -f $work/slurm/task-$i/slurm.out ]] || fail "no slurm.out for task $i"; done
state=$(python3 -c "import json; print(json.load(open('$work/slurm/slurm_states.json'))['$broken'])")
[[ $state == FAILED ]] || fail "SLURM's state of the broken task is '$state', not FAILED"
n=$(squeue -h -r -j "$job" --states=all -o '%K %T' | wc -l)
[[ $n -eq 5 ]] || fail "SLURM shows $n tasks of array $job, not 5"
ok "array job $job: 5 SLURM array tasks, a slurm.out each, the broken one FAILED in SLURM"

set +e
id=$("$bin" experiments run "$work/sweep.json" --out "$work/nowait" --slurm --no-wait 2>/dev/null)
rc=$?
set -e
[[ $rc -eq 0 && $id =~ ^[0-9]+$ ]] || fail "--no-wait exited $rc and printed '$id', not a job id"
for _ in $(seq 300); do
  [[ -z $(squeue -h -r -j "$id" -t PD,R,CG,CF -o %K) ]] && break
  sleep 0.2
done
set +e
"$bin" experiments merge "$work/nowait" >/dev/null 2>&1
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "merge of the --no-wait sweep exited $rc, not 1"
m_nowait=$(metrics "$work/nowait")
[[ "$m_nowait" == "$m_local" ]] || fail "the --no-wait sweep merged to other metrics"
ok "--no-wait printed job $id at once; experiments merge afterwards: the same metrics"
echo "sweep e2e: all checks passed in $(secs "$t0") s"
