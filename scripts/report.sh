#!/usr/bin/env bash
# The whole benchmark report from scratch on a GPU machine, with an existing
# build: `spmv micro` (the thesis's micro-benchmarks), `spmv suite` (every
# kernel and cuSPARSE on the real matrices as they are, the generated
# families of bench/families.txt and the real matrices replicated
# block-diagonally; fp64 and fp32), then bench/report.py.
#
# Usage: scripts/report.sh OUT_DIR
# Writes OUT_DIR/results/{results.jsonl,suite.json,micro.json} (the raw
# results), OUT_DIR/{micro,suite}.log, and OUT_DIR/docs/benchmarks.md with its
# plots in OUT_DIR/docs/img/ (copy both into docs/ to publish them). Run again
# with the same OUT_DIR, it measures only what is missing.
#
# Environment:
#   BUILD_DIR      build with the CUDA backends (default build)
#   MATRICES       folder of the real matrices (default: $SPMV_SHARED_DATA/matrices,
#                  else ../shared/data/matrices, else .device-data/matrices)
#   REPORT_SECONDS the time this script may take (default: no limit): the suite
#                  starts no matrix it could not finish in what is left after
#                  the micro-benchmarks, 40 s kept for the report; a rerun
#                  continues where it stopped
#   SUITE_ARGS     more arguments for `spmv suite` (e.g. --runs 20)
#   PYTHON         a Python 3 with matplotlib (default: the first of python3,
#                  /usr/bin/python3 that imports it)
# Exits non-zero if a result failed verification or a step failed.
set -uo pipefail

out=${1:?usage: scripts/report.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-build}
spmv="$build/spmv"
[ -x "$spmv" ] || { echo "report: $spmv not found (build first, or set BUILD_DIR)" >&2; exit 2; }

matrices=${MATRICES:-}
if [ -z "$matrices" ]; then
  for candidate in "${SPMV_SHARED_DATA:+$SPMV_SHARED_DATA/matrices}" "$root/../shared/data/matrices" \
                   "$root/.device-data/matrices"; do
    [ -n "$candidate" ] && [ -d "$candidate" ] && { matrices=$candidate; break; }
  done
fi
[ -d "$matrices" ] || { echo "report: no matrix folder (set MATRICES)" >&2; exit 2; }

results="$out/results"
mkdir -p "$results"
status=0
start=$(date +%s)
stamp() { echo "report: [$(( $(date +%s) - start ))s] $*" >&2; }

if [ -s "$results/micro.json" ]; then
  stamp "micro-benchmarks already in $results/micro.json"
else
  stamp "micro-benchmarks"
  "$spmv" micro --out "$results/micro.json" >"$out/micro.log" 2>&1 || { status=1; stamp "micro FAILED: see $out/micro.log"; }
fi

suite_seconds=0
if [ -n "${REPORT_SECONDS:-}" ]; then
  suite_seconds=$(( REPORT_SECONDS - ($(date +%s) - start) - 40 ))
  [ "$suite_seconds" -ge 30 ] || suite_seconds=30
fi
stamp "suite over $matrices and bench/families.txt (time limit ${suite_seconds}s, 0: none)"
# shellcheck disable=SC2086  # SUITE_ARGS is a list of words
"$spmv" suite "$matrices" --families "$root/bench/families.txt" --sets real,family,replicated \
  --backend cuda --precision f64,f32 --time-limit "$suite_seconds" ${SUITE_ARGS:-} \
  --out "$results" 2>"$out/suite.log" || { status=1; stamp "suite: a result FAILED or the suite stopped: see $out/suite.log"; }
tail -n 2 "$out/suite.log" >&2

python=${PYTHON:-}
if [ -z "$python" ]; then
  for candidate in python3 /usr/bin/python3; do
    "$candidate" -c "import matplotlib" 2>/dev/null && { python=$candidate; break; }
  done
fi
if [ -z "$python" ]; then
  stamp "no Python with matplotlib here: run bench/report.py $results elsewhere"
  exit 1
fi
stamp "report"
"$python" "$root/bench/report.py" "$results" --out "$out/docs/benchmarks.md" \
  --notes "$root/docs/benchmarks-notes.md" || status=1
stamp "done (status $status)"
exit $status
