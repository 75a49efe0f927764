// Lucid + schedmate's hooks on a small mapped world: the Advisor matches a
// rerun only after its project ended (never the future), the Tracker reads
// the host's slowdown from its generated log, the ablation knobs switch
// points off, and the world model's profile sees warm-up.
#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "history/sqlite_store.h"
#include "integrations/lucid_schedmate.h"
#include "experiments/world_workload_model.h"
#include "world/world_artefacts.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

class LucidSchedmateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 3; ++i) {
      JobSpec j;
      j.id = "j" + std::to_string(i);
      j.user = "alice";
      j.name = "sft";
      j.vc = "main";
      j.gpus = 4;
      j.submit_s = i * 10000;
      j.duration_s = 3000;
      j.state = EndState::kCompleted;
      trace_.jobs.push_back(j);
    }
    MappingParams p;
    p.rename_prob = 1;  // every rerun a renamed copy: the match must come from the code, not the name
    p.edit_prob = p.swap_model_prob = p.swap_dataset_prob = 0;
    world_ = MapTrace(trace_, catalog_, p);
    for (size_t i = 0; i < trace_.jobs.size(); ++i) {
      jobs_.emplace_back();
      jobs_[i].spec = &trace_.jobs[i];
      jobs_[i].index = JobIndex(static_cast<int32_t>(i));
      jobs_[i].gpus = 4;
      jobs_[i].submit_s = trace_.jobs[i].submit_s;
    }
    db_ = (fs::temp_directory_path() / ("sm_lucid_hooks_" + std::to_string(getpid()) + ".db")).string();
    fs::remove(db_);
    auto s = OpenSqliteHistory(db_);
    ASSERT_TRUE(s.ok());
    store_ = std::move(s).value();
  }
  void TearDown() override {
    store_.reset();
    for (const char* x : {"", "-wal", "-shm"}) fs::remove(db_ + x);
  }

  Trace trace_;
  WorkloadCatalog catalog_ = WorkloadCatalog::Build(nullptr, nullptr);
  WorldMap world_;
  WorldArtefactSource artefacts_{world_, &catalog_, 1};
  std::vector<SimJob> jobs_;
  std::string db_;
  std::unique_ptr<HistoryStore> store_;
};

TEST_F(LucidSchedmateTest, AdvisorMatchesOnlyFinishedRunsOfTheSameCode) {
  ASSERT_EQ(world_.jobs[0].project, world_.jobs[1].project);
  ASSERT_NE(world_.jobs[0].repo_key, world_.jobs[1].repo_key);  // renamed copy
  WorldWorkloadModel model(world_, catalog_);
  LucidSchedmate hooks(artefacts_, *store_, {});
  int64_t latency = -1;
  EXPECT_FALSE(hooks.AtSubmit(jobs_[0], 0, &latency).has_value());  // empty history
  EXPECT_EQ(latency, 0);
  hooks.AtEnd(jobs_[0], 3000);
  EXPECT_FALSE(hooks.AtSubmit(jobs_[1], 2999, &latency).has_value());  // ended after this submit: invisible
  auto facts = hooks.AtSubmit(jobs_[1], 10000, &latency);
  ASSERT_TRUE(facts.has_value());
  EXPECT_NEAR(facts->duration_s, 3000, 1);
  EXPECT_NEAR(facts->profile.sm_util, model.SteadyProfile(world_.jobs[0]).sm_util, 1e-6);
  EXPECT_EQ(hooks.stats().hits, 1);
  LucidSchedmateOptions off;
  off.hit_rate_scale = 0;
  off.advisor_latency_s = 9;
  LucidSchedmate weak(artefacts_, *store_, off);
  weak.AtEnd(jobs_[0], 3000);
  EXPECT_FALSE(weak.AtSubmit(jobs_[1], 10000, &latency).has_value());
  EXPECT_EQ(latency, 9);
  EXPECT_EQ(weak.stats().hits_dropped, 1);
}

TEST_F(LucidSchedmateTest, TrackerReadsTheHostSlowdownFromItsLog) {
  WorldWorkloadModel model(world_, catalog_);
  LucidSchedmate hooks(artefacts_, *store_, {});
  SimJob& host = jobs_[0];
  host.phase = JobPhase::kRunning;
  host.last_start_s = 0;
  host.segment_start_s = 1000;  // packed at 1000, running at 0.4 since
  host.remaining_s = 2000;
  host.rate = 0.4;
  auto after = hooks.PackCheckAfter(host, jobs_[1]);
  ASSERT_TRUE(after.has_value());
  auto ratio = hooks.PackSlowdown(host, jobs_[1], 1000, 1000 + *after);
  ASSERT_TRUE(ratio.has_value()) << "log format " << static_cast<int>(world_.jobs[0].log_format);
  EXPECT_NEAR(*ratio, 0.4, 0.4 * 0.05);
  LucidSchedmateOptions blind;
  blind.detection_rate = 0;
  LucidSchedmate none(artefacts_, *store_, blind);
  none.PackCheckAfter(host, jobs_[1]);
  EXPECT_FALSE(none.PackSlowdown(host, jobs_[1], 1000, 1000 + *after).has_value());
  LucidSchedmateOptions no_tracker;
  no_tracker.use_tracker = false;
  LucidSchedmate off(artefacts_, *store_, no_tracker);
  EXPECT_FALSE(off.PackCheckAfter(host, jobs_[1]).has_value());
}

TEST_F(LucidSchedmateTest, ProfilesSeeWarmUpAndCoRunRatesStayInRange) {
  WorldWorkloadModel model(world_, catalog_, {0.5, 1.0, 3});
  for (const SimJob& j : jobs_) {
    JobProfile seen = model.Profile(j), steady = model.SteadyProfile(world_.jobs[static_cast<size_t>(j.index.value)]);
    EXPECT_LE(seen.sm_util, steady.sm_util + 1e-12);
    EXPECT_GE(seen.sm_util, 0.5 * steady.sm_util - 1e-12);
    EXPECT_EQ(seen.gmem_mib, steady.gmem_mib);
    auto [g, h] = model.CoRunRates(jobs_[0], j);
    EXPECT_GT(g, 0);
    EXPECT_LE(g, 1);
    EXPECT_GT(h, 0);
    EXPECT_LE(h, 1);
  }
}

}  // namespace
}  // namespace schedmate
