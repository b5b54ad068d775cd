#!/usr/bin/env bash
# The whole benchmark report from scratch on a GPU machine, with an existing
# build, in parts (REPORT_PARTS, comma-separated, default all five):
#   micro  `spmv micro`, the thesis's micro-benchmarks -> results/micro.json
#          (skipped when it exists)
#   spmm   scripts/spmm-report.sh, the SpMM cases of issue 6 -> results/spmm/
#          (one file per case; a case with its file is skipped)
#   bro    scripts/bro-report.sh, BRO formats before and after RCM, AMD and
#          BAR -> results/bro/ (likewise)
#   ellrt  bench_ellrt_model, the ELLR-T model vs search on the families of
#          bench/families.txt and a matrix of few long rows, f64 and f32 ->
#          results/ellrt_model.jsonl (a matrix already in it is skipped)
#   suite  `spmv suite`, every kernel and cuSPARSE on the real matrices as
#          they are, the generated families and the real matrices replicated
#          block-diagonally, fp64 and fp32 -> results/results.jsonl (a unit
#          already in it is skipped)
# then bench/report.py on whatever is there (a missing part's sections say
# "not measured in this run").
#
# Usage: scripts/report.sh OUT_DIR
# Writes OUT_DIR/results/ (the raw results above, suite.json), the logs
# OUT_DIR/{micro,ellrt,suite}.log and OUT_DIR/results/{spmm,bro}.log, and
# OUT_DIR/docs/benchmarks.md with its plots in OUT_DIR/docs/img/ (copy both
# into docs/ to publish them). Run again with the same OUT_DIR, it measures
# only what is missing, so the report can be made in calls of under ~9
# minutes each (estimates for an H200, not yet timed as a whole), e.g.
#   REPORT_PARTS=micro,spmm scripts/report.sh OUT
#   REPORT_PARTS=ellrt scripts/report.sh OUT
#   REPORT_PARTS=suite REPORT_SECONDS=500 scripts/report.sh OUT   (repeat until
#                                               suite.log says nothing is left)
#
# Environment:
#   REPORT_PARTS   the parts to run (default micro,spmm,bro,ellrt,suite)
#   BUILD_DIR      build with the CUDA backends (default build)
#   MATRICES       folder of the real matrices (default: $SPMV_SHARED_DATA/matrices,
#                  else ../shared/data/matrices, else .device-data/matrices)
#   REPORT_SECONDS the time this script may take (default: no limit): the suite
#                  starts no matrix it could not finish in what is left after
#                  the other parts, 40 s kept for the report; a rerun
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

parts=",${REPORT_PARTS:-micro,spmm,bro,ellrt,suite},"
for part in $(echo "$parts" | tr ',' ' '); do
  case $part in micro|spmm|bro|ellrt|suite) ;; *) echo "report: unknown part '$part' in REPORT_PARTS (micro, spmm, bro, ellrt, suite)" >&2; exit 2 ;; esac
done
wants() { [[ $parts == *",$1,"* ]]; }

# The folder of the real matrices: $MATRICES, else the first that exists of
# $SPMV_SHARED_DATA/matrices, ../shared/data/matrices, .device-data/matrices.
matrix_folder() {
  local candidate
  for candidate in "${MATRICES:-}" "${SPMV_SHARED_DATA:+$SPMV_SHARED_DATA/matrices}" \
                   "$root/../shared/data/matrices" "$root/.device-data/matrices"; do
    [ -n "$candidate" ] && [ -d "$candidate" ] && { echo "$candidate"; return; }
  done
  echo "report: no matrix folder (set MATRICES)" >&2
  exit 2
}

results="$out/results"
mkdir -p "$results"
status=0
start=$(date +%s)
stamp() { echo "report: [$(( $(date +%s) - start ))s] $*" >&2; }

if wants micro; then
  if [ -s "$results/micro.json" ]; then
    stamp "micro-benchmarks already in $results/micro.json"
  else
    stamp "micro-benchmarks"
    "$spmv" micro --out "$results/micro.json" >"$out/micro.log" 2>&1 || { status=1; stamp "micro FAILED: see $out/micro.log"; }
  fi
fi

if wants spmm; then
  stamp "SpMM cases (scripts/spmm-report.sh)"
  BUILD_DIR=$build "$root/scripts/spmm-report.sh" "$results" || { status=1; stamp "spmm: a case FAILED: see $results/spmm.log"; }
fi

if wants bro; then
  stamp "BRO before and after reordering (scripts/bro-report.sh)"
  matrices=$(matrix_folder) || exit 2
  BUILD_DIR=$build "$root/scripts/bro-report.sh" "$results" "$matrices" \
    || { status=1; stamp "bro: a case FAILED: see $results/bro.log"; }
fi

if wants ellrt; then
  stamp "ELLR-T model vs search (bench_ellrt_model)"
  # uniform 200k x 200k with 200 per row: few rows per SM, where T > 1 should win.
  "$build/bench/bench_ellrt_model" --families "$root/bench/families.txt" --precision f64,f32 \
    --json "$results/ellrt_model.jsonl" uniform:rows=200000,cols=200000,per_row=200 >>"$out/ellrt.log" 2>&1 \
    || { status=1; stamp "ellrt: a result FAILED or the run stopped: see $out/ellrt.log"; }
fi

if wants suite; then
  matrices=$(matrix_folder) || exit 2
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
fi

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
