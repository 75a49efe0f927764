#!/usr/bin/env bash
# Set-up command 1: install everything, build, and run the main job on the
# built-in defaults (`schedmate demo`; output in ./schedmate-demo).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh
./build/bin/schedmate demo "$@"
