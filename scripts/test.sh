#!/usr/bin/env bash
# Runs every test: unit, CLI, conformance (both modes), real models, loader fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j2
