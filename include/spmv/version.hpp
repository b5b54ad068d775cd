// What this build of the library is: its version, the commit it was built
// from, and the CUDA runtime and cuSPARSE it links (`spmv --version`).
#pragma once

#include <string>

namespace spmv {

// "0.1.0": the project version of CMakeLists.txt.
const char* library_version();

// The git commit the build was configured from ("unknown" outside a checkout).
const char* build_commit();

// "spmv 0.1.0 (commit 041f24c1a2b3)" and a second line "CUDA runtime 13.0,
// cuSPARSE 12.6.3" (or "built without CUDA"): what a bug report needs; no
// GPU is needed to read it.
std::string version_text();

}  // namespace spmv
