#include "spmv/types.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "spmv/error.hpp"

namespace spmv {

const char* to_string(Layout layout) {
  return layout == Layout::row_major ? "row-major" : "col-major";
}

Layout layout_from_string(const char* name) {
  // Each layout's name and its short one (the CLI's and Python's).
  const std::pair<Layout, const char*> short_names[] = {{Layout::row_major, "row"}, {Layout::col_major, "col"}};
  for (const auto& [layout, short_name] : short_names)
    if (std::strcmp(name, to_string(layout)) == 0 || std::strcmp(name, short_name) == 0) return layout;
  throw InvalidArgument(std::string("unknown layout '") + name +
                        "' (expected row or col, also written row-major or col-major)");
}

const char* to_string(Backend backend) {
  switch (backend) {
    case Backend::reference: return "reference";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
    case Backend::cusparse: return "cusparse";
  }
  return "?";
}

Backend backend_from_string(const char* name) {
  for (Backend b : {Backend::reference, Backend::cpu, Backend::cuda, Backend::cusparse}) {
    if (std::strcmp(name, to_string(b)) == 0) return b;
  }
  throw InvalidArgument(std::string("unknown backend '") + name +
                        "' (expected reference, cpu, cuda or cusparse)");
}

}  // namespace spmv
