#!/usr/bin/env python3
"""Scores any `schedmate` binary's `advise --json` on the real-repository corpus.

Used to compare extractor versions (or backends) on one corpus through the
user-facing command, e.g. the extractor before issue 12 against the current
one:

    git worktree add /tmp/old 5d0b269 && (cd /tmp/old && ln -s $PWD/.deps .deps &&
      cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build schedmate)
    python3 scripts/score_advise_on_corpus.py --binary /tmp/old/build/bin/schedmate
    python3 scripts/score_advise_on_corpus.py --binary build/bin/schedmate

The scoring rules are those of `schedmate eval advisor --real`
(docs/advisor-real-corpus.md). Commands whose manifest line sets a working
directory are run without it (older binaries cannot take one), so both
binaries see the same inputs; `schedmate eval advisor --real` is the
reference number.
"""
import argparse
import json
import os
import re
import subprocess
import tempfile

FIELDS = ["model_name", "model_type", "dataset", "training_iterations", "iteration_type", "batch_size",
          "hardware.num_gpus", "learning_rate", "precision", "framework"]


def fold(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def last_segment(s):
    s = s.rstrip("/")
    return s[s.rfind("/") + 1:]


def string_matches(label, got):
    if not fold(label):
        return False
    return fold(label) == fold(got) or fold(last_segment(label)) == fold(last_segment(got)) or \
        fold(label) == fold(last_segment(got))


def correct(field, label, got):
    if label is None:
        return got is None
    if got is None:
        return False
    if isinstance(label, (int, float)) and not isinstance(label, bool):
        if not isinstance(got, (int, float)):
            return False
        if field == "learning_rate":
            return abs(label - got) <= 1e-6 * abs(label) + 1e-15
        return label == got
    g = got if isinstance(got, str) else json.dumps(got)
    if isinstance(label, str):
        return string_matches(label, g)
    return any(string_matches(a, g) for a in label)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", required=True, help="a schedmate binary")
    p.add_argument("--manifest", default=os.path.join(here, "..", "data", "eval", "advisor_real.jsonl"))
    p.add_argument("--mirrors", default="/work/.mirror", help="owner+name/repo git mirrors")
    a = p.parse_args()
    counts = {}
    ok = {}
    history = os.path.join(tempfile.mkdtemp(prefix="score_advise_"), "empty.db")
    for line in open(a.manifest):
        d = json.loads(line)
        git = os.path.join(a.mirrors, d["repo"].replace("/", "+"), "repo")
        if not os.path.isdir(git):
            continue
        r = subprocess.run([a.binary, "advise", git + "@" + d["commit"], "--cmd", d["command"], "--json",
                            "--history", history], capture_output=True, text=True, timeout=300)
        try:
            md = json.loads(r.stdout).get("metadata")
        except ValueError:
            md = None
        split = d["split"]
        counts[split] = counts.get(split, 0) + 1
        for f in FIELDS:
            got = None
            if md is not None:
                got = (md.get("hardware") or {}).get("num_gpus") if f == "hardware.num_gpus" else md.get(f)
            ok.setdefault(split, {}).setdefault(f, 0)
            ok[split][f] += correct(f, d["labels"][f], got)
    for split in sorted(counts):
        n = counts[split]
        mean = sum(ok[split].values()) / len(FIELDS) / n
        print("%s: %d commands, mean field accuracy %.1f%%" % (split, n, 100 * mean))
        print("  " + "  ".join("%s %.0f%%" % (f, 100 * ok[split][f] / n) for f in FIELDS))


if __name__ == "__main__":
    main()
