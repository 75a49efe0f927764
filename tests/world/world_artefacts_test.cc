// The semantic world read as a job-artefact source: a repository per job
// with its content key, a log cut at a mark whose progress slows by the
// speed the simulation gives (the Tracker sees it), an outcome from the
// trace and the catalog, and NotFound for a job the world has no code for.
#include "world/world_artefacts.h"

#include <gtest/gtest.h>

#include "tracker/tracker.h"

namespace schedmate {
namespace {

class WorldArtefactsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 3; ++i) {
      JobSpec j;
      j.id = "job-" + std::to_string(i);
      j.user = "alice";
      j.name = "train";
      j.gpus = 4;
      j.submit_s = 100 * i;
      j.duration_s = 7200;
      j.state = i == 2 ? EndState::kFailed : EndState::kCompleted;
      trace_.jobs.push_back(j);
    }
    world_ = MapTrace(trace_, catalog_);
  }
  ArtefactJob Job(int i) const { return {trace_.jobs[static_cast<size_t>(i)].id, i}; }

  Trace trace_;
  WorkloadCatalog catalog_ = WorkloadCatalog::Build(nullptr, nullptr);
  WorldMap world_;
  WorldArtefactSource source_{world_, &catalog_, 1};
};

TEST_F(WorldArtefactsTest, RepositoryIsTheGeneratedCodeUnderItsContentKey) {
  auto key = source_.RepositoryKey(Job(0));
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, world_.jobs[0].repo_key);
  auto repo = source_.Repository(Job(0));
  ASSERT_TRUE(repo.ok()) << repo.status().ToString();
  EXPECT_FALSE(repo->command.empty());
  std::vector<SnapshotEntry> files;
  WalkStats stats;
  ASSERT_TRUE(repo->snapshot->Walk({}, &files, &stats).ok());
  EXPECT_FALSE(files.empty());
}

TEST_F(WorldArtefactsTest, TheLogAfterTheMarkRunsAtTheGivenSpeed) {
  auto cadence = source_.Cadence(Job(0));
  ASSERT_TRUE(cadence.ok());
  LogExcerptQuery q;
  q.mark_step = 40 * cadence->steps_per_record;
  q.records_before = 30;
  q.now_step = q.mark_step + 30 * cadence->steps_per_record;
  q.speed_after_mark = 0.5;
  auto log = source_.LogAround(Job(0), q);
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  ASSERT_GT(log->split, 0u);
  ASSERT_LT(log->split, log->lines.size());
  SlowdownResult r = SlowdownCheck(log->lines, log->split);
  ASSERT_TRUE(r.ratio.has_value()) << r.basis;
  EXPECT_NEAR(*r.ratio, 0.5, 0.05);
  q.speed_after_mark = 1;
  EXPECT_NEAR(*SlowdownCheck(source_.LogAround(Job(0), q)->lines, log->split).ratio, 1.0, 0.05);
}

TEST_F(WorldArtefactsTest, OutcomeAndTailFollowTheTrace) {
  auto ok = source_.Outcome(Job(0));
  auto failed = source_.Outcome(Job(2));
  ASSERT_TRUE(ok.ok() && failed.ok());
  EXPECT_EQ(ok->end_reason, EndReason::kCompleted);
  EXPECT_NE(failed->end_reason, EndReason::kCompleted);
  EXPECT_EQ(ok->name, "train");
  ASSERT_TRUE(ok->sm_util.has_value());
  EXPECT_EQ(*ok->sm_util, catalog_.Find(world_.jobs[0].truth.family)->sm_util);
  auto tail = source_.LogTail(Job(0), 2000);
  ASSERT_TRUE(tail.ok());
  EXPECT_LE(tail->size(), 2000u);
  EXPECT_FALSE(tail->empty());
}

TEST_F(WorldArtefactsTest, AJobTheWorldDoesNotKnowIsNotFound) {
  EXPECT_EQ(source_.Repository({"job-9", 9}).status().code(), StatusCode::kNotFound);
  std::unordered_map<std::string, size_t> by_id = {{"job-1", 1}};
  WorldArtefactSource by_name(world_, &catalog_, 1, &by_id);
  EXPECT_EQ(*by_name.RepositoryKey({"job-1"}), world_.jobs[1].repo_key);
  EXPECT_EQ(by_name.Outcome({"job-0", 0}).status().code(), StatusCode::kNotFound);  // looked up by id only
}

}  // namespace
}  // namespace schedmate
