// The reordering inside the GPU operators (cuda and cusparse backends): every
// product in the caller's order against the reference of the original
// matrix, with host operands (staged once by the wrapper) and device operands
// (the gather and scatter kernels work in place), f64 and f32, for RCM, AMD
// and BAR on the zoo; the cuda backend with its default kernel and with the
// BRO-ELL kernel when this build has it (BAR's target format).
#include <gtest/gtest.h>

#include <algorithm>

#include "reordered_products.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"

#ifdef SPMV_HAVE_CUDA
#include "cuda/device_buffer.hpp"
#endif

namespace spmv {
namespace {

constexpr Reordering reorderings[] = {Reordering::rcm, Reordering::amd, Reordering::bro_aware};

#ifdef SPMV_HAVE_CUDA
// Copies of the operands on the device (one entry at least: no zero-byte
// allocations), the product on them, the result copied back.
template <class T>
void place_on_device(const std::vector<T>& in, std::vector<T>& out,
                     const std::function<void(const T*, T*)>& product) {
  detail::DeviceBuffer<T> device_in(std::max<std::size_t>(in.size(), 1), "test input"),
      device_out(std::max<std::size_t>(out.size(), 1), "test output");
  device_in.upload(in.data(), in.size());
  device_out.upload(out.data(), out.size());
  product(device_in.data(), device_out.data());
  device_out.download(out.data(), out.size());
}
#endif

struct GpuCase {
  Backend backend;
  std::string kernel;  // empty: the backend's default
};

std::vector<GpuCase> gpu_cases() {
  std::vector<GpuCase> cases = {{Backend::cuda, ""}, {Backend::cusparse, ""}};
  for (const KernelInfo& info : kernel_catalogue())
    if (info.name == "bro-ell") cases.push_back({Backend::cuda, info.name});
  return cases;
}

template <class T>
void check_every_case(bool device_operands) {
  for (const GpuCase& gpu : gpu_cases())
    for (Reordering method : reorderings)
      for (const auto& [name, matrix] : test::matrix_zoo()) {
        if (!test::reorderable(method, matrix)) continue;
        SCOPED_TRACE(::testing::Message() << to_string(gpu.backend) << " " << gpu.kernel << ", "
                                          << to_string(method) << ", " << name);
        const Csr<T> a = cast<T>(matrix);
        PlanOptions options;
        options.backend = gpu.backend;
        options.kernel = gpu.kernel;
        options.reordering = method;
        std::unique_ptr<Operator<T>> op;
        try {
          op = plan(a, options);
        } catch (const FormatLimitError&) {
          continue;  // e.g. BRO-ELL's padding limit on a power-law matrix
        }
        EXPECT_EQ(op->describe().reordering, method);
#ifdef SPMV_HAVE_CUDA
        if (device_operands) {
          test::expect_reordered_products_match<T>(a, *op, place_on_device<T>);
          continue;
        }
#endif
        test::expect_reordered_products_match<T>(a, *op, test::place_on_host<T>);
      }
}

TEST(GpuReorder, HostOperandsDouble) {
  SPMV_GPU_TEST_PRELUDE();
  check_every_case<double>(false);
}

TEST(GpuReorder, DeviceOperandsDouble) {
  SPMV_GPU_TEST_PRELUDE();
  check_every_case<double>(true);
}

TEST(GpuReorder, HostAndDeviceOperandsFloat) {
  SPMV_GPU_TEST_PRELUDE();
  check_every_case<float>(false);
  check_every_case<float>(true);
}

TEST(GpuReorder, DescriptionCountsTheScratchAndTheReorderTime) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=12"));
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "csr-vector";  // one kernel for both: the default's may differ with the order
  const OperatorDescription plain = plan(a, options)->describe();
  options.reordering = Reordering::rcm;
  const OperatorDescription reordered = plan(a, options)->describe();
  EXPECT_EQ(reordered.reordering, Reordering::rcm);
  EXPECT_GT(reordered.reorder_seconds, 0.0);
  // Two orders and two scratch vectors at least.
  EXPECT_GE(reordered.device_bytes,
            plain.device_bytes + 2 * a.rows * (sizeof(index_t) + sizeof(double)));
}

TEST(GpuReorder, NonSquareMatricesAreRefusedBySymmetricReorderings) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::from_triplets(4, 6, {{0, 5, 1.0}, {3, 0, 2.0}});
  PlanOptions options;
  options.backend = Backend::cuda;
  options.reordering = Reordering::amd;
  try {
    plan(a, options);
    FAIL() << "amd planned a 4 x 6 matrix";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("4 x 6"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spmv
