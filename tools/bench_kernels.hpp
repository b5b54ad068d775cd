// Which backend and kernels a benchmark command runs: the names the user
// gave, checked against the catalogue, with the cuSPARSE baseline first in a
// cuda run. Shared by `spmv bench` and `spmv suite`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "spmv/operator.hpp"

namespace spmv::cli {

// "auto": cuda when a GPU is usable, else cpu. Throws Unavailable when a CUDA
// backend is named but cannot run here; `command` prefixes the message.
Backend chosen_backend(const std::string& name, const std::string& command);

// "a,b,,c" -> {"a", "b", "c"}: the items of a comma-separated option.
std::vector<std::string> split_commas(const std::string& list);

// The kernel names of one backend, in catalogue order, that compute a
// product with k columns themselves: for k == 1 the SpMV kernels; for k > 1
// the SpMM kernels (KernelInfo::spmm_only), or, on a backend without any,
// the SpMV kernels with a native SpMM (the others would all run the same
// fallback).
std::vector<std::string> kernels_of(Backend backend, index_t k = 1);

// "all" (kernels_of(backend, k)) or a comma-separated list, each name
// checked against the backend's kernels (InvalidArgument naming the valid
// ones otherwise). `extra_names` are accepted too (e.g. "auto" in the suite).
std::vector<std::string> chosen_kernels(const std::string& list, Backend backend,
                                        const std::string& command,
                                        const std::vector<std::string>& extra_names = {},
                                        index_t k = 1);

using KernelRun = std::pair<Backend, std::string>;

// Every cuSPARSE algorithm for k columns first when `backend` is cuda (the
// baseline of the speed-ups), then `kernels` of `backend`.
std::vector<KernelRun> runs_with_baseline(Backend backend, const std::vector<std::string>& kernels,
                                          index_t k = 1);

}  // namespace spmv::cli
