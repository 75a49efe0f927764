// The injected environment: the real one's atomic replace, capped and
// positional reads, listing and stat; the fake's injected faults.
#include "core/env.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/fake_env.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

class PosixEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("schedmate_env_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
  Env& env_ = Env::Default();
};

TEST_F(PosixEnvTest, AtomicWriteReplacesTheFileAndLeavesNoTemporary) {
  ASSERT_TRUE(env_.WriteFileAtomic(Path("state.json"), "old").ok());
  ASSERT_TRUE(env_.WriteFileAtomic(Path("state.json"), "new contents").ok());
  EXPECT_EQ(*env_.ReadWholeFile(Path("state.json"), 100), "new contents");
  EXPECT_EQ(*env_.ListDir(dir_.string()), std::vector<std::string>{"state.json"});
}

TEST_F(PosixEnvTest, AWriteIntoAMissingDirectoryFailsAndCreatesNothing) {
  Status s = env_.WriteFileAtomic(Path("no-such-dir/state.json"), "x");
  EXPECT_EQ(s.code(), StatusCode::kNotFound) << s.ToString();
  EXPECT_TRUE(env_.ListDir(dir_.string())->empty());
}

TEST_F(PosixEnvTest, ReadsFromAnOffsetAndCapsWholeFiles) {
  std::ofstream(Path("log")) << "0123456789";
  EXPECT_EQ(*env_.ReadFile(Path("log"), 4, 3), "456");
  EXPECT_EQ(*env_.ReadFile(Path("log"), 8, 100), "89");
  EXPECT_EQ(*env_.ReadFile(Path("log"), 50, 10), "");
  EXPECT_EQ(env_.ReadWholeFile(Path("log"), 9).status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(env_.ReadFile(Path("absent"), 0, 1).status().code(), StatusCode::kNotFound);
}

TEST_F(PosixEnvTest, StatTellsFilesFromDirectoriesAndAFifoIsRefusedWithoutBlocking) {
  std::ofstream(Path("f")) << "abc";
  EXPECT_EQ(env_.Stat(Path("f"))->size, 3);
  EXPECT_TRUE(env_.Stat(Path("f"))->regular);
  EXPECT_FALSE(env_.Stat(dir_.string())->regular);
  EXPECT_EQ(env_.Stat(Path("absent")).status().code(), StatusCode::kNotFound);
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0600), 0);
  EXPECT_EQ(env_.ReadFile(Path("fifo"), 0, 10).status().code(), StatusCode::kInvalidArgument);
}

TEST(FakeEnv, AShortWriteIsAnErrorAndTheOldContentsSurvive) {
  FakeEnv env;
  ASSERT_TRUE(env.WriteFileAtomic("/s", "version 1").ok());
  env.FailNextWriteAfter(3);
  Status s = env.WriteFileAtomic("/s", "version 2, longer");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("short write"), std::string::npos) << s.ToString();
  EXPECT_EQ(*env.Contents("/s"), "version 1");
  EXPECT_TRUE(env.WriteFileAtomic("/s", "version 3").ok());  // the fault was for one write
  EXPECT_EQ(*env.Contents("/s"), "version 3");
}

TEST(FakeEnv, SlowReadsMoveTheClockAndListingsSeeImplicitDirectories) {
  FakeEnv env(1000);
  env.SetFile("/jobs/a/log", "x");
  env.SetFile("/jobs/b", "y");
  env.SetReadDelayMs(250);
  ASSERT_TRUE(env.ReadFile("/jobs/a/log", 0, 10).ok());
  ASSERT_TRUE(env.ReadFile("/jobs/b", 0, 10).ok());
  EXPECT_EQ(env.NowMs(), 1500);
  EXPECT_EQ(*env.ListDir("/jobs"), (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(env.Stat("/jobs/a")->regular);
  env.FailReadsOf("/jobs/b");
  EXPECT_EQ(env.ReadFile("/jobs/b", 0, 1).status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace schedmate
