// Shared checks of the storage-format tests: a format's reference product
// against spmv::reference_spmv on the matrix zoo, and its refusal rule.
#pragma once

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"
#include "test_support.hpp"

namespace spmv::test {

using FormatValueTypes = ::testing::Types<float, double>;

// multiply(format, ...) from a NaN output with beta = 0 (it must not be
// read) and from a random one otherwise, against the reference.
template <class T, class Format>
void expect_product_matches_reference(const Csr<T>& a, const Format& format) {
  const std::vector<T> x = random_vector<T>(a.cols, 21);
  for (const auto& [alpha, beta] : {std::pair<T, T>{1, 0}, {-0.5, 0}, {2, 0.75}, {1, 1}}) {
    SCOPED_TRACE("alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta));
    const std::vector<T> y0 = beta == T(0) ? std::vector<T>(a.rows, std::numeric_limits<T>::quiet_NaN())
                                           : random_vector<T>(a.rows, 22);
    std::vector<T> y = y0;
    multiply(format, x.data(), y.data(), alpha, beta);
    EXPECT_TRUE(matches_reference_spmv(a, x, y0, alpha, beta, y));
  }
}

// Builds every zoo matrix with build(a) and checks its product. A build may
// be refused (FormatLimitError) exactly when footprint(a) is not within the
// default limit, and the refusal must say what to use instead. Returns the
// names of the refused matrices.
template <class T, class Build, class Footprint>
std::vector<std::string> check_format_on_zoo(const Build& build, const Footprint& footprint) {
  std::vector<std::string> refused;
  for (const auto& [name, matrix] : matrix_zoo()) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(matrix);
    const FormatFootprint f = footprint(a);
    const double ratio = f.padding_ratio();
    try {
      const auto format = build(a);
      EXPECT_TRUE(f.within_limit(default_max_padding)) << "built although it needs " << ratio << "x the CSR bytes";
      expect_product_matches_reference(a, format);
    } catch (const FormatLimitError& refusal) {
      const std::string message = refusal.what();
      EXPECT_FALSE(f.within_limit(default_max_padding)) << message;
      EXPECT_NE(message.find("x the CSR bytes ("), std::string::npos) << message;
      EXPECT_NE(message.find("): use "), std::string::npos) << message;
      EXPECT_NE(message.find("raise max_padding"), std::string::npos) << message;
      refused.push_back(name);
    }
  }
  return refused;
}

// The zoo matrix called `name` (fails the test when there is none).
inline Csr<double> zoo_matrix(const std::string& name) {
  for (auto& m : matrix_zoo())
    if (m.name == name) return m.matrix;
  ADD_FAILURE() << "no zoo matrix " << name;
  return {};
}

// The zoo matrices that every format stores within the default limit:
// those without rows or entries (tiny, under the limit's floor) and a dense block.
inline std::vector<std::string> always_accepted() {
  return {"empty_0x0", "zero_rows_0x7", "zero_cols_5x0", "all_empty_rows_6x4", "single_1x1",
          "dense_block_64x64"};
}
// ... and those that the ELL-like formats with short rows store well too.
inline std::vector<std::string> regular_matrices() {
  std::vector<std::string> names = always_accepted();
  names.insert(names.end(), {"diagonal_1000", "banded_2000_bw3"});
  return names;
}

// Fails naming the first of `must_accept` found in `refused`.
inline ::testing::AssertionResult refused_none_of(const std::vector<std::string>& refused,
                                                  const std::vector<std::string>& must_accept) {
  for (const std::string& name : refused)
    for (const std::string& required : must_accept)
      if (name == required) return ::testing::AssertionFailure() << "refused " << name;
  return ::testing::AssertionSuccess();
}

}  // namespace spmv::test
