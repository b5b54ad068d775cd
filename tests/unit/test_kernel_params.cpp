// Kernel parameter specs (KernelInfo::params): their text, the check of a
// plan's parameters against them, and the host kernels' use of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_params.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"

namespace spmv {
namespace {

const std::vector<KernelParamSpec> example_specs = {
    detail::one_of("threads_per_row", {2, 4, 8}, "8", "lanes per row"),
    detail::in_range("block_size", 64, 1024, "256", "threads per block"),
    detail::in_range("threads", 1, INT_MAX, "all", "threads"),
};

std::string check_error(const KernelParams& params, const std::vector<KernelParamSpec>& specs) {
  try {
    detail::check_kernel_params("k", params, specs);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no InvalidArgument thrown)";
}

TEST(KernelParams, TextListsTheAllowedValuesOrTheRange) {
  EXPECT_EQ(params_text(example_specs), "threads_per_row=2|4|8 block_size=64..1024 threads=1..");
  EXPECT_EQ(params_text({}), "");
}

TEST(KernelParams, ValuesTheSpecsAllowAreAccepted) {
  EXPECT_NO_THROW(detail::check_kernel_params("k", {}, {}));
  EXPECT_NO_THROW(
      detail::check_kernel_params("k", {{"threads_per_row", 2}, {"block_size", 1024}, {"threads", 1}}, example_specs));
  EXPECT_NO_THROW(detail::check_kernel_params("k", {{"block_size", 64}, {"threads", INT_MAX}}, example_specs));
}

TEST(KernelParams, UnknownNamesAreRefusedWithTheKernelsNames) {
  EXPECT_EQ(check_error({{"lanes", 2}}, example_specs),
            "kernel 'k' has no parameter 'lanes' (it takes: threads_per_row, block_size, threads)");
  EXPECT_EQ(check_error({{"lanes", 2}}, {}), "kernel 'k' has no parameter 'lanes' (it takes none)");
}

TEST(KernelParams, ValuesOutsideTheSpecAreRefusedWithWhatIsAllowed) {
  EXPECT_EQ(check_error({{"threads_per_row", 3}}, example_specs),
            "kernel 'k': threads_per_row=3 is not allowed (one of 2, 4, 8)");
  EXPECT_EQ(check_error({{"block_size", 1025}}, example_specs),
            "kernel 'k': block_size=1025 is not allowed (from 64 to 1024)");
  EXPECT_EQ(check_error({{"block_size", 63}}, example_specs),
            "kernel 'k': block_size=63 is not allowed (from 64 to 1024)");
  EXPECT_EQ(check_error({{"threads", 0}}, example_specs), "kernel 'k': threads=0 is not allowed (at least 1)");
}

// Every kernel of this build (the CUDA kernels too, in a CUDA build).
TEST(KernelParams, EveryKernelsSpecsAreComplete) {
  for (const KernelInfo& kernel : kernel_catalogue()) {
    SCOPED_TRACE(kernel.name);
    std::set<std::string> names;
    for (const KernelParamSpec& spec : kernel.params) {
      SCOPED_TRACE(spec.name);
      EXPECT_TRUE(names.insert(spec.name).second) << "listed twice";
      EXPECT_FALSE(spec.default_value.empty());
      EXPECT_FALSE(spec.meaning.empty());
      EXPECT_TRUE(std::is_sorted(spec.allowed.begin(), spec.allowed.end()));
      EXPECT_EQ(std::adjacent_find(spec.allowed.begin(), spec.allowed.end()), spec.allowed.end());
      EXPECT_LE(spec.min, spec.max);
    }
  }
}

const KernelInfo& host_kernel(const std::string& name) {
  static const std::vector<KernelInfo> catalogue = kernel_catalogue();
  const auto found =
      std::find_if(catalogue.begin(), catalogue.end(), [&](const KernelInfo& k) { return k.name == name; });
  if (found == catalogue.end()) throw std::runtime_error("no kernel " + name);
  return *found;
}

OperatorDescription describe_host_plan(Backend backend, const KernelParams& params) {
  PlanOptions options;
  options.backend = backend;
  options.params = params;
  return plan(generate(parse_generator_spec("stencil5:n=8")), options)->describe();
}

TEST(KernelParams, HostOperatorsReportOnlyParametersTheirSpecsAllow) {
  for (const auto& [backend, name] : {std::pair{Backend::cpu, "cpu-csr"}, std::pair{Backend::reference, "reference"}}) {
    SCOPED_TRACE(name);
    const OperatorDescription described = describe_host_plan(backend, {});
    EXPECT_EQ(described.kernel, name);
    EXPECT_NO_THROW(detail::check_kernel_params(name, described.params, host_kernel(name).params));
  }
  EXPECT_EQ(params_text(host_kernel("cpu-csr").params), "threads=1..");
}

TEST(KernelParams, AForcedParameterWithinTheSpecIsHonoured) {
  EXPECT_EQ(describe_host_plan(Backend::cpu, {{"threads", 2}}).params.at("threads"), 2);
}

TEST(KernelParams, APlanWithAValueOutsideTheSpecIsRefused) {
  try {
    describe_host_plan(Backend::cpu, {{"threads", 0}});
    ADD_FAILURE() << "threads=0 was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'cpu-csr': threads=0 is not allowed (at least 1)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace spmv
