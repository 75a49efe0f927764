#include "core/time_format.h"

#include <gtest/gtest.h>

namespace schedmate {
namespace {

TEST(TimeFormatTest, ParsesTraceTimes) {
  EXPECT_EQ(ParseDateTime("1970-01-01 00:00:00"), 0);
  EXPECT_EQ(ParseDateTime("2017-10-09 07:01:55"), 1507532515);
  EXPECT_EQ(ParseDateTime("2017-10-09T07:01:55"), 1507532515);
  // Acme: ISO with offsets; +08:00 is 8 h ahead of UTC.
  EXPECT_EQ(ParseDateTime("2023-03-01 08:00:00+08:00"), ParseDateTime("2023-03-01 00:00:00"));
  EXPECT_EQ(ParseDateTime("2023-03-01T00:00:00.123+00:00"), ParseDateTime("2023-03-01 00:00:00"));
  EXPECT_EQ(ParseDateTime("2023-03-01 00:00:00Z"), ParseDateTime("2023-03-01 00:00:00"));
  EXPECT_EQ(ParseDateTime("2020-02-29 00:00:00").value() - ParseDateTime("2020-02-28 00:00:00").value(), 86400);
}

TEST(TimeFormatTest, RejectsMalformedTimes) {
  for (const char* bad : {"", "2017-10-09", "2017-13-01 00:00:00", "2017-02-30 00:00:00",
                          "2017-10-09 25:00:00", "2017-10-09 07:01:55 extra",
                          "2017/10/09 07:01:55", "2017-10-09 07:01:55+8", "yesterday"})
    EXPECT_FALSE(ParseDateTime(bad).has_value()) << bad;
}

TEST(TimeFormatTest, FormatRoundTrips) {
  for (int64_t t : {0LL, 1507532515LL, 951782400LL, 4102444799LL})
    EXPECT_EQ(ParseDateTime(FormatDateTime(t)), t);
}

}  // namespace
}  // namespace schedmate

namespace schedmate {
namespace {

// Found by fuzz_datetime: year 0 with an offset printed as year -1.
TEST(TimeFormatTest, OutOfEraInstantsAreRejected) {
  EXPECT_FALSE(ParseDateTime("0000-01-01T04:00:08+08").has_value());
  EXPECT_FALSE(ParseDateTime("9999-12-31 23:59:59-23:59").has_value());
  EXPECT_TRUE(ParseDateTime("1801-01-01 00:00:00").has_value());
}

}  // namespace
}  // namespace schedmate
