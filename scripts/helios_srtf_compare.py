#!/usr/bin/env python3
"""Per-job check of schedmate's `srtf` against the Helios artifact's SRTF.

Runs the artifact's own simulator classes (HeliosArtifact
`framework/QSSF Service`: policies/srtf.py, cluster.py, job.py and the
consolidate placer), imported from a checkout you give with --artifact —
nothing of it is copied here — on a slice of Philly's philly.csv, then
`schedmate simulate --policy srtf` on the same jobs in the same order, and
compares every job's start and end.

The artifact's preemptive loop decrements `remain` one step late (a job it
runs for d seconds ends at start + d + 1; docs/simulator.md), so by default
schedmate is given durations d + 1 (`--plus-one`, on): the artifact's SRTF on
d must then equal schedmate's on d + 1 job for job. `--no-plus-one` compares
on the same durations and counts how far the one-second shift carries.

Needs pandas (Debian: apt-get install python3-pandas; run with /usr/bin/python3).

  git --git-dir=MIRROR archive HEAD "framework/QSSF Service" | tar -x -C /tmp/helios
  /usr/bin/python3 scripts/helios_srtf_compare.py \
      --artifact "/tmp/helios/framework/QSSF Service" \
      --trace ../shared/traces/philly/philly.csv --vc-config ../shared/traces/philly/philly_vc.csv \
      --from 2017-10-01 --to 2017-10-02 --out /tmp/srtf_cmp
"""
import argparse
import logging
import os
import subprocess
import sys
import time

import pandas as pd


def load_slice(args):
    df = pd.read_csv(args.trace, parse_dates=["timestamp"])
    df = df[(df["timestamp"] >= pd.Timestamp(args.start)) & (df["timestamp"] < pd.Timestamp(args.end))]
    df = df[df["num_gpus"] > 0].copy()
    df["job_id"] = ["philly-%d" % (i + 1) for i in df.index]  # schedmate's id: the data row
    if args.pool_nodes:
        df["vc"] = "pool"
        vcs = {"pool": args.pool_nodes}
    else:
        vc = pd.read_csv(args.vc_config)
        vcs = dict(zip(vc["vc"], vc["node num"]))
        df["vc"] = df["cluster"]
        df = df[df["vc"].isin(vcs.keys())]  # the artifact's VC filter
    vcs = {k: int(v) for k, v in vcs.items()}
    # Jobs wider than their VC never run; the artifact would loop forever on them.
    df = df[df["num_gpus"] <= df["vc"].map(vcs) * 8]
    if args.max_jobs:
        df = df.head(args.max_jobs)
    df["submit_time"] = (df["timestamp"] - df["timestamp"].min()).dt.total_seconds().astype(int)
    df = df.sort_values("submit_time", kind="stable").reset_index(drop=True)
    df["duration"] = df["duration"].astype(int)
    df["gpu_num"] = df["num_gpus"].astype(int)
    return df, vcs


def run_artifact(args, df, vcs):
    sys.path.insert(0, args.artifact)
    from cluster import VC  # noqa: E402  (the artifact's modules)
    from job import Job, Trace
    from policies.srtf import ShortestRemainingTimeFirst

    cols = ["job_id", "vc", "gpu_num", "submit_time", "duration"]
    a = df[cols].copy()
    # As the artifact's utils.trace_philly_process sets them.
    a["remain"] = a["duration"]
    a["start_time"] = sys.maxsize
    a["end_time"] = sys.maxsize
    a["ckpt_times"] = 0
    a["queue"] = 0
    a["jct"] = 0
    a["status"] = None
    trace = Trace()
    for _, row in a.iterrows():
        trace.append_job(Job(row))
    trace.sort_jobs("submit_time")
    logger = logging.getLogger("helios")
    logger.setLevel(logging.WARNING)
    log_dir = os.path.join(args.out, "artifact_log")
    os.makedirs(log_dir, exist_ok=True)
    rows = []
    for name, nodes in vcs.items():
        if not (df["vc"] == name).any():
            continue
        t0 = time.time()
        policy = ShortestRemainingTimeFirst(trace, VC(name, nodes, 8, 96), "consolidate", log_dir, logger, 0)
        policy.simulate()
        print(f"artifact: VC {name} ({nodes} nodes, {policy.total_job_num} jobs) {time.time() - t0:.1f} s",
              file=sys.stderr)
        for j in policy.trace.job_list:
            rows.append({"job_id": j["job_id"], "start": int(j["start_time"]), "end": int(j["end_time"]),
                         "preemptions": int(j["ckpt_times"])})
    return pd.DataFrame(rows)


def run_schedmate(args, df, vcs):
    plus = 1 if args.plus_one else 0
    t = pd.DataFrame({"job_id": df["job_id"], "user": "u", "vc": df["vc"], "jobname": df["job_id"],
                      "gpu_num": df["gpu_num"], "cpu_num": 0, "state": "COMPLETED",
                      "submit_time": df["submit_time"], "duration": df["duration"] + plus})
    trace = os.path.join(args.out, "trace.csv")
    t.to_csv(trace, index=False)
    vc_csv = os.path.join(args.out, "vcs.csv")
    pd.DataFrame({"vc": list(vcs.keys()), "node num": list(vcs.values())}).to_csv(vc_csv, index=False)
    jobs = os.path.join(args.out, "schedmate_jobs.csv")
    cmd = [args.schedmate, "simulate", "--trace", trace, "--format", "lucid", "--vc-config", vc_csv,
           "--policy", "srtf", "--jobs-out", jobs, "--progress", "off"]
    print("$ " + " ".join(cmd), file=sys.stderr)
    t0 = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    print(f"schedmate: {time.time() - t0:.1f} s", file=sys.stderr)
    s = pd.read_csv(jobs)
    return pd.DataFrame({"job_id": s["job_id"], "start": s["starting_time"], "end": s["finish_time"],
                         "preemptions": s["preemptions"]})


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--artifact", required=True, help="HeliosArtifact's 'framework/QSSF Service' directory")
    p.add_argument("--trace", required=True, help="philly.csv")
    p.add_argument("--vc-config", help="philly_vc.csv (vc,node num)")
    p.add_argument("--pool-nodes", type=int, default=0, help="one pool of this many 8-GPU nodes instead of VCs")
    p.add_argument("--from", dest="start", required=True)
    p.add_argument("--to", dest="end", required=True)
    p.add_argument("--max-jobs", type=int, default=0)
    p.add_argument("--schedmate", default="build/bin/schedmate")
    p.add_argument("--out", required=True)
    p.add_argument("--plus-one", action=argparse.BooleanOptionalAction, default=True)
    args = p.parse_args()
    if not args.pool_nodes and not args.vc_config:
        p.error("--vc-config or --pool-nodes")
    os.makedirs(args.out, exist_ok=True)
    df, vcs = load_slice(args)
    art = run_artifact(args, df, vcs)
    ours = run_schedmate(args, df, vcs)
    m = art.merge(ours, on="job_id", suffixes=("_artifact", "_schedmate"), how="outer", indicator=True)
    m.to_csv(os.path.join(args.out, "compare.csv"), index=False)
    both = m[m["_merge"] == "both"]
    same_start = both["start_artifact"] == both["start_schedmate"]
    same_end = both["end_artifact"] == both["end_schedmate"]
    same_pre = both["preemptions_artifact"] == both["preemptions_schedmate"]
    identical = same_start & same_end & same_pre
    print(f"jobs: {len(m)} (artifact only {int((m['_merge'] == 'left_only').sum())}, "
          f"schedmate only {int((m['_merge'] == 'right_only').sum())})")
    print(f"identical start, end and preemptions: {int(identical.sum())} / {len(both)}")
    print(f"same start {int(same_start.sum())}, same end {int(same_end.sum())}, same preemptions {int(same_pre.sum())}")
    print(f"preemptions: artifact {int(both['preemptions_artifact'].sum())}, "
          f"schedmate {int(both['preemptions_schedmate'].sum())}")
    sub = df.set_index("job_id")["submit_time"]
    for side in ("artifact", "schedmate"):
        jct = both[f"end_{side}"] - both["job_id"].map(sub)
        print(f"avg JCT {side}: {jct.mean():.2f} s")
    diff = both[~identical]
    if len(diff):
        print("first differing jobs:")
        print(diff.head(10).to_string(index=False))
    return 0 if identical.all() and len(both) == len(m) else 1


if __name__ == "__main__":
    sys.exit(main())
