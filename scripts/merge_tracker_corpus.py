#!/usr/bin/env python3
"""Merges labelled shards into the Metric Tracker's real-log corpus.

    scripts/merge_tracker_corpus.py SHARD.jsonl... [--corpus data/eval/tracker_real.jsonl]

Each shard line is one log record (see docs/tracker-real-corpus.md). A record
is checked (fields, truth types, source address), dropped when its url is
already in the corpus or in ../shared/realdata/progress.jsonl, given a unique
id, and appended. The split is by project and is decided once: a project
already in the corpus keeps its split; a new project gets one from the SHA-1
of its name (the first 35 % of the hash space is "val"), so adding records
never moves an old one and never lets the labeller choose.
"""
import argparse
import hashlib
import json
import os
import sys

TRUTH_KEYS = ("step", "total_steps", "step_time_s", "throughput", "throughput_unit", "loss")
REQUIRED = ("project", "url", "framework", "log", "truth", "note")


def split_of(project):
    h = int(hashlib.sha1(project.lower().encode()).hexdigest()[:8], 16)
    return "val" if h < 0.35 * 0x100000000 else "dev"


def check(rec, where):
    for k in REQUIRED:
        if k not in rec:
            raise ValueError(f"{where}: missing field '{k}'")
    if not rec["url"].startswith("http"):
        raise ValueError(f"{where}: field 'url': expected an address, got {rec['url']!r}")
    t = rec["truth"]
    for k in TRUTH_KEYS:
        if k not in t:
            raise ValueError(f"{where}: missing field 'truth.{k}'")
    for k in ("step", "total_steps"):
        if t[k] is not None and not isinstance(t[k], int):
            raise ValueError(f"{where}: field 'truth.{k}': expected an integer or null")
    for k in ("step_time_s", "throughput"):
        if t[k] is not None and not isinstance(t[k], (int, float)):
            raise ValueError(f"{where}: field 'truth.{k}': expected a number or null")
    if t["loss"] is not None and not isinstance(t["loss"], (int, float)) and t["loss"] not in ("nan", "inf"):
        raise ValueError(f"{where}: field 'truth.loss': expected a number, \"nan\", \"inf\" or null")
    if not rec["log"].strip():
        raise ValueError(f"{where}: field 'log' is empty")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shards", nargs="+")
    ap.add_argument("--corpus", default="data/eval/tracker_real.jsonl")
    ap.add_argument("--realdata", default="../shared/realdata/progress.jsonl")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()

    corpus = []
    if os.path.exists(a.corpus):
        corpus = [json.loads(l) for l in open(a.corpus, encoding="utf-8") if l.strip()]
    realdata_urls = set()
    if os.path.exists(a.realdata):
        realdata_urls = {json.loads(l)["url"] for l in open(a.realdata, encoding="utf-8") if l.strip()}
    seen = {(r["url"], r["log"]) for r in corpus}
    project_split = {r["project"].lower(): r["split"] for r in corpus}
    ids = {r["id"] for r in corpus}
    added, skipped = [], []
    for shard in a.shards:
        for n, line in enumerate(open(shard, encoding="utf-8"), 1):
            if not line.strip():
                continue
            where = f"{shard}:{n}"
            rec = json.loads(line)
            check(rec, where)
            if rec["url"] in realdata_urls or (rec["url"], rec["log"]) in seen:
                skipped.append(f"{where}: {rec['url']} already in the corpus or in realdata")
                continue
            seen.add((rec["url"], rec["log"]))
            p = rec["project"].lower()
            rec["split"] = project_split.setdefault(p, split_of(p))
            base = rec.get("id") or "t"
            rid, k = base, 1
            while rid in ids:
                k += 1
                rid = f"{base}-{k}"
            rec["id"] = rid
            ids.add(rid)
            added.append(rec)
    everything = corpus + added
    projects = {r["project"].lower() for r in everything}
    val = [r for r in everything if r["split"] == "val"]
    print(f"added {len(added)}, skipped {len(skipped)}; corpus {len(everything)} logs from {len(projects)} projects; "
          f"val {len(val)} logs / {len({r['project'].lower() for r in val})} projects")
    for s in skipped:
        print("  skipped", s)
    if not a.dry_run:
        with open(a.corpus, "a", encoding="utf-8") as out:
            for r in added:
                out.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
