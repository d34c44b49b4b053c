#!/usr/bin/env bash
# Fresh Debian 12 → dependencies installed, twinrt built (CLI and Python package), main job run
# on a bundled model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/install-python.sh
bash scripts/demo.sh
