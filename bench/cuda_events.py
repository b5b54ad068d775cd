"""Timing by CUDA events on CuPy's current stream, for the Python benchmarks."""

import cupy


def seconds_per_call(call, batch):
    """One batch of `batch` calls between two CUDA events: seconds per call."""
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    for _ in range(batch):
        call()
    stop.record()
    stop.synchronize()
    return cupy.cuda.get_elapsed_time(start, stop) * 1e-3 / batch
