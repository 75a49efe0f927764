#!/usr/bin/env python3
"""Issue 17's Sia table from scripts/sia_experiments.sh's per-file outputs.

Reads OUT/runs/<workload>/<file>.txt (the text `schedmate sia` prints for one
file) and prints Markdown: per workload the mean ± std over its files (std
over files, population, as `schedmate sia` prints it) of avg / p99 JCT,
makespan, GPU-hours, profiling GPU-hours and hit rate for Sia and
Sia + schedmate, beside the research's table and Sia's own Table 3.
  python3 scripts/sia_summary.py docs/results/sia > docs/results/sia/README.md
"""
import math
import pathlib
import re
import sys

RUN = re.compile(r"^\s+(sia|sia\+schedmate)\s+jobs\s+(\d+)\s+avg\s+([\d.]+) h\s+p99\s+([\d.]+) h\s+makespan\s+([\d.]+) h"
                 r"\s+gpu-h\s+([\d.]+)\s+profile gpu-h\s+([\d.]+)\s+policy ms median\s+([\d.]+) p95\s+([\d.]+)"
                 r"\s+failed rounds (\d+)")
HITS = re.compile(r"hits (\d+) of (\d+) jobs")
SAVED = re.compile(r"profiling GPU-h saved ([\d.-]+)")

# The research (SchedMate, PAPER.md): avg / p99 JCT / makespan, hours, Sia -> Sia + SchedMate.
RESEARCH = {"philly": ("Philly", (0.74, 10.60, 14.7), (0.59, 10.12, 14.4)),
            "saturn": ("Helios", (0.83, 12.0, 15.7), (0.72, 10.7, 14.8)),
            "newtrace": ("Sia trace", (0.64, 4.25, 12.5), (0.53, 4.12, 12.4))}
# Sia (SOSP'23) Table 3, plain Sia in the heterogeneous 64-GPU setting: avg JCT, p99 JCT,
# makespan, GPU-hours per job (sia-sosp23.pdf in siasosp23/artifacts).
SIA_PAPER = {"philly": ("Philly", "0.6 ± 0.1", "9.5", "14.2 ± 1.9", "4.0 ± 0.7"),
             "saturn": ("Helios", "0.7 ± 0.1", "10.9", "14.9 ± 1.7", "4.8 ± 0.7"),
             "newtrace": ("newTrace", "0.7 ± 0.1", "4.6", "52.2 ± 1.3", "3.0 ± 0.1")}


def mean_std(xs):
    if not xs:
        return float("nan"), float("nan")
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def fmt(xs, digits=2):
    m, s = mean_std(xs)
    return f"{m:.{digits}f} ± {s:.{digits}f}"


def parse(path):
    runs, hits, saved = {}, None, None
    for line in path.read_text().splitlines():
        if (m := RUN.match(line)):
            runs[m.group(1)] = {"jobs": int(m.group(2)), "avg": float(m.group(3)), "p99": float(m.group(4)),
                                "makespan": float(m.group(5)), "gpuh": float(m.group(6)),
                                "profile": float(m.group(7)), "ms_median": float(m.group(8)),
                                "ms_p95": float(m.group(9)), "failed": int(m.group(10))}
        elif (m := HITS.search(line)):
            hits = (int(m.group(1)), int(m.group(2)))
            if (s := SAVED.search(line)):
                saved = float(s.group(1))
    return runs, hits, saved


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/results/sia")
    print("# Sia and Sia + schedmate on every workload file (issue 17)\n")
    print("`bash scripts/sia_experiments.sh` (one `schedmate sia --config configs/sia/<workload>.json "
          "--workloads <file>` per file: plain Sia and Sia + schedmate on the same jobs; 64 GPUs = 6×4 T4 + "
          "2×8 A100 + 3×8 RTX 2080Ti, p −0.5, λ 1.1, 60 s rounds, 20 GPU-s profile per type, world seed 1, "
          "SQLite history empty at the start of each file). Mean ± std over the files (std over files); "
          "hours. Per-file outputs: `runs/<workload>/<file>.txt`.\n")
    rows, per_file = [], []
    for name in ("philly", "saturn", "newtrace"):
        files = sorted((out / "runs" / name).glob("*.txt"), key=lambda p: (len(p.name), p.name))
        data = [(f, *parse(f)) for f in files]
        data = [d for d in data if "sia" in d[1] and "sia+schedmate" in d[1]]
        if not data:
            continue
        for f, runs, hits, saved in data:
            a, b = runs["sia"], runs["sia+schedmate"]
            per_file.append(f"| {name} | {f.stem} | {a['jobs']} | {a['avg']:.2f} / {a['p99']:.2f} / {a['makespan']:.2f} | "
                            f"{b['avg']:.2f} / {b['p99']:.2f} / {b['makespan']:.2f} | {a['gpuh']:.0f} → {b['gpuh']:.0f} | "
                            f"{saved:.2f} | {100 * hits[0] / hits[1]:.1f} % | {a['failed']} / {b['failed']} |")
        col = lambda run, key, data=data: [d[1][run][key] for d in data]
        per_job = lambda run, data=data: [d[1][run]["gpuh"] / d[1][run]["jobs"] for d in data]
        hit = [100 * d[2][0] / d[2][1] for d in data]
        saved = [d[3] for d in data]
        change = [100 * (d[1]["sia+schedmate"]["avg"] / d[1]["sia"]["avg"] - 1) for d in data]
        rows.append((name, len(data), col, per_job, hit, saved, change))
    print("## Mean over files\n")
    print("| workload (files) | run | avg JCT | p99 JCT | makespan | GPU-h (per job) | profiling GPU-h | hit rate |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, col, per_job, hit, saved, change in rows:
        for run in ("sia", "sia+schedmate"):
            label = "Sia" if run == "sia" else "Sia + schedmate"
            h = f"{fmt(hit, 1)} %" if run != "sia" else ""
            print(f"| {name} ({n}) | {label} | {fmt(col(run, 'avg'))} | {fmt(col(run, 'p99'))} | "
                  f"{fmt(col(run, 'makespan'))} | {fmt(col(run, 'gpuh'), 0)} ({fmt(per_job(run))}) | "
                  f"{fmt(col(run, 'profile'))} | {h} |")
        print(f"| | saved / change | avg JCT {fmt(change, 1)} % | | | | saved {fmt(saved)} | |")
    print("\n## Beside the research and Sia's paper\n")
    print("| workload | ours: Sia → Sia + schedmate (avg / p99 / makespan) | research: Sia → + SchedMate | "
          "Sia paper Table 3, plain Sia (avg / p99 / makespan / GPU-h per job) | ours, plain Sia GPU-h per job |")
    print("|---|---|---|---|---|")
    for name, n, col, per_job, hit, saved, change in rows:
        m = lambda run, key: mean_std(col(run, key))[0]
        label, ra, rb = RESEARCH[name]
        pl, pa, pp, pm, pg = SIA_PAPER[name]
        print(f"| {name} | {m('sia', 'avg'):.2f} / {m('sia', 'p99'):.2f} / {m('sia', 'makespan'):.2f} → "
              f"{m('sia+schedmate', 'avg'):.2f} / {m('sia+schedmate', 'p99'):.2f} / {m('sia+schedmate', 'makespan'):.2f} | "
              f"{label}: {ra[0]} / {ra[1]} / {ra[2]} → {rb[0]} / {rb[1]} / {rb[2]} | "
              f"{pl}: {pa} / {pp} / {pm} / {pg} | {fmt(per_job('sia'))} |")
    print("\n## Per file\n")
    print("| workload | file | jobs | Sia avg / p99 / makespan | Sia + schedmate | GPU-h | profiling GPU-h saved "
          "| hit rate | failed rounds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for line in per_file:
        print(line)
    notes = out / "NOTES.md"
    if notes.exists():
        print("\n" + notes.read_text().rstrip())


if __name__ == "__main__":
    main()
