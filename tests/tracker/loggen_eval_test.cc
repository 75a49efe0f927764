// The synthetic evaluation set: deterministic, shaped as promised, and the
// embedded Tracker meets the bar on it (clean and noisy halves).
#include <gtest/gtest.h>

#include "loggen/progress_logs.h"
#include "tracker/evaluation.h"

namespace schedmate {
namespace {

TEST(ProgressLogs, DeterministicAndHalfNoisy) {
  ProgressLogOptions o;
  o.count = 60;
  auto a = GenerateProgressLogs(o), b = GenerateProgressLogs(o);
  ASSERT_EQ(a.size(), 60u);
  int noisy = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text);
    noisy += a[i].noisy;
  }
  EXPECT_EQ(noisy, 30);
  o.seed = 2;
  EXPECT_NE(GenerateProgressLogs(o)[0].text, a[0].text);
}

TEST(ProgressLogs, EmbeddedTrackerMeetsTheBarOnCleanAndNoisyLogs) {
  ProgressLogOptions o;
  o.count = 300;
  o.seed = 11;
  std::vector<CaseOutcome> clean, noisy;
  for (const auto& log : GenerateProgressLogs(o)) {
    TrackerCase c;
    c.id = log.id;
    c.log = log.text;
    c.truth = {log.truth.step, log.truth.total_steps, log.truth.step_time_s, log.truth.throughput,
               log.truth.loss, log.truth.throughput_unit};
    CaseOutcome out = EvaluateCase(c, [](const std::vector<std::string>& l, ProgressScanStats* s) {
      return ScanProgress(l, {}, s);
    });
    (log.noisy ? noisy : clean).push_back(out);
  }
  for (const auto* part : {&clean, &noisy}) {
    TrackerEvalSummary s = Summarize(*part);
    EXPECT_GE(double(s.successes) / s.cases, 0.90);
    EXPECT_LE(s.rmsre_step_time, 0.15);
  }
}

}  // namespace
}  // namespace schedmate
