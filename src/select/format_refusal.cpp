#include "select/format_refusal.hpp"

#include <functional>
#include <map>

#include "spmv/formats/blocked.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_hyb.hpp"
#include "spmv/formats/dense.hpp"
#include "spmv/formats/dia.hpp"
#include "spmv/formats/ell.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/formats/sell.hpp"
#include "formats/format_common.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

namespace {

std::string padding_refusal(const std::string& kernel, const FormatFootprint& f) {
  if (f.stored_entries > max_index)
    return kernel + " would store " + std::to_string(f.stored_entries) + " entries, beyond 32-bit indices";
  if (!f.within_limit(default_max_padding))
    return kernel + " would need " + one_decimal(f.padding_ratio()) + "x the CSR bytes (limit " +
           one_decimal(default_max_padding) + ")";
  return {};
}

}  // namespace

template <class T>
std::string format_refusal(const std::string& kernel, const Csr<T>& a, const GpuShape& gpu) {
  using Footprint = std::function<FormatFootprint(const Csr<T>&)>;
  // ELLR-T and BRO-ELL round rows up to the threads per row their model picks.
  const auto modelled_threads_per_row = [&gpu](const Csr<T>& m) {
    return ellrt_configuration(row_lengths(m), gpu).threads_per_row;
  };
  const std::map<std::string, Footprint> padded = {
      {"ell", [](const Csr<T>& m) { return ell_footprint(m); }},
      {"ellr-t", [&](const Csr<T>& m) { return ellpack_r_footprint(m, modelled_threads_per_row(m)); }},
      {"dia", [](const Csr<T>& m) { return dia_footprint(m); }},
      {"sell", [](const Csr<T>& m) { return sell_footprint(m); }},
      {"blocked", [](const Csr<T>& m) { return blocked_footprint(m); }},
      {"bro-ell",
       [&](const Csr<T>& m) {
         BroEllOptions options;
         options.threads_per_row = modelled_threads_per_row(m);
         return bro_ell_footprint(m, options);
       }},
      {"bro-hyb", [](const Csr<T>& m) { return bro_hyb_footprint(m); }},
      {"hyb",
       [](const Csr<T>& m) { return hyb_footprint(m, hyb_split_width(row_lengths(m))); }},
  };
  if (kernel == "dense-cublas") {
    const FormatFootprint f = dense_footprint(a);
    if (f.bytes > DenseOptions{}.max_bytes)
      return "dense-cublas would need " + one_decimal(f.bytes / 1048576.0) + " MiB (limit " +
             one_decimal(DenseOptions{}.max_bytes / 1048576.0) + " MiB)";
    return {};
  }
  const auto found = padded.find(kernel);
  return found == padded.end() ? std::string() : padding_refusal(kernel, found->second(a));
}

template std::string format_refusal(const std::string&, const Csr<float>&, const GpuShape&);
template std::string format_refusal(const std::string&, const Csr<double>&, const GpuShape&);

}  // namespace spmv::detail
