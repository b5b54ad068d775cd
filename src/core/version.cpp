#include "spmv/version.hpp"

#include "core/backends.hpp"

namespace spmv {

const char* library_version() { return SPMV_VERSION; }

const char* build_commit() { return SPMV_GIT_COMMIT; }

std::string version_text() {
  const std::string first = std::string("spmv ") + library_version() + " (commit " + build_commit() + ")";
#ifdef SPMV_HAVE_CUDA
  return first + "\n" + detail::cuda_library_versions();
#else
  return first + "\nbuilt without CUDA";
#endif
}

}  // namespace spmv
