"""The Python module on the GPU: CuPy arrays and CUDA torch tensors used in
place (results checked against SciPy, outputs checked by pointer identity).
Skips without a GPU, CuPy and torch unless SPMV_REQUIRE_GPU=1."""

import numpy as np
import pytest
import scipy.sparse

import spmv
from conftest import assert_product_close, require_gpu, source_dir

pytestmark = pytest.mark.gpu
DTYPES = [np.float32, np.float64]


@pytest.fixture(scope="module")
def cupy():
    try:
        import cupy
    except ImportError:
        require_gpu("CuPy is not installed")
    if not spmv.cuda_available():
        require_gpu("this build of spmv has no CUDA backend or no GPU is present")
    return cupy


@pytest.fixture(scope="module")
def torch(cupy):
    try:
        import torch
    except ImportError:
        require_gpu("PyTorch is not installed")
    if not torch.cuda.is_available():
        require_gpu("PyTorch sees no GPU")
    return torch


def random_matrix(rows, cols, dtype, seed=3):
    return scipy.sparse.random(rows, cols, density=0.02, format="csr", dtype=dtype,
                               random_state=np.random.default_rng(seed))


def random_vector(n, dtype, seed=9):
    return np.random.default_rng(seed).uniform(-1, 1, n).astype(dtype)


@pytest.mark.parametrize("backend", ["cuda", "cusparse"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_cupy_operands_give_cupy_results(cupy, backend, dtype):
    a = random_matrix(3000, 2000, dtype)
    x = random_vector(2000, dtype)
    op = spmv.plan(a, backend=backend)
    y = op @ cupy.asarray(x)
    assert isinstance(y, cupy.ndarray) and y.dtype == dtype and y.shape == (3000,)
    assert_product_close(y.get(), a, x, a @ x)
    xt = random_vector(3000, dtype)
    assert_product_close((op.T @ cupy.asarray(xt)).get(), a.T, xt, a.T @ xt)


@pytest.mark.parametrize("dtype", DTYPES)
def test_out_is_written_in_place(cupy, dtype):
    a = random_matrix(4000, 4000, dtype)
    x, y0 = random_vector(4000, dtype), random_vector(4000, dtype, seed=1)
    op = spmv.plan(a, backend="cuda")
    out = cupy.asarray(y0)
    address = out.data.ptr
    result = op.apply(cupy.asarray(x), out=out, alpha=2.0, beta=0.5)
    assert result is out and out.data.ptr == address
    assert_product_close(out.get(), a, x, 2.0 * (a @ x) + 0.5 * y0, alpha=2.0, beta_term=0.5 * y0)


def test_a_dropped_result_is_written_again_a_held_one_never(cupy):
    a = random_matrix(2000, 2000, np.float64)
    op = spmv.plan(a, backend="cuda")
    x1, x2 = random_vector(2000, np.float64, seed=1), random_vector(2000, np.float64, seed=2)
    x1_device, x2_device = cupy.asarray(x1), cupy.asarray(x2)
    dropped = (op @ x1_device).data.ptr
    y2 = op @ x2_device
    assert y2.data.ptr == dropped  # nothing held the first result: its memory is written again
    held = op @ x1_device
    assert held.data.ptr != y2.data.ptr
    view = held[1:]
    del held
    fresh = op @ x2_device
    assert fresh.data.ptr != view.data.ptr - 8  # a view keeps its base from being written
    pointer = fresh.data
    del fresh
    assert (op @ x1_device).data.ptr != pointer.ptr  # so does a MemoryPointer into it
    dropped = (op @ x1_device).data.ptr
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        on_another_stream = op @ x2_device
    assert on_another_stream.data.ptr != dropped  # reused on the stream of its last product only
    stream.synchronize()
    assert_product_close(on_another_stream.get(), a, x2, a @ x2)
    assert_product_close(y2.get(), a, x2, a @ x2)
    assert_product_close(view.get(), a[1:], x1, (a @ x1)[1:])
    assert_product_close(cupy.ndarray((2000,), np.float64, memptr=pointer).get(), a, x2, a @ x2)
    twice = op @ (op @ x1_device)  # the argument is never the result
    assert_product_close(twice.get(), a, a @ x1, a @ (a @ x1))


@pytest.mark.parametrize("order", ["C", "F"])
def test_cupy_spmm(cupy, order):
    a = random_matrix(2500, 1500, np.float64)
    b = np.asarray(np.random.default_rng(2).uniform(-1, 1, (1500, 5)), order=order)
    op = spmv.plan(a, backend="cuda")
    assert op.describe()["planned_spmm"] == []
    c = op @ cupy.asarray(b, order=order)
    # The first `op @ B` of a width plans that SpMM: describe() says what it chose.
    layout = "row" if order == "C" else "col"
    expected_kernel = spmv.make_plan(a, backend="cuda", spmm_columns=5, spmm_layout=layout).kernel
    assert op.describe()["planned_spmm"] == [{"k": 5, "layout": layout, "kernel": expected_kernel}]
    assert isinstance(c, cupy.ndarray) and c.shape == (2500, 5)
    assert c.flags.c_contiguous if order == "C" else c.flags.f_contiguous
    expected = a @ b
    for j in range(5):
        assert_product_close(c[:, j].get(), a, b[:, j], expected[:, j])


@pytest.mark.parametrize("order", ["C", "F"])
def test_spmm_plan_chooses_an_spmm_kernel(cupy, order):
    a = random_matrix(3000, 2000, np.float32)
    layout = "row" if order == "C" else "col"
    plan = spmv.make_plan(a, backend="cuda", spmm_columns=8, spmm_layout=layout)
    assert plan.kernel.startswith(("spmm-", "cusparse-spmm-")), plan.reason
    assert plan.tuning == "model" and plan.predicted_seconds > 0, plan.reason
    assert [name for name, _ in plan.features][-3:] == ["log2_columns", "column_major", "log2_dense_bytes_per_l2"]
    b = np.asarray(np.random.default_rng(5).uniform(-1, 1, (2000, 8)), dtype=np.float32, order=order)
    c = spmv.make_operator(plan, a) @ cupy.asarray(b, order=order)
    expected = a @ b
    for j in range(8):
        assert_product_close(c[:, j].get(), a, b[:, j], expected[:, j])


def test_a_model_file_ranks_the_candidates(cupy, tmp_path):
    import json
    with open(f"{source_dir()}/src/select/models/sm90.json") as f:
        model = json.load(f)
    model["kernels"] = [k for k in model["kernels"] if k["backend"] == "cusparse"]
    vendor_only = tmp_path / "vendor-only.json"
    vendor_only.write_text(json.dumps(model))
    a = random_matrix(3000, 3000, np.float64)
    assert spmv.make_plan(a, backend="cuda").selector_model == "built-in"
    plan = spmv.make_plan(a, backend="cuda", selector_model=vendor_only)
    assert plan.selector_model == str(vendor_only) and plan.backend == "cusparse", plan.reason
    assert {c["backend"] for c in plan.candidates} == {"cusparse"}
    x = np.random.default_rng(6).uniform(-1, 1, 3000)
    assert_product_close((spmv.make_operator(plan, a) @ cupy.asarray(x)).get(), a, x, a @ x)
    with pytest.raises(OSError, match="no-such-model"):
        spmv.make_plan(a, backend="cuda", selector_model=tmp_path / "no-such-model.json")


@pytest.mark.parametrize("dtype", DTYPES)
def test_explicit_transpose_plans_the_transpose_of_its_own(cupy, dtype):
    a = scipy.sparse.random(40000, 120, density=0.1, format="csr", dtype=dtype,
                            random_state=np.random.default_rng(4))
    plan = spmv.make_plan(a, backend="cuda", explicit_transpose=True)
    assert plan.transposed is not None and plan.transposed.shape == (120, 40000), plan.reason
    assert plan.transposed.transposed is None
    op = spmv.make_operator(plan, a)
    assert op.describe()["transposed"]["kernel"] == plan.transposed.kernel
    x = random_vector(40000, dtype)
    assert_product_close((op.T @ cupy.asarray(x)).get(), a.T.tocsr(), x, a.T @ x)
    x = random_vector(120, dtype)
    assert_product_close((op @ cupy.asarray(x)).get(), a, x, a @ x)


def test_cupyx_matrix_on_a_non_blocking_stream(cupy):
    import cupyx.scipy.sparse

    a = random_matrix(20000, 20000, np.float64)
    x = random_vector(20000, np.float64)
    op = spmv.plan(cupyx.scipy.sparse.csr_matrix(a), backend="cuda")
    stream = cupy.cuda.Stream(non_blocking=True)  # not ordered with the default streams
    with stream:
        x_device = cupy.asarray(x)  # copied on `stream`
        y = op @ x_device           # must run on `stream`, after the copy
        doubled = 2 * y             # and before this
    assert op._native.stream == stream.ptr
    stream.synchronize()
    assert_product_close(doubled.get() / 2, a, x, a @ x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_cupyx_matrix_is_planned_on_the_device_as_on_the_host(cupy, dtype):
    import cupyx.scipy.sparse

    a = random_matrix(30000, 30000, dtype)
    on_device = cupyx.scipy.sparse.csr_matrix(a)
    host_plan, device_plan = spmv.make_plan(a, backend="cuda"), spmv.make_plan(on_device)
    assert (device_plan.backend, device_plan.kernel) == (host_plan.backend, host_plan.kernel)
    assert device_plan.features == host_plan.features
    x = random_vector(30000, dtype)
    y = spmv.make_operator(device_plan, on_device) @ cupy.asarray(x)
    assert_product_close(y.get(), a, x, a @ x)


def test_a_cupyx_matrix_without_canonical_format_is_made_canonical_on_the_device(cupy):
    import cupyx.scipy.sparse

    # Row 0 holds column 2 twice (summed) and its columns out of order.
    indptr, indices = cupy.asarray([0, 3, 4, 5], dtype=cupy.int32), cupy.asarray([2, 0, 2, 1, 0], dtype=cupy.int32)
    data = cupy.asarray([1.0, 2.0, 3.0, 4.0, 5.0])
    matrix = cupyx.scipy.sparse.csr_matrix((data, indices, indptr), shape=(3, 3))
    assert not matrix.has_canonical_format
    op = spmv.plan(matrix, kernel="csr-scalar")
    y = op @ cupy.asarray([1.0, 10.0, 100.0])
    np.testing.assert_allclose(y.get(), [2.0 + 400.0, 40.0, 5.0])
    with pytest.raises(ValueError, match="cuda or cusparse backend"):
        spmv.plan(matrix, backend="cpu")


def test_torch_stream(torch):
    a = random_matrix(20000, 20000, np.float32)
    x = random_vector(20000, np.float32)
    op = spmv.plan(a, backend="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        x_device = torch.from_numpy(x).cuda()
        y = op @ x_device
        doubled = 2 * y
    assert op._native.stream == stream.cuda_stream
    stream.synchronize()
    assert_product_close(doubled.cpu().numpy() / 2, a, x, a @ x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_tensors(torch, dtype):
    a = random_matrix(3000, 2000, dtype)
    x = random_vector(2000, dtype)
    torch_dtype = torch.float32 if dtype == np.float32 else torch.float64
    matrix = torch.sparse_csr_tensor(torch.from_numpy(a.indptr.astype(np.int64)),
                                     torch.from_numpy(a.indices.astype(np.int64)),
                                     torch.from_numpy(a.data), size=a.shape, device="cuda")
    op = spmv.plan(matrix, backend="cuda")
    assert op.dtype == dtype
    x_device = torch.from_numpy(x).cuda()
    y = op @ x_device
    assert isinstance(y, torch.Tensor) and y.is_cuda and y.dtype == torch_dtype
    assert_product_close(y.cpu().numpy(), a, x, a @ x)
    out = torch.full((3000,), float("nan"), dtype=torch_dtype, device="cuda")
    address = out.data_ptr()
    assert op.apply(x_device, out=out) is out and out.data_ptr() == address
    assert_product_close(out.cpu().numpy(), a, x, a @ x)


def test_device_operand_errors(cupy, torch):
    op = spmv.plan(random_matrix(100, 100, np.float64), backend="cuda")
    with pytest.raises(TypeError, match="dtype float32"):
        op @ cupy.ones(100, dtype=cupy.float32)
    with pytest.raises(ValueError, match="not contiguous"):
        op @ cupy.ones(200)[::2]
    with pytest.raises(TypeError, match="CPU tensor"):
        op @ torch.ones(100, dtype=torch.float64)
    with pytest.raises(TypeError, match="x is a cupy array but out is a torch array"):
        op.apply(cupy.ones(100), out=torch.ones(100, dtype=torch.float64, device="cuda"))
    host_op = spmv.plan(random_matrix(100, 100, np.float64), backend="cpu")
    with pytest.raises(TypeError, match="runs on the host"):
        host_op @ cupy.ones(100)


def test_cpp_timing_of_the_same_operator(cupy):
    a = random_matrix(2000, 2000, np.float64)
    op = spmv.plan(a, backend="cuda")
    x, y = cupy.ones(2000), cupy.empty(2000)
    seconds = op.time_products(x, y, batch=3, repeats=4)
    assert len(seconds) == 4 and all(s > 0 for s in seconds)
    assert_product_close(y.get(), a, np.ones(2000), a @ np.ones(2000))
