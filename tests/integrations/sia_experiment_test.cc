// `schedmate sia`'s runner: the config's schedmate section, and one workload
// replayed by plain Sia and by Sia + schedmate in one run on Sia's public
// profiles (skipped without ../shared).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "experiments/sia_report.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

class SiaExperimentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sm_sia_experiment_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

  fs::path dir_;
};

TEST_F(SiaExperimentTest, SchedmateSectionChoosesRunsAndHistory) {
  Write("w.csv", "name,time,application,num_replicas,batch_size\n");
  fs::create_directories(dir_ / "p");
  std::string path = Write("c.json", R"({"workloads": "w.csv", "profiles": "p",
      "schedmate": {"runs": "sia", "history": "redis://127.0.0.1:6390", "world_seed": 7}})");
  auto c = ReadSiaExperimentConfig(path, {});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->runs, SiaRuns::kSia);
  EXPECT_EQ(c->history, "redis://127.0.0.1:6390");
  EXPECT_EQ(c->mapping.seed, 7u);
  EXPECT_EQ(ReadSiaExperimentConfig(Write("d.json", R"({"workloads": "w.csv", "profiles": "p"})"), {})->runs,
            SiaRuns::kBoth);  // the default: both rows
  auto bad = ReadSiaExperimentConfig(
      Write("e.json", R"({"workloads": "w.csv", "profiles": "p", "schedmate": {"runs": "all"}})"), {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("schedmate.runs"), std::string::npos) << bad.status().ToString();
}

TEST_F(SiaExperimentTest, BothRunsOnTheSameJobsAndTheRerunSkipsProfiling) {
  const std::string profiles = std::string(SCHEDMATE_SHARED_DIR) + "/traces/sia/profiles";
  if (!fs::exists(profiles)) GTEST_SKIP() << profiles << " absent";
  // The same training twice, the second submitted long after the first ended.
  std::string csv = Write("w.csv",
                          "name,time,application,num_replicas,batch_size\n"
                          "ncf-0,0,ncf,1,256\nncf-1,360000,ncf,1,256\n");
  SiaExperimentConfig c;
  c.workloads = csv;
  c.profiles = profiles;
  c.shared = SCHEDMATE_SHARED_DIR;
  c.mapping.resubmit_prob = 1;
  c.mapping.rename_prob = c.mapping.edit_prob = 0;
  auto r = RunSiaComparison(c, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->files.size(), 1u);
  const SiaFileResult& f = r->files[0];
  ASSERT_TRUE(f.sia && f.schedmate && f.stats);
  EXPECT_EQ(f.stats->hits, 1);
  EXPECT_FALSE(f.schedmate->jobs[0].seeded);
  EXPECT_TRUE(f.schedmate->jobs[1].seeded);
  EXPECT_LT(f.schedmate->profile_gpu_hours, f.sia->profile_gpu_hours);
  EXPECT_LT(f.schedmate->jobs[1].completion_s, f.sia->jobs[1].completion_s);
  EXPECT_NE(FormatSiaSummary(*r).find("hit rate 50.0 %"), std::string::npos) << FormatSiaSummary(*r);
}

}  // namespace
}  // namespace schedmate
