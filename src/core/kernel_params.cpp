// Kernel parameter specs: their text and the check of given parameters.
#include "core/kernel_params.hpp"

#include <algorithm>

#include "spmv/error.hpp"

namespace spmv {

namespace {

bool allows(const KernelParamSpec& spec, int value) {
  if (!spec.allowed.empty()) return std::find(spec.allowed.begin(), spec.allowed.end(), value) != spec.allowed.end();
  return value >= spec.min && value <= spec.max;
}

template <class Item, class Text>
std::string joined(const std::vector<Item>& items, const char* separator, Text text) {
  std::string out;
  for (const Item& item : items) out += (out.empty() ? "" : separator) + text(item);
  return out;
}

}  // namespace

std::string allowed_text(const KernelParamSpec& spec) {
  if (!spec.allowed.empty()) return joined(spec.allowed, "|", [](int v) { return std::to_string(v); });
  return std::to_string(spec.min) + ".." + (spec.max == INT_MAX ? "" : std::to_string(spec.max));
}

std::string params_text(const std::vector<KernelParamSpec>& params) {
  return joined(params, " ", [](const KernelParamSpec& p) { return p.name + "=" + allowed_text(p); });
}

namespace detail {

void check_kernel_params(const std::string& kernel, const KernelParams& params,
                         const std::vector<KernelParamSpec>& specs) {
  for (const auto& given : params) {
    const std::string& name = given.first;  // not a structured binding: C++17 lambdas cannot capture one
    const int value = given.second;
    const auto spec =
        std::find_if(specs.begin(), specs.end(), [&](const KernelParamSpec& s) { return s.name == name; });
    if (spec == specs.end()) {
      const std::string names = joined(specs, ", ", [](const KernelParamSpec& s) { return s.name; });
      throw InvalidArgument("kernel '" + kernel + "' has no parameter '" + name + "'" +
                            (names.empty() ? " (it takes none)" : " (it takes: " + names + ")"));
    }
    if (allows(*spec, value)) continue;
    const std::string accepted =
        !spec->allowed.empty() ? "one of " + joined(spec->allowed, ", ", [](int v) { return std::to_string(v); })
        : spec->max == INT_MAX ? "at least " + std::to_string(spec->min)
                               : "from " + std::to_string(spec->min) + " to " + std::to_string(spec->max);
    throw InvalidArgument("kernel '" + kernel + "': " + name + "=" + std::to_string(value) + " is not allowed (" +
                          accepted + ")");
  }
}

}  // namespace detail
}  // namespace spmv
