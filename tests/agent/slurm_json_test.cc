// The parsers of squeue/sinfo --json (Slurm 22.05), on output captured from a
// real 22.05.8 cluster (testdata/) and on hand-made edge cases.
#include "agent/slurm_json.h"

#include <gtest/gtest.h>

#include "core/file_io.h"

namespace schedmate {
namespace {

std::string TestData(const std::string& name) {
  auto text = ReadFileCapped(std::string(SCHEDMATE_SOURCE_DIR) + "/tests/agent/testdata/" + name);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : "";
}

// One job with the given fields over a minimal valid record.
std::string OneJob(const std::string& fields) {
  return R"({"meta": {}, "errors": [], "jobs": [{"job_id": 7, "job_state": "RUNNING", "name": "n", )"
         R"("user_name": "alice", "current_working_directory": "/w", "node_count": 1)" +
         (fields.empty() ? "" : ", " + fields) + "}]}";
}

TEST(SqueueJson, RunningJobFromSlurm2205) {
  auto jobs = ParseSqueueJson(TestData("squeue_running.json"), "squeue");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  ASSERT_EQ(jobs->size(), 1u);
  const SlurmJob& j = (*jobs)[0];
  EXPECT_EQ(j.job_id, "1");
  EXPECT_EQ(j.name, "t1");
  EXPECT_EQ(j.user, "root");
  EXPECT_EQ(j.state, "RUNNING");
  EXPECT_EQ(j.nodes, "node1");
  EXPECT_EQ(j.gpus, 1);
  EXPECT_EQ(j.command, "/tmp/smj/j.sh");
  EXPECT_EQ(j.work_dir, "/tmp/smj");
  EXPECT_EQ(j.stdout_path, "/tmp/smj/out-1.log");  // %j expanded
  EXPECT_EQ(j.stderr_path, j.stdout_path);          // no -e: stderr goes to stdout
  EXPECT_GT(j.start_time_s, 0);
  EXPECT_EQ(j.end_time_s, 0);  // a running job's end_time is its time limit, not an end
  EXPECT_FALSE(j.exit_code);
  EXPECT_FALSE(JobEnded(j));
  EXPECT_EQ(SingleNode(j), "node1");
}

TEST(SqueueJson, FailedJobHasExitCodeAndEnd) {
  auto jobs = ParseSqueueJson(TestData("squeue_failed.json"), "squeue");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  const SlurmJob& j = (*jobs)[0];
  EXPECT_EQ(j.state, "FAILED");
  EXPECT_EQ(j.reason, "NonZeroExitCode");
  ASSERT_TRUE(j.exit_code);
  EXPECT_EQ(*j.exit_code, 3);  // wait status 768
  EXPECT_FALSE(j.exit_signal);
  EXPECT_GE(j.end_time_s, j.start_time_s);
  EXPECT_TRUE(JobEnded(j));
  EXPECT_EQ(EndReasonOfState(j), EndReason::kUnknown);  // the log says why
}

TEST(SqueueJson, DefaultOutputIsSlurmJobIdInWorkDir) {
  auto jobs = ParseSqueueJson(OneJob(R"("standard_output": "", "standard_error": "err/%x.%j.txt")"), "s");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  EXPECT_EQ((*jobs)[0].stdout_path, "/w/slurm-7.out");
  EXPECT_EQ((*jobs)[0].stderr_path, "/w/err/n.7.txt");
}

TEST(SqueueJson, GpusPerNodeTimesNodesPlusPerJob) {
  auto jobs = ParseSqueueJson(
      OneJob(R"("node_count": 2, "tres_per_node": "gres:gpu:a100:4,gres:nic:1", "tres_per_job": "gres:gpu:1")"), "s");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  EXPECT_EQ((*jobs)[0].gpus, 9);
}

TEST(SqueueJson, NullsAreAbsentValues) {
  auto jobs = ParseSqueueJson(OneJob(R"("nice": null, "comment": null, "exit_code": null, "end_time": null)"), "s");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  EXPECT_FALSE((*jobs)[0].nice);
  EXPECT_EQ((*jobs)[0].comment, "");
}

TEST(SqueueJson, ErrorsNameTheRecordAndField) {
  auto bad_state = ParseSqueueJson(OneJob(R"("job_state": 3)"), "squeue --json");
  ASSERT_FALSE(bad_state.ok());
  EXPECT_NE(bad_state.status().message().find("squeue --json: jobs[0] (job 7)"), std::string::npos)
      << bad_state.status().message();
  EXPECT_NE(bad_state.status().message().find("job_state"), std::string::npos);
  auto bad_gpus = ParseSqueueJson(OneJob(R"("tres_per_node": "gres:gpu:99999999999")"), "s");
  ASSERT_FALSE(bad_gpus.ok());
  EXPECT_NE(bad_gpus.status().message().find("tres_per_node"), std::string::npos);
  auto no_id = ParseSqueueJson(R"({"jobs": [{"job_state": "RUNNING"}]})", "s");
  ASSERT_FALSE(no_id.ok());
  EXPECT_NE(no_id.status().message().find("job_id"), std::string::npos);
  EXPECT_FALSE(ParseSqueueJson(R"({"jobs": {}})", "s").ok());
  EXPECT_FALSE(ParseSqueueJson("[1, 2", "s").ok());
}

TEST(SqueueJson, SlurmErrorsAreUnavailable) {
  auto r = ParseSqueueJson(R"({"errors": [{"error": "Unable to contact slurm controller"}], "jobs": []})", "s");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
}

TEST(SinfoJson, NodesFromSlurm2205) {
  auto nodes = ParseSinfoJson(TestData("sinfo.json"), "sinfo");
  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  ASSERT_EQ(nodes->size(), 4u);
  EXPECT_EQ((*nodes)[0].name, "node1");
  EXPECT_EQ((*nodes)[0].state, "allocated");
  EXPECT_EQ((*nodes)[0].gpus, 2);
  EXPECT_FALSE((*nodes)[0].drained());
}

TEST(SinfoJson, DrainFlag) {
  auto nodes = ParseSinfoJson(
      R"({"nodes": [{"name": "node3", "state": "idle", "state_flags": ["DRAIN"], "reason": "schedmate: gpu"}]})", "s");
  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  EXPECT_TRUE((*nodes)[0].drained());
  EXPECT_EQ((*nodes)[0].reason, "schedmate: gpu");
  EXPECT_FALSE(ParseSinfoJson(R"({"nodes": [{"name": "n", "state": "idle", "state_flags": "DRAIN"}]})", "s").ok());
}

TEST(OutputPattern, ExpandsSlurmsPlaceholders) {
  SlurmJob j;
  j.job_id = "42";
  j.name = "train";
  j.user = "bob";
  j.batch_host = "node2";
  EXPECT_EQ(ExpandOutputPattern("/l/%x-%j-%u-%N-100%%.%q", j), "/l/train-42-bob-node2-100%.%q");
}

TEST(EndReason, FromFinalStates) {
  SlurmJob j;
  for (auto [state, reason] : {std::pair{"COMPLETED", EndReason::kCompleted}, {"TIMEOUT", EndReason::kTimeout},
                              {"CANCELLED", EndReason::kCancelled}, {"NODE_FAIL", EndReason::kFailedInfra}}) {
    j.state = state;
    EXPECT_TRUE(JobEnded(j)) << state;
    EXPECT_EQ(EndReasonOfState(j), reason) << state;
  }
  j.state = "COMPLETING";
  EXPECT_FALSE(JobEnded(j));
}

}  // namespace
}  // namespace schedmate
