#!/bin/bash
# 5-fold cross-validation by project over the development part of the
# tracker corpus: the field tagger is retrained on four folds (plus
# ../shared/realdata and a synthetic set) and scored on the fifth.
# Usage: scripts/cv_tracker.sh [schedmate binary]. Work files in /tmp/cv.
B=${1:+$(realpath "$1")}
cd "$(dirname "$0")/.."
B=${B:-$PWD/build/bin/schedmate}
mkdir -p /tmp/cv
[ -f /tmp/syn.jsonl ] || $B gen-logs progress --count 400 --noisy-fraction 0 -o /tmp/syn.jsonl >/dev/null
python3 - <<'PY'
import json,hashlib
recs=[json.loads(l) for l in open('data/eval/tracker_real.jsonl')]
dev=[r for r in recs if r['split']=='dev']
for k in range(5):
    tr=open(f'/tmp/cv/train{k}.jsonl','w'); te=open(f'/tmp/cv/test{k}.jsonl','w')
    for r in dev:
        f=int(hashlib.md5(r['project'].lower().encode()).hexdigest(),16)%5
        (te if f==k else tr).write(json.dumps(r)+'\n')
PY
tot=0; ok=0
for k in 0 1 2 3 4; do
  $B train field-tagger --dataset /tmp/cv/train$k.jsonl --dataset ../shared/realdata/progress.jsonl --dataset /tmp/syn.jsonl --weight 1 --weight 1 --weight 0.3 -o /tmp/cv/w$k.tsv >/dev/null 2>&1
  $B eval tracker --dataset /tmp/cv/test$k.jsonl --tagger-weights /tmp/cv/w$k.tsv 2>/dev/null | grep "^success rate" | sed -E 's/.*\(([0-9]+)\/([0-9]+).*/\1 \2/' >> /tmp/cv/res.$$
done
awk '{o+=$1;t+=$2} END {printf "CV success %.1f %% (%d/%d)\n", 100*o/t, o, t}' /tmp/cv/res.$$; rm /tmp/cv/res.$$
