// ForEachDataLine: the line walk of embedded data files.
#include "core/text_lines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedmate {
namespace {

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> out;
  ForEachDataLine(text, [&](std::string_view line) { out.emplace_back(line); });
  return out;
}

TEST(TextLines, SkipsBlanksAndCommentsAndWindowsLineEnds) {
  EXPECT_EQ(Lines("# header\na\tb\r\n\n  indented\n#x\nlast"),
            (std::vector<std::string>{"a\tb", "  indented", "last"}));
  EXPECT_TRUE(Lines("").empty());
  EXPECT_TRUE(Lines("\n\r\n# only comments\n").empty());
  EXPECT_EQ(Lines("one\n"), (std::vector<std::string>{"one"}));
}

}  // namespace
}  // namespace schedmate
