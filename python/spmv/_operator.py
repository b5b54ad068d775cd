"""Plans and operators: the Python face of spmv::plan, make_plan and make_operator."""

import sys
import weakref

import numpy as np

from . import _spmv
from ._arrays import empty_like_operand, operand, stream_address
from ._matrices import DeviceMatrix, library_matrix

_DEVICE_BACKENDS = ("cuda", "cusparse")


def _options(matrix, backend, kernel, params, explicit_transpose, spmv_only, device, reordering,
             expected_products, tuning, measured_candidates, plan_cache, spmm_columns, spmm_layout,
             selector_model, spmm_selector_model):
    """The plan's options for `matrix` (library_matrix's): a matrix on the
    GPU takes the cuda backend and its own device unless told otherwise."""
    on_device = isinstance(matrix, DeviceMatrix)
    if backend == "auto":
        backend = "cuda" if on_device or _spmv.cuda_available() else "cpu"
    if device is None:
        device = matrix.device if on_device else 0
    return _spmv.plan_options(backend=backend, kernel=kernel or "", params=dict(params or {}),
                              explicit_transpose=explicit_transpose, spmv_only=spmv_only, device=device,
                              reordering=reordering, expected_products=float(expected_products),
                              tuning=tuning, measured_candidates=measured_candidates,
                              plan_cache=plan_cache or "", spmm_columns=int(spmm_columns),
                              spmm_layout=spmm_layout, selector_model=str(selector_model or ""),
                              spmm_selector_model=str(spmm_selector_model or ""))


def _native(matrix):
    """What the extension takes: the device view of a DeviceMatrix, else the host Csr."""
    return matrix.view if isinstance(matrix, DeviceMatrix) else matrix


def make_plan(matrix, backend="auto", kernel=None, params=None, expected_products=100, reordering="none",
              explicit_transpose=False, spmv_only=False, device=None, tuning="model", measured_candidates=3,
              plan_cache=None, dtype=None, spmm_columns=0, spmm_layout="row", selector_model=None,
              spmm_selector_model=None):
    """Analyses `matrix` and chooses backend, format and kernel; returns a spmv.Plan.

    `matrix`: a scipy.sparse matrix (any format), a cupyx.scipy.sparse matrix,
    a torch sparse tensor, or (indptr, indices, data, (rows, cols)). A CuPy
    matrix or CUDA torch tensor is read where it is (the cuda or cusparse
    backend, on its device unless `device` says otherwise; a torch CSR
    tensor's columns must be sorted in each row). backend: "auto" (cuda when
    a GPU is present, else cpu), "cpu", "reference", "cuda" or "cusparse".
    kernel and params force a kernel (spmv.kernels() lists them). The
    selector weighs each format's setup against expected_products.
    spmm_columns=k (k >= 2) plans for `op @ B` with B of k columns in
    spmm_layout ("row": C-ordered, "col": Fortran-ordered): the candidates
    are then the SpMM kernels, chosen by the SpMM model (tuning="measure":
    timed); 0 plans for the SpMV. explicit_transpose=True stores A^T for
    `op.T @ x`; on the cuda backend with no kernel named, A^T then gets a
    plan of its own (plan.transposed), chosen from A^T's structure.
    selector_model (spmm_selector_model): a selector model file, as
    scripts/train-selector.sh writes them, to rank the SpMV (SpMM) candidates
    with instead of the built-in model (default: $SPMV_SELECTOR_MODEL,
    $SPMV_SPMM_SELECTOR_MODEL); plan.selector_model names the one used.
    """
    library = library_matrix(matrix, dtype)
    options = _options(library, backend, kernel, params, explicit_transpose, spmv_only, device, reordering,
                       expected_products, tuning, measured_candidates, plan_cache, spmm_columns, spmm_layout,
                       selector_model, spmm_selector_model)
    return _spmv.make_plan(_native(library), options)


def make_operator(plan, matrix):
    """Builds (and uploads) the operator `plan` describes for `matrix`: the same
    matrix, and the plan's value type, as make_plan was given."""
    return Operator(_spmv.make_operator(plan, _native(library_matrix(matrix))))


def plan(matrix, backend="auto", kernel=None, params=None, expected_products=100, reordering="none",
         explicit_transpose=False, spmv_only=False, device=None, tuning="model", measured_candidates=3,
         plan_cache=None, dtype=None, spmm_columns=0, spmm_layout="row", selector_model=None,
         spmm_selector_model=None):
    """make_operator(make_plan(matrix, ...), matrix) in one step: a ready spmv.Operator."""
    library = library_matrix(matrix, dtype)
    options = _options(library, backend, kernel, params, explicit_transpose, spmv_only, device, reordering,
                       expected_products, tuning, measured_candidates, plan_cache, spmm_columns, spmm_layout,
                       selector_model, spmm_selector_model)
    return Operator(_spmv.plan(_native(library), options))


class _CupyCalls:
    """What `op @ x` calls of CuPy, looked up once: chains of attribute
    lookups add up against a call that costs a few microseconds."""

    def __init__(self, cupy):
        self.ndarray = cupy.ndarray
        self.current_device = cupy.cuda.runtime.getDevice
        self.current_stream = cupy.cuda.get_current_stream


_cupy_calls_found = None


def _cupy_calls():
    """_CupyCalls once the caller has imported CuPy; None before."""
    global _cupy_calls_found
    if _cupy_calls_found is None and "cupy" in sys.modules:
        _cupy_calls_found = _CupyCalls(sys.modules["cupy"])
    return _cupy_calls_found


def _references(held):
    """sys.getrefcount of held[0], counted alike here and for _UNHELD."""
    return sys.getrefcount(held[0])


# _references() of an object that only its tuple refers to (the figure differs
# between Python versions). Free-threaded Python's counts are not exact: no
# reuse of results there.
_UNHELD = _references((object(),))
_COUNTS_ARE_EXACT = getattr(sys, "_is_gil_enabled", lambda: True)()
# `op @ x` keeps its last result for reuse only up to this many entries: the
# allocation it saves (~1.6 us) matters only beside a small product.
_REUSED_UP_TO = 1 << 20


class Operator:
    """A planned sparse matrix: `op @ x` (vector: SpMV; 2-D: SpMM), `op.T @ x`,
    `op.apply(x, out=, alpha=, beta=)`.

    NumPy operands give NumPy results; CuPy arrays and CUDA torch tensors are
    used in place on the device and give results of their own library, on the
    same device (GPU backends only).
    """

    def __init__(self, native):
        self._native = native
        self.shape = (native.rows, native.cols)
        self.dtype = np.dtype(np.float32 if native.value_type == "f32" else np.float64)
        self._description = native.describe()
        self._on_device = self._description["backend"] in _DEVICE_BACKENDS
        self._products = {False: (native.apply, native.rows, native.cols),
                          True: (native.apply_transposed, native.cols, native.rows)}
        self._last_result = None  # (array, stream) of the last `op @ x` on a CuPy vector

    def describe(self):
        """Backend, format, kernel, parameters, bytes and setup times, as a dict; read from the
        operator at each call (its device bytes, build time and planned_spmm grow at the first
        `op @ B` of each k and layout)."""
        return self._native.describe()

    @property
    def T(self):
        """The transposed operator (A^T @ x without storing A^T unless planned with explicit_transpose)."""
        return _Transposed(self)

    def __matmul__(self, x):
        return self._vector_or_apply(x, transposed=False)

    def matvec(self, x):
        return self.apply(x)

    def _vector_or_apply(self, x, transposed):
        """`op @ x`: a contiguous CuPy vector of the operator's dtype on the
        current device goes straight to the library (apply()'s general checks
        cost a few microseconds of Python per call, as much as a small
        product); anything else goes through apply(), which also says what is
        wrong with it."""
        cupy = _cupy_calls()
        if cupy is not None and type(x) is cupy.ndarray and self._on_device and x.dtype is self.dtype:
            product, rows, cols = self._products[transposed]
            memory = x.data
            device = memory.device_id
            if x.shape == (cols,) and x.strides[0] == x.itemsize and device == cupy.current_device():
                stream = cupy.current_stream().ptr
                y = self._reusable_result(rows, device, stream)
                if y is None:
                    y = cupy.ndarray((rows,), self.dtype)
                product(memory.ptr, y.data.ptr, 1.0, 0.0, stream)
                self._last_result = (y, stream) if rows <= _REUSED_UP_TO else None
                return y
        return self.apply(x, transposed=transposed)

    def _reusable_result(self, rows, device, stream):
        """The array the last `op @ x` returned, when the caller has dropped it
        (`r = b - op @ x` in a loop) and it suits this product: writing into it
        saves an allocation. Its product ran on `stream` too, so the new one
        is ordered after it, as CuPy's memory pool orders a block's reuse."""
        last = self._last_result
        if last is None or not _COUNTS_ARE_EXACT or last[1] != stream:
            return None
        # Counted before a name here refers to the array: nothing but this
        # tuple may hold it, nothing but it its MemoryPointer, nothing but that
        # pointer its memory (a view or an exported pointer would), and no
        # weak reference may see it overwritten.
        if (_references(last) != _UNHELD or _references((last[0].data,)) != _UNHELD + 1
                or _references((last[0].data.mem,)) != _UNHELD + 1 or weakref.getweakrefcount(last[0])):
            return None
        array = last[0]
        if array.shape != (rows,) or array.data.device_id != device:
            return None
        return array

    def rmatvec(self, x):
        return self.apply(x, transposed=True)

    def apply(self, x, out=None, alpha=1.0, beta=0.0, transposed=False, stream=None):
        """out = alpha * A @ x + beta * out (A^T with transposed=True); returns out.

        x: vector or 2-D array (SpMM, C or Fortran order; out takes the same
        order). Without `out` a new array is returned (beta must then be 0).
        Device operands are used on `stream` (a CuPy or torch stream, or a
        cudaStream_t address), by default the current stream of their library;
        the call only queues the product there.
        """
        x_operand = operand(x, "x")
        self._check_operand(x_operand, "x")
        rows, cols = self.shape[::-1] if transposed else self.shape
        if x_operand.shape[0] != cols:
            raise ValueError(f"x has {x_operand.shape[0]} rows; the {'transposed ' if transposed else ''}"
                             f"operator is {rows} x {cols}")
        out_shape = (rows,) + tuple(x_operand.shape[1:])
        if out is None:
            if beta != 0:
                raise ValueError("beta != 0 needs `out` (the array it scales)")
            out_operand = empty_like_operand(x_operand, out_shape)
        else:
            out_operand = operand(out, "out")
            self._check_operand(out_operand, "out")
            if tuple(out_operand.shape) != out_shape:
                raise ValueError(f"out has shape {tuple(out_operand.shape)}; expected {out_shape}")
            if out_operand.library != x_operand.library:
                raise TypeError(f"x is a {x_operand.library} array but out is a {out_operand.library} array")
            if len(out_shape) == 2 and out_operand.row_major != x_operand.row_major:
                raise ValueError("x and out must have the same order (both C or both Fortran)")
        on_stream = stream_address(stream, x_operand)
        if len(out_shape) == 1:
            product = self._native.apply_transposed if transposed else self._native.apply
            product(x_operand.address, out_operand.address, alpha, beta, on_stream)
        elif transposed:
            raise ValueError("the transposed product takes a vector (the library has no transposed SpMM)")
        else:
            self._native.spmm(x_operand.address, out_operand.address, out_shape[1], x_operand.row_major,
                              alpha, beta, on_stream)
        return out_operand.array

    def _check_operand(self, array, what):
        if array.dtype != self.dtype:
            raise TypeError(f"{what} has dtype {array.dtype}; the operator's is {self.dtype} "
                            f"(convert with .astype, or plan with dtype={array.dtype})")
        if array.on_device and not self._on_device:
            raise TypeError(f"{what} is on the device but the operator runs on the host "
                            f"({self._description['backend']} backend): pass a NumPy array, "
                            "or plan with backend='cuda'")

    def time_products(self, x, out, batch=20, repeats=20, stream=None):
        """Seconds per product A @ x timed in C++ by CUDA events (batches of
        `batch` applies, `repeats` batches) on device operands and the stream
        apply() would use: the library's own figure, beside which a Python
        call's overhead can be measured."""
        x_operand, out_operand = operand(x, "x"), operand(out, "out")
        for array, what in ((x_operand, "x"), (out_operand, "out")):
            self._check_operand(array, what)
            if not array.on_device:
                raise TypeError(f"time_products needs device operands ({what} is a NumPy array)")
        if x_operand.shape != (self.shape[1],) or out_operand.shape != (self.shape[0],):
            raise ValueError(f"time_products takes vectors of {self.shape[1]} and {self.shape[0]} entries")
        return self._native.time_products(x_operand.address, out_operand.address, batch, repeats,
                                          stream_address(stream, x_operand))

    def aslinearoperator(self, library="scipy"):
        """The operator as a scipy.sparse.linalg.LinearOperator (NumPy vectors), or,
        with library="cupy", a cupyx.scipy.sparse.linalg.LinearOperator (CuPy vectors)."""
        if library == "scipy":
            from scipy.sparse.linalg import LinearOperator
        elif library == "cupy":
            from cupyx.scipy.sparse.linalg import LinearOperator
        else:
            raise ValueError(f"library must be 'scipy' or 'cupy' (got {library!r})")

        def contiguous(x):
            return x.reshape(-1) if x.ndim == 2 and x.shape[1] == 1 else x

        return LinearOperator(self.shape, dtype=self.dtype,
                              matvec=lambda x: self.apply(contiguous(x)),
                              rmatvec=lambda x: self.apply(contiguous(x), transposed=True),
                              matmat=lambda x: self.apply(x))

    def __repr__(self):
        d = self._description
        return (f"<spmv.Operator {self.shape[0]}x{self.shape[1]} {self.dtype} "
                f"{d['backend']}/{d['kernel']} ({d['format']})>")


class _Transposed:
    """A^T of an Operator: op.T @ x, op.T.apply(x, ...)."""

    def __init__(self, op):
        self._op = op
        self.shape = op.shape[::-1]
        self.dtype = op.dtype

    @property
    def T(self):
        return self._op

    def __matmul__(self, x):
        return self._op._vector_or_apply(x, transposed=True)

    def apply(self, x, out=None, alpha=1.0, beta=0.0, stream=None):
        return self._op.apply(x, out=out, alpha=alpha, beta=beta, transposed=True, stream=stream)
