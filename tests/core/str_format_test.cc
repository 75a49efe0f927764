#include "core/str_format.h"

#include <string>

#include <gtest/gtest.h>

namespace schedmate {
namespace {

TEST(StrFormat, ShortAndLongLinesAreWhole) {
  EXPECT_EQ(StrFormat("iter %lld: loss %.4f", 12LL, 0.5), "iter 12: loss 0.5000");
  EXPECT_EQ(StrFormat("%s", ""), "");
  // Around the one-pass buffer's size (256 bytes with its terminator).
  for (size_t n : {254u, 255u, 256u, 257u, 4000u}) {
    std::string s(n, 'x');
    EXPECT_EQ(StrFormat("%s", s.c_str()), s) << n;
    EXPECT_EQ(StrFormat("<%s>%d", s.c_str(), 7), "<" + s + ">7") << n;
  }
}

}  // namespace
}  // namespace schedmate
