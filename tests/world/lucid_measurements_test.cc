// Lucid's public measurements, read from ../shared (skipped when absent),
// and the errors a damaged copy gives.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "world/lucid_measurements.h"

namespace schedmate {
namespace {

TEST(LucidMeasurements, SharedDataLoadsAndAnswers) {
  std::string dir = std::string(SCHEDMATE_SHARED_DIR) + "/traces/lucid";
  if (!std::filesystem::exists(dir + "/single_data.csv")) GTEST_SKIP() << dir << " absent";
  auto m = LucidMeasurements::Load(dir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->solo().size(), 66u);
  EXPECT_EQ(m->pairs().size(), 1388u);
  const SoloMeasure* bert = m->Solo({"BERT", "SQuAD", 32, false});
  ASSERT_NE(bert, nullptr);
  EXPECT_DOUBLE_EQ(bert->speed, 84.872);
  EXPECT_EQ(bert->label, 2);
  WorkloadKey mob{"MobileNetV3", "ImageNet", 32, false}, res{"ResNet18", "CIFAR-10", 32, false};
  auto ab = m->PairSpeed(mob, res), ba = m->PairSpeed(res, mob);
  ASSERT_TRUE(ab && ba);
  EXPECT_DOUBLE_EQ(ab->first, ba->second);  // symmetric lookup
  EXPECT_GT(ab->first, 0.1);
  auto avg = m->AveragePairedSpeed(mob);
  ASSERT_TRUE(avg.has_value());
  EXPECT_GT(*avg, 0.1);
  EXPECT_LT(*avg, 1.5);
  EXPECT_FALSE(m->PairSpeed(mob, {"Nope", "X", 1, false}).has_value());
}

TEST(LucidMeasurements, DamagedFilesNameTheLine) {
  std::string dir = testing::TempDir() + "/lucid" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/single_data.csv") << "model,dataset,batchsize,amp,speed,gpu_util,gmem_util,gmem,label\n"
                                             "BERT,SQuAD,32,0,84.8,99.6,62.4,20162.0,2\nBERT,SQuAD,32,7,1,1,1,1,1\n";
  std::ofstream(dir + "/colocate_info.csv") << ",model1\n";
  auto m = LucidMeasurements::Load(dir);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("single_data.csv:3"), std::string::npos) << m.status().message();
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(LucidMeasurements::Load(dir).ok());
}

}  // namespace
}  // namespace schedmate
