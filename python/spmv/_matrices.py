"""Sparse matrices into the library's CSR, and the library's readers and generators.

A matrix on the host (SciPy, a tuple of arrays) becomes the library's host
CSR, which the plan uploads once. A CSR matrix on the GPU (CuPy, a CUDA
torch tensor) is planned where it is: the library reads its arrays on the
device, through a DeviceCsr view that keeps them alive for the call.
Operands of the products are never copied.
"""

import sys

import numpy as np

from . import _spmv

_INDEX_LIMIT = 2**31 - 1
_VALUE_TYPES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def value_type_of(dtype):
    """"f32" or "f64" for a float32/float64 dtype; TypeError for any other."""
    dtype = np.dtype(dtype)
    if dtype not in _VALUE_TYPES:
        raise TypeError(f"spmv multiplies float32 and float64 matrices (got {dtype}); "
                        "pass dtype=numpy.float32 or numpy.float64 to convert")
    return _VALUE_TYPES[dtype]


def _host_csr_arrays(matrix):
    """(indptr, indices, data, shape) as NumPy arrays of any SciPy or host
    PyTorch sparse matrix, or of an (indptr, indices, data, shape) tuple."""
    if isinstance(matrix, (tuple, list)):
        if len(matrix) != 4:
            raise ValueError("a CSR tuple is (indptr, indices, data, (rows, cols))")
        indptr, indices, data, shape = matrix
        return np.asarray(indptr), np.asarray(indices), np.asarray(data), tuple(shape)
    module = type(matrix).__module__
    if module.startswith("scipy.sparse"):
        csr = matrix.tocsr()
        return csr.indptr, csr.indices, csr.data, csr.shape
    if module == "torch":
        torch = sys.modules["torch"]
        if matrix.layout != torch.sparse_csr:
            matrix = matrix.to_sparse_csr()
        return (matrix.crow_indices().cpu().numpy(), matrix.col_indices().cpu().numpy(),
                matrix.values().cpu().numpy(), tuple(matrix.shape))
    raise TypeError("the matrix must be a scipy.sparse matrix or array, a cupyx.scipy.sparse matrix, "
                    "a torch sparse tensor or (indptr, indices, data, (rows, cols)); "
                    f"got {type(matrix).__name__}")


class DeviceMatrix:
    """A CSR matrix on the GPU as the library reads it: `view` (DeviceCsrF32 or
    DeviceCsrF64) holds the addresses of `arrays`, which this object keeps
    alive; `device` is the CUDA device they are on."""

    def __init__(self, view, arrays, device):
        self.view = view
        self.arrays = arrays
        self.device = device


def _checked_sizes(value_dtype, nnz, shape):
    """(value type, rows, cols) of a matrix of `nnz` entries of `value_dtype`,
    within 32-bit indices."""
    value_type = value_type_of(value_dtype)
    rows, cols = (int(n) for n in shape)
    if max(rows, cols, nnz) > _INDEX_LIMIT:
        raise ValueError(f"a {rows} x {cols} matrix with {nnz} entries needs more than "
                         "32-bit indices, which spmv does not support")
    return value_type, rows, cols


def _device_matrix(indptr, indices, data, shape, device, value_dtype, addresses):
    value_type, rows, cols = _checked_sizes(value_dtype, len(indices), shape)
    view_class = _spmv.DeviceCsrF32 if value_type == "f32" else _spmv.DeviceCsrF64
    view = view_class(rows, cols, len(indices), *addresses(indptr, indices, data))
    return DeviceMatrix(view, (indptr, indices, data), device)


def _cupy_device_matrix(matrix, dtype):
    csr = matrix.tocsr()
    if not csr.has_canonical_format:
        csr = csr.copy()
        csr.sum_duplicates()  # sorts each row's columns and sums repeats, on the device
    value_dtype = csr.data.dtype if dtype is None else np.dtype(dtype)
    value_type_of(value_dtype)  # refused before any conversion
    cupy = sys.modules["cupy"]
    arrays = [cupy.ascontiguousarray(a, dtype=t)
              for a, t in ((csr.indptr, np.int32), (csr.indices, np.int32), (csr.data, value_dtype))]
    return _device_matrix(*arrays, csr.shape, csr.data.device.id, value_dtype,
                          lambda *a: tuple(array.data.ptr for array in a))


def _torch_device_matrix(matrix, dtype):
    torch = sys.modules["torch"]
    if matrix.layout != torch.sparse_csr:
        matrix = matrix.coalesce().to_sparse_csr() if matrix.layout == torch.sparse_coo else matrix.to_sparse_csr()
    value_dtype = np.dtype(str(matrix.values().dtype).replace("torch.", "")) if dtype is None else np.dtype(dtype)
    value_type_of(value_dtype)  # refused before any conversion
    torch_dtype = torch.float32 if value_dtype == np.float32 else torch.float64
    arrays = (matrix.crow_indices().to(torch.int32).contiguous(), matrix.col_indices().to(torch.int32).contiguous(),
              matrix.values().to(torch_dtype).contiguous())
    return _device_matrix(*arrays, tuple(matrix.shape), matrix.device.index, value_dtype,
                          lambda *a: tuple(array.data_ptr() for array in a))


def library_matrix(matrix, dtype=None):
    """What the library plans from `matrix`: a DeviceMatrix for a CuPy sparse
    matrix or a CUDA torch sparse tensor, else library_csr(matrix, dtype)."""
    module = type(matrix).__module__
    if module.startswith("cupyx.scipy.sparse"):
        return _cupy_device_matrix(matrix, dtype)
    if module == "torch" and matrix.is_cuda:
        return _torch_device_matrix(matrix, dtype)
    return library_csr(matrix, dtype)


def library_csr(matrix, dtype=None):
    """The library's Csr (CsrF32 or CsrF64) of `matrix`: validated, duplicates
    summed, rows sorted. The value type is `dtype`, else the matrix's own."""
    indptr, indices, data, shape = _host_csr_arrays(matrix)
    value_type, rows, cols = _checked_sizes(data.dtype if dtype is None else dtype, len(indices), shape)
    value_dtype = np.float32 if value_type == "f32" else np.float64
    csr_class = _spmv.CsrF32 if value_type == "f32" else _spmv.CsrF64
    return csr_class(rows, cols, np.ascontiguousarray(indptr, dtype=np.int32),
                     np.ascontiguousarray(indices, dtype=np.int32),
                     np.ascontiguousarray(data, dtype=value_dtype))


def _scipy_csr(arrays):
    """A scipy.sparse.csr_matrix viewing the library's arrays (no copy)."""
    import scipy.sparse

    indptr, indices, data = (np.asarray(array) for array in arrays[:3])
    shape = arrays[3]
    return scipy.sparse.csr_matrix((data, indices, indptr), shape=shape)


def read_matrix(path, dtype=np.float64):
    """A Matrix Market, LIBSVM or .spmv file (optionally .gz) as a scipy.sparse.csr_matrix."""
    reader = _spmv.read_matrix_f32 if value_type_of(dtype) == "f32" else _spmv.read_matrix_f64
    return _scipy_csr(reader(str(path)))


def read_libsvm(path, dtype=np.float64):
    """A LIBSVM file as (scipy.sparse.csr_matrix of features, NumPy array of labels)."""
    reader = _spmv.read_libsvm_f32 if value_type_of(dtype) == "f32" else _spmv.read_libsvm_f64
    arrays, labels = reader(str(path))
    return _scipy_csr(arrays), np.asarray(labels)


def generate(spec, dtype=np.float64):
    """A generated matrix, e.g. generate("stencil27:n=150"), as a scipy.sparse.csr_matrix
    (generator_kinds() lists the kinds and their parameters)."""
    indptr, indices, data, shape = _spmv.generate(spec)
    if value_type_of(dtype) == "f32":
        data = np.asarray(data).astype(np.float32)
    return _scipy_csr((indptr, indices, data, shape))


def generator_kinds():
    """Every generator kind: name, help and parameters (with defaults)."""
    return _spmv.generator_kinds()
