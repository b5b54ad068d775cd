#!/usr/bin/env bash
# Device call 123 (one H100): a diagnostic outside the library (choose.cpp, linked against 74ad350): plan() with no
# kernel named against plan() with the chosen kernel named, split into make_plan, make_operator and the release;
# seven interleaved pairs, medians; two rounds over the 5-point stencil f32 and f64, block-FEM f32, uniform f32.
set -u
R=/tmp/results123; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab123.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
timeout 240 /tmp/n123/choose > $R/choose.txt 2>&1; echo "exit $?" >> $R/choose.txt
cp $R/choose.txt $OUT/summary.txt
cat $R/choose.txt
