#!/bin/bash
# Runs a command and records the peak resident memory (VmHWM) of it and of every process it
# starts (engine runners included), sampled every second:
#   peak_rss.sh LOG COMMAND...   -> LOG: "exit N" and one "peak_rss_kib K pid P command" per process
# Used for the 1024x1024 localize measurement in docs/parity.md.
log=$1
shift
"$@" >"$log.out" 2>"$log.err" &
root=$!
declare -A peak name
while kill -0 "$root" 2>/dev/null; do
  pids="$root"
  for p in $(pgrep -P "$root"); do pids="$pids $p $(pgrep -P "$p" | tr '\n' ' ')"; done
  for p in $pids; do
    hwm=$(awk '/VmHWM/{print $2}' "/proc/$p/status" 2>/dev/null)
    [ -z "$hwm" ] && continue
    if [ -z "${peak[$p]}" ] || [ "$hwm" -gt "${peak[$p]}" ]; then
      peak[$p]=$hwm
      name[$p]=$(tr '\0' ' ' <"/proc/$p/cmdline" | cut -c1-80)
    fi
  done
  sleep 1
done
wait "$root"
rc=$?
{
  echo "exit $rc"
  for p in "${!peak[@]}"; do echo "peak_rss_kib ${peak[$p]} pid $p ${name[$p]}"; done
} >"$log"
