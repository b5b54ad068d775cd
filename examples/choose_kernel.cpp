// Example: see what the planner chose and why, then force a kernel of your
// own choice with its parameters.
//
//   choose_kernel
#include <cstdio>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"

int main() {
  try {
    const spmv::Csr<double> a = spmv::gen_stencil_2d_5pt(200, 200);

    // Every kernel of this build (`spmv kernels` prints the same list).
    for (const spmv::KernelInfo& k : spmv::kernel_catalogue())
      std::printf("%-10s %-22s %s\n", spmv::to_string(k.backend), k.name.c_str(), k.summary.c_str());

    // Let the planner choose: the plan says which kernel and why.
    spmv::PlanOptions options;
    options.backend = spmv::cuda_available() ? spmv::Backend::cuda : spmv::Backend::cpu;
    const spmv::Plan chosen = spmv::make_plan(a, options);
    std::printf("\nchosen: %s (%s): %s\n", chosen.options.kernel.c_str(), chosen.tuning.c_str(),
                chosen.reason.c_str());

    // Force a kernel by name, with a parameter (see KernelInfo::params).
    options.backend = spmv::Backend::cpu;
    options.kernel = "cpu-csr";
    options.params = {{"threads", 2}};
    const spmv::Plan forced = spmv::make_plan(a, options);
    const auto op = spmv::make_operator(forced, a);  // build what the plan names
    std::printf("forced: %s (%s), threads=%d\n", op->describe().kernel.c_str(), forced.tuning.c_str(),
                op->describe().params.at("threads"));

    // The whole plan as JSON: features, candidates, predictions.
    std::printf("%s\n", spmv::plan_to_json(forced).c_str());
    return 0;
  } catch (const spmv::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
