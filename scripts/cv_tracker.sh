#!/bin/bash
# 5-fold cross-validation by project over the development part of the
# tracker corpus: the field tagger is retrained on four folds (plus
# ../shared/realdata and a synthetic set) and scored on the fifth.
# Usage: scripts/cv_tracker.sh [schedmate binary]. Work files in $WORK
# (default /tmp/cv). Prints the success rate, and of the step times the
# truth has, how many are reported more than 2x off.
B=${1:+$(realpath "$1")}
cd "$(dirname "$0")/.."
B=${B:-$PWD/build/bin/schedmate}
WORK=${WORK:-/tmp/cv}
mkdir -p "$WORK"
# The synthetic set is made by this binary, in this run's directory: one
# left by another version or another run is never reused.
"$B" gen-logs progress --count 400 --noisy-fraction 0 -o "$WORK/syn.jsonl" >/dev/null
WORK=$WORK python3 - <<'PY'
import json,hashlib,os
W=os.environ['WORK']
recs=[json.loads(l) for l in open('data/eval/tracker_real.jsonl')]
dev=[r for r in recs if r['split']=='dev']
for k in range(5):
    tr=open(f'{W}/train{k}.jsonl','w'); te=open(f'{W}/test{k}.jsonl','w')
    for r in dev:
        f=int(hashlib.md5(r['project'].lower().encode()).hexdigest(),16)%5
        (te if f==k else tr).write(json.dumps(r)+'\n')
PY
tot=0; ok=0
for k in 0 1 2 3 4; do
  "$B" train field-tagger --dataset "$WORK/train$k.jsonl" --dataset ../shared/realdata/progress.jsonl \
    --dataset "$WORK/syn.jsonl" --weight 1 --weight 1 --weight 0.3 -o "$WORK/w$k.tsv" >/dev/null 2>&1
  "$B" eval tracker --dataset "$WORK/test$k.jsonl" --tagger-weights "$WORK/w$k.tsv" 2>/dev/null > "$WORK/out$k.txt"
  ok=$(grep "^success rate" "$WORK/out$k.txt" | sed -E 's/.*\(([0-9]+)\/([0-9]+).*/\1 \2/')
  off=$(grep "^step time >2x off" "$WORK/out$k.txt" | sed -E 's/.*\(([0-9]+)\/([0-9]+).*/\1 \2/')
  echo "$ok $off" >> "$WORK/res.$$"
done
awk '{o+=$1;t+=$2;x+=$3;c+=$4} END {printf "CV success %.1f %% (%d/%d), step time >2x off %d/%d\n", 100*o/t, o, t, x, c}' "$WORK/res.$$"
rm "$WORK/res.$$"
