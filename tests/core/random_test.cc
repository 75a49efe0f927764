#include "core/random.h"

#include <cmath>

#include <gtest/gtest.h>

namespace schedmate {
namespace {

TEST(RandomTest, SameSeedSameSequence) {
  Rng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.NextU64();
    EXPECT_EQ(x, b.NextU64());
    (void)c;
  }
  EXPECT_NE(Rng(42).NextU64(), Rng(43).NextU64());
}

TEST(RandomTest, UniformAndNormalHaveTheRightMoments) {
  Rng r(7);
  double sum = 0, sq = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double z = r.Normal();
    sum += z;
    sq += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sq / n, 1.0, 0.02);
  for (int i = 0; i < 1000; ++i) {
    double u = r.Uniform();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
    EXPECT_LT(r.Below(10), 10u);
  }
}

TEST(RandomTest, NormalQuantileInvertsTheCdf) {
  for (double p : {1e-6, 0.01, 0.3, 0.5, 0.8, 0.999})
    EXPECT_NEAR(NormalCdf(NormalQuantile(p)), p, 1e-8);
  EXPECT_NEAR(NormalQuantile(0.975), 1.959964, 1e-5);
}

}  // namespace
}  // namespace schedmate
