// Every storage format on the real matrices of ../shared/data: built within
// its default limit (or refused for a reason), its product against the
// reference.
#include <gtest/gtest.h>

#include <functional>

#include "spmv/formats/blocked.hpp"
#include "spmv/formats/coo.hpp"
#include "spmv/formats/dense.hpp"
#include "spmv/formats/dia.hpp"
#include "spmv/formats/ell.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/formats/segmented.hpp"
#include "spmv/formats/sell.hpp"
#include "spmv/io.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

// Builds the format and checks its product, or checks the refusal; returns
// whether it was built.
template <class Build>
bool built_and_checked(const Csr<double>& a, const Build& build) {
  try {
    test::expect_product_matches_reference(a, build(a));
    return true;
  } catch (const FormatLimitError& refusal) {
    EXPECT_NE(std::string(refusal.what()).find(": use "), std::string::npos) << refusal.what();
    return false;
  }
}

TEST(FormatsOnRealMatrices, ProductsMatchReference) {
  const auto files = test::real_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no real matrices under " << test::shared_data_dir();
  int built = 0;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Csr<double> a = read_matrix<double>(file);
    built += built_and_checked(a, [](const Csr<double>& m) { return to_coo(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return ell_from_csr(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return ellpack_r_from_csr(m, {4}); });
    built += built_and_checked(a, [](const Csr<double>& m) { return hyb_from_csr(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return dia_from_csr(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return sell_from_csr(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return blocked_from_csr(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return segmented_from_csr(m); });
    built += built_and_checked(a, [](const Csr<double>& m) { return dense_from_csr(m, {std::size_t(64) << 20}); });
  }
  // COO, HYB and the segmented format are never refused.
  EXPECT_GE(built, 3 * static_cast<int>(files.size()));
}

}  // namespace
}  // namespace spmv
