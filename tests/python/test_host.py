"""The Python module on the host: NumPy operands, SciPy matrices, the cpu and
reference backends, against SciPy's own products."""

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.linalg

import spmv
from conftest import assert_product_close, source_dir

BACKENDS = ["cpu", "reference"]
DTYPES = [np.float32, np.float64]


def random_matrix(rows, cols, dtype, seed=7):
    """Random entries, with some duplicates (summed) and unsorted rows: COO as SciPy gives it."""
    rng = np.random.default_rng(seed)
    nnz = rows * cols // 20
    coo = scipy.sparse.coo_matrix((rng.uniform(-1, 1, nnz), (rng.integers(0, rows, nnz),
                                   rng.integers(0, cols, nnz))), shape=(rows, cols))
    return coo.astype(dtype)


def random_vector(n, dtype, seed=11):
    return np.random.default_rng(seed).uniform(-1, 1, n).astype(dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_product_matches_scipy(backend, dtype):
    a = random_matrix(300, 200, dtype)
    x = random_vector(200, dtype)
    op = spmv.plan(a, backend=backend)
    assert op.shape == (300, 200) and op.dtype == np.dtype(dtype)
    y = op @ x
    assert isinstance(y, np.ndarray) and y.dtype == np.dtype(dtype) and y.shape == (300,)
    assert_product_close(y, a, x, a.tocsr() @ x)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_transposed_product(backend, dtype):
    a = random_matrix(300, 200, dtype)
    x = random_vector(300, dtype)
    op = spmv.plan(a, backend=backend)
    expected = a.T.tocsr() @ x
    assert_product_close(op.T @ x, a.T, x, expected)
    assert_product_close(op.rmatvec(x), a.T, x, expected)
    assert op.T.shape == (200, 300) and op.T.T is op


@pytest.mark.parametrize("backend", BACKENDS)
def test_apply_scales_into_out(backend):
    a = random_matrix(120, 90, np.float64)
    x = random_vector(90, np.float64)
    op = spmv.plan(a, backend=backend)
    out = random_vector(120, np.float64, seed=3)
    before = out.copy()
    result = op.apply(x, out=out, alpha=2.5, beta=-0.5)
    assert result is out
    assert_product_close(out, a, x, 2.5 * (a.tocsr() @ x) - 0.5 * before, alpha=2.5, beta_term=0.5 * before)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_spmm_both_orders(backend, order, dtype):
    a = random_matrix(150, 100, dtype)
    b = np.asarray(np.random.default_rng(5).uniform(-1, 1, (100, 6)), dtype=dtype, order=order)
    c = spmv.plan(a, backend=backend) @ b
    assert c.shape == (150, 6)
    assert c.flags.c_contiguous if order == "C" else c.flags.f_contiguous
    expected = a.tocsr() @ b
    for j in range(6):
        assert_product_close(c[:, j], a, b[:, j], expected[:, j])


def test_every_input_form_gives_the_same_operator():
    a = random_matrix(80, 60, np.float64)
    x = random_vector(60, np.float64)
    csr = a.tocsr()
    expected = csr @ x
    forms = [a, csr, a.tocsc(), scipy.sparse.csr_array(csr), (csr.indptr, csr.indices, csr.data, csr.shape)]
    for form in forms:
        assert_product_close(spmv.plan(form, backend="cpu") @ x, a, x, expected)


def test_dtype_argument_converts_the_matrix():
    a = random_matrix(50, 50, np.float64)
    op = spmv.plan(a, backend="cpu", dtype=np.float32)
    assert op.dtype == np.float32
    x = random_vector(50, np.float32)
    assert_product_close(op @ x, a, x, a.astype(np.float32).tocsr() @ x)


def test_plan_json_round_trip():
    a = random_matrix(200, 200, np.float64)
    plan = spmv.make_plan(a, backend="cpu", expected_products=10)
    assert plan.backend == "cpu" and plan.value_type == "f64" and plan.shape == (200, 200)
    assert plan.nnz == a.tocsr().nnz and plan.tuning == "default" and plan.reason  # the cpu backend's own choice
    again = spmv.Plan.from_json(plan.to_json())
    assert (again.kernel, again.format, again.params, again.reason) == (plan.kernel, plan.format, plan.params,
                                                                      plan.reason)
    assert again.to_json() == plan.to_json()
    x = random_vector(200, np.float64)
    op = spmv.make_operator(again, a)
    assert op.describe()["kernel"] == spmv.plan(a, backend="cpu").describe()["kernel"]
    assert_product_close(op @ x, a, x, a.tocsr() @ x)


def test_spmm_plan_options():
    a = random_matrix(120, 90, np.float64)
    plan = spmv.make_plan(a, backend="cpu", spmm_columns=6, spmm_layout="col")
    assert (plan.spmm_columns, plan.spmm_layout) == (6, "col")
    again = spmv.Plan.from_json(plan.to_json())
    assert (again.spmm_columns, again.spmm_layout) == (6, "col")
    assert spmv.make_plan(a, backend="cpu").spmm_columns == 0
    b = np.asarray(np.random.default_rng(4).uniform(-1, 1, (90, 6)), order="F")
    c = spmv.make_operator(plan, a) @ b
    expected = a.tocsr() @ b
    for j in range(6):
        assert_product_close(c[:, j], a, b[:, j], expected[:, j])
    with pytest.raises(ValueError, match="spmm_columns"):
        spmv.make_plan(a, backend="cpu", spmm_columns=1)
    with pytest.raises(ValueError, match="spmm_layout"):
        spmv.make_plan(a, backend="cpu", spmm_columns=4, spmm_layout="diagonal")


def test_forced_kernel_and_catalogue():
    names = [k["name"] for k in spmv.kernels() if k["backend"] == "cpu"]
    assert names
    a = random_matrix(100, 100, np.float64)
    op = spmv.plan(a, backend="cpu", kernel=names[-1])
    assert op.describe()["kernel"] == names[-1]
    x = random_vector(100, np.float64)
    assert_product_close(op @ x, a, x, a.tocsr() @ x)


def test_linear_operator_solves_with_scipy_cg():
    a = spmv.generate("stencil5:n=20")
    b = np.ones(a.shape[0])
    solution, info = scipy.sparse.linalg.cg(spmv.plan(a, backend="cpu").aslinearoperator(), b, atol=0)
    assert info == 0  # converged to cg's default relative tolerance, 1e-5
    assert np.linalg.norm(a @ solution - b) <= 1e-4 * np.linalg.norm(b)


def test_generate_matches_its_definition():
    a = spmv.generate("stencil5:nx=4,ny=3")
    assert isinstance(a, scipy.sparse.csr_matrix) and a.shape == (12, 12)
    assert np.all(a.diagonal() == 4) and (a != a.T).nnz == 0
    assert a.nnz == 12 + 2 * (3 * 3 + 4 * 2)  # diagonal + both directions of every grid edge
    assert spmv.generate("stencil5:n=4", dtype=np.float32).dtype == np.float32
    assert "stencil27" in [k["name"] for k in spmv.generator_kinds()]


def test_read_matrix_and_libsvm():
    data = source_dir() / "data"
    a = spmv.read_matrix(data / "dwt_992.mtx.gz")
    assert isinstance(a, scipy.sparse.csr_matrix) and a.shape == (992, 992) and (a != a.T).nnz == 0
    features, labels = spmv.read_libsvm(data / "heart_scale.libsvm")
    assert features.shape[0] == labels.shape[0] == 270
    assert set(np.unique(labels)) == {-1.0, 1.0}
    assert features[0, 0] == pytest.approx(0.708333)


def test_errors_become_python_exceptions(tmp_path):
    a = random_matrix(40, 30, np.float64)
    op = spmv.plan(a, backend="cpu")
    with pytest.raises(TypeError, match="dtype float32"):
        op @ np.ones(30, dtype=np.float32)
    with pytest.raises(ValueError, match="x has 31 rows"):
        op @ np.ones(31)
    with pytest.raises(ValueError, match="not contiguous"):
        op @ np.ones(60)[::2]
    with pytest.raises(ValueError, match="beta != 0 needs `out`"):
        op.apply(np.ones(30), beta=1.0)
    with pytest.raises(ValueError, match="out has shape"):
        op.apply(np.ones(30), out=np.ones(30))
    with pytest.raises(ValueError, match="transposed product takes a vector"):
        op.T @ np.ones((40, 2))
    with pytest.raises(TypeError, match="float32 and float64"):
        spmv.plan(a.astype(np.int64), backend="cpu")
    with pytest.raises(TypeError, match="scipy.sparse"):
        spmv.plan(np.ones((3, 3)), backend="cpu")
    with pytest.raises(ValueError, match="backend"):
        spmv.plan(a, backend="quantum")
    with pytest.raises(ValueError, match="no-such-kernel"):
        spmv.plan(a, backend="cpu", kernel="no-such-kernel")
    with pytest.raises(ValueError):  # column index 5 in a 2 x 2 matrix
        spmv.plan((np.array([0, 1, 1]), np.array([5]), np.array([1.0]), (2, 2)), backend="cpu")
    plan = spmv.make_plan(a, backend="cpu")
    with pytest.raises(ValueError):
        spmv.make_operator(plan, random_matrix(41, 30, np.float64))
    with pytest.raises(ValueError):
        spmv.make_operator(plan, a.astype(np.float32))
    with pytest.raises(OSError, match="missing.mtx"):
        spmv.read_matrix(tmp_path / "missing.mtx")
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 9 1.0\n")
    with pytest.raises(ValueError, match="bad.mtx:3"):
        spmv.read_matrix(bad)
    with pytest.raises(ValueError):
        spmv.Plan.from_json("{}")


def test_other_operands_are_refused():
    op = spmv.plan(random_matrix(10, 10, np.float64), backend="cpu")
    with pytest.raises(TypeError, match="numpy.ndarray, cupy.ndarray or CUDA torch.Tensor"):
        op @ ([1.0] * 10)
