#!/usr/bin/env python3
"""Issue 17's Sia tables from scripts/sia_experiments.sh's per-file outputs.

Reads OUT/runs/<workload>/<file>.txt (the text `schedmate sia` prints for one
file) or <file>.json (its --json), for philly, saturn, newtrace, scale/rate_N,
pollux and as_you_go/<workload>, and prints Markdown: per workload the mean ±
std over its files (std over files, population, as `schedmate sia` prints it)
of avg / p99 JCT, makespan, GPU-hours, profiling GPU-hours and hit rate for
Sia and Sia + schedmate, beside the research's table and Sia's own Table 3;
then the scale, Pollux and no-profiling (as_you_go) tables. SHARED (default
../shared) is only read to say how many of a folder's files a row covers.
  python3 scripts/sia_summary.py docs/results/sia [SHARED] > docs/results/sia/README.md
"""
import json
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


# --json's run keys and metric names -> the text's.
JSON_RUNS = {"sia": "sia", "sia_schedmate": "sia+schedmate"}
JSON_METRICS = {"jobs": "jobs", "avg_jct_h": "avg", "p99_jct_h": "p99", "makespan_h": "makespan", "gpu_h": "gpuh",
                "profile_gpu_h": "profile", "policy_ms_median": "ms_median", "policy_ms_p95": "ms_p95",
                "failed_rounds": "failed"}


def parse_json(path):
    data = json.loads(path.read_text())
    if len(data["files"]) != 1:
        sys.exit(f"error: {path}: {len(data['files'])} files in one output (expected 1)")
    f = data["files"][0]
    runs = {JSON_RUNS[k]: {m: r[j] for j, m in JSON_METRICS.items()} for k, r in f["runs"].items()}
    for k, r in f["runs"].items():
        if "by_app" in r:
            runs[JSON_RUNS[k]]["by_app"] = r["by_app"]
    hits = saved = None
    if "schedmate" in f:
        hits = (f["schedmate"]["hits"], f["schedmate"]["jobs"])
        saved = f["schedmate"].get("profile_gpu_h_saved")
    return runs, hits, saved


def parse(path):
    if path.suffix == ".json":
        return parse_json(path)
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


def outputs(folder):
    """(file, runs, hits, saved) for every output in folder, natural order; a .json beats a .txt of one stem."""
    by_stem = {}
    for f in sorted(folder.glob("*.txt")) + sorted(folder.glob("*.json")):
        by_stem[f.stem] = f
    files = sorted(by_stem.values(), key=lambda p: (len(p.stem), p.stem))
    return [(f, *parse(f)) for f in files]


def both(data):
    return [d for d in data if "sia" in d[1] and "sia+schedmate" in d[1]]


def of_total(n, shared, rel):
    total = len(list((shared / rel).glob("*.csv"))) if (shared / rel).is_dir() else 0
    return f"{n} of {total}" if total and total != n else f"{n}"


def col(data, run, key):
    return [d[1][run][key] for d in data]


def per_job(data, run):
    return [d[1][run]["gpuh"] / d[1][run]["jobs"] for d in data]


def change(data, a="sia", b="sia+schedmate"):
    return [100 * (d[1][b]["avg"] / d[1][a]["avg"] - 1) for d in data]


def triple(data, run):
    return f"{fmt(col(data, run, 'avg'))} / {fmt(col(data, run, 'p99'))} / {fmt(col(data, run, 'makespan'))}"


def main_tables(out):
    rows, per_file = [], []
    for name in ("philly", "saturn", "newtrace"):
        data = both(outputs(out / "runs" / name))
        if not data:
            continue
        for f, runs, hits, saved in data:
            a, b = runs["sia"], runs["sia+schedmate"]
            per_file.append(f"| {name} | {f.stem} | {a['jobs']} | {a['avg']:.2f} / {a['p99']:.2f} / {a['makespan']:.2f} | "
                            f"{b['avg']:.2f} / {b['p99']:.2f} / {b['makespan']:.2f} | {a['gpuh']:.0f} → {b['gpuh']:.0f} | "
                            f"{saved:.2f} | {100 * hits[0] / hits[1]:.1f} % | {a['failed']} / {b['failed']} |")
        hit = [100 * d[2][0] / d[2][1] for d in data]
        saved = [d[3] for d in data]
        rows.append((name, data, hit, saved, change(data)))
    print("## Mean over files\n")
    print("| workload (files) | run | avg JCT | p99 JCT | makespan | GPU-h (per job) | profiling GPU-h | hit rate |")
    print("|---|---|---|---|---|---|---|---|")
    for name, data, hit, saved, chg in rows:
        n = len(data)
        for run in ("sia", "sia+schedmate"):
            label = "Sia" if run == "sia" else "Sia + schedmate"
            h = f"{fmt(hit, 1)} %" if run != "sia" else ""
            print(f"| {name} ({n}) | {label} | {fmt(col(data, run, 'avg'))} | {fmt(col(data, run, 'p99'))} | "
                  f"{fmt(col(data, run, 'makespan'))} | {fmt(col(data, run, 'gpuh'), 0)} ({fmt(per_job(data, run))}) | "
                  f"{fmt(col(data, run, 'profile'))} | {h} |")
        print(f"| | saved / change | avg JCT {fmt(chg, 1)} % | | | | saved {fmt(saved)} | |")
    print("\n## Beside the research and Sia's paper\n")
    print("| workload | ours: Sia → Sia + schedmate (avg / p99 / makespan) | research: Sia → + SchedMate | "
          "Sia paper Table 3, plain Sia (avg / p99 / makespan / GPU-h per job) | ours, plain Sia GPU-h per job |")
    print("|---|---|---|---|---|")
    for name, data, hit, saved, chg in rows:
        m = lambda run, key: mean_std(col(data, run, key))[0]
        label, ra, rb = RESEARCH[name]
        pl, pa, pp, pm, pg = SIA_PAPER[name]
        print(f"| {name} | {m('sia', 'avg'):.2f} / {m('sia', 'p99'):.2f} / {m('sia', 'makespan'):.2f} → "
              f"{m('sia+schedmate', 'avg'):.2f} / {m('sia+schedmate', 'p99'):.2f} / {m('sia+schedmate', 'makespan'):.2f} | "
              f"{label}: {ra[0]} / {ra[1]} / {ra[2]} → {rb[0]} / {rb[1]} / {rb[2]} | "
              f"{pl}: {pa} / {pp} / {pm} / {pg} | {fmt(per_job(data, 'sia'))} |")
    print("\n## Per file\n")
    print("| workload | file | jobs | Sia avg / p99 / makespan | Sia + schedmate | GPU-h | profiling GPU-h saved "
          "| hit rate | failed rounds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for line in per_file:
        print(line)


def comparison_rows(label, data, files):
    """Sia and Sia + schedmate rows of one folder, as in the scale and Pollux tables."""
    hit = [100 * d[2][0] / d[2][1] for d in data]
    jobs = fmt(col(data, "sia", "jobs"), 0)
    ms = lambda run: f"{fmt(col(data, run, 'ms_median'), 1)} / {fmt(col(data, run, 'ms_p95'), 1)}"
    failed = lambda run: sum(col(data, run, "failed"))
    print(f"| {label} ({files}) | {jobs} | Sia | {triple(data, 'sia')} | {fmt(per_job(data, 'sia'))} | "
          f"{fmt(col(data, 'sia', 'profile'))} | | {ms('sia')} | {failed('sia')} |")
    print(f"| | | Sia + schedmate | {triple(data, 'sia+schedmate')} | {fmt(per_job(data, 'sia+schedmate'))} | "
          f"{fmt(col(data, 'sia+schedmate', 'profile'))} | {fmt(hit, 1)} % | {ms('sia+schedmate')} | "
          f"{failed('sia+schedmate')} |")
    print(f"| | | change | avg JCT {fmt(change(data), 1)} % | | | | | |")


COMPARISON_HEADER = ("| workload (files) | jobs per file | run | avg / p99 JCT / makespan, h | GPU-h per job | "
                     "profiling GPU-h | hit rate | policy ms median / p95 | failed rounds |\n"
                     "|---|---|---|---|---|---|---|---|---|")


def scale_table(out, shared):
    root = out / "runs" / "scale"
    dirs = sorted((d for d in root.glob("rate_*") if d.is_dir()), key=lambda d: (len(d.name), d.name))
    dirs = [(d, both(outputs(d))) for d in dirs]
    dirs = [(d, data) for d, data in dirs if data]
    if not dirs:
        return
    print("\n## Scale: job arrival rate on Sia's 64-GPU cluster (Sia Fig. 7 workloads)\n")
    print("`bash scripts/sia_experiments.sh --only scale` (`schedmate sia --config configs/sia/scale.json "
          "--workloads <rate_N file> --json`). `workloads/scale/rate_N` holds 10 workloads sampled from Helios "
          "Saturn at an average of N jobs/h over 8 h; Sia's artifact runs them on its main heterogeneous "
          "cluster (6×4 T4 + 2×8 A100 + 3×8 RTX 2080Ti, `sia-simulator/workloads/scale/README.md`: "
          "\"scale job arrival rate at constant cluster size\"), so `configs/sia/scale.json` is that cluster. "
          "Mean ± std over the files; \"k of 10\" when only the first k files (natural order) ran. Per-file "
          "outputs: `runs/scale/rate_N/<file>.json`.\n")
    print(COMPARISON_HEADER)
    for d, data in dirs:
        comparison_rows(d.name, data, of_total(len(data), shared, f"traces/sia/workloads/scale/{d.name}"))
    by_app_table([(d.name, data) for d, data in dirs])


def by_app_table(folders):
    """Per folder and application: jobs, avg JCT and restarts per job, Sia -> Sia + schedmate (over all files' jobs)."""
    rows = []
    for label, data in folders:
        data = [d for d in data if "by_app" in d[1]["sia"] and "by_app" in d[1]["sia+schedmate"]]
        agg = {}
        for d in data:
            for run in ("sia", "sia+schedmate"):
                for app, v in d[1][run]["by_app"].items():
                    a = agg.setdefault(app, {}).setdefault(run, [0, 0.0, 0.0])
                    a[0] += v["jobs"]
                    a[1] += v["avg_jct_h"] * v["jobs"]
                    a[2] += v["restarts_per_job"] * v["jobs"]
        for app in sorted(agg):
            a, b = agg[app]["sia"], agg[app]["sia+schedmate"]
            rows.append(f"| {label} ({len(data)}) | {app} | {a[0]} | {a[1] / a[0]:.2f} → {b[1] / b[0]:.2f} | "
                        f"{100 * (b[1] / a[1] - 1):+.1f} % | {a[2] / a[0]:.1f} → {b[2] / b[0]:.1f} |")
    if not rows:
        return
    print("\nBy application (`--json`'s `by_app`, all jobs of the files pooled), Sia → Sia + schedmate:\n")
    print("| workload (files) | application | jobs | avg JCT, h | change | restarts per job |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(r)


def pollux_vs_philly(shared):
    """Per Pollux file, how Sia's philly file of that name differs: (rows changed, of them ncf, of them > 16 GPUs,
    ncf rows, max initial GPUs, rows); None when they are not the same jobs."""
    import csv
    pairs = []
    for p in sorted((shared / "traces/pollux/workloads").glob("*.csv")):
        q = shared / "traces/sia/workloads/philly" / p.name
        if not q.exists():
            continue
        a, b = list(csv.DictReader(p.open())), list(csv.DictReader(q.open()))
        if len(a) != len(b) or any(float(x["time"]) != float(y["time"]) for x, y in zip(a, b)):
            return None  # not the same jobs
        key = lambda r: (r["application"], r["num_replicas"], r["batch_size"])
        changed = [x for x, y in zip(a, b) if key(x) != key(y)]
        pairs.append((len(changed), sum(x["application"] == "ncf" for x in changed),
                      sum(x["application"] != "ncf" and int(x["num_replicas"]) > 16 for x in changed),
                      sum(x["application"] == "ncf" for x in a), max(int(x["num_replicas"]) for x in a), len(a)))
    return pairs


POLLUX_FOLDERS = {"workloads": "the workloads (8 × 160 jobs)", "workloads-0.5": "0.5× the job load",
                  "workloads-1.5": "1.5× the job load", "workloads-2.0": "2× the job load",
                  "workloads-realistic": "the same jobs and times, untuned initial configurations"}


def pollux_table(out, shared):
    folders = [(d, both(outputs(out / "runs" / "pollux" / d))) for d in POLLUX_FOLDERS]
    folders = [(d, data) for d, data in folders if data]
    if not folders:
        return
    pairs = pollux_vs_philly(shared)
    print("\n## Pollux's workloads on Sia's cluster\n")
    print("`bash scripts/sia_experiments.sh --only pollux` (`schedmate sia --config configs/sia/pollux.json "
          "--workloads <file> --json`; the same 64-GPU cluster and settings as philly). Pollux's "
          "`workloads/` (OSDI'21, 8 × 160 jobs from Philly) are the files Sia's philly workloads were made from "
          "(`sia-simulator/utils/fix_workload.py`: ncf jobs become cifar10, jobs over 16 GPUs are resampled); "
          "here they run unchanged, as do " + ", ".join(f"`{d}` ({w})" for d, w in POLLUX_FOLDERS.items()
                                                      if d != "workloads") +
          ". \"k of 8\" when only the first k files (natural order) ran. Per-file outputs: "
          "`runs/pollux/<folder>/<file>.json`.")
    if pairs:
        def r(i):
            lo, hi = min(p[i] for p in pairs), max(p[i] for p in pairs)
            return f"{lo}" if lo == hi else f"{lo}–{hi}"
        print(f"Read from the shared files by this script: each of the {len(pairs)} Pollux `workloads/` files has "
              f"the submit times of Sia's philly file of the same name; {r(0)} of its {r(5)} rows differ, {r(1)} "
              f"of them ncf jobs (Sia: cifar10) and {r(2)} jobs over 16 GPUs (resampled). Pollux's files hold "
              f"{r(3)} ncf jobs each and up to {max(p[4] for p in pairs)} initial GPUs.")
    print()
    print(COMPARISON_HEADER)
    for d, data in folders:
        comparison_rows(d, data, of_total(len(data), shared, f"traces/pollux/{d}"))
    by_app_table(folders)


def as_you_go_table(out, shared):
    rows = []
    for name in ("philly", "saturn", "newtrace"):
        main = {d[0].stem: d for d in both(outputs(out / "runs" / name))}
        ayg = {d[0].stem: d for d in outputs(out / "runs" / "as_you_go" / name) if "sia" in d[1]}
        stems = sorted(set(main) & set(ayg), key=lambda s: (len(s), s))
        for st in stems:
            if main[st][1]["sia"]["jobs"] != ayg[st][1]["sia"]["jobs"]:
                sys.exit(f"error: {name}/{st}: {main[st][1]['sia']['jobs']} jobs in runs/{name}, "
                         f"{ayg[st][1]['sia']['jobs']} in runs/as_you_go/{name}: not the same file")
        if not stems:
            continue
        # One row per file: profile (plain Sia), as_you_go, Sia + schedmate.
        data = [(main[s][0], {"profile": main[s][1]["sia"], "as_you_go": ayg[s][1]["sia"],
                              "schedmate": main[s][1]["sia+schedmate"]}, main[s][2], main[s][3]) for s in stems]
        rows.append((name, data))
    if not rows:
        return
    print("\n## Sia's no-profiling mode (as_you_go) beside profiling and Sia + schedmate\n")
    print("`bash scripts/sia_experiments.sh --only as_you_go` adds plain Sia with `--runs sia --bootstrap "
          "as_you_go` (Sia's simulator: a new job gets utility 1 on each type's 1-GPU option and learns its "
          "model from the steps it runs, no profiling round) on the same files as the tables above, whose "
          "plain Sia (profile: 1 GPU of each type for 20 GPU-s first) and Sia + schedmate (profile bootstrap, a "
          "history hit skips it) it sits beside. Mean ± std over the files; hours. Per-file outputs: "
          "`runs/as_you_go/<workload>/<file>.json`.\n")
    print("| workload (files) | run | avg / p99 JCT / makespan | GPU-h per job | profiling GPU-h | "
          "avg JCT vs as_you_go | Sia paper Table 3 (avg / p99 / makespan / GPU-h per job) |")
    print("|---|---|---|---|---|---|---|")
    for name, data in rows:
        files = of_total(len(data), shared, f"traces/sia/workloads/{name}")
        pl, pa, pp, pm, pg = SIA_PAPER[name]
        for run, label in (("profile", "Sia (profile)"), ("as_you_go", "Sia (as_you_go)"),
                           ("schedmate", "Sia + schedmate")):
            vs = "" if run == "as_you_go" else f"{fmt(change(data, 'as_you_go', run), 1)} %"
            paper = f"{pl}: {pa} / {pp} / {pm} / {pg}" if run == "as_you_go" else ""
            print(f"| {name} ({files}) | {label} | {triple(data, run)} | {fmt(per_job(data, run))} | "
                  f"{fmt(col(data, run, 'profile'))} | {vs} | {paper} |")


def prefer_current_table(out, shared):
    """Both runs with --prefer-current beside the same files' default runs (ties left to CBC)."""
    root = out / "runs" / "prefer_current"
    rows = []
    for name, base_dir, rel in [("philly", "philly", "philly"), ("saturn", "saturn", "saturn"),
                                ("newtrace", "newtrace", "newtrace"), ("rate_40", "scale/rate_40", "scale/rate_40"),
                                ("rate_50", "scale/rate_50", "scale/rate_50")]:
        if not (root / name).is_dir():
            continue
        tie = {f.stem: d for f, *d in both(outputs(root / name))}
        base = {f.stem: d for f, *d in both(outputs(out / "runs" / base_dir))}
        stems = [s for s in tie if s in base]
        if not stems:
            continue
        pick = lambda src, run, key: [src[s][0][run][key] for s in stems]
        chg = lambda src: [100 * (src[s][0]["sia+schedmate"]["avg"] / src[s][0]["sia"]["avg"] - 1) for s in stems]
        restarts = lambda src, run: [src[s][0][run]["by_app"]["cifar10"]["restarts_per_job"] for s in stems
                                     if "by_app" in src[s][0][run] and "cifar10" in src[s][0][run]["by_app"]]
        r_base = restarts(base, "sia+schedmate")
        r_tie = restarts(tie, "sia+schedmate")
        rst = f"{fmt(r_base, 1)} → {fmt(r_tie, 1)}" if r_base and len(r_base) == len(r_tie) else ""
        rows.append(f"| {name} ({of_total(len(stems), shared, 'traces/sia/workloads/' + rel)}) "
                    f"| {fmt(pick(base, 'sia', 'avg'))} → {fmt(pick(base, 'sia+schedmate', 'avg'))} | {fmt(chg(base), 1)} % "
                    f"| {fmt(pick(tie, 'sia', 'avg'))} → {fmt(pick(tie, 'sia+schedmate', 'avg'))} | {fmt(chg(tie), 1)} % "
                    f"| {rst} |")
    if not rows:
        return
    print("\n## Ties: keeping the current allocation (`--prefer-current`)\n")
    print("`bash scripts/sia_experiments.sh --only prefer_current` (the same files and settings with "
          "`sia --prefer-current`: among allocations of equal rounded utility each job keeps its current one). "
          "Average JCT in hours, Sia → Sia + schedmate, mean ± std over the files both ran; the last column is "
          "Sia + schedmate's restarts per cifar10 job (scale rows), default → prefer-current. Per-file outputs: "
          "`runs/prefer_current/<workload>/<file>.json`.\n")
    print("| workload (files) | default: Sia → Sia + schedmate | change | prefer-current: Sia → Sia + schedmate "
          "| change | cifar10 restarts per job, Sia + schedmate |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/results/sia")
    shared = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "../shared")
    print("# Sia and Sia + schedmate on every workload file (issue 17)\n")
    print("`bash scripts/sia_experiments.sh` (one `schedmate sia --config configs/sia/<workload>.json "
          "--workloads <file>` per file: plain Sia and Sia + schedmate on the same jobs; 64 GPUs = 6×4 T4 + "
          "2×8 A100 + 3×8 RTX 2080Ti, p −0.5, λ 1.1, 60 s rounds, 20 GPU-s profile per type, world seed 1, "
          "SQLite history empty at the start of each file). Mean ± std over the files (std over files); "
          "hours. Per-file outputs: `runs/<workload>/<file>.txt`.\n")
    main_tables(out)
    as_you_go_table(out, shared)
    scale_table(out, shared)
    pollux_table(out, shared)
    prefer_current_table(out, shared)
    notes = out / "NOTES.md"
    if notes.exists():
        print("\n" + notes.read_text().rstrip())


if __name__ == "__main__":
    main()
