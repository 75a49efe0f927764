// The real public traces in ../shared/traces, when present.
#include <filesystem>

#include <gtest/gtest.h>

#include "traces/trace_loader.h"
#include "traces/trace_stats.h"
#include "traces/vc_config.h"

namespace schedmate {
namespace {

std::string Shared(const std::string& rel) {
  return std::string(SCHEDMATE_SHARED_DIR) + "/traces/" + rel;
}

#define SKIP_IF_ABSENT(path)                                              \
  if (!std::filesystem::exists(path))                                     \
    GTEST_SKIP() << path << " is absent (../shared not beside the tree)"

TEST(SharedTracesTest, WholePhillyTraceLoads) {
  std::string path = Shared("philly/philly.csv");
  SKIP_IF_ABSENT(path);
  auto t = LoadTraceFile(path, TraceFormat::kAuto);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "philly");
  EXPECT_EQ(t->jobs.size(), 82247u);  // README: 82,247 jobs
  TraceStats s = ComputeTraceStats(*t);
  EXPECT_EQ(s.jobs_per_vc.size(), 15u);
  EXPECT_NEAR(s.max_duration_s, 4.63e6, 0.01e6) << "README: max 4.63 M s";
  auto vcs = LoadVcConfigFile(Shared("philly/philly_vc.csv"));
  ASSERT_TRUE(vcs.ok());
  EXPECT_EQ(vcs->size(), 11u);
}

TEST(SharedTracesTest, SiaAndPolluxWorkloadsLoad) {
  for (std::string rel : {"sia/workloads/philly/workload-1.csv",
                          "pollux/workloads/workload-1.csv"}) {
    std::string path = Shared(rel);
    SKIP_IF_ABSENT(path);
    auto t = LoadTraceFile(path, TraceFormat::kAuto);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(t->format, "sia");
    EXPECT_EQ(t->jobs.size(), 160u);
  }
}

TEST(SharedTracesTest, LucidVcConfigLoads) {
  std::string path = Shared("lucid/Venus/vc_config.csv");
  SKIP_IF_ABSENT(path);
  auto vcs = LoadVcConfigFile(path);
  ASSERT_TRUE(vcs.ok()) << vcs.status().ToString();
  EXPECT_EQ(vcs->size(), 15u);
}

}  // namespace
}  // namespace schedmate
