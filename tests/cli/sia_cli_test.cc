// `schedmate sia --json` on a tiny workload and cluster: the keys scripts read
// (per file and the summary, for both runs) and only finite numbers.
#include <cmath>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using nlohmann::json;

// Every number anywhere in `j` is finite (NaN and inf would print as null).
void ExpectFiniteNumbers(const json& j, const std::string& where) {
  if (j.is_number()) {
    EXPECT_TRUE(std::isfinite(j.get<double>())) << where;
  } else if (j.is_null()) {
    ADD_FAILURE() << where << " is null";
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) ExpectFiniteNumbers(it.value(), where + "." + it.key());
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) ExpectFiniteNumbers(j[i], where + "[" + std::to_string(i) + "]");
  }
}

constexpr const char* kMetrics[] = {"avg_jct_h",     "p99_jct_h",        "makespan_h",    "gpu_h",
                                    "gpu_h_per_job", "profile_gpu_h",    "policy_ms_median",
                                    "policy_ms_p95", "failed_rounds"};

class SiaCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!fs::exists(fs::path(SCHEDMATE_SHARED_DIR) / "traces/sia/profiles")) GTEST_SKIP() << "no ../shared";
    Write("w.csv",
          "name,time,application,num_replicas,batch_size\n"
          "ncf-0,0,ncf,1,256\ncifar10-1,60,cifar10,2,256\nncf-2,360000,ncf,1,256\n");
    config_ = Write("c.json", R"({"workloads": "w.csv", "profiles": "${SHARED}/traces/sia/profiles",
        "cluster": {"types": [{"name": "aws", "nodes": 1, "gpus_per_node": 4},
                              {"name": "rtx", "nodes": 1, "gpus_per_node": 8}]}})");
  }
  std::string Flags() const { return "sia --shared " + std::string(SCHEDMATE_SHARED_DIR) + " --config " + config_; }
  std::string config_;
};

TEST_F(SiaCliTest, JsonHasEveryRunsMetricsPerFileAndMeanStd) {
  CmdResult r = Exec(Flags() + " --json --seed 3 --progress off");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);  // stdout is the JSON object and nothing else
  ExpectFiniteNumbers(j, "$");
  EXPECT_EQ(j["config"]["gpus"], 12);
  EXPECT_EQ(j["config"]["bootstrap"], "profile");
  EXPECT_EQ(j["config"]["runs"], "both");
  ASSERT_EQ(j["files"].size(), 1u);
  const json& f = j["files"][0];
  EXPECT_EQ(f["file"], "w.csv");
  for (const char* run : {"sia", "sia_schedmate"}) {
    ASSERT_TRUE(f["runs"].contains(run)) << run;
    EXPECT_EQ(f["runs"][run]["jobs"], 3) << run;
    EXPECT_TRUE(f["runs"][run]["failed_round_notes"].is_array()) << run;
    for (const char* m : kMetrics) {
      EXPECT_TRUE(f["runs"][run].contains(m)) << run << "." << m;
      ASSERT_TRUE(j["summary"]["runs"][run].contains(m)) << run << "." << m;
      EXPECT_EQ(j["summary"]["runs"][run][m]["mean"], f["runs"][run][m]) << run << "." << m;  // one file
      EXPECT_EQ(j["summary"]["runs"][run][m]["std"], 0.0) << run << "." << m;
    }
    EXPECT_GT(f["runs"][run]["avg_jct_h"].get<double>(), 0) << run;
    const json& apps = f["runs"][run]["by_app"];
    ASSERT_EQ(apps.size(), 2u) << run;  // cifar10, ncf
    EXPECT_EQ(apps["ncf"]["jobs"].get<int>() + apps["cifar10"]["jobs"].get<int>(), 3) << run;
    for (const char* k : {"avg_jct_h", "gpu_h", "restarts_per_job"}) EXPECT_TRUE(apps["ncf"].contains(k)) << k;
  }
  for (const char* k : {"hits", "jobs", "hit_rate_pct", "misses", "written_back", "advisor_ms_per_job",
                        "profile_gpu_h_saved", "avg_jct_change_pct"})
    EXPECT_TRUE(f["schedmate"].contains(k)) << k;
  EXPECT_EQ(f["schedmate"]["written_back"], 3);
  const int hits = f["schedmate"]["hits"];
  EXPECT_GE(hits, 0);
  EXPECT_LE(hits, 3);
  EXPECT_EQ(j["summary"]["files"], 1);
  for (const char* k : {"hit_rate_pct", "avg_jct_change_pct", "profile_gpu_h_saved_total"})
    EXPECT_TRUE(j["summary"].contains(k)) << k;
  // The flat rows `experiments merge` reads: one per run, the summary's means.
  EXPECT_EQ(j["config"]["world_seed"], 3);
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["label"], "sia");
  EXPECT_EQ(j["runs"][1]["label"], "sia+schedmate");
  for (const char* m : kMetrics) {
    EXPECT_EQ(j["runs"][0][m], j["summary"]["runs"]["sia"][m]["mean"]) << m;
    EXPECT_EQ(j["runs"][1][m], j["summary"]["runs"]["sia_schedmate"][m]["mean"]) << m;
  }
  EXPECT_EQ(j["runs"][1]["hit_rate_pct"], j["summary"]["hit_rate_pct"]);
  EXPECT_EQ(j["runs"][1]["avg_jct_change_pct"], j["summary"]["avg_jct_change_pct"]["mean"]);
  EXPECT_EQ(j["runs"][1]["schedmate"]["advised"], 3);
  EXPECT_TRUE(r.err.empty()) << r.err;  // --progress off
}

// --file-per-seed: seed N runs the N-th workload file of a folder, wrapping.
TEST_F(SiaCliTest, FilePerSeedRunsTheSeedsFile) {
  fs::create_directories(dir_ / "wl");
  for (const char* name : {"workload-1.csv", "workload-2.csv", "workload-10.csv"})
    Write("wl/" + std::string(name), "name,time,application,num_replicas,batch_size\nncf-0,0,ncf,1,256\n");
  const std::string base = Flags() + " --workloads " + (dir_ / "wl").string() + " --json --runs sia --file-per-seed";
  for (auto [seed, file] : {std::pair{3, "workload-10.csv"}, {4, "workload-1.csv"}}) {
    CmdResult r = Exec(base + " --seed " + std::to_string(seed) + " --progress on");
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["files"].size(), 1u);
    EXPECT_EQ(j["files"][0]["file"], file) << "seed " << seed;
    EXPECT_NE(r.err.find("1/1 files done"), std::string::npos) << r.err;
  }
  CmdResult r = Exec(base);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--file-per-seed needs --seed"), std::string::npos) << r.err;
}

TEST_F(SiaCliTest, JsonOfOneRunHasOnlyThatRun) {
  CmdResult r = Exec(Flags() + " --runs sia --bootstrap as_you_go --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  ExpectFiniteNumbers(j, "$");
  EXPECT_EQ(j["config"]["bootstrap"], "as_you_go");
  EXPECT_TRUE(j["files"][0]["runs"].contains("sia"));
  EXPECT_FALSE(j["files"][0]["runs"].contains("sia_schedmate"));
  EXPECT_FALSE(j["files"][0].contains("schedmate"));
  EXPECT_EQ(j["files"][0]["runs"]["sia"]["profile_gpu_h"], 0.0);  // as_you_go never profiles
  EXPECT_FALSE(j["summary"].contains("hit_rate_pct"));
}

TEST_F(SiaCliTest, BadInputIsAClearError) {
  CmdResult r = Exec(Flags() + " --json --bootstrap guess");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("bootstrap"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  r = Exec(Flags() + " --json --max-files -1");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("max-files"), std::string::npos) << r.err;
}

}  // namespace
