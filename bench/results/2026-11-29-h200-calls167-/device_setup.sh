# Sourced from the repository root by this folder's call scripts on the GPU machine:
#   source bench/results/2026-11-29-h200-calls167-/device_setup.sh ARCHIVE [gzip]
# unpacks .device-build/ARCHIVE (new/ and, for A/B calls, old/) to /tmp/b and the shared data to /tmp/shared (with
# gzip, the real matrices compressed as the GPU tests read them); sets B (the new build), M (the real matrices),
# t0 and the library path; writes the GPU's name and driver to $OUT/gpu.txt.
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/$1 | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared
if [ "${2:-}" = gzip ]; then ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1; fi
B=/tmp/b/new; M=/tmp/shared/matrices
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
