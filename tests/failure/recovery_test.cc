// The recovery guards (issue 16): plans are data; nothing is isolated without
// a node-side check the tenant cannot write; limits hold across executors
// sharing a durable ledger; nothing executes before its audit is written.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "failure/diagnose.h"
#include "failure/node_health.h"
#include "failure/recovery.h"
#include "history/sqlite_guard_ledger.h"

namespace schedmate {
namespace {

using E = FailureDiagnosis::ErrorType;

// A health check with a fixed answer, counting its calls.
class FixedHealth final : public NodeHealthCheck {
 public:
  explicit FixedHealth(NodeHealth h) : h_(h) {}
  HealthReport Check(const std::string&) override {
    ++calls;
    return {h_, "fixed", "test"};
  }
  int calls = 0;

 private:
  NodeHealth h_;
};

// A ledger whose audit writes fail (a full disk, a lost store).
class BrokenAuditLedger final : public GuardLedger {
 public:
  Result<GuardDecision> Reserve(const GuardLimit&, int64_t, const Json&) override { return Unavailable("disk full"); }
  Status Audit(const Json&) override { return Unavailable("disk full"); }
  Result<std::vector<Json>> AuditTrail(size_t) override { return std::vector<Json>{}; }
  std::string Describe() const override { return "broken"; }
};

std::string TempPath(const std::string& name) {
  return testing::TempDir() + "/" + name + std::to_string(getpid());
}

struct Harness {
  ManualClock clock{1'000'000};
  DryRunClusterActions actions;
  MemoryGuardLedger memory;
  GuardLedger* ledger = &memory;
  FixedHealth faulty{NodeHealth::kFaulty};
  NodeHealthCheck* health = &faulty;
  RecoveryGuards guards;
  Harness() { guards.shadow = false; }
  ExecutionOutcome Run(const FailureDiagnosis& d, const std::string& node = "gpu-7", const std::string& job = "j1") {
    RecoveryExecutor ex(guards, &actions, ledger, health, &clock);
    JobContext ctx{job, node, "/ckpt/step_900"};
    return ex.Execute(d, PlanRecovery(d, ctx), ctx);
  }
  int Calls(const std::string& prefix) const {
    return static_cast<int>(std::count_if(actions.calls().begin(), actions.calls().end(),
                                          [&](const std::string& c) { return c.rfind(prefix, 0) == 0; }));
  }
};

FailureDiagnosis Infra(double confidence = 0.9) {
  FailureDiagnosis d;
  d.error_type = E::kInfrastructure;
  d.faulty_component = "gpu";
  d.confidence = confidence;
  return d;
}

TEST(Recovery, PlansAreData) {
  RecoveryPlan p = PlanRecovery(Infra(), {"j", "gpu-7", "/ckpt"});
  EXPECT_TRUE(p.automatic);
  EXPECT_EQ(ToJson(p)["steps"], nlohmann::json({"check_node_health", "isolate_node", "request_replacement",
                                                "restart_from_checkpoint", "report"}));
  FailureDiagnosis user;
  user.error_type = E::kUserScript;
  EXPECT_EQ(ToJson(PlanRecovery(user, {"j", "gpu-7", ""}))["steps"], nlohmann::json({"report"}));
  // No node to check: advice only, no restart either.
  RecoveryPlan nowhere = PlanRecovery(Infra(), {"j", "", "/ckpt"});
  EXPECT_FALSE(nowhere.automatic);
  EXPECT_NE(nowhere.reason.find("advice only"), std::string::npos);
}

TEST(Recovery, ConfirmedInfrastructureFaultIsolatesAndRestarts) {
  Harness h;
  ExecutionOutcome o = h.Run(Infra());
  EXPECT_EQ(o.executed, (std::vector<std::string>{"check_node_health", "isolate_node", "request_replacement",
                                                  "restart_from_checkpoint", "report"}));
  EXPECT_EQ(h.faulty.calls, 1);
  // Every effect was announced before it happened.
  auto trail = h.memory.AuditTrail(100);
  ASSERT_TRUE(trail.ok());
  for (const char* step : {"isolate_node", "restart_from_checkpoint"}) {
    auto at = [&](const char* decision) {
      return std::find_if(trail->begin(), trail->end(), [&](const Json& r) {
        return r["step"] == step && r["decision"] == decision;
      }) - trail->begin();
    };
    EXPECT_LT(at("intent"), at("dry-run")) << step;
  }
}

TEST(Recovery, ShadowModeExecutesNothing) {
  Harness h;
  h.guards.shadow = true;
  h.Run(Infra());
  EXPECT_TRUE(h.actions.calls().empty());
  EXPECT_EQ(h.faulty.calls, 0);
  auto trail = h.memory.AuditTrail(100);
  ASSERT_TRUE(trail.ok() && !trail->empty());
  EXPECT_EQ(trail->back()["decision"], "shadow");
}

TEST(Recovery, UserErrorsAreNeverRetriedNorIsolated) {
  Harness h;
  FailureDiagnosis user;
  user.error_type = E::kUserScript;
  user.confidence = 0.99;
  EXPECT_EQ(h.Run(user).executed, (std::vector<std::string>{"report"}));
  EXPECT_EQ(h.Calls("report"), 1);
  EXPECT_EQ(static_cast<int>(h.actions.calls().size()), 1);
}

TEST(Recovery, LowConfidenceGoesToAHuman) {
  Harness h;
  h.Run(Infra(0.5));
  EXPECT_EQ(h.Calls("isolate"), 0);
  EXPECT_EQ(h.Calls("restart"), 0);
  EXPECT_EQ(h.faulty.calls, 0);
}

// Item 3: without a node-side check, or when it says healthy, the job's own
// output never isolates a node.
TEST(Recovery, WithoutANodeSideCheckInfrastructureIsAdviceOnly) {
  Harness none;
  none.health = nullptr;
  ExecutionOutcome o = none.Run(Infra(0.99));
  EXPECT_EQ(none.Calls("isolate"), 0);
  EXPECT_EQ(none.Calls("restart"), 0);
  ASSERT_FALSE(o.refused.empty());
  EXPECT_NE(o.refused.front().find("advice only"), std::string::npos) << o.refused.front();

  Harness empty;
  NodeHealthChecks no_checks;
  empty.health = &no_checks;
  empty.Run(Infra(0.99));
  EXPECT_EQ(empty.Calls("isolate"), 0);

  Harness healthy;
  FixedHealth ok(NodeHealth::kHealthy);
  healthy.health = &ok;
  healthy.Run(Infra(0.99));
  EXPECT_EQ(healthy.Calls("isolate"), 0);
  EXPECT_EQ(healthy.Calls("report"), 1);
}

// A fault outside the node (storage, network): the node stays in service and
// the job restarts from its checkpoint, but only when the node-side check says
// the node is healthy; a node that says otherwise, or no check, is advice.
TEST(Recovery, AFaultOutsideTheNodeRestartsTheJobOnlyWhenTheNodeIsHealthy) {
  FailureDiagnosis storage = Infra(0.9);
  storage.faulty_component = "storage";
  EXPECT_EQ(PlanRecovery(storage, {"j1", "gpu-7", ""}).steps.size(), 3u);

  Harness healthy;
  FixedHealth ok(NodeHealth::kHealthy);
  healthy.health = &ok;
  healthy.Run(storage);
  EXPECT_EQ(healthy.Calls("isolate"), 0);
  EXPECT_EQ(healthy.Calls("restart"), 1);

  Harness faulty;  // the node disagrees with the verdict: a human decides
  faulty.Run(storage);
  EXPECT_EQ(faulty.Calls("isolate"), 0);
  EXPECT_EQ(faulty.Calls("restart"), 0);

  Harness none;
  none.health = nullptr;
  none.Run(storage);
  EXPECT_EQ(none.Calls("restart"), 0);

  Harness capped;  // the restart cap bounds a wrong verdict
  FixedHealth fine(NodeHealth::kHealthy);
  capped.health = &fine;
  for (int i = 0; i < 6; ++i) {
    capped.clock.AdvanceMs(3'600'000);
    capped.Run(storage);
  }
  EXPECT_EQ(capped.Calls("restart"), capped.guards.max_restarts);
}

TEST(Recovery, AUserScriptPrintingAnXidLineIsNotIsolatedOnAHealthyNode) {
  std::string log =
      "step 10 loss 2.3\n"
      "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 40, in <module>\n"
      "    raise ValueError('bad config')\n"
      "ValueError: bad config\n";
  auto r = DiagnoseLog(*StringSource(log));
  ASSERT_TRUE(r.ok());
  Harness h;
  CommandHealthCheck node_says_healthy("exit 0", 5000);
  h.health = &node_says_healthy;
  h.Run(r->diagnosis);
  EXPECT_EQ(h.Calls("isolate"), 0);
  EXPECT_EQ(h.Calls("restart"), 0);
}

// Item 1: five executors (as five processes would) sharing one SQLite ledger
// isolate at most the quota, and one job restarts once within its cool-down.
TEST(Recovery, LimitsHoldAcrossExecutorsSharingADurableLedger) {
  std::string path = TempPath("guards") + ".db";
  std::filesystem::remove(path);
  int isolated = 0;
  for (int i = 0; i < 5; ++i) {
    auto ledger = OpenSqliteGuardLedger(path);
    ASSERT_TRUE(ledger.ok()) << ledger.status().message();
    Harness h;
    h.ledger = ledger->get();
    h.Run(Infra(), "node-" + std::to_string(i), "job-" + std::to_string(i));
    isolated += h.Calls("isolate");
  }
  EXPECT_EQ(isolated, 2);

  int restarts = 0;
  for (int i = 0; i < 5; ++i) {
    auto ledger = OpenSqliteGuardLedger(path);
    ASSERT_TRUE(ledger.ok());
    Harness h;
    h.guards.isolation_quota = 100;
    h.ledger = ledger->get();
    h.Run(Infra(), "node-r" + std::to_string(i), "same-job");
    restarts += h.Calls("restart");
  }
  EXPECT_EQ(restarts, 1);  // the 600 s cool-down holds across processes

  // After the window and the cool-down, the limits open again; the per-job cap does not.
  auto ledger = OpenSqliteGuardLedger(path);
  ASSERT_TRUE(ledger.ok());
  Harness later;
  later.guards.max_restarts = 2;
  later.ledger = ledger->get();
  later.clock.AdvanceMs(3601 * 1000);
  later.Run(Infra(), "node-9", "same-job");
  EXPECT_EQ(later.Calls("isolate"), 1);
  EXPECT_EQ(later.Calls("restart"), 1);
  later.clock.AdvanceMs(601 * 1000);
  later.Run(Infra(), "node-10", "same-job");
  EXPECT_EQ(later.Calls("restart"), 1);  // cap of 2 reached
  auto trail = (*ledger)->AuditTrail(1000);
  ASSERT_TRUE(trail.ok());
  EXPECT_GT(trail->size(), 20u);  // the trail is read back from the file
  std::filesystem::remove(path);
}

// Many processes opening one fresh history file at once (the WAL switch and
// the table creation race: "database is locked" before the retry) all get
// the ledger, and the quota still holds across them.
TEST(Recovery, ConcurrentOpensOfAFreshLedgerAllSucceedAndShareTheQuota) {
  for (int round = 0; round < 3; ++round) {
    std::string path = TempPath("fresh-guards") + std::to_string(round) + ".db";
    std::filesystem::remove(path);
    std::vector<pid_t> children;
    for (int i = 0; i < 16; ++i) {
      pid_t pid = fork();
      if (pid == 0) {
        auto ledger = OpenSqliteGuardLedger(path);
        if (!ledger.ok()) _exit(2);
        auto d = (*ledger)->Reserve({"isolate", 3, 3600'000, 0}, 1000 + i, {{"i", i}});
        _exit(d.ok() && d->granted ? 0 : d.ok() ? 1 : 3);
      }
      children.push_back(pid);
    }
    int granted = 0, failed = 0;
    for (pid_t pid : children) {
      int status = 0;
      waitpid(pid, &status, 0);
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      granted += code == 0;
      failed += code != 0 && code != 1;
    }
    EXPECT_EQ(failed, 0) << "round " << round;
    EXPECT_EQ(granted, 3) << "round " << round;
    std::filesystem::remove(path);
  }
}

// Item 2: nothing executes unless its audit record is durably written first.
TEST(Recovery, NothingExecutesWhenTheAuditCannotBeWritten) {
  Harness h;
  BrokenAuditLedger broken;
  h.ledger = &broken;
  ExecutionOutcome o = h.Run(Infra());
  EXPECT_TRUE(h.actions.calls().empty());
  EXPECT_FALSE(o.refused.empty());

  Harness f;
  std::string dir = TempPath("auditdir");
  std::filesystem::create_directories(dir);
  auto file = AuditFile::Open(dir + "/audit.jsonl");
  ASSERT_TRUE(file.ok());
  std::filesystem::remove_all(dir);  // the file is gone and cannot be recreated
  RecoveryExecutor ex(f.guards, &f.actions, f.ledger, f.health, &f.clock, &*file);
  JobContext ctx{"j", "gpu-1", ""};
  ex.Execute(Infra(), PlanRecovery(Infra(), ctx), ctx);
  EXPECT_TRUE(f.actions.calls().empty());
}

TEST(Recovery, AuditFileIsAppendOnlyAndAnnouncesEachAction) {
  std::string path = TempPath("audit") + ".jsonl";
  std::filesystem::remove(path);
  for (int run = 0; run < 2; ++run) {
    auto file = AuditFile::Open(path);
    ASSERT_TRUE(file.ok());
    Harness h;
    RecoveryExecutor ex(h.guards, &h.actions, h.ledger, h.health, &h.clock, &*file);
    JobContext ctx{"j" + std::to_string(run), "n1", ""};
    ex.Execute(Infra(), PlanRecovery(Infra(), ctx), ctx);
  }
  std::ifstream in(path);
  std::string line, last_isolate;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    auto j = nlohmann::json::parse(line);
    if (j["step"] == "isolate_node") {
      if (j["decision"] == "dry-run") {
        EXPECT_EQ(last_isolate, "intent");
      }
      last_isolate = j["decision"];
    }
  }
  EXPECT_GE(lines, 2 * 10);
  EXPECT_FALSE(AuditFile::Open("/nonexistent-dir/audit.jsonl").ok());
  std::filesystem::remove(path);
}

TEST(NodeHealth, CommandExitCodesAndDeadline) {
  EXPECT_EQ(CommandHealthCheck("exit 0", 5000).Check("gpu-1").health, NodeHealth::kHealthy);
  EXPECT_EQ(CommandHealthCheck("echo 'GPU 0: ECC errors' >&2; exit 1", 5000).Check("gpu-1").health, NodeHealth::kFaulty);
  HealthReport r = CommandHealthCheck("echo checked {node}; exit 3", 5000).Check("gpu-1");
  EXPECT_NE(r.evidence.find("checked gpu-1"), std::string::npos) << r.evidence;
  EXPECT_EQ(CommandHealthCheck("no-such-health-tool-xyz", 5000).Check("gpu-1").health, NodeHealth::kUnknown);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(CommandHealthCheck("sleep 30", 300).Check("gpu-1").health, NodeHealth::kUnknown);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
}

TEST(NodeHealth, ANodeNameCannotSmuggleShellSyntax) {
  std::string marker = TempPath("smuggled");
  std::filesystem::remove(marker);
  for (const std::string& node : std::vector<std::string>{"gpu-1;touch " + marker, "$(touch " + marker + ")", "-rf", "", "a b"}) {
    EXPECT_FALSE(ValidNodeName(node)) << node;
    EXPECT_EQ(CommandHealthCheck("echo {node}", 5000).Check(node).health, NodeHealth::kUnknown);
  }
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_TRUE(ValidNodeName("gpu-node_07.cluster.local"));
}

TEST(NodeHealth, NodeLogsCountOnlyWhenTheTenantCannotWriteThem) {
  std::string path = TempPath("kern-gpu-3") + ".log";
  {
    std::ofstream out(path);
    out << "kernel: usb 1-1: new device\n"
        << "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n";
  }
  chmod(path.c_str(), 0644);
  std::string pattern = path;
  pattern.replace(pattern.find("gpu-3"), 5, "{node}");
  HealthReport r = NodeLogHealthCheck(pattern).Check("gpu-3");
  EXPECT_EQ(r.health, NodeHealth::kFaulty) << r.evidence;
  EXPECT_NE(r.evidence.find("Xid"), std::string::npos);
  chmod(path.c_str(), 0666);  // anyone could have written that line
  EXPECT_EQ(NodeLogHealthCheck(pattern).Check("gpu-3").health, NodeHealth::kUnknown);
  chmod(path.c_str(), 0644);
  { std::ofstream(path) << "kernel: all quiet\n"; }
  EXPECT_EQ(NodeLogHealthCheck(pattern).Check("gpu-3").health, NodeHealth::kUnknown);  // silence is not health
  EXPECT_EQ(NodeLogHealthCheck(pattern).Check("gpu-4").health, NodeHealth::kUnknown);  // no such log
  std::filesystem::remove(path);
}

TEST(NodeHealth, ChecksThatDisagreeGoToAHuman) {
  NodeHealthChecks both;
  both.Add(std::make_unique<FixedHealth>(NodeHealth::kFaulty));
  both.Add(std::make_unique<FixedHealth>(NodeHealth::kHealthy));
  EXPECT_EQ(both.Check("gpu-1").health, NodeHealth::kUnknown);
  NodeHealthChecks one;
  one.Add(std::make_unique<FixedHealth>(NodeHealth::kUnknown));
  one.Add(std::make_unique<FixedHealth>(NodeHealth::kFaulty));
  EXPECT_EQ(one.Check("gpu-1").health, NodeHealth::kFaulty);
  EXPECT_EQ(NodeHealthChecks().Check("gpu-1").health, NodeHealth::kUnknown);
}

}  // namespace
}  // namespace schedmate
