"""Dense operands from NumPy (host), CuPy and PyTorch (device), seen alike.

An operand is described once per call by its library, address, shape, dtype
and layout; outputs are allocated by the operand's own library, on its
device, so that `op @ x` returns what it was given. Nothing is copied: an
operand that is not contiguous is refused (call numpy/cupy.ascontiguousarray
or tensor.contiguous() first).
"""

import sys

import numpy as np


class Operand:
    __slots__ = ("array", "library", "address", "shape", "dtype", "row_major")

    def __init__(self, array, library, address, shape, dtype, row_major):
        self.array = array
        self.library = library  # "numpy", "cupy" or "torch"
        self.address = address
        self.shape = shape
        self.dtype = dtype
        self.row_major = row_major  # layout of a 2-D operand (True for 1-D)

    @property
    def on_device(self):
        return self.library != "numpy"


def _layout(c_contiguous, f_contiguous, ndim, what):
    if ndim == 1 and c_contiguous:
        return True
    if ndim == 2 and (c_contiguous or f_contiguous):
        return c_contiguous
    if ndim not in (1, 2):
        raise ValueError(f"{what} must be a vector or a 2-D array (got {ndim} dimensions)")
    raise ValueError(f"{what} is not contiguous: pass a C- or Fortran-ordered copy "
                     "(numpy/cupy.ascontiguousarray, tensor.contiguous())")


def _torch_operand(tensor, what):
    torch = sys.modules["torch"]
    if tensor.layout != torch.strided:
        raise TypeError(f"{what} must be a dense tensor (got layout {tensor.layout})")
    if not tensor.is_cuda:
        raise TypeError(f"{what} is a CPU tensor: pass tensor.numpy() for the host path, "
                        "or a CUDA tensor")
    dtype = {torch.float32: np.dtype(np.float32), torch.float64: np.dtype(np.float64)}.get(tensor.dtype)
    if dtype is None:
        raise TypeError(f"{what} has dtype {tensor.dtype}; spmv multiplies float32 and float64")
    c_contiguous = tensor.is_contiguous()
    f_contiguous = tensor.dim() == 2 and tensor.t().is_contiguous()
    row_major = _layout(c_contiguous, f_contiguous, tensor.dim(), what)
    return Operand(tensor, "torch", tensor.data_ptr(), tuple(tensor.shape), dtype, row_major)


def operand(array, what):
    """Describes `array` (NumPy, CuPy or a CUDA torch tensor); refuses anything else."""
    if isinstance(array, np.ndarray):
        row_major = _layout(array.flags.c_contiguous, array.flags.f_contiguous, array.ndim, what)
        return Operand(array, "numpy", array.ctypes.data, array.shape, array.dtype, row_major)
    module = type(array).__module__
    if module.startswith("cupy"):
        flags = array.flags
        row_major = _layout(flags.c_contiguous, flags.f_contiguous, array.ndim, what)
        return Operand(array, "cupy", array.data.ptr, array.shape, array.dtype, row_major)
    if module == "torch":
        return _torch_operand(array, what)
    raise TypeError(f"{what} must be a numpy.ndarray, cupy.ndarray or CUDA torch.Tensor "
                    f"(got {type(array).__name__})")


def empty_like_operand(like, shape):
    """An uninitialised array of `shape` in like's library, device, dtype and layout."""
    order = "C" if like.row_major else "F"
    if like.library == "numpy":
        array = np.empty(shape, dtype=like.dtype, order=order)
        return Operand(array, "numpy", array.ctypes.data, shape, like.dtype, like.row_major)
    if like.library == "cupy":
        cupy = sys.modules["cupy"]
        device = like.array.data.device_id
        if device == cupy.cuda.runtime.getDevice():  # entering a Device costs more than the allocation
            array = cupy.empty(shape, dtype=like.dtype, order=order)
        else:
            with cupy.cuda.Device(device):
                array = cupy.empty(shape, dtype=like.dtype, order=order)
        return Operand(array, "cupy", array.data.ptr, shape, like.dtype, like.row_major)
    torch = sys.modules["torch"]
    tensor = like.array
    if order == "C":
        array = torch.empty(shape, dtype=tensor.dtype, device=tensor.device)
    else:
        array = torch.empty(shape[::-1], dtype=tensor.dtype, device=tensor.device).t()
    return Operand(array, "torch", array.data_ptr(), shape, like.dtype, like.row_major)


def stream_address(stream, like):
    """The cudaStream_t address the product runs on: `stream` when given (an
    address, a CuPy stream or a torch stream), else the current stream of the
    operand's library on its device; None for host operands."""
    if stream is not None:
        for attribute in ("ptr", "cuda_stream"):  # cupy.cuda.Stream, torch.cuda.Stream
            if hasattr(stream, attribute):
                return getattr(stream, attribute)
        return int(stream)
    if like.library == "cupy":
        return sys.modules["cupy"].cuda.get_current_stream().ptr
    if like.library == "torch":
        return sys.modules["torch"].cuda.current_stream(like.array.device).cuda_stream
    return None
