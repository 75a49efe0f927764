// Sia + schedmate on a two-type cluster with a synthetic profile: a history
// hit skips the cold-start profile (the job trains a round earlier), a miss
// profiles, a run that completed after the submit time is never used, and
// every completed job writes its per-configuration throughputs back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <unistd.h>

#include "../policies/sia_test_profile.h"
#include "history/sqlite_store.h"
#include "integrations/sia_schedmate.h"
#include "integrations/sia_throughputs.h"
#include "world/sia_world.h"
#include "world/world_artefacts.h"
#include "solver/cbc_solver.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

sia::SiaCluster TwoTypes() {
  sia::SiaCluster c;
  c.types = {{"fast", 2, 8, 2}, {"slow", 2, 4, 2}};
  return c;
}

JobSpec SiaSpec(const std::string& id, const std::string& app, int64_t submit_s) {
  JobSpec j;
  j.id = id;
  j.type = app;
  j.gpus = 1;
  j.submit_s = submit_s;
  j.duration_s = -1;
  j.batch_size = 1024;
  return j;
}

class SiaSchedmateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = (fs::temp_directory_path() / ("sm_sia_hooks_" + std::to_string(getpid()) + ".db")).string();
    fs::remove(db_);
    auto s = OpenSqliteHistory(db_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
  }
  void TearDown() override {
    store_.reset();
    for (const char* x : {"", "-wal", "-shm"}) fs::remove(db_ + x);
  }

  // Replays `specs` with plain Sia (no history) or with Sia + schedmate.
  sia::SiaRunResult Run(const std::vector<JobSpec>& specs, bool with_history) {
    Trace t;
    t.jobs = specs;
    MappingParams p;
    p.resubmit_prob = 1;  // one project per application: its reruns share the code
    p.rename_prob = p.edit_prob = p.swap_model_prob = p.swap_dataset_prob = 0;
    world_ = MapSiaTrace(t, catalog_, p);
    std::vector<sia::SiaJobInput> inputs;
    for (const auto& j : specs) inputs.push_back({j.id, j.type, j.submit_s, j.batch_size});
    sia::SiaSimOptions options;
    artefacts_ = std::make_unique<WorldArtefactSource>(world_.world, &catalog_, 1, &world_.by_job_id);
    hooks_ = std::make_unique<SiaSchedmate>(*artefacts_, cluster_, *store_);
    if (with_history) hooks_->Attach(options);
    auto r = sia::RunSia(cluster_, profiles_, inputs, {}, options, &cbc_);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(hooks_->store_error().ok()) << hooks_->store_error().ToString();
    return r.ok() ? *r : sia::SiaRunResult{};
  }

  WorkloadCatalog catalog_ = WorkloadCatalog::Build(nullptr, nullptr);
  sia::SiaCluster cluster_ = TwoTypes();
  std::map<std::string, sia::AppProfile> profiles_ = {{"cifar10", sia::TestProfile("cifar10")},
                                                      {"bert", sia::TestProfile("bert")}};
  CbcSolver cbc_;
  SiaWorld world_;
  std::unique_ptr<WorldArtefactSource> artefacts_;
  std::unique_ptr<SiaSchedmate> hooks_;
  std::string db_;
  std::unique_ptr<HistoryStore> store_;
};

TEST_F(SiaSchedmateTest, HistoryHitSkipsProfilingAndTrainsARoundEarlier) {
  const int64_t later = 10 * 86400;  // long after the first run completed
  std::vector<JobSpec> specs = {SiaSpec("cifar10-0", "cifar10", 0), SiaSpec("cifar10-1", "cifar10", later)};
  sia::SiaRunResult plain = Run(specs, false);
  ASSERT_LT(plain.jobs[0].completion_s, later);
  sia::SiaRunResult with = Run(specs, true);
  ASSERT_EQ(with.jobs.size(), 2u);
  EXPECT_FALSE(with.jobs[0].seeded);  // empty history: a miss, profiled
  EXPECT_GT(with.jobs[0].profile_gpu_s, 0);
  EXPECT_EQ(with.jobs[0].completion_s, plain.jobs[0].completion_s);
  EXPECT_TRUE(with.jobs[1].seeded);
  EXPECT_DOUBLE_EQ(with.jobs[1].profile_gpu_s, 0);
  // Without the profile round the job is allocated in the round it appears.
  EXPECT_LE(with.jobs[1].completion_s, plain.jobs[1].completion_s - 60);
  EXPECT_EQ(hooks_->stats().hits, 1);
  EXPECT_EQ(hooks_->stats().no_match, 1);
}

TEST_F(SiaSchedmateTest, AnotherApplicationMissesAndProfiles) {
  std::vector<JobSpec> specs = {SiaSpec("cifar10-0", "cifar10", 0), SiaSpec("bert-0", "bert", 10 * 86400)};
  sia::SiaRunResult with = Run(specs, true);
  EXPECT_FALSE(with.jobs[1].seeded);
  EXPECT_GT(with.jobs[1].profile_gpu_s, 0);
  EXPECT_EQ(hooks_->stats().hits, 0);
  EXPECT_EQ(hooks_->stats().written_back, 2);
}

TEST_F(SiaSchedmateTest, RunCompletedAfterTheSubmitTimeIsNotUsed) {
  const int64_t done = Run({SiaSpec("cifar10-0", "cifar10", 0)}, false).jobs[0].completion_s;
  ASSERT_NE(done % 60, 0);  // room inside the round for a submit on either side
  ASSERT_NE(done % 60, 1);
  // Submitted just before the first run completed, admitted in the round
  // after, when its record is already stored: still a miss.
  sia::SiaRunResult before =
      Run({SiaSpec("cifar10-0", "cifar10", 0), SiaSpec("cifar10-1", "cifar10", done - 1)}, true);
  EXPECT_EQ(before.jobs[0].completion_s, done);
  EXPECT_FALSE(before.jobs[1].seeded);
  EXPECT_EQ(hooks_->stats().hits, 0);
  // A fresh history; submitted just after it: a hit.
  TearDown();
  SetUp();
  sia::SiaRunResult after =
      Run({SiaSpec("cifar10-0", "cifar10", 0), SiaSpec("cifar10-1", "cifar10", done + 1)}, true);
  EXPECT_TRUE(after.jobs[1].seeded);
}

TEST_F(SiaSchedmateTest, CompletedJobWritesItsPerConfigurationThroughputs) {
  sia::SiaRunResult with = Run({SiaSpec("cifar10-0", "cifar10", 0)}, true);
  auto rec = store_->Get("cifar10-0");
  ASSERT_TRUE(rec.ok() && rec->has_value());
  const HistoryRecord& r = **rec;
  EXPECT_EQ(r.end_reason, EndReason::kCompleted);
  EXPECT_EQ(r.completed_at_s, with.jobs[0].completion_s);
  EXPECT_FALSE(r.fingerprint.empty());
  bool one_gpu_fast = false, one_gpu_slow = false;
  for (const auto& c : r.per_config) {
    EXPECT_TRUE(c.gpu_type == "fast" || c.gpu_type == "slow") << c.gpu_type;
    EXPECT_GT(c.throughput, 0);
    EXPECT_EQ(c.batch_size % c.num_gpus, 0);
    one_gpu_fast |= c.gpu_type == "fast" && c.num_gpus == 1;
    one_gpu_slow |= c.gpu_type == "slow" && c.num_gpus == 1;
  }
  EXPECT_TRUE(one_gpu_fast && one_gpu_slow);  // its profile on every type
  // The synthetic profile: 1 GPU on "fast" at 64 per GPU runs 0.074 s a step.
  auto fast64 = std::find_if(r.per_config.begin(), r.per_config.end(), [](const ConfigThroughput& c) {
    return c.gpu_type == "fast" && c.num_gpus == 1 && c.batch_size == 64;
  });
  ASSERT_NE(fast64, r.per_config.end());
  EXPECT_NEAR(fast64->throughput, 64 / 0.074, 1e-6);
}

TEST(SiaThroughputsTest, RowsRoundTripToObservationsWithNodesAndSync) {
  sia::SiaCluster c = TwoTypes();
  std::vector<sia::AppModel> apps;
  for (const char* t : {"fast", "slow"}) apps.push_back(*sia::AppModel::Create(sia::TestProfile(), t, 100));
  sia::SiaJob job("cifar10-0", 0, 1024, std::move(apps), *sia::LookupAppConstants("cifar10"));
  // 1 GPU at 32 and 64; 4 GPUs packed on one node (sync 0.005); 8 GPUs split over two nodes.
  job.Seed({{{{1, 1, 32, 0.042, 0}, {1, 1, 64, 0.074, 0}, {1, 4, 48, 0.063, 0.005}, {2, 8, 32, 0.067, 0.025}}, {}},
            {1, 4}});
  std::vector<ConfigThroughput> rows = ConfigThroughputsOf(job, c);
  ASSERT_EQ(rows.size(), 3u);  // the split placement is not a packed option: left out
  auto seed = SeedFromThroughputs(rows, c, {1, 4});
  ASSERT_TRUE(seed.has_value());
  ASSERT_EQ(seed->by_type.size(), 2u);
  EXPECT_TRUE(seed->by_type[1].empty());
  const sia::PerfObservation* four = nullptr;
  for (const auto& o : seed->by_type[0])
    if (o.replicas == 4) four = &o;
  ASSERT_NE(four, nullptr);
  EXPECT_EQ(four->nodes, 1);
  EXPECT_EQ(four->atomic_bsz, 48);
  EXPECT_NEAR(four->step_s, 0.063, 1e-9);
  EXPECT_NEAR(four->sync_s, 0.063 - 0.058, 1e-9);  // 1-GPU compute at 48: halfway between 0.042 and 0.074
  EXPECT_FALSE(SeedFromThroughputs({{"other", 1, 64, 100}}, c, {1, 4}).has_value());
}

}  // namespace
}  // namespace schedmate
