// Running a sweep's tasks (locally, and the SLURM array through a fake
// sbatch/squeue) and merging what they left: ok, failed and missing tasks.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "experiments/sweep_local.h"
#include "experiments/sweep_merge.h"
#include "experiments/sweep_slurm.h"
#include "experiments/sweep_task_exec.h"

namespace schedmate {
namespace {
namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  auto text = ReadFileCapped(path);
  return text.ok() ? *text : "";
}

class SweepRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("sweep_run_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A task whose "command" is a shell script standing in for schedmate.
  void AddTask(const std::string& setting, int64_t seed, const std::string& script) {
    plan_.tasks.push_back({plan_.tasks.size(), "exp", setting, "simulate", seed, {"/bin/sh", "-c", script}});
  }

  std::string dir_;
  SweepPlan plan_{"unit", "/tmp/sweep.json", "/tmp", "/bin/sh", {"--time=5"}, {}};
};

TEST_F(SweepRunTest, MergeKeepsEveryTaskAndAveragesOnlySuccesses) {
  AddTask("a", 1, R"(echo '{"policy": "fifo", "avg_jct_s": 10, "jobs": 3, "wall_s": 0.5, "events_per_s": 9}')");
  AddTask("a", 2, R"(echo '[{"policy": "fifo", "avg_jct_s": 20, "jobs": 3}, {"policy": "sjf", "avg_jct_s": 5}]')");
  AddTask("a", 3, "echo 'boom: bad trace' >&2; exit 3");
  AddTask("b", 1, "echo not json");
  AddTask("b", 2, "echo '{}'");
  AddTask("b", 3, "kill -TERM $$");
  ASSERT_TRUE(WriteSweepPlan(plan_, dir_, false).ok());
  std::vector<size_t> ended;
  LocalRunOptions options{3, [&](const SweepTask& t, const TaskResult&) { ended.push_back(t.index); }};
  ASSERT_TRUE(RunSweepLocally(plan_, dir_, options).ok());
  EXPECT_EQ(ended.size(), 6u);
  fs::remove(TaskResultPath(dir_, 4));  // as if its runner had been killed

  auto m = MergeSweep(dir_);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->ok, 2u);
  EXPECT_EQ(m->failed, 3u);
  EXPECT_EQ(m->missing, 1u);
  EXPECT_FALSE(m->complete());
  EXPECT_EQ(m->tasks[2].why, "exit 3; stderr " + TaskStderrPath(dir_, 2) + ": boom: bad trace");
  EXPECT_NE(m->tasks[3].why.find("exit 0 but no summary"), std::string::npos) << m->tasks[3].why;
  EXPECT_EQ(m->tasks[4].status, TaskStatus::kMissing);
  EXPECT_NE(m->tasks[4].why.find("no result.json"), std::string::npos);
  EXPECT_EQ(m->tasks[5].why.substr(0, 19), "killed by signal 15");
  ASSERT_EQ(m->means.size(), 2u);  // a/fifo over seeds 1 and 2, a/sjf over seed 2
  EXPECT_EQ(m->means[0].label, "fifo");
  EXPECT_EQ(m->means[0].seeds, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(m->means[0].expected, 3u);
  EXPECT_DOUBLE_EQ(m->means[0].mean.at("avg_jct_s"), 15);
  EXPECT_EQ(m->means[0].mean.count("wall_s") + m->means[0].mean.count("events_per_s"), 0u);  // timings left out
  EXPECT_EQ(m->means[1].seeds, (std::vector<int64_t>{2}));

  const std::string table = FormatMergedSweep(*m);
  EXPECT_NE(table.find("6 tasks, 2 ok, 3 failed, 1 missing"), std::string::npos) << table;
  EXPECT_NE(table.find("FAILED: task 2 (exp / a / seed 3) exit 3; stderr " + TaskStderrPath(dir_, 2)),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("MISSING: task 4 (exp / b / seed 2)"), std::string::npos) << table;
  const Json j = MergedSweepToJson(*m);
  EXPECT_EQ(j["problems"].size(), 4u);
  EXPECT_EQ(j["results"][0]["runs"][0]["metrics"]["avg_jct_s"], 10);
}

TEST_F(SweepRunTest, AnExistingSweepIsNotOverwrittenWithoutReplace) {
  AddTask("a", 1, "echo '{}'");
  ASSERT_TRUE(WriteSweepPlan(plan_, dir_, false).ok());
  ASSERT_TRUE(RunSweepTask(plan_, dir_, 0).ok());
  Status again = WriteSweepPlan(plan_, dir_, false);
  EXPECT_NE(again.message().find("already holds a sweep"), std::string::npos);
  ASSERT_TRUE(WriteSweepPlan(plan_, dir_, true).ok());
  auto result = ReadTaskResult(dir_, 0);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->has_value());  // the old result is gone with --force, never mistaken for a new one
  auto read = ReadSweepPlan(dir_);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->tasks[0].argv, plan_.tasks[0].argv);
  EXPECT_EQ(read->sbatch_args, plan_.sbatch_args);
}

TEST(SummaryRuns, ReadsEveryCommandsShape) {
  auto lucid = SummaryRuns(Json::parse(R"({"setting": "x", "runs": [{"label": "lucid", "avg_jct_s": 1,
                                           "schedmate": {"hits": 3}}]})"));
  ASSERT_TRUE(lucid.ok());
  EXPECT_EQ((*lucid)[0].label, "lucid");
  EXPECT_EQ((*lucid)[0].metrics.count("schedmate"), 0u);
  auto backfill = SummaryRuns(Json::parse(R"({"rows": [{"policy": "sjf", "backfill": "easy", "estimate": "oracle",
                                              "avg_jct_s": 2}, {"policy": "fifo", "backfill": "strict",
                                              "estimate": null}]})"));
  ASSERT_TRUE(backfill.ok());
  EXPECT_EQ((*backfill)[0].label, "sjf easy/oracle");
  EXPECT_EQ((*backfill)[1].label, "fifo strict");
  EXPECT_FALSE(SummaryRuns(Json::parse("[1, 2]")).ok());
  EXPECT_FALSE(SummaryRuns(Json::parse("\"x\"")).ok());
}

// A fake sbatch and squeue: the exact argv, and a scripted queue.
struct FakeSlurm {
  std::vector<std::vector<std::string>> calls;
  std::vector<CommandOutcome> squeue;
  Result<CommandOutcome> operator()(const std::vector<std::string>& argv, int64_t) {
    calls.push_back(argv);
    if (argv[0] == "sbatch") return CommandOutcome{0, false, "sbatch: warning: x\n12;cluster\n"};
    CommandOutcome next = squeue.front();
    if (squeue.size() > 1) squeue.erase(squeue.begin());
    return next;
  }
};

TEST_F(SweepRunTest, SubmitsOneArrayAndWaitsUntilNoTaskIsActive) {
  AddTask("a", 1, "true");
  AddTask("a", 2, "true");
  ASSERT_TRUE(WriteSweepPlan(plan_, dir_, false).ok());
  auto fake = std::make_shared<FakeSlurm>();
  fake->squeue = {{0, false, "0 PENDING\n1 PENDING\n"},
                  {0, false, "0 RUNNING\n1 COMPLETED\n"},
                  {0, false, "0 FAILED\n1 COMPLETED\n"}};
  std::vector<double> slept;
  SlurmArrayOptions o;
  o.sbatch_args = {"--partition=gpu"};
  o.max_concurrent = 1;
  o.poll_s = 0.5;
  o.runner = [fake](const std::vector<std::string>& argv, int64_t t) { return (*fake)(argv, t); };
  o.sleep = [&](double s) { slept.push_back(s); };
  auto job = SubmitSweepArray(plan_, dir_, o);
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(*job, "12");
  const std::string script = fs::absolute(dir_).lexically_normal().string() + "/sweep.sbatch";
  EXPECT_EQ(fake->calls[0],
            (std::vector<std::string>{"sbatch", "--parsable", "--array=0-1%1", "--time=5", "--partition=gpu", script}));
  const std::string text = Slurp(script);
  EXPECT_NE(text.find("#SBATCH --output=" + fs::absolute(dir_).lexically_normal().string() + "/task-%a/slurm.out"),
            std::string::npos);
  EXPECT_NE(text.find("exec '/bin/sh' experiments task '"), std::string::npos) << text;

  auto states = WaitForSweepArray(*job, dir_, o);
  ASSERT_TRUE(states.ok()) << states.status().message();
  EXPECT_EQ(states->states.at(0), "FAILED");
  EXPECT_EQ(slept, (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(fake->calls[1],
            (std::vector<std::string>{"squeue", "-h", "-r", "-j", "12", "--states=all", "-o", "%K %T"}));
  EXPECT_EQ(ReadSlurmStates(dir_).at(0), "FAILED");
  // The task that never wrote its result is missing, with SLURM's word for it.
  auto m = MergeSweep(dir_);
  ASSERT_TRUE(m.ok());
  EXPECT_NE(m->tasks[0].why.find("(SLURM: FAILED)"), std::string::npos) << m->tasks[0].why;
}

TEST_F(SweepRunTest, AForgottenJobHasEndedAndAStuckOneTimesOut) {
  EXPECT_FALSE(ParseArrayStates({1, false, "slurm_load_jobs error: Invalid job id specified\n"})->known);
  EXPECT_FALSE(ParseArrayStates({1, false, "slurm_load_jobs error: Unable to contact slurm controller"}).ok());
  fs::create_directories(dir_);
  SlurmArrayOptions o;
  o.poll_s = 0.01;
  o.timeout_s = 0.05;
  o.runner = [](const std::vector<std::string>&, int64_t) { return CommandOutcome{0, false, "0 PENDING\n"}; };
  auto stuck = WaitForSweepArray("7", dir_, o);
  EXPECT_EQ(stuck.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(stuck.status().message().find("experiments merge"), std::string::npos);
  AddTask("a", 1, "true");
  for (int i = 0; i < 1001; ++i) AddTask("a", i + 2, "true");
  EXPECT_NE(SubmitSweepArray(plan_, dir_, o).status().message().find("MaxArraySize"), std::string::npos);
}

}  // namespace
}  // namespace schedmate
