#include "traces/csv_reader.h"

#include <sstream>

#include <gtest/gtest.h>

namespace schedmate {
namespace {

std::vector<std::vector<std::string>> ReadAll(const std::string& text,
                                              Status* error = nullptr,
                                              CsvOptions o = {}) {
  std::istringstream in(text);
  CsvReader r(in, "t.csv", o);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string_view> f;
  while (true) {
    auto got = r.Next(&f);
    if (!got.ok()) {
      if (error) *error = got.status();
      break;
    }
    if (!*got) break;
    rows.emplace_back(f.begin(), f.end());
  }
  return rows;
}

TEST(CsvReaderTest, QuotesCrlfAndBlankLines) {
  auto rows = ReadAll("a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\n\n\"multi\nline\",2,3\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"x,1", "say \"hi\"", ""}));
  EXPECT_EQ(rows[2][0], "multi\nline");
}

TEST(CsvReaderTest, LastLineWithoutNewline) {
  auto rows = ReadAll("a,b\n1,2");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][1], "2");
}

TEST(CsvReaderTest, ErrorsNameTheLine) {
  Status s;
  ReadAll("a,b\n1,2\n3,\"open\n", &s);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("t.csv:3"), std::string::npos) << s.message();
  ReadAll("a,b\n1,x\"y\n", &s);
  EXPECT_NE(s.message().find("t.csv:2: stray quote"), std::string::npos) << s.message();
  ReadAll("a,b\n1,\xc3\x28\n", &s);
  EXPECT_NE(s.message().find("t.csv:2: invalid UTF-8"), std::string::npos) << s.message();
}

TEST(CsvReaderTest, GiantLineFailsFastWithBoundedMemory) {
  // 8 MB without a newline, against a 1 MB cap: fails after ~1 MB.
  std::string big(8u << 20, 'x');
  CsvOptions o;
  o.max_record_bytes = 1u << 20;
  Status s;
  ReadAll(big, &s, o);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("t.csv:1: line is longer than"), std::string::npos);
}

TEST(CsvReaderTest, Utf8Validation) {
  EXPECT_EQ(FindInvalidUtf8("plain"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("ab\xff"), 2u);
  EXPECT_EQ(FindInvalidUtf8("\xc0\xaf"), 0u);        // overlong
  EXPECT_EQ(FindInvalidUtf8("\xed\xa0\x80"), 0u);    // surrogate
  EXPECT_EQ(FindInvalidUtf8("x\xe2\x82"), 1u);       // truncated
}

TEST(CsvReaderTest, QuoteRoundTrip) {
  for (std::string s : {"plain", "a,b", "say \"x\"", "two\nlines", ""}) {
    auto rows = ReadAll(CsvQuote(s) + "," + CsvQuote(s) + "\n");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0][0], s);
  }
}

}  // namespace
}  // namespace schedmate
