// Sia's per-GPU-type step times, read from ../shared (skipped when absent),
// interpolation between measured batch sizes, and damaged files.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "world/sia_profiles.h"

namespace schedmate {
namespace {

TEST(SiaProfiles, SharedProfilesLoadAndAnswer) {
  std::string dir = std::string(SCHEDMATE_SHARED_DIR) + "/traces/sia/profiles";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " absent";
  auto p = SiaProfiles::Load(dir);
  ASSERT_TRUE(p.ok()) << p.status().message();
  auto apps = p->Apps();
  EXPECT_NE(std::find(apps.begin(), apps.end(), "imagenet"), apps.end());
  auto types = p->GpuTypes("imagenet");
  EXPECT_NE(std::find(types.begin(), types.end(), "dgx"), types.end());
  auto one = p->StepTime("imagenet", "dgx", 1, 20);
  ASSERT_TRUE(one.has_value());
  EXPECT_NEAR(*one, 0.1456034928560257, 1e-12);  // the measured row
  auto mid = p->StepTime("imagenet", "dgx", 1, 24);
  ASSERT_TRUE(mid.has_value());
  EXPECT_GT(*mid, 0.1456);
  EXPECT_LT(*mid, 0.1482);  // between the 20 and 28 rows
  EXPECT_TRUE(p->StepTime("imagenet", "dgx", 8, 20).has_value());
  EXPECT_FALSE(p->StepTime("imagenet", "dgx", 7777, 20).has_value());
  EXPECT_FALSE(p->StepTime("nope", "dgx", 1, 20).has_value());
}

TEST(SiaProfiles, DamagedProfilesNameTheLine) {
  std::string dir = testing::TempDir() + "/sia" + std::to_string(getpid());
  std::filesystem::create_directories(dir + "/bert");
  std::ofstream(dir + "/bert/placements-dgx.csv") << "local_bsz,step_time,sync_time,placement\n4,0.1,0.01,1\n4,0.1,0.01,4x\n";
  auto p = SiaProfiles::Load(dir);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("placements-dgx.csv:3"), std::string::npos) << p.status().message();
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(SiaProfiles::Load(dir).ok());
}

}  // namespace
}  // namespace schedmate
