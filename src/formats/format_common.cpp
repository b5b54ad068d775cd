#include "formats/format_common.hpp"

#include <cstdio>

#include "spmv/error.hpp"

namespace spmv::detail {

std::string one_decimal(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string row_length_summary(index_t longest, double mean) {
  return "longest row " + std::to_string(longest) + ", mean " + one_decimal(mean);
}

void check_footprint(const std::string& format, const FormatFootprint& footprint,
                     double max_padding, const std::string& why, const std::string& instead) {
  if (!(max_padding >= 1.0))
    throw InvalidArgument(format + ": max_padding must be at least 1 (got " + one_decimal(max_padding) + ")");
  if (!footprint.within_limit(max_padding))
    throw FormatLimitError(format + " would need " + one_decimal(footprint.padding_ratio()) +
                           "x the CSR bytes (" + why + "): use " + instead +
                           " instead, or raise max_padding (now " + one_decimal(max_padding) + ")");
  if (footprint.stored_entries > max_index)
    throw SizeError(format + " would need " + std::to_string(footprint.stored_entries) +
                    " stored entries, more than 32-bit indices allow (" + why + "): use " + instead +
                    " instead");
}

}  // namespace spmv::detail
