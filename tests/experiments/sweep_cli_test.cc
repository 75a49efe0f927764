// `schedmate experiments` as a user runs it: a local sweep of real
// simulations, a dry run, a bad sweep file, and the exit codes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.h"

namespace {

const char* kSweep = R"({"name": "cli", "seeds": [1, 2],
  "experiments": [{"name": "syn", "command": "simulate",
                   "args": ["--synthetic", "philly", "--jobs", "60", "--nodes", "2"],
                   "matrix": {"--policy": ["fifo", "sjf"]}},
                  {"name": "bad", "command": "simulate", "args": ["--trace", "missing.csv"], "seeds": [1]}]})";

TEST_F(CliTest, ExperimentsRunLocallyMergesAndNamesTheFailedTask) {
  const std::string sweep = Write("sweep.json", kSweep);
  CmdResult r = Exec("experiments run " + sweep + " --out " + (dir_ / "out").string() + " -j 2 --json");
  EXPECT_EQ(r.code, 1) << r.err;  // one task fails
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], 4);
  EXPECT_EQ(j["failed"], 1);
  EXPECT_EQ(j["means"].size(), 2u);
  EXPECT_EQ(j["problems"][0]["stderr"], (dir_ / "out" / "task-4" / "stderr.txt").string());
  EXPECT_NE(r.err.find("1 failed and 0 missing of 5 tasks"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "summary.json"));

  CmdResult merge = Exec("experiments merge " + (dir_ / "out").string());
  EXPECT_EQ(merge.code, 1);
  EXPECT_NE(merge.out.find("FAILED: task 4 (bad / default / seed 1) exit 2"), std::string::npos) << merge.out;
  EXPECT_NE(merge.out.find("syn         policy=sjf   sjf   2/2"), std::string::npos) << merge.out;

  CmdResult again = Exec("experiments run " + sweep + " --out " + (dir_ / "out").string());
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("already holds a sweep"), std::string::npos);
}

TEST_F(CliTest, ExperimentsDryRunPrintsEachArgvAndRunsNothing) {
  const std::string sweep = Write("sweep.json", kSweep);
  CmdResult r = Exec("experiments run " + sweep + " --out " + (dir_ / "dry").string() + " --dry-run");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("simulate --synthetic philly --jobs 60 --nodes 2 --policy sjf --seed 2 --json --progress off"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("5 tasks written"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "dry" / "task-0" / "result.json"));
}

TEST_F(CliTest, ExperimentsBadSweepNamesFileLineField) {
  const std::string sweep = Write("bad.json",
                                  "{\"seeds\": [1],\n \"experiments\": [{\"name\": \"x\",\n"
                                  "  \"command\": \"simulate\", \"arg\": []}]}");
  CmdResult r = Exec("experiments run " + sweep + " --out " + (dir_ / "o").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.json:3: field 'experiments[0].arg': unknown field (did you mean 'args'?)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(Exec("experiments run " + sweep + " --out x --slurm --local").code, 2);
  CmdResult help = Exec("experiments run --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--sbatch-arg"), std::string::npos);
}

}  // namespace
