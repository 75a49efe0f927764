#!/usr/bin/env python3
"""Merges labelled shards into a real-log corpus.

    scripts/merge_corpus.py tracker SHARD.jsonl...   # → data/eval/tracker_real.jsonl
    scripts/merge_corpus.py failure SHARD.jsonl...   # → data/eval/failure_real.jsonl

Each shard line is one log record (docs/tracker-real-corpus.md,
docs/failure-real-corpus.md). A record is checked (fields, label types,
source address; for failures, that the root-cause line is the line at its
index), dropped when it is already in the corpus or its url is in the shared
development set (../shared/realdata), given a unique id, and appended. The
split is decided once, by project for progress logs and by source thread for
failures: a unit already in the corpus keeps its split; a new one gets it
from the SHA-1 of its name (the first 35 % of the hash space is "val"), so
adding records never moves an old one and never lets the labeller choose.
"""
import argparse
import hashlib
import json
import os
import sys

TRUTH_KEYS = ("step", "total_steps", "step_time_s", "throughput", "throughput_unit", "loss")


def split_of(project):
    h = int(hashlib.sha1(project.lower().encode()).hexdigest()[:8], 16)
    return "val" if h < 0.35 * 0x100000000 else "dev"


def check_tracker(rec, where):
    for k in ("project", "url", "framework", "log", "truth", "note"):
        if k not in rec:
            raise ValueError(f"{where}: missing field '{k}'")
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


def check_failure(rec, where):
    for k in ("project", "url", "category", "faulty_component", "root_cause_line", "root_cause_line_index",
              "confidence", "note", "log"):
        if k not in rec:
            raise ValueError(f"{where}: missing field '{k}'")
    if rec["category"] not in ("infrastructure", "framework", "user"):
        raise ValueError(f"{where}: field 'category': {rec['category']!r} is not infrastructure, framework or user")
    comp = rec["faulty_component"]
    if rec["category"] == "infrastructure" and comp not in ("gpu", "nvlink", "network", "node", "storage"):
        raise ValueError(f"{where}: field 'faulty_component': {comp!r} is not gpu, nvlink, network, node or storage")
    if rec["category"] != "infrastructure" and comp is not None:
        raise ValueError(f"{where}: field 'faulty_component': expected null for {rec['category']}")
    lines = rec["log"].split("\n")
    i = rec["root_cause_line_index"]
    if not isinstance(i, int) or not 0 <= i < len(lines) or lines[i] != rec["root_cause_line"]:
        raise ValueError(f"{where}: field 'root_cause_line_index': line {i} of the log is not the root_cause_line")


KINDS = {
    "tracker": ("data/eval/tracker_real.jsonl", "../shared/realdata/progress.jsonl", check_tracker,
                lambda r: r["project"].lower()),
    "failure": ("data/eval/failure_real.jsonl", "../shared/realdata/failures.jsonl", check_failure,
                lambda r: r["url"].lower()),
}


def SameAddress(a, b):
    """Two addresses of one thread: case, a trailing slash and a #comment anchor aside."""
    def norm(u):
        return u.split("#", 1)[0].rstrip("/").lower()
    return norm(a) == norm(b)


def reserved_sources(path):
    """Addresses and repositories listed in RESERVED-SOURCES.md (lower case)."""
    urls, repos = set(), set()
    if not os.path.exists(path):
        return urls, repos
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line.startswith("- "):
            continue
        item = line[2:].strip().lower().rstrip("/")
        if item.startswith("http"):
            urls.add(item)
        elif "/" in item and " " not in item:
            repos.add(item)
    return urls, repos


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("shards", nargs="+")
    ap.add_argument("--corpus", help="corpus file (default: the kind's)")
    ap.add_argument("--realdata", help="shared development set whose urls are left out (default: the kind's)")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--reserved", default="../shared/RESERVED-SOURCES.md",
                    help="sources kept for an independent evaluation; a record from one is refused")
    ap.add_argument("--id-prefix", default="r",
                    help="ids for records without one: PREFIX-001, PREFIX-002, … (one prefix per labelling batch)")
    a = ap.parse_args()
    reserved_urls, reserved_repos = reserved_sources(a.reserved)
    corpus_path, realdata_path, check, unit_of = KINDS[a.kind]
    corpus_path = a.corpus or corpus_path
    realdata_path = a.realdata or realdata_path

    corpus = []
    if os.path.exists(corpus_path):
        corpus = [json.loads(l) for l in open(corpus_path, encoding="utf-8") if l.strip()]
    realdata_urls = set()
    if os.path.exists(realdata_path):
        realdata_urls = {json.loads(l)["url"] for l in open(realdata_path, encoding="utf-8") if l.strip()}
    seen = {(r["url"], r["log"]) for r in corpus}
    unit_split = {unit_of(r): r["split"] for r in corpus}
    ids = {r["id"] for r in corpus}
    added, skipped = [], []
    for shard in a.shards:
        for n, line in enumerate(open(shard, encoding="utf-8"), 1):
            if not line.strip():
                continue
            where = f"{shard}:{n}"
            rec = json.loads(line)
            check(rec, where)
            if not rec["url"].startswith("http"):
                raise ValueError(f"{where}: field 'url': expected an address, got {rec['url']!r}")
            if not rec["log"].strip():
                raise ValueError(f"{where}: field 'log' is empty")
            if rec["url"].split("#", 1)[0].lower().rstrip("/") in reserved_urls or rec["project"].lower() in reserved_repos:
                raise ValueError(f"{where}: {rec['url']} is a reserved source (RESERVED-SOURCES.md): drop the record")
            one_per_thread = a.kind == "failure" and any(SameAddress(u, rec["url"]) for u, _ in seen)
            in_realdata = any(SameAddress(u, rec["url"]) for u in realdata_urls)
            if in_realdata or (rec["url"], rec["log"]) in seen or one_per_thread:
                skipped.append(f"{where}: {rec['url']} already in the corpus or in realdata")
                continue
            seen.add((rec["url"], rec["log"]))
            u = unit_of(rec)
            rec["split"] = unit_split.setdefault(u, split_of(u))
            rid = rec.get("id")
            if not rid:  # numbered after the shard's prefix: te-001, te-002, …
                k = 1
                while f"{a.id_prefix}-{k:03d}" in ids:
                    k += 1
                rid = f"{a.id_prefix}-{k:03d}"
            base, k = rid, 1
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
          f"val {len(val)} logs / {len({unit_of(r) for r in val})} split units")
    for s in skipped:
        print("  skipped", s)
    if not a.dry_run:
        with open(corpus_path, "a", encoding="utf-8") as out:
            for r in added:
                out.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
