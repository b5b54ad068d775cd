// libFuzzer harness: parse_selector_model on any text (a model file of
// PlanOptions::selector_model comes from whoever wrote it). A model is read,
// or refused with ParseError; an accepted model's trees and guards are then
// evaluated for every kernel, which reads each tree node, feature index and
// near point the parser let through.
#include <cstdint>
#include <string>
#include <vector>

#include "select/model.hpp"
#include "spmv/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spmv::detail::SelectorModel model;
  try {
    model = spmv::detail::parse_selector_model(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const spmv::ParseError&) {
    return 0;
  }
  for (const double value : {-1e300, 0.0, 1e300}) {
    const std::vector<double> features(model.feature_names.size(), value);
    for (const spmv::detail::KernelModel& kernel : model.kernels) {
      volatile double predicted = kernel.predict_log2_slowdown(features);
      volatile bool near = model.trained_near(kernel, features);
      (void)predicted;
      (void)near;
    }
  }
  return 0;
}
