// A research suite's report: the research section's errors, and the report
// written from a suite's task results (means ± sd over seeds beside the
// research's number, a failed seed named and left out, the plots).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "experiments/research_report.h"
#include "experiments/sweep_local.h"
#include "experiments/sweep_plan.h"

namespace schedmate {
namespace {
namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  auto text = ReadFileCapped(path);
  return text.ok() ? *text : "";
}

class ResearchReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("research_report_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "suite");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / "suite" / name;
    std::ofstream(p) << text;
    return p.string();
  }

  fs::path dir_;
};

const char* kSweep = R"json({"name": "lucidish", "seeds": [1, 2, 3, 4],
  "experiments": [{"name": "acme", "command": "lucid", "args": ["--synth", "seren"]}],
  "research": {
    "title": "Lucid-like table", "source": "PAPER.md, Results, Lucid simulations", "claim": "1.23-1.91x",
    "labels": {"acme": "Acme-like"},
    "columns": [
      {"name": "JCT x", "op": "ratio", "metric": "avg_jct_s", "base": "lucid", "run": "lucid+schedmate",
       "digits": 2, "research": {"acme": "1.91x (highest)"}},
      {"name": "L+s avg JCT", "metric": "avg_jct_s", "run": "lucid+schedmate", "unit": "h"},
      {"name": "change", "op": "change", "metric": "avg_jct_s", "base": "lucid", "run": "lucid*", "digits": 1}
    ]}})json";

TEST_F(ResearchReportTest, ErrorsNameTheFileLineAndField) {
  std::string bad = kSweep;
  bad.replace(bad.find("\"op\": \"ratio\""), 13, "\"op\": \"ratios\"");
  const std::string path = Write("bad.json", bad);
  auto t = ReadResearchTable(path);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("bad.json:7: field 'research.columns[0].op': 'ratios': known: value"),
            std::string::npos)
      << t.status().message();

  std::string no_base = kSweep;
  no_base.replace(no_base.find("\"base\": \"lucid\", \"run\": \"lucid+schedmate\","), 16, "");
  auto t2 = ReadResearchTable(Write("nobase.json", no_base));
  ASSERT_FALSE(t2.ok());
  EXPECT_NE(t2.status().message().find("'ratio' needs the base run's label"), std::string::npos);

  auto suite = ReadSuite((dir_ / "suite").string(), {});
  ASSERT_FALSE(suite.ok());  // a suite with a bad file is refused as a whole
  fs::remove(dir_ / "suite" / "bad.json");
  fs::remove(dir_ / "suite" / "nobase.json");
  Write("ok.json", kSweep);
  auto only = ReadSuite((dir_ / "suite").string(), {"nope"});
  ASSERT_FALSE(only.ok());
  EXPECT_NE(only.status().message().find("--only nope: no such sweep"), std::string::npos);
  EXPECT_NE(only.status().message().find("known: lucidish"), std::string::npos);
}

TEST_F(ResearchReportTest, ReportPrintsMeanAndSdBesideTheResearchAndNamesAFailedSeed) {
  Write("lucidish.json", kSweep);
  std::ofstream(dir_ / "suite" / "notes.md") << "## Not in this suite\n\n- Sia: no JSON summary yet.\n";
  auto suite = ReadSuite((dir_ / "suite").string(), {});
  ASSERT_TRUE(suite.ok()) << suite.status().message();
  ASSERT_EQ(suite->size(), 1u);
  const fs::path out = dir_ / "out";
  SweepPlan plan = ExpandSweep((*suite)[0], "/bin/sh", (out / "lucidish").string());
  ASSERT_EQ(plan.tasks.size(), 4u);
  // Seeds 1-3 report Lucid 3 h and Lucid + schedmate 2, 2.5, 3 h; seed 4 fails.
  const double ls[] = {2, 2.5, 3};
  for (size_t i = 0; i < 3; ++i) {
    nlohmann::json summary = {
        {"setting", "synthetic seren: 6000 jobs; main cluster 128 nodes x 8 GPUs (offered load 1.00)"},
        {"runs",
         {{{"label", "lucid"}, {"avg_jct_s", 3 * 3600.0}, {"wall_s", 1.5}},
          {{"label", "lucid+schedmate"},
           {"avg_jct_s", ls[i] * 3600},
           {"wall_s", 2.5},
           {"schedmate", {{"advised", 100}, {"hits", 75}, {"advisor_ms_total", 50.0}}}}}}};
    plan.tasks[i].argv = {"/bin/sh", "-c", "echo '" + summary.dump() + "'"};
  }
  plan.tasks[3].argv = {"/bin/sh", "-c", "echo 'error: boom' >&2; exit 2"};
  ASSERT_TRUE(WriteSweepPlan(plan, (out / "lucidish").string(), false).ok());
  ASSERT_TRUE(RunSweepsLocally({{&plan, (out / "lucidish").string()}}, {2, nullptr}).ok());

  SuiteRun run;
  run.suite_dir = (dir_ / "suite").string();
  run.command = "schedmate experiments run suite --out out";
  run.wall_s = 12.5;
  run.parallel = 2;
  run.sweeps = {"lucidish"};
  ASSERT_TRUE(WriteResearchReport(run.suite_dir, out.string(), run).ok());
  const std::string md = Slurp((out / "README.md").string());
  // JCT x per seed: 1.5, 1.2, 1.0 → mean 1.233, sd 0.252.
  EXPECT_NE(md.find("| Acme-like | 3/4 | 1.23 ± 0.25 | 1.91x (highest) | 2.50 ± 0.50 |"), std::string::npos) << md;
  EXPECT_NE(md.find("End to end: **12.5 s**"), std::string::npos);
  EXPECT_NE(md.find("seeds 1, 2, 3, 4 (3/4 ran): synthetic seren: 6000 jobs"), std::string::npos) << md;
  EXPECT_NE(md.find("**FAILED**: task 3 (acme / default / seed 4): exit 2"), std::string::npos) << md;
  // The semantic layer's cost: 25 % fallback, 0.5 ms per job.
  EXPECT_NE(md.find("| Acme-like | lucid+schedmate | 100 ± 0 | 25.0 ± 0.0 | 0.500 ± 0.000 |"), std::string::npos) << md;
  EXPECT_NE(md.find("## Not in this suite"), std::string::npos);
  EXPECT_NE(md.find("lucid 1.50, lucid+schedmate 2.50"), std::string::npos) << md;  // every replay's wall time
  EXPECT_TRUE(fs::exists(out / "lucidish_bars.svg"));
  const std::string svg = Slurp((out / "lucidish_bars.svg").string());
  EXPECT_NE(svg.find("<rect x="), std::string::npos);
  EXPECT_NE(svg.find("<path d=\"M"), std::string::npos);  // the error bar
}

TEST(Spread, SampleStandardDeviation) {
  Spread s = SpreadOf({1, 2, 3, NAN});
  EXPECT_EQ(s.n, 3u);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.sd, 1);
  EXPECT_EQ(SpreadOf({}).n, 0u);
}

}  // namespace
}  // namespace schedmate
