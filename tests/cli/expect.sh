#!/bin/bash
# usage: expect.sh EXIT_CODE REGEX COMMAND [ARGS...]
# Runs COMMAND and fails unless it exits with EXIT_CODE and its combined stdout and
# stderr match the extended regular expression REGEX. A crash (signal) never passes.
set -u
want_code=$1 pattern=$2
shift 2
output=$("$@" 2>&1)
code=$?
if [ "$code" -ne "$want_code" ]; then
  printf 'expected exit code %s, got %s from: %s\n--- output ---\n%s\n' "$want_code" "$code" "$*" "$output"
  exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$output"; then
  printf 'output does not match /%s/ for: %s\n--- output ---\n%s\n' "$pattern" "$*" "$output"
  exit 1
fi
exit 0
