#!/usr/bin/env bash
# The GPU tests under compute-sanitizer, on a GPU machine with an existing
# build (BUILD_DIR, default build/). Every (tool, test) pair is one process;
# JOBS of them run at once (the tools cost mostly CPU time), so a slow test
# holds up only itself. On a machine with several GPUs the processes take
# them in turn (CUDA_VISIBLE_DEVICES), except the tests MULTI_GPU selects,
# which see every GPU. SPMV_REQUIRE_GPU=1: a skip fails.
#
# racecheck checks our kernels only, the libraries' kernels run unchecked
# (--kernel-name-exclude, library_kernels below): every hazard it reports with
# cuSPARSE's included lies inside cusparse::coomv_kernel and
# cusparse::csrmv_v3_kernel (bench/results/2026-11-24-h100-auto/compute-sanitizer/),
# code that is not ours to fix; CUB's device-wide sorts and scans (the device
# builds) are shared-memory heavy and made tests run out of 500 s under
# racecheck. Our kernels that use CUB's block primitives are still checked
# (their names start with spmv::). memcheck also checks for leaks; on the NCCL
# test it leaves out API errors (NCCL's own probes, below).
#
# usage: scripts/gpu-sanitize.sh [TOOL ...]   (default: memcheck initcheck synccheck racecheck)
# env:   BUILD_DIR; LOG_DIR (default $OUT/compute-sanitizer, else /tmp/spmv-compute-sanitizer);
#        TESTS (a gtest filter, default every test); JOBS (default: cores - 2);
#        SANITIZE_TIMEOUT (seconds per test, default 3000); DEADLINE (epoch
#        seconds: a test still running then is stopped, one not started by then is
#        left out and listed); FIRST (a gtest filter of tests to start first: the
#        slowest, so that they overlap the rest); MULTI_GPU (a gtest filter of
#        tests that see every GPU; default: the distributed tests that spread
#        parts over the devices).
# Prints one line per tool and one per test that failed, timed out or reported
# errors; exits 0 only when every test passed with 0 errors.
set -uo pipefail

build=${BUILD_DIR:-build}
log_dir=${LOG_DIR:-${OUT:+$OUT/compute-sanitizer}}
log_dir=${log_dir:-/tmp/spmv-compute-sanitizer}
tools=("$@")
[ ${#tools[@]} -eq 0 ] && tools=(memcheck initcheck synccheck racecheck)
tests_binary="$build/tests/spmv_gpu_tests"
[ -x "$tests_binary" ] || { echo "gpu-sanitize: $tests_binary not found (build first, or set BUILD_DIR)" >&2; exit 2; }
command -v compute-sanitizer >/dev/null || { echo "gpu-sanitize: compute-sanitizer not on PATH" >&2; exit 2; }
mkdir -p "$log_dir"
export SPMV_REQUIRE_GPU=1 SPMV_CLI="$build/spmv" SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-3000}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}  # the jobs share the cores

# "Suite.Name" for every test the filter selects, in gtest's order.
list_tests() {
  "$tests_binary" --gtest_list_tests --gtest_filter="$1" |
    awk '/^[^ ]/ {suite = $1} /^  / {print suite $1}'
}
mapfile -t first < <([ -n "${FIRST:-}" ] && list_tests "$FIRST")
mapfile -t every < <(list_tests "${TESTS:-*}")
ordered=()
for t in "${first[@]}"; do [[ " ${every[*]} " == *" $t "* ]] && ordered+=("$t"); done
for t in "${every[@]}"; do [[ " ${first[*]} " == *" $t "* ]] || ordered+=("$t"); done

# The log of TOOL and TEST: LOG_DIR/TOOL/TEST.log, the "/" of a parameterised
# test's name ("Suite/Fixture.Test/param") made "-".
log_of() { printf '%s/%s/%s.log' "$LOG_DIR" "$1" "${2//\//-}"; }

# The kernels of cuSPARSE, cuBLAS and CUB's device-wide algorithms, by their
# mangled or demangled names, written to hold whether the tool searches or
# matches whole names (a CUB kernel running one of our functors is CUB's: its
# name starts with cub::, ours in its template arguments).
library_kernels='.*(cusparse|cublas).*|^_ZN3cub.*|^(void )?cub::.*'

run_one() {  # TOOL TEST GPU: one log (log_of) ending in "seconds S" and "exit N"; GPU "all": every GPU
  local tool=$1 test=$2 flags=(--tool "$1")
  [ "$3" = all ] || export CUDA_VISIBLE_DEVICES=$3
  case "$tool" in
    memcheck)
      flags+=(--leak-check full)
      # Inside ncclCommInitAll NCCL probes kernels that have no image for the
      # device (cudaFuncGetAttributes), which memcheck reports as API errors;
      # memory errors are still reported.
      [[ $test == *Nccl* ]] && flags+=(--report-api-errors no) ;;
    racecheck) flags+=(--kernel-name-exclude "regex=$library_kernels") ;;
  esac
  mkdir -p "$LOG_DIR/$tool"
  local log limit=$SANITIZE_TIMEOUT
  log=$(log_of "$tool" "$test")
  if [ -n "${DEADLINE:-}" ]; then
    local left=$((DEADLINE - $(date +%s)))
    if [ $left -le 0 ]; then echo "not started: past the deadline" >"$log"; echo "exit none" >>"$log"; return; fi
    [ $left -lt "$limit" ] && limit=$left
  fi
  local start=$SECONDS
  timeout "$limit" compute-sanitizer "${flags[@]}" --error-exitcode 99 \
    "$TESTS_BINARY" --gtest_filter="$test" >"$log" 2>&1
  local code=$?
  echo "seconds $((SECONDS - start))" >>"$log"
  echo "exit $code" >>"$log"
}
export -f run_one log_of
export library_kernels
export LOG_DIR="$log_dir" TESTS_BINARY="$tests_binary"

gpus=$(nvidia-smi --list-gpus 2>/dev/null | wc -l)
[ "$gpus" -ge 1 ] || gpus=1
mapfile -t multi_gpu < <(list_tests "${MULTI_GPU:-GpuDistributed.PartsOnEveryDevice:GpuDistributed.Nccl*:GpuDistributed.RepeatedRuns*}")
jobs=${JOBS:-$(($(nproc) > 3 ? $(nproc) - 2 : 1))}
turn=0
for test in "${ordered[@]}"; do
  for tool in "${tools[@]}"; do
    gpu=$((turn % gpus)) turn=$((turn + 1))
    [[ " ${multi_gpu[*]} " == *" $test "* ]] && gpu=all
    printf '%s %s %s\n' "$tool" "$test" "$gpu"
  done
done | xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1" "$2"'

status=0
echo
echo "== compute-sanitizer over $tests_binary ($(compute-sanitizer --version | tail -1)) =="
for tool in "${tools[@]}"; do
  passed=0 failed=0 errors=0 warnings=0
  for test in "${ordered[@]}"; do  # every test: one without a log fails, it cannot vanish
    log=$(log_of "$tool" "$test")
    if [ ! -f "$log" ]; then
      failed=$((failed + 1)) status=1
      echo "  $tool $test: no log (not run)"
      continue
    fi
    # memcheck, initcheck, synccheck: "ERROR SUMMARY: N errors" (not the line "... N errors were
    # not printed" that follows it past the print limit); racecheck: "(N errors, M warnings)",
    # "(1 error, ...)" for one.
    e=$(grep -oE 'ERROR SUMMARY: [0-9]+ errors?$|\([0-9]+ errors?,' "$log" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
    w=$(grep -oE '[0-9]+ warnings\)' "$log" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
    code=$(tail -1 "$log" | awk '{print $2}')
    errors=$((errors + e)) warnings=$((warnings + w))
    # A test that makes no CUDA call (it checks a constant, a refusal) passes
    # with nothing to check: the tool then exits 255 with this message.
    if grep -qE '^\[  PASSED  \] 1 test' "$log" &&
       { [ "$code" = 0 ] || grep -q 'terminated before first instrumented API call' "$log"; }; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)) status=1
      reason=$([ "$code" = 124 ] && echo ' (timed out)'; [ "$code" = none ] && echo ' (not started)'; grep -q '^\[  SKIPPED \]' "$log" && echo ' (skipped)')
      echo "  $tool $test: exit $code$reason, $e errors"
    fi
  done
  printf '%-10s %3d tests passed, %3d failed or timed out; errors %d, warnings %d\n' \
    "$tool" "$passed" "$failed" "$errors" "$warnings"
done
exit $status
