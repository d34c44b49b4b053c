#!/bin/bash
# Chromium as the browser engines start it, minus the WebGPU flags: it offers no adapter.
# Lets a test see the WebGPU engines' error without a machine that lacks one.
args=()
for a in "$@"; do
  case $a in --enable-unsafe-webgpu | --use-webgpu-adapter=*) ;; *) args+=("$a") ;; esac
done
exec "${REAL_CHROMIUM:-/usr/bin/chromium}" "${args[@]}" --disable-webgpu
