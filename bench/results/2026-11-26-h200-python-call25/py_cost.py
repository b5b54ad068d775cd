# Diagnostic (not committed): CPU cost per call of the pieces of `op @ x` on a small matrix.
import sys, time
import cupy, numpy as np
import spmv
gen = spmv.generate("stencil5:n=300")
for dtype in (np.float64, np.float32):
    host = gen if dtype == np.float64 else gen.astype(dtype)
    op = spmv.plan(host, backend="cuda", expected_products=1000)
    x = cupy.asarray(np.ones(host.shape[1], dtype)); y = cupy.empty(host.shape[0], dtype)
    n = host.shape[0]; native = op._native; s = cupy.cuda.get_current_stream().ptr
    xp, yp = x.data.ptr, y.data.ptr
    pieces = {
        "cupy.ndarray alloc": lambda: cupy.ndarray((n,), dtype),
        "cupy.empty alloc": lambda: cupy.empty(n, dtype),
        "get_current_stream().ptr": lambda: cupy.cuda.get_current_stream().ptr,
        "runtime.getDevice()": lambda: cupy.cuda.runtime.getDevice(),
        "x.flags.c_contiguous": lambda: x.flags.c_contiguous,
        "x.dtype == dtype": lambda: x.dtype == op.dtype,
        "x.data.ptr": lambda: x.data.ptr,
        "native.apply (launch)": lambda: native.apply(xp, yp, 1.0, 0.0, s),
        "op.apply(x, out=y)": lambda: op.apply(x, out=y),
        "op @ x": lambda: op @ x,
        "op.T @ x": lambda: op.T @ x,
        "empty lambda": lambda: None,
    }
    print(f"stencil5:n=300 {np.dtype(dtype).name} kernel {op.describe()['kernel']}")
    for name, f in pieces.items():
        for _ in range(2000): f()
        cupy.cuda.Device().synchronize()
        best = []
        for r in range(5):
            t = time.perf_counter()
            for _ in range(20000): f()
            cupy.cuda.Device().synchronize()
            best.append((time.perf_counter() - t) / 20000)
        print(f"  {name:28} {min(best)*1e6:7.2f} us/call (min of 5 x 20000, incl. sync at end)")
