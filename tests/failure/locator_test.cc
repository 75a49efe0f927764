// The locator's anchor when no line of the boundary region names a root
// cause: where the failure lines become dense, not the region's end.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "failure/eval_report.h"
#include "failure/locator.h"

namespace schedmate {
namespace {

// The 0-based line number of byte `offset` in `log`.
int64_t LineOf(const std::string& log, int64_t offset) {
  int64_t n = 0;
  for (int64_t i = 0; i < offset; ++i) n += log[static_cast<size_t>(i)] == '\n';
  return n;
}

std::string NormalLines(int n) {
  std::string log;
  for (int i = 0; i < n; ++i)
    log += "step " + std::to_string(i) + " loss 0." + std::to_string(1000 + i % 777) + " lr 1e-4 tokens/s 51234\n";
  return log;
}

// A launcher's cascade: SIGTERMs and task exits among ordinary output.
std::string Cascade(int n) {
  std::string log;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0) log += "[rank" + std::to_string(i % 8) + "]: SIGTERM received, shutting down\n";
    else if (i % 3 == 1) log += "srun: error: node-" + std::to_string(i % 64) + ": task " + std::to_string(i % 32) + ": Exited with exit code 1\n";
    else log += "step " + std::to_string(i) + " loss 0.5\n";
  }
  return log;
}

TEST(Locator, WithoutARootLineTheFailureStartsWhereFailureLinesBecomeDense) {
  // 20,000 lines of training, one status line no signature knows, then 2,000
  // lines of cascade: the boundary chunks hold no root-cause line, and the
  // context must still reach back to line 20,000 — not sit ~1,000 cascade
  // lines later at the region's end, out of the classifier's sight.
  std::string log = NormalLines(20000) + "job 4411 worker-3 status: Failed (BackoffLimitExceeded), restarts 6\n" +
                    Cascade(2000);
  auto located = LocateFailure(*StringSource(log));
  ASSERT_TRUE(located.ok());
  EXPECT_EQ(located->path, "binary search");
  EXPECT_EQ(LineOf(log, located->offset), 20000);
  ASSERT_FALSE(located->window.empty());
  EXPECT_LE(located->window.front().first, 20000);
  EXPECT_GE(located->window.back().first, 20000);
}

TEST(Locator, AnIsolatedFailureLookingLineDoesNotStartTheRun) {
  // A lone error line 300 lines before the cascade is not where the failure
  // starts: the run needs failure lines to be dense after it.
  std::string log = NormalLines(20000) + "ERROR: could not reach the metrics server, skipping\n" + NormalLines(300) +
                    Cascade(2000);
  auto located = LocateFailure(*StringSource(log));
  ASSERT_TRUE(located.ok());
  EXPECT_EQ(LineOf(log, located->offset), 20301);
}

TEST(FailureEval, ALogTooLongToNumberIsScoredAtTheLineItsByteOffsetStarts) {
  // Past 64 MB before the failure the locator answers a byte offset
  // (Located::lines_are_offsets); the evaluation scores the line there.
  std::string log;
  log.reserve(70u << 20);
  const std::string normal = "step 123456 loss 0.123456 lr 1e-4 tokens/s 51234 grad-norm 0.98765\n";
  int64_t lines = 0;
  while (log.size() < (66u << 20)) log += normal, ++lines;
  log += "RuntimeError: CUDA error: uncorrectable ECC error encountered\n" + Cascade(300);
  FailureCase c;
  c.id = "long";
  c.log = std::move(log);
  c.category = FailureDiagnosis::ErrorType::kInfrastructure;
  c.component = "gpu";
  c.root_cause_line_index = lines;
  FailureEvalOptions o;
  o.json = true;
  auto report = nlohmann::json::parse(RunFailureEval({c}, o, DiagnosisChoice{}, nullptr));
  EXPECT_EQ(report["locator"]["root_line_exact"], 1.0);
}

}  // namespace
}  // namespace schedmate
