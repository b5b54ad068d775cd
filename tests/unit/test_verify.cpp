// verify(): the per-row tolerance, NaN, and products that overflow the value type.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "spmv/verify.hpp"

namespace spmv {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

TEST(Verify, ErrorWithinTheRowBoundPassesBeyondItFails) {
  const std::vector<double> reference{1.0, 2.0}, scale{1.0, 2.0};
  const std::vector<double> close{1.0 + 1e-15, 2.0};
  const std::vector<double> far{1.0, 2.0 + 1e-9};
  EXPECT_TRUE(verify(close.data(), reference.data(), scale.data(), 2).ok);
  const VerifyResult result = verify(far.data(), reference.data(), scale.data(), 2);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.worst_index, 1u);
}

TEST(Verify, NanNeverPasses) {
  const std::vector<double> reference{1.0}, scale{1.0}, y{std::nan("")};
  EXPECT_FALSE(verify(y.data(), reference.data(), scale.data(), 1).ok);
  const std::vector<double> nan_reference{std::nan("")};
  EXPECT_FALSE(verify(y.data(), nan_reference.data(), scale.data(), 1).ok);
}

// Finite values near the top of the range (a valid file) give products that
// overflow; the correct infinity must not fail (spmv bench exited 1, issue 17).
TEST(Verify, AnOverflowToTheRightInfinityPasses) {
  const std::vector<double> reference{inf, -inf}, scale{inf, inf}, y{inf, -inf};
  EXPECT_TRUE(verify(y.data(), reference.data(), scale.data(), 2).ok);
  const std::vector<double> wrong_sign{inf, inf};
  EXPECT_FALSE(verify(wrong_sign.data(), reference.data(), scale.data(), 2).ok);
  // float: a double reference beyond FLT_MAX rounds to float's infinity.
  const std::vector<double> beyond_float{5e38}, float_scale{5e38};
  const std::vector<float> overflowed{std::numeric_limits<float>::infinity()};
  EXPECT_TRUE(verify(overflowed.data(), beyond_float.data(), float_scale.data(), 1).ok);
  const std::vector<double> within_float{1e38};
  EXPECT_FALSE(verify(overflowed.data(), within_float.data(), float_scale.data(), 1).ok);
  const std::vector<double> finite_y{1.0};
  EXPECT_FALSE(verify(finite_y.data(), reference.data(), scale.data(), 1).ok);
}

}  // namespace
}  // namespace spmv
