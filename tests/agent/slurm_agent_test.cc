// The SLURM agent's loop against a fake SLURM: what it reads, what it
// changes in enforce mode, what it only audits in shadow mode.
#include "agent/slurm_agent.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "agent/log_reader.h"
#include "history/sqlite_store.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

class FakeSlurm final : public SlurmClient {
 public:
  Result<std::vector<SlurmJob>> Jobs() override { return jobs; }
  Result<std::vector<SlurmNode>> Nodes() override { return std::vector<SlurmNode>{}; }
  Status UpdateJob(const std::string& id, const std::string& key, const std::string& value) override {
    changes.push_back("update " + id + " " + key + "=" + value);
    return Status::Ok();
  }
  Status DrainNode(const std::string& node, const std::string& reason) override {
    changes.push_back("drain " + node + " " + reason);
    return Status::Ok();
  }
  Status Requeue(const std::string& id) override {
    changes.push_back("requeue " + id);
    return Status::Ok();
  }
  std::vector<SlurmJob> jobs;
  std::vector<std::string> changes;
};

class FixedHealth final : public NodeHealthCheck {
 public:
  explicit FixedHealth(NodeHealth h) : health_(h) {}
  HealthReport Check(const std::string&) override { return {health_, "fixed", "test"}; }

 private:
  NodeHealth health_;
};

class SlurmAgentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sm_agent_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(fs::path(SCHEDMATE_SOURCE_DIR) / "tests/agent/job_repo", dir_ / "repo");
    auto store = OpenSqliteHistory((dir_ / "history.db").string());
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(*store);
    history_ = std::make_unique<AdvisorHistory>(*store_);
    ReloadState();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void ReloadState() {
    auto state = AgentState::Load((dir_ / "state.json").string());
    ASSERT_TRUE(state.ok()) << state.status().message();
    state_ = std::make_unique<AgentState>(std::move(*state));
  }

  SlurmJob Job(const std::string& id, const std::string& state, const std::string& script = "job.sh") {
    SlurmJob j;
    j.job_id = id;
    j.name = "job-" + id;
    j.user = "alice";
    j.state = state;
    j.nodes = "node3";
    j.node_count = 1;
    j.gpus = 1;
    j.work_dir = (dir_ / "repo").string();
    j.command = j.work_dir + "/" + script;
    j.stdout_path = j.stderr_path = (dir_ / ("job-" + id + ".log")).string();
    j.submit_time_s = 1000;
    if (state != "PENDING") j.start_time_s = 1010;
    if (JobEnded(j)) j.end_time_s = 1110;
    if (state == "FAILED") j.exit_code = 1;
    if (state == "COMPLETED") j.exit_code = 0;
    return j;
  }

  void WriteLog(const SlurmJob& j, const std::string& text, bool append = false) {
    std::ofstream(j.stdout_path, append ? std::ios::app : std::ios::trunc) << text;
  }

  static std::string TrainingLines(int from, int to) {
    std::string s;
    for (int k = from; k <= to; ++k)
      s += "Epoch 1 | step " + std::to_string(k) + "/40 | loss " + std::to_string(6.0 - 0.1 * k) +
           " | 400.0 samples/s | 0.160 s/step\n";
    return s;
  }

  std::vector<Json> Step(const std::string& enforce = "", NodeHealth health = NodeHealth::kFaulty) {
    AgentOptions o;
    auto parsed = ParseEnforceList(enforce);
    EXPECT_TRUE(parsed.ok());
    o.enforce = *parsed;
    FixedHealth check(health);
    SlurmAgent agent(o, {&slurm_, history_.get(), &ledger_, &check, &clock_, state_.get(), nullptr});
    auto events = agent.Step();
    EXPECT_TRUE(events.ok()) << events.status().message();
    return events.ok() ? *events : std::vector<Json>{};
  }

  static std::vector<Json> Of(const std::vector<Json>& events, const std::string& kind) {
    std::vector<Json> out;
    for (const Json& e : events)
      if (e["event"] == kind) out.push_back(e);
    return out;
  }

  std::vector<Json> Audited(const std::string& step) {
    auto trail = ledger_.AuditTrail(1000);
    std::vector<Json> out;
    for (const Json& r : *trail)
      if (r["step"] == step) out.push_back(r);
    return out;
  }

  static constexpr const char* kEccLog =
      "Epoch 1 | step 1/40 | loss 6.0 | 400.0 samples/s | 0.160 s/step\n"
      "[rank0]: NVRM: Xid (PCI:0000:3b:00): 48, pid=1, DBE (double bit error) ECC error\n"
      "RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
  static constexpr const char* kUserLog =
      "Epoch 1 | step 1/40 | loss 6.0 | 400.0 samples/s | 0.160 s/step\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 50, in <module>\n"
      "    target = sample[args.label_key]\n"
      "KeyError: 'labels'\n";

  fs::path dir_;
  std::unique_ptr<HistoryStore> store_;
  std::unique_ptr<AdvisorHistory> history_;
  std::unique_ptr<AgentState> state_;
  FakeSlurm slurm_;
  MemoryGuardLedger ledger_;
  ManualClock clock_{5'000'000};
};

TEST_F(SlurmAgentTest, ShadowModeChangesNothingAndAuditsWhatItWouldDo) {
  SlurmJob j = Job("5", "FAILED");
  WriteLog(j, kEccLog);
  slurm_.jobs = {j};
  auto events = Step();
  EXPECT_TRUE(slurm_.changes.empty());
  auto recovery = Of(events, "recovery");
  ASSERT_EQ(recovery.size(), 1u);
  EXPECT_TRUE(recovery[0]["shadow"].get<bool>());
  EXPECT_TRUE(recovery[0]["plan"]["automatic"].get<bool>());
  auto drains = Audited("isolate_node");
  ASSERT_EQ(drains.size(), 1u);
  EXPECT_EQ(drains[0]["decision"], "shadow");
  EXPECT_EQ(Audited("comment").at(0)["decision"], "skipped");  // no history yet: no estimate
}

TEST_F(SlurmAgentTest, EnforceDrainsAndRequeuesAConfirmedInfrastructureFailure) {
  SlurmJob j = Job("5", "FAILED");
  WriteLog(j, kEccLog);
  slurm_.jobs = {j};
  auto events = Step("drain,requeue");
  ASSERT_EQ(slurm_.changes.size(), 2u);
  EXPECT_EQ(slurm_.changes[0].rfind("drain node3 schedmate: infrastructure fault in gpu", 0), 0u) << slurm_.changes[0];
  EXPECT_EQ(slurm_.changes[1], "requeue 5");
  EXPECT_EQ(Of(events, "ended").at(0)["end_reason"], "failed_infra");
  EXPECT_EQ(Audited("isolate_node").back()["decision"], "executed");
}

TEST_F(SlurmAgentTest, AnUnconfirmedFaultIsNotDrained) {
  SlurmJob j = Job("5", "FAILED");
  WriteLog(j, kEccLog);
  slurm_.jobs = {j};
  Step("drain,requeue", NodeHealth::kHealthy);
  EXPECT_TRUE(slurm_.changes.empty());
}

TEST_F(SlurmAgentTest, AUserErrorIsReportedNeverRequeued) {
  SlurmJob j = Job("6", "FAILED");
  WriteLog(j, kUserLog);
  slurm_.jobs = {j};
  auto events = Step("comment,priority,drain,requeue");
  EXPECT_TRUE(slurm_.changes.empty());
  EXPECT_EQ(Of(events, "ended").at(0)["end_reason"], "failed_user");
  auto recovery = Of(events, "recovery").at(0);
  EXPECT_FALSE(recovery["plan"]["automatic"].get<bool>());
  EXPECT_EQ(recovery["reports"].size(), 1u);
}

TEST_F(SlurmAgentTest, TracksOnlyTheNewBytesAcrossProcesses) {
  SlurmJob j = Job("7", "RUNNING");
  WriteLog(j, TrainingLines(1, 5) + "Epoch 1 | step 6/40 | lo");  // a partial last line
  slurm_.jobs = {j};
  auto first = Of(Step(), "progress");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]["new_lines"], 5);
  EXPECT_EQ(first[0]["progress"]["step"], 5);
  ReloadState();  // a new process (`--once`) continues from the saved offset
  WriteLog(j, "ss 5.4 | 400.0 samples/s | 0.160 s/step\n" + TrainingLines(7, 8), true);
  auto second = Of(Step(), "progress");
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0]["new_lines"], 3);
  EXPECT_EQ(second[0]["progress"]["step"], 8);
  EXPECT_TRUE(Of(Step(), "progress").empty());  // nothing new
}

TEST_F(SlurmAgentTest, ARenamedCopyOfAFinishedJobGetsAnEstimateFromItsHistory) {
  SlurmJob done = Job("8", "COMPLETED");  // ran 100 s
  WriteLog(done, TrainingLines(1, 40));
  slurm_.jobs = {done};
  auto ended = Of(Step(), "ended");
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0]["history"].get<std::string>().rfind("recorded slurm-8", 0), 0u) << ended[0]["history"];
  SlurmJob copy = Job("9", "PENDING");
  copy.name = "a-new-name";
  copy.submit_time_s = 2000;
  slurm_.jobs = {done, copy};
  auto advice = Of(Step("comment,priority"), "advise");
  ASSERT_EQ(advice.size(), 1u);
  EXPECT_EQ(advice[0]["estimate"]["method"], "history");
  EXPECT_EQ(advice[0]["estimate"]["matches"].at(0)["id"], "slurm-8");
  ASSERT_EQ(slurm_.changes.size(), 2u);
  EXPECT_EQ(slurm_.changes[0], "update 9 comment=schedmate estimate 100 s from 1 similar job(s): slurm-8");
  EXPECT_EQ(slurm_.changes[1], "update 9 nice=2");  // 100 s ~ 2 minutes
}

// Two agents, one per partition, over one history file (as over one redis://
// history): the second agent's index was built before the first recorded
// its job, and still it sees that record at its next advice.
TEST_F(SlurmAgentTest, AnotherAgentsRecordInASharedHistoryEstimatesThisAgentsJob) {
  auto other_store = OpenSqliteHistory((dir_ / "history.db").string());
  ASSERT_TRUE(other_store.ok());
  auto other_history = AdvisorHistory::Open(**other_store);  // built now: the history is empty
  ASSERT_TRUE(other_history.ok());
  auto other_state = AgentState::Load((dir_ / "state-b.json").string());
  ASSERT_TRUE(other_state.ok());
  AgentOptions b_options;
  b_options.partitions = {"b"};
  MemoryGuardLedger b_ledger;
  SlurmAgent b(b_options, {&slurm_, &*other_history, &b_ledger, nullptr, &clock_, &*other_state, nullptr});

  SlurmJob done = Job("8", "COMPLETED");
  done.partition = "a";
  WriteLog(done, TrainingLines(1, 40));
  SlurmJob copy = Job("9", "PENDING");
  copy.partition = "b";
  copy.name = "a-new-name";
  copy.submit_time_s = 2000;
  slurm_.jobs = {done};
  auto b_first = b.Step();  // agent b: job 8 is not in its partition
  ASSERT_TRUE(b_first.ok());
  EXPECT_TRUE(b_first->empty());

  AgentOptions a_options;
  a_options.partitions = {"a"};
  FixedHealth check(NodeHealth::kHealthy);
  SlurmAgent a(a_options, {&slurm_, history_.get(), &ledger_, &check, &clock_, state_.get(), nullptr});
  slurm_.jobs = {done, copy};
  auto a_events = a.Step();
  ASSERT_TRUE(a_events.ok());
  ASSERT_EQ(Of(*a_events, "ended").size(), 1u);  // agent a records job 8 and never sees job 9
  EXPECT_TRUE(Of(*a_events, "advise").size() == 1u && Of(*a_events, "advise")[0]["job"] == "8");

  auto b_events = b.Step();
  ASSERT_TRUE(b_events.ok());
  auto advice = Of(*b_events, "advise");
  ASSERT_EQ(advice.size(), 1u);
  EXPECT_EQ(advice[0]["job"], "9");
  EXPECT_EQ(advice[0]["estimate"]["method"], "history") << advice[0].dump();
  EXPECT_EQ(advice[0]["estimate"]["matches"].at(0)["id"], "slurm-8");
  EXPECT_TRUE(Of(*b_events, "ended").empty());  // b never handled job 8 itself
}

TEST_F(SlurmAgentTest, AnActionNotEnabledIsSkippedAndAudited) {
  SlurmJob done = Job("8", "COMPLETED");
  slurm_.jobs = {done};
  Step();
  SlurmJob copy = Job("9", "PENDING");
  copy.submit_time_s = 2000;
  slurm_.jobs = {done, copy};
  Step("comment");
  ASSERT_EQ(slurm_.changes.size(), 1u);
  auto nice = Audited("priority");
  EXPECT_EQ(nice.back()["decision"], "skipped");
  EXPECT_NE(nice.back()["why"].get<std::string>().find("not enabled (--enforce priority)"), std::string::npos);
}

TEST_F(SlurmAgentTest, ARequeuedRunsEndIsHandledAgain) {
  SlurmJob j = Job("5", "FAILED");
  WriteLog(j, kEccLog);
  slurm_.jobs = {j};
  EXPECT_EQ(Of(Step(), "ended").size(), 1u);
  EXPECT_TRUE(Of(Step(), "ended").empty());  // handled once
  SlurmJob again = Job("5", "COMPLETED");
  again.restarts = 1;
  slurm_.jobs = {again};
  auto ended = Of(Step(), "ended");
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0]["end_reason"], "completed");
  EXPECT_EQ(ended[0]["run"], 1);
}

TEST_F(SlurmAgentTest, AJobSlurmForgotBeforeItsEndIsReported) {
  slurm_.jobs = {Job("5", "RUNNING")};
  Step();
  slurm_.jobs = {};
  auto vanished = Of(Step(), "vanished");
  ASSERT_EQ(vanished.size(), 1u);
  EXPECT_EQ(vanished[0]["job"], "5");
}

TEST(EnforceList, NamesAndRules) {
  auto all = ParseEnforceList("comment,priority,drain,requeue");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4u);
  EXPECT_TRUE(ParseEnforceList("")->empty());
  auto typo = ParseEnforceList("coment");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("'coment'"), std::string::npos);
  EXPECT_FALSE(ParseEnforceList("requeue").ok());  // needs drain
}

TEST(CommandSlurmClient, RunsScontrolWithExactArguments) {
  std::vector<std::vector<std::string>> calls;
  CommandSlurmClient client(1000, [&](const std::vector<std::string>& argv, int64_t) -> Result<CommandOutcome> {
    calls.push_back(argv);
    return CommandOutcome{0, false, ""};
  });
  ASSERT_TRUE(client.Requeue("12").ok());
  ASSERT_TRUE(client.DrainNode("node3", "gpu\nfault").ok());
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0], (std::vector<std::string>{"scontrol", "requeue", "12"}));
  EXPECT_EQ(calls[1], (std::vector<std::string>{"scontrol", "update", "jobid=12", "starttime=now"}));
  EXPECT_EQ(calls[2], (std::vector<std::string>{"scontrol", "update", "nodename=node3", "state=drain",
                                                "reason=gpu fault"}));
  EXPECT_FALSE(client.DrainNode("node3; reboot", "x").ok());
  EXPECT_FALSE(client.UpdateJob("12 && x", "nice", "1").ok());
  EXPECT_EQ(calls.size(), 3u);  // refused before running anything
}

TEST(CommandSlurmClient, AFailingCommandIsAnErrorNamingIt) {
  CommandSlurmClient client(1000, [](const std::vector<std::string>&, int64_t) -> Result<CommandOutcome> {
    return CommandOutcome{1, false, "slurm_update error: Invalid job id specified"};
  });
  Status s = client.UpdateJob("99", "nice", "3");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("scontrol update jobid=99 nice=3"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Invalid job id"), std::string::npos);
}

TEST(ReadNewLines, HoldsBackAPartialLine) {
  const std::string path = (fs::temp_directory_path() / ("sm_reader_" + std::to_string(::getpid()))).string();
  std::ofstream(path) << "one\ntwo\nthr";
  auto r = ReadNewLines(path, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lines, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(r->next_offset, 8);
  std::ofstream(path, std::ios::app) << "ee\n";
  r = ReadNewLines(path, r->next_offset);
  EXPECT_EQ(r->lines, (std::vector<std::string>{"three"}));
  std::ofstream(path) << "x\n";  // truncated below the offset: read again from 0
  r = ReadNewLines(path, 14);
  EXPECT_TRUE(r->restarted);
  EXPECT_EQ(r->lines, (std::vector<std::string>{"x"}));
  fs::remove(path);
  EXPECT_TRUE(ReadNewLines(path, 0)->lines.empty());  // not written yet
}

}  // namespace
}  // namespace schedmate
