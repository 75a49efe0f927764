#!/usr/bin/env bash
# Fails when a module includes a header of a module it may not depend on
# (DESIGN §5: dependencies point down). Usage: check_layering.sh SRC_DIR
set -euo pipefail
src=${1:-src}
# module -> modules it may include (besides itself)
declare -A allowed=(
  [core]=""
  [traces]="core"
  [sim]="core"
  [solver]="core"
  [policies]="core sim solver"
  [plot]="core"
  [text]="core"
  [llm]="core text"
  [repo]="core"
  [artefacts]="core repo"
  [history]="core text"
  [advisor]="core text llm repo history"
  [tracker]="core text llm"
  [failure]="core text llm"
  [integrations]="core sim policies solver advisor tracker failure history text llm repo artefacts loggen traces"
  [world]="core traces text repo artefacts loggen"
  [loggen]="core"
  [experiments]="core sim policies solver plot traces text llm repo artefacts history advisor tracker failure world loggen integrations"
  [cli]="*"
  [service]="core text llm repo history advisor tracker failure"
  [agent]="core text llm repo artefacts history advisor tracker failure"
)
status=0
for dir in "$src"/*/; do
  module=$(basename "$dir")
  if [[ -z ${allowed[$module]+x} ]]; then
    echo "layering: module '$module' has no entry in tools/check_layering.sh" >&2
    status=1
    continue
  fi
  [[ ${allowed[$module]} == "*" ]] && continue
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    inc=$(sed -E 's/.*#include *"([^/"]+)\/.*/\1/' <<<"$rest")
    [[ $inc == "$module" ]] && continue
    if [[ " ${allowed[$module]} " != *" $inc "* ]]; then
      echo "layering: $file:$line: '$module' must not include '$inc/' (allowed: ${allowed[$module]:-nothing})" >&2
      status=1
    fi
  done < <(grep -rnE '#include *"[a-z_]+/' "$dir" || true)
done
[[ $status == 0 ]] && echo "layering: ok"
exit $status
