#include "spmv/types.hpp"

#include <cstring>
#include <string>

#include "spmv/error.hpp"

namespace spmv {

const char* to_string(Layout layout) {
  return layout == Layout::row_major ? "row-major" : "col-major";
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
