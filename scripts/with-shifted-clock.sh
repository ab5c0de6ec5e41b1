#!/usr/bin/env bash
# Runs a command with every clock of its process tree moved (Debian's faketime, decision 0070), so
# a test that holds a fixed date against the real clock fails here instead of on the day it expires.
# Usage: scripts/with-shifted-clock.sh <when> <command> [args...]
#   <when>: +400d            400 days ahead of now
#           new-year-lima    the coming 31 December at 23:30 in Lima (04:30 UTC on 1 January)
#           sunday-lima      the Sunday after next at 21:00 in Lima (02:00 UTC on Monday)
#           far-sunday-new-year-lima
#                            the first 31 December at least 400 days ahead that is a Sunday, at
#                            23:30 in Lima (04:30 UTC on Monday 1 January): the three above at once
#           +<N>d, +<N>s     any other shift ahead
# The shift is an offset from now (faketime's "+Ns"), not a fixed instant, so every process the
# command starts later (Vitest workers, the shop server, Chromium, PGlite inside them) reads the
# same moving clock. Monotonic clocks move by the same offset (a constant: durations and timers are
# unchanged); leaving them alone (FAKETIME_DONT_FAKE_MONOTONIC=1) makes Chromium hang. A PostgreSQL
# server started outside the command keeps the real clock.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
when=$1
shift
if ! command -v faketime >/dev/null 2>&1; then
  echo "faketime not found: apt-get install -y faketime" >&2
  exit 1
fi

now=$(date -u +%s)
case "$when" in
  new-year-lima)
    # Lima is UTC−5 all year (no daylight saving since 1994).
    year=$(TZ=America/Lima date +%Y)
    target=$(date -u -d "$((year + 1))-01-01 04:30:00" +%s)
    ;;
  sunday-lima)
    # Days until next Sunday in Lima (1..7), then one more week so it is never today.
    weekday=$(TZ=America/Lima date +%u)
    days=$((7 - weekday + 7))
    sunday=$(TZ=America/Lima date -d "+${days} days" +%Y-%m-%d)
    target=$(date -u -d "$sunday 21:00:00 -0500" +%s)
    ;;
  far-sunday-new-year-lima)
    year=$(TZ=America/Lima date +%Y)
    while :; do
      target=$(date -u -d "${year}-12-31 23:30:00 -0500" +%s)
      if [ "$(date -u -d "${year}-12-31" +%u)" = 7 ] && [ $((target - now)) -ge $((400 * 86400)) ]; then break; fi
      year=$((year + 1))
    done
    ;;
  +*d) target=$((now + ${when:1:-1} * 86400)) ;;
  +*s) target=$((now + ${when:1:-1})) ;;
  *)
    echo "Unknown clock: $when" >&2
    exit 2
    ;;
esac
offset=$((target - now))
echo "Clock moved by ${offset} s: it reads $(faketime -f "+${offset}s" date -u '+%Y-%m-%d %H:%M UTC') ($(TZ=America/Lima faketime -f "+${offset}s" date '+%A %Y-%m-%d %H:%M') in Lima)."
exec faketime -f "+${offset}s" "$@"
