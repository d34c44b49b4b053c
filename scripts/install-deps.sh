#!/usr/bin/env bash
# Installs what twinrt needs on Debian 12: build tools, test data, oracles (npm).
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(
  cmake g++ ninja-build ccache pkg-config
  nlohmann-json3-dev libcli11-dev libstb-dev
  googletest libgtest-dev libbenchmark-dev
  libonnx-testdata libonnx-dev libprotobuf-dev protobuf-compiler python3-onnx python3-numpy
  clang-14 libfuzzer-14-dev
  python3-torch python3-torchvision
  python3-dev python3-pybind11 python3-pip python3-setuptools python3-wheel python3-pytest python3-distributed
  emscripten node-acorn chromium brotli
  python3-pil fonts-dejavu-core fonts-liberation espeak-ng
)
missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "Node.js 20 and npm are needed (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
# onnxruntime-node's install script downloads binaries; the npm package already ships them.
(cd tools && npm install --no-audit --no-fund --ignore-scripts --loglevel=error)
