"""Shared pieces of the Python tests: the gpu marker, the GPU requirement, tolerances."""

import os
import pathlib

import numpy as np
import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU, CuPy and PyTorch (skips without them "
                                      "unless SPMV_REQUIRE_GPU=1)")


def require_gpu(reason):
    """Skips the test, or fails it when SPMV_REQUIRE_GPU=1 says a GPU must be there."""
    if os.environ.get("SPMV_REQUIRE_GPU") == "1":
        pytest.fail(f"SPMV_REQUIRE_GPU=1 but {reason}")
    pytest.skip(reason)


def source_dir():
    return pathlib.Path(os.environ.get("SPMV_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def assert_product_close(result, matrix, x, expected, alpha=1.0, beta_term=None):
    """The design's per-row bound: |y - y_ref| <= c eps (|alpha| sum |a_ij x_j| + |beta y_i|)."""
    result = np.asarray(result, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    eps = np.finfo(np.asarray(x).dtype).eps
    scale = abs(alpha) * (abs(matrix).astype(np.float64) @ np.abs(np.asarray(x, dtype=np.float64)))
    if beta_term is not None:
        scale = scale + np.abs(beta_term)
    assert not np.isnan(result).any()
    assert np.all(np.abs(result - expected) <= 64 * eps * scale + np.finfo(np.float64).tiny)
