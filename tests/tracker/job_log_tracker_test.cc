// The real Tracker on generated job logs (issue 6 → 7): the step time it
// reads back is the speed the world gave the job, in every format, and the
// slowdown check across a packing boundary returns the co-location speed.
#include <gtest/gtest.h>

#include "loggen/job_log.h"
#include "tracker/progress_scan.h"
#include "tracker/tracker.h"

namespace schedmate {
namespace {

TEST(JobLogs, TrackerReadsTheWorldsSpeedInEveryFormat) {
  for (JobLogFormat f : {JobLogFormat::kNanoGpt, JobLogFormat::kMegatron, JobLogFormat::kHfTqdm, JobLogFormat::kMmcv,
                         JobLogFormat::kTorchtitan}) {
    JobLogSpec spec;
    spec.format = f;
    spec.total_steps = 5000;
    spec.speeds = {{0, 0.8}};
    spec.seed = 3;
    auto lines = JobLogWindow(spec, 1000, 2000);
    ASSERT_FALSE(lines.empty());
    ProgressReport r = ScanProgress(lines);
    SCOPED_TRACE(static_cast<int>(f));
    ASSERT_EQ(r.status, ProgressReport::Status::kOk);
    EXPECT_EQ(r.step, 2000);
    ASSERT_TRUE(r.steady_step_time_s.has_value());
    EXPECT_NEAR(*r.steady_step_time_s, 0.8, 0.8 * 0.05);
  }
}

TEST(JobLogs, SlowdownCheckSeesThePartner) {
  JobLogSpec spec;
  spec.format = JobLogFormat::kMegatron;
  spec.total_steps = 10000;
  spec.log_every = 10;
  spec.speeds = {{0, 0.5}, {3000, 0.5 / 0.62}};  // a partner packed at step 3000: 62 % speed
  auto lines = JobLogWindow(spec, 2000, 4000);
  size_t split = 0;
  while (split < lines.size() && lines[split].find("iteration     3000/") == std::string::npos) ++split;
  ASSERT_LT(split, lines.size());
  SlowdownResult s = SlowdownCheck(lines, split + 1);
  ASSERT_TRUE(s.ratio.has_value()) << s.basis;
  EXPECT_NEAR(*s.ratio, 0.62, 0.62 * 0.05);
  EXPECT_NEAR(ElapsedAtStep(spec, 4000), 3000 * 0.5 + 1000 * 0.5 / 0.62, 1e-9);
}

}  // namespace
}  // namespace schedmate
