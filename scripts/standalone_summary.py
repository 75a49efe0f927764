#!/usr/bin/env python3
"""Summarises scripts/standalone_experiments.sh's runs (OUT/runs/NAME-sSEED/summary.json,
the JSON of `schedmate standalone --json`) as markdown: per setting, mean ± sd over seeds of
each policy's average JCT (all jobs, jobs completed in every run, the resumable failed jobs),
p99 and queueing delay, and the changes beside the research's numbers; then the sweeps."""
import json, os, re, statistics, sys

RESEARCH = {"vs_qssf": -25.7, "vs_tiresias": -16.0, "handler": -12.5}

def load(out):
    runs = {}
    for d in sorted(os.listdir(os.path.join(out, "runs"))):
        m = re.fullmatch(r"(.+)-s(\d+)", d)
        path = os.path.join(out, "runs", d, "summary.json")
        if not m or not os.path.exists(path):
            continue
        with open(path) as f:
            runs.setdefault(m.group(1), {})[int(m.group(2))] = json.load(f)
    return runs

def ms(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "–"
    if len(xs) == 1:
        return f"{xs[0]:.2f}"
    return f"{statistics.mean(xs):.2f} ± {statistics.stdev(xs):.2f}"

def by_label(summary):
    return {r["label"]: r for r in summary["runs"]}

def find(runs, prefix):
    for label, r in runs.items():
        if label == prefix or (prefix != "standalone" and label.startswith(prefix)):
            return r
    return None

def change(a, b, key="avg_jct_s"):
    if a is None or b is None or not b.get(key):
        return None
    return 100.0 * (a[key] / b[key] - 1)

def setting_table(name, seeds):
    first = seeds[min(seeds)]
    lines = [f"### {name}", "", f"Setting (seed {min(seeds)}): {first['setting']}", "",
             f"Seeds: {', '.join(str(s) for s in sorted(seeds))}. Hours, mean ± sd over seeds.", "",
             "| policy | avg JCT | avg JCT, completed in every run | avg JCT, resumable failed | p99 JCT | queue |",
             "|---|---|---|---|---|---|"]
    labels = [r["label"] for r in first["runs"]]
    for label in labels:
        rows = [by_label(s).get(label) for s in seeds.values()]
        h = lambda k: ms([r[k] / 3600 for r in rows if r and k in r])
        lines.append(f"| {label} | {h('avg_jct_s')} | {h('avg_jct_completed_everywhere_s')} | "
                     f"{h('avg_jct_resumable_s')} | {h('p99_jct_s')} | {h('avg_queue_s')} |")
    lines += ["", "| avg JCT change, % | ours (mean ± sd) | research |", "|---|---|---|"]
    comps = [("standalone vs QSSF", "standalone", "qssf", "avg_jct_s", RESEARCH["vs_qssf"]),
             ("standalone vs Tiresias", "standalone", "tiresias", "avg_jct_s", RESEARCH["vs_tiresias"]),
             ("Handler, all jobs", "standalone+handler", "standalone", "avg_jct_s", RESEARCH["handler"]),
             ("Handler, resumable failed jobs", "standalone+handler", "standalone", "avg_jct_resumable_s",
              RESEARCH["handler"])]
    for what, a, b, key, paper in comps:
        xs = [change(find(by_label(s), a), find(by_label(s), b), key) for s in seeds.values()]
        if any(x is not None for x in xs):
            lines.append(f"| {what} | {ms(xs)} | {paper:+.1f} |")
    wall = sum(r.get("wall_s", 0) for s in seeds.values() for r in s["runs"])
    lines += ["", f"Simulation wall time over all runs and seeds: {wall:.0f} s.", ""]
    return lines

def sweep_table(runs):
    lines = ["## Sensitivity (Acme-like, EASY backfill on the Advisor's estimates, seed 1)", "",
             "| run | policy | avg JCT h | resumable failed h | failed attempts | restarts | drains / healthy | drained GPUh |",
             "|---|---|---|---|---|---|---|---|"]
    for name in sorted(n for n in runs if n.startswith("sweep-")):
        for seed, s in sorted(runs[name].items()):
            for r in s["runs"]:
                if not r["label"].startswith("standalone"):
                    continue
                f = r["failures"]
                lines.append(f"| {name} | {r['label']} | {r['avg_jct_s']/3600:.2f} | "
                             f"{r.get('avg_jct_resumable_s', 0)/3600:.2f} | {f['job_failures']} | {f['restarts']} | "
                             f"{f['drains']} / {f['healthy_drains']} | {f['drained_gpu_s']/3600:.0f} |")
    return lines + [""]

def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "docs/results/standalone"
    runs = load(out)
    lines = ["# Standalone schedmate: results", "",
             "Written by `bash scripts/standalone_experiments.sh` (this file: `scripts/standalone_summary.py`).",
             "How the runs work and what the numbers mean: docs/standalone.md.", ""]
    for name in sorted(n for n in runs if not n.startswith("sweep-")):
        lines += setting_table(name, runs[name])
    if any(n.startswith("sweep-") for n in runs):
        lines += sweep_table(runs)
    print("\n".join(lines))

if __name__ == "__main__":
    main()
