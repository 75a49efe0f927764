#include "tracker/log_follower.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tracker/line_cleaner.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

TEST(LineCleanerTest, AnsiCrlfAndRefreshes) {
  EXPECT_EQ(CleanLogLine("\x1b[32mINFO\x1b[0m step 5\r"), "INFO step 5");
  EXPECT_EQ(CleanLogLine(" 10%|#  | 10/100 [00:01<00:09]\r 20%|##  | 20/100 [00:02<00:08]   "),
            " 20%|##  | 20/100 [00:02<00:08]");
  EXPECT_EQ(CleanLogLine("\x1b]0;title\x07hello"), "hello");
  EXPECT_EQ(CleanLogLine("step 5\x01 of 10, loss\x7f 0.25"), "step 5  of 10, loss 0.25");
  EXPECT_EQ(CleanLogLine("a\x01" "b\x7f" "c"), "");  // more control bytes than text: binary
  std::vector<std::string> segs;
  SplitRefreshes("1/3\r2/3\r\r3/3", &segs);
  EXPECT_EQ(segs, (std::vector<std::string>{"1/3", "2/3", "3/3"}));
}

class FollowerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sm_follow_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    path_ = (dir_ / "train.log").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Append(const std::string& s) { std::ofstream(path_, std::ios::app | std::ios::binary) << s; }
  std::vector<std::string> Poll(LogFollower& f) {
    std::vector<std::string> lines;
    Status s = f.Poll(&lines);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return lines;
  }
  fs::path dir_;
  std::string path_;
};

using Lines = std::vector<std::string>;

TEST_F(FollowerTest, IncrementalWithPartialLines) {
  LogFollower f(path_);
  EXPECT_EQ(Poll(f), Lines{});  // file not there yet: fine
  Append("step 1\r\nstep 2\nste");
  EXPECT_EQ(Poll(f), (Lines{"step 1", "step 2"}));
  EXPECT_EQ(Poll(f), Lines{});
  Append("p 3\n");
  EXPECT_EQ(Poll(f), (Lines{"step 3"}));
  EXPECT_EQ(f.lines_read(), 3);
}

TEST_F(FollowerTest, SurvivesTruncation) {
  LogFollower f(path_);
  Append("a\nb\nc\n");
  EXPECT_EQ(Poll(f).size(), 3u);
  std::ofstream(path_, std::ios::trunc) << "x\n";
  EXPECT_EQ(Poll(f), (Lines{"x"}));
  EXPECT_EQ(f.truncations(), 1);
}

TEST_F(FollowerTest, SurvivesRotation) {
  LogFollower f(path_);
  Append("old 1\n");
  EXPECT_EQ(Poll(f), (Lines{"old 1"}));
  Append("old 2\nold tail");
  fs::rename(path_, path_ + ".1");
  Append("new 1\n");
  EXPECT_EQ(Poll(f), (Lines{"old 2", "old tail", "new 1"}));
  EXPECT_EQ(f.rotations(), 1);
  Append("new 2\n");
  EXPECT_EQ(Poll(f), (Lines{"new 2"}));
}

TEST_F(FollowerTest, GiantLinesAreCutAndMemoryBounded) {
  FollowerOptions o;
  o.max_line_bytes = 1000;
  o.read_chunk = 128;
  LogFollower f(path_, o);
  Append(std::string(50000, 'x') + "\nafter\n");
  Lines got = Poll(f);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].size(), 1000u);
  EXPECT_EQ(got[1], "after");
}

TEST_F(FollowerTest, BacklogIsConsumedOverSeveralPolls) {
  FollowerOptions o;
  o.max_poll_bytes = 100;
  o.read_chunk = 64;
  LogFollower f(path_, o);
  std::string text;
  for (int i = 0; i < 100; ++i) text += "line " + std::to_string(i) + "\n";
  Append(text);
  size_t total = 0;
  int polls = 0;
  while (total < 100 && polls < 1000) {
    total += Poll(f).size();
    ++polls;
  }
  EXPECT_EQ(total, 100u);
  EXPECT_GT(polls, 5);
}

TEST_F(FollowerTest, BinaryGarbageIsHarmless) {
  LogFollower f(path_);
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>(i * 37 % 256);
  Append(junk + "\nstep 9\n");
  Lines got = Poll(f);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got.back(), "step 9");
}

TEST_F(FollowerTest, DirectoriesAreRefused) {
  LogFollower f(dir_.string());
  std::vector<std::string> lines;
  EXPECT_FALSE(f.Poll(&lines).ok());
}

}  // namespace
}  // namespace schedmate
