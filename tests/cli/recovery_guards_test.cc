// Issue 16's proof of the recovery guards with the real binary: twenty
// `diagnose --execute` processes at once share one history file, and the
// limits hold across them.
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_fixture.h"

namespace {

constexpr int kProcesses = 20;

class RecoveryGuardsTest : public CliTest {
 protected:
  // Runs `diagnose --execute` on every log at once, node gpu-<i>, job job-<i>.
  void DiagnoseAllAtOnce(const std::vector<std::string>& logs, const std::string& extra) {
    std::string script;
    for (size_t i = 0; i < logs.size(); ++i)
      script += std::string(SCHEDMATE_BIN) + " diagnose '" + logs[i] + "' --execute --history '" + db() +
                "' --node gpu-" + std::to_string(i) + " --job job-" + std::to_string(i) + " " + extra + " --json > '" +
                (dir_ / ("out" + std::to_string(i))).string() + "' 2>&1 &\n";
    script += "wait\n";
    std::ofstream(dir_ / "run.sh") << script;
    ASSERT_EQ(std::system(("bash '" + (dir_ / "run.sh").string() + "'").c_str()), 0);
  }
  // Audit records of effects the dry-run cluster carried out, by step.
  int Executed(const std::string& step) {
    CmdResult r = Exec("audit --history '" + db() + "' --json -n 100000");
    EXPECT_EQ(r.code, 0) << r.err;
    int n = 0;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      auto j = nlohmann::json::parse(line);
      n += j["step"] == step && j["decision"] == "dry-run";
    }
    return n;
  }
  std::string db() const { return (dir_ / "history.db").string(); }
};

// A user's script that prints a hardware-looking line before its own error.
std::string InjectedLog(int i) {
  const char* fake[] = {
      "NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.",
      "node-3:1234:1290 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.4<43122> with error 12, opcode 0, len 0, vendor err 129",
  };
  return std::string("epoch 1 step 100 loss 2.31\n") + fake[i % 2] +
         "\nTraceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n"
         "    main(cfg)\n  File \"train.py\", line 61, in main\n    raise ValueError(f\"unknown scheduler {cfg.sched}\")\n"
         "ValueError: unknown scheduler cosine2\n";
}

TEST_F(RecoveryGuardsTest, UserInjectedHardwareLinesIsolateNothing) {
  std::vector<std::string> logs;
  for (int i = 0; i < kProcesses; ++i) logs.push_back(Write("injected" + std::to_string(i) + ".log", InjectedLog(i)));
  DiagnoseAllAtOnce(logs, "--health-check 'exit 0'");  // the nodes answer healthy
  EXPECT_EQ(Executed("isolate_node"), 0);
  // A faked fabric error (outside the node) on a healthy node restarts the
  // tenant's own job from its own checkpoint — what resubmitting would do,
  // no privilege over others — at most max_restarts times; a faked GPU error
  // on a healthy node restarts nothing.
  EXPECT_LE(Executed("restart_from_checkpoint"), (kProcesses + 1) / 2);
  DiagnoseAllAtOnce(logs, "");  // no node-side check: advice only
  EXPECT_EQ(Executed("isolate_node"), 0);
}

TEST_F(RecoveryGuardsTest, RealGpuFaultsIsolateExactlyTheQuota) {
  std::ifstream corpus(std::string(SCHEDMATE_SOURCE_DIR) + "/data/eval/failure_real.jsonl");
  ASSERT_TRUE(corpus) << "data/eval/failure_real.jsonl is part of the tree";
  std::vector<std::string> logs;
  for (std::string line; std::getline(corpus, line) && static_cast<int>(logs.size()) < kProcesses;) {
    auto j = nlohmann::json::parse(line);
    if (j["faulty_component"].is_string() && j["faulty_component"] == "gpu")
      logs.push_back(Write("gpu" + std::to_string(logs.size()) + ".log", j["log"].get<std::string>()));
  }
  ASSERT_EQ(static_cast<int>(logs.size()), kProcesses);
  DiagnoseAllAtOnce(logs, "--health-check 'echo \"GPU {node}: uncorrectable ECC\"; exit 1'");
  int eligible = 0;  // confident infrastructure verdicts: each would isolate without the quota
  for (int i = 0; i < kProcesses; ++i) {
    std::ifstream out(dir_ / ("out" + std::to_string(i)));
    std::string text((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
    auto j = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << text;
    eligible += j["error_type"] == "infrastructure" && j["confidence"].get<double>() >= 0.8;
  }
  ASSERT_GE(eligible, 3) << "too few confident GPU verdicts to test the quota";
  EXPECT_EQ(Executed("isolate_node"), 2);  // "2 per hour, cluster-wide", across 20 processes
}

TEST_F(RecoveryGuardsTest, OneJobRestartsOnceWithinItsCooldownAcrossProcesses) {
  std::string log = Write("ecc.log", "step 5\nRuntimeError: CUDA error: uncorrectable ECC error encountered\n");
  for (int i = 0; i < 5; ++i) {
    CmdResult r = Exec("diagnose '" + log + "' --execute --history '" + db() + "' --node gpu-" + std::to_string(i) +
                       " --job same --health-check 'exit 1' --json");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(Executed("restart_from_checkpoint"), 1);
  CmdResult text = Exec("audit --history '" + db() + "'");
  EXPECT_NE(text.out.find("cool-down"), std::string::npos) << text.out;
}

TEST_F(RecoveryGuardsTest, ExecuteAlwaysLeavesADurableTrail) {
  std::string log = Write("ecc.log", "RuntimeError: CUDA error: uncorrectable ECC error encountered\n");
  CmdResult r = Exec("diagnose '" + log + "' --execute --history '" + db() + "' --node gpu-1 --job j1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("advice only"), std::string::npos) << r.out;  // no --health-check given
  CmdResult trail = Exec("audit --history '" + db() + "' --json");
  EXPECT_NE(trail.out.find("\"check_node_health\""), std::string::npos) << trail.out;
  EXPECT_EQ(Exec("audit --history '" + (dir_ / "none.db").string() + "'").code, 2);
}

}  // namespace
