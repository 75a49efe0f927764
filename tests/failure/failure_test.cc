// The Failure Handler: knowledge base, root-cause rules, the locator on
// long and hostile logs, the recovery guards, and the real development set.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "failure/diagnose.h"
#include "failure/evaluation.h"
#include "failure/root_cause.h"
#include "failure/signatures.h"

namespace schedmate {
namespace {

using E = FailureDiagnosis::ErrorType;

LineWindow Window(std::initializer_list<const char*> lines) {
  LineWindow w;
  int64_t i = 0;
  for (const char* l : lines) w.emplace_back(i++, l);
  return w;
}

TEST(Signatures, DefaultParsesAndBadRowsNameTheColumn) {
  EXPECT_GT(SignatureBase::Default().signatures().size(), 50u);
  auto bad = SignatureBase::Parse("x\troot\tinfrastructure\tdisk\t9\tfoo\n", "kb.tsv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("kb.tsv:1: column 'component'"), std::string::npos);
  EXPECT_FALSE(SignatureBase::Parse("x\troot\tinfrastructure\tgpu\t11\tfoo\n", "kb").ok());
  EXPECT_FALSE(SignatureBase::Parse("only\ttwo\n", "kb").ok());
}

TEST(RootCause, TheRealErrorNotTheWrapperOrTheCascade) {
  auto d = DiagnoseWindow(Window({
      "RuntimeError: Failed to import transformers.models.x because of the following error (look up):",
      "/lib/flash_attn_2_cuda.so: undefined symbol: _ZN2at4_ops",
      "W0330 api.py:897] Sending process 155026 closing signal SIGTERM",
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
  }));
  EXPECT_EQ(d.diagnosis.error_type, E::kFramework);
  EXPECT_EQ(d.diagnosis.root_cause_line_index, 1);
}

TEST(RootCause, EarliestOfTheStrongestAndTracebackCodeIsNotAnError) {
  auto d = DiagnoseWindow(Window({
      "RuntimeError: CUDA error: uncorrectable ECC error encountered",
      "[E ProcessGroupNCCL.cpp:916] NCCL watchdog thread terminated with exception: CUDA error: uncorrectable ECC error",
  }));
  EXPECT_EQ(d.diagnosis.error_type, E::kInfrastructure);
  EXPECT_EQ(d.diagnosis.faulty_component, "gpu");
  EXPECT_EQ(d.diagnosis.root_cause_line_index, 0);
  auto code = DiagnoseWindow(Window({
      "  File \"loader.py\", line 75, in _load_single_dataset",
      "    raise ValueError(f\"File {local_path} not found.\")",
      "ValueError: File data/x.json not found.",
  }));
  EXPECT_EQ(code.diagnosis.error_type, E::kUserScript);
  EXPECT_EQ(code.diagnosis.root_cause_line_index, 2);
}

TEST(RootCause, MisleadingCases) {
  // "No space left" on /dev/shm is the environment, not the storage.
  auto shm = DiagnoseWindow(Window({"host:1:2 [1] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device"}));
  EXPECT_EQ(shm.diagnosis.error_type, E::kFramework);
  auto disk = DiagnoseWindow(Window({"OSError: [Errno 28] No space left on device: '/ckpt/step_100.pt'"}));
  EXPECT_EQ(disk.diagnosis.faulty_component, "storage");
  // ENOSPC while multiprocessing creates a lock (a POSIX semaphore in /dev/shm).
  auto semaphore = DiagnoseWindow(Window({
      "  File \"/usr/lib/python3.10/multiprocessing/synchronize.py\", line 57, in __init__",
      "    sl = self._semlock = _multiprocessing.SemLock(", "OSError: [Errno 28] No space left on device"}));
  EXPECT_EQ(semaphore.diagnosis.error_type, E::kFramework);
  EXPECT_FALSE(semaphore.diagnosis.faulty_component.has_value());
  EXPECT_EQ(semaphore.signature_id, "storage.full+shm");
  EXPECT_EQ(semaphore.diagnosis.root_cause_line_index, 2);
  // An OOM beside a GPU hardware fault is the GPU's.
  auto oom = DiagnoseWindow(Window({"NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.",
                                    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"}));
  EXPECT_EQ(oom.diagnosis.faulty_component, "gpu");
  auto plain_oom = DiagnoseWindow(Window({"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"}));
  EXPECT_EQ(plain_oom.diagnosis.error_type, E::kUserScript);
  // NVLink Xids (74, 144-150) and the cleanup Xid they cause are NVLink's.
  auto rlw = DiagnoseWindow(Window({"kernel: NVRM: Xid (PCI:0000:1b:00): 145, RLW_RXPIPE Nonfatal XC0 i0 Link 11"}));
  EXPECT_EQ(rlw.diagnosis.faulty_component, "nvlink");
  auto cleanup = DiagnoseWindow(Window({"NVRM: Xid (PCI:0000:dc:00): 45, pid=1818, Ch 00000001 caused by previous Xid 149"}));
  EXPECT_EQ(cleanup.diagnosis.faulty_component, "nvlink");
  auto memory = DiagnoseWindow(Window({"NVRM: Xid (PCI:0000:06:00): 64, pid=1818, Row remapping failure"}));
  EXPECT_EQ(memory.diagnosis.faulty_component, "gpu");
  // A "(…)" continuation carries its line's meaning.
  auto cont = DiagnoseWindow(Window({"Accelerator Fatal Error: call to cuCtxCreate returned error 214",
                                     "  (CUDA_ERROR_ECC_UNCORRECTABLE): uncorrectable ECC error encountered"}));
  EXPECT_EQ(cont.diagnosis.root_cause_line_index, 0);
  EXPECT_EQ(cont.signature_id, "gpu.ecc");
  // SLURM's cancel message for a preempted job is the root, not the
  // SIGTERM the workers then receive.
  auto preempted = DiagnoseWindow(Window({
      "Epoch 3 step 1200 loss 1.31",
      "slurmstepd: error: *** JOB 4567 ON node017 CANCELLED AT 2026-01-01T10:00:00 DUE TO PREEMPTION ***",
      "torch.distributed.elastic.multiprocessing.api: [WARNING] Received Signals.SIGTERM death signal, shutting down "
      "workers"}));
  EXPECT_EQ(preempted.signature_id, "node.preempt");
  EXPECT_EQ(preempted.diagnosis.faulty_component, "node");
  EXPECT_EQ(preempted.diagnosis.root_cause_line_index, 1);
  auto nothing = DiagnoseWindow(Window({"epoch 3 done", "saving checkpoint"}));
  EXPECT_EQ(nothing.diagnosis.error_type, E::kUnknown);
  EXPECT_FALSE(nothing.diagnosis.root_cause_line_index.has_value());
}

// An infrastructure signature's words inside a path, or among alternatives
// the message lists, report nothing about this node: the line is no
// signature candidate (an exception line stays a generic one).
TEST(RootCause, InfrastructureWordsInAPathOrAmongAlternativesDecideNothing) {
  const SignatureBase& kb = SignatureBase::Default();
  auto weak = [&](const char* line) {
    std::string lower = ToLower(line);
    const Signature* sig = kb.Match(lower);
    return sig != nullptr && WeakInfrastructureMatch(lower, *sig);
  };
  // Where a file lives is not a file-system failure.
  EXPECT_TRUE(weak("RuntimeError: error reading /lustre/scratch/run1/ckpt.pt"));
  auto path = DiagnoseWindow(Window({"RuntimeError: error reading /lustre/scratch/run1/ckpt.pt"}));
  EXPECT_EQ(path.signature_id, "generic-exception");
  EXPECT_EQ(path.diagnosis.error_type, E::kUserScript);
  EXPECT_TRUE(weak("  File \"/usr/lib/python3/site-packages/tensorflow/python/tpu/preempted_hook.py\", line 89"));
  EXPECT_FALSE(weak("LustreError: 11-0: fs-MDT0000-mdc: operation obd_ping to node 10.0.0.8@o2ib failed: rc = -107"));
  EXPECT_FALSE(weak("OSError: [Errno 5] Input/output error: '/gpfs/data/shard-0001.tar'"));
  // The source location of the code that raised the error names what failed.
  EXPECT_FALSE(weak("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
                    "[10.0.0.3]:29500"));
  EXPECT_TRUE(weak("RuntimeError: error reading [/lustre/scratch/run1/ckpt.pt]"));  // no line number: a path
  // A list of what might have happened is not a report that it happened.
  const char* hedge = "E coordination_service.cc:1170] Task 3 heartbeat timeout. This indicates that the remote task "
                      "has failed, got preempted, or crashed unexpectedly.";
  EXPECT_TRUE(weak(hedge));
  EXPECT_NE(DiagnoseWindow(Window({hedge})).diagnosis.faulty_component, std::optional<std::string>("node"));
  EXPECT_TRUE(weak("I 09-12 controller.py:545] Cluster is preempted or failed. Recovering..."));
  EXPECT_FALSE(weak("slurmstepd: error: *** JOB 4567 ON node017 CANCELLED AT 2026-01-01T10:00:00 DUE TO PREEMPTION ***"));
  EXPECT_FALSE(weak("I 12-10 controller.py:118] Cluster is preempted (status: INIT). Recovering..."));
  // Words that are part of the signature's own term do not count as alternatives.
  EXPECT_FALSE(weak("RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable"));
  // Only infrastructure signatures are weakened: a framework one stands.
  std::string shm = ToLower("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
                            "shared memory (shm).");
  const Signature* fw = kb.Match(shm);
  ASSERT_NE(fw, nullptr);
  EXPECT_FALSE(WeakInfrastructureMatch(shm, *fw));
}

std::string LongFailedLog(int normal_lines, int cascade_lines, int64_t* root_line) {
  std::string log;
  for (int i = 0; i < normal_lines; ++i)
    log += (i % 10 == 0 ? "iter " + std::to_string(i) + ": loss 2.1, time 250.0ms\n"
                        : "node-3:2231:2231 [0] NCCL INFO Channel 01/32 : 0 1 2 3\n");
  log += "[rank3]: Traceback (most recent call last):\n";
  *root_line = normal_lines + 1;
  log += "node-7:91:93 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error\n";
  for (int i = 0; i < cascade_lines; ++i)
    log += i % 3 == 0 ? "W0330 api.py:897] Sending process " + std::to_string(i) + " closing signal SIGTERM\n"
                      : "[rank" + std::to_string(i % 8) + "]: RuntimeError: NCCL communicator was aborted\n";
  return log;
}

TEST(Locator, FindsTheFirstErrorInALongLogReadingLittle) {
  int64_t root = 0;
  std::string log = LongFailedLog(200000, 3000, &root);
  auto r = DiagnoseLog(*StringSource(log));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->located.searched);
  EXPECT_EQ(r->diagnosis.root_cause_line_index, root);
  EXPECT_EQ(r->diagnosis.faulty_component, "network");
  LocateOptions o;
  o.number_lines = false;
  auto fast = DiagnoseLog(*StringSource(log), o);
  ASSERT_TRUE(fast.ok());
  EXPECT_LT(fast->located.bytes_read, static_cast<int64_t>(log.size() / 10));
  // The last 500 lines see only the cascade.
  FailureDiagnosis tail = DiagnoseTail(log, 500);
  EXPECT_NE(tail.root_cause_line_index, root);
}

// Issue 16 item 13: the search reads chunk 0 twice, the context overlaps
// the region, numbering re-read the head: bytes_read passed the log's size.
TEST(Locator, BytesReadNeverExceedTheLogSize) {
  int64_t root = 0;
  for (int normal : {2000, 200000}) {  // read whole; binary search
    std::string log = LongFailedLog(normal, 300, &root);
    auto r = DiagnoseLog(*StringSource(log));
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->diagnosis.root_cause_line_index, root);
    EXPECT_LE(r->located.bytes_read, static_cast<int64_t>(log.size())) << normal << " normal lines";
  }
}

// Numbering a failure near the end of a huge log would read the log whole:
// past the budget the window keeps byte offsets, and says so.
TEST(Locator, LinesPastTheNumberingBudgetKeepByteOffsets) {
  int64_t root = 0;
  std::string log = LongFailedLog(100000, 300, &root);
  const int64_t root_offset = static_cast<int64_t>(log.find("node-7:91:93"));
  LocateOptions o;
  o.max_numbering_bytes = 1 << 20;
  auto far = DiagnoseLog(*StringSource(log), o);
  ASSERT_TRUE(far.ok()) << far.status().message();
  EXPECT_TRUE(far->located.lines_are_offsets);
  EXPECT_EQ(far->diagnosis.root_cause_line_index, root_offset);
  EXPECT_LT(far->located.bytes_read, static_cast<int64_t>(log.size() / 4));  // the head is not counted
  o.max_numbering_bytes = static_cast<int64_t>(log.size());
  auto near = DiagnoseLog(*StringSource(log), o);
  ASSERT_TRUE(near.ok());
  EXPECT_FALSE(near->located.lines_are_offsets);
  EXPECT_EQ(near->diagnosis.root_cause_line_index, root);
}

// Issue 16 item 7: `diagnose` on a FIFO blocked in open(). On failure the
// test opens the writing end itself, so that the blocked reader returns.
TEST(Locator, AFifoIsRefusedWithoutBlocking) {
  std::string path = testing::TempDir() + "/diagnose_fifo" + std::to_string(getpid());
  std::filesystem::remove(path);
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  auto opened = std::async(std::launch::async, [&] { return OpenFileSource(path).status(); });
  bool returned = opened.wait_for(std::chrono::seconds(3)) == std::future_status::ready;
  EXPECT_TRUE(returned) << "open() blocked on a FIFO";
  if (!returned) close(open(path.c_str(), O_WRONLY));
  Status s = opened.get();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find(path + ": a FIFO"), std::string::npos) << s.message();
  std::filesystem::remove(path);
}

TEST(Locator, HostileLogs) {
  for (const std::string& text :
       {std::string(), std::string("\n\n\n"), std::string(3 << 20, '\xff'),
        std::string(5 << 20, 'x') + " RuntimeError: CUDA error: uncorrectable ECC error encountered",
        std::string("\x00\x01\x02 binary \xc3\x28 OSError: [Errno 5] Input/output error", 48)}) {
    auto r = DiagnoseLog(*StringSource(text));
    ASSERT_TRUE(r.ok()) << r.status().message();
    for (const auto& [i, line] : r->located.window) EXPECT_LE(line.size(), 64u << 10);
  }
  auto truncated = DiagnoseLog(*StringSource("ok line\nOSError: [Errno 116] Stale file han"));
  ASSERT_TRUE(truncated.ok());
  EXPECT_EQ(truncated->diagnosis.root_cause_line_index, 1);
}

TEST(Evaluation, OurHoldoutSetStaysAboveTheBar) {
  auto cases = LoadFailureCases(std::string(SCHEDMATE_SOURCE_DIR) + "/data/failure_holdout.jsonl");
  ASSERT_TRUE(cases.ok()) << cases.status().message();
  FailureScores s = ScoreFailures(*cases, [](const std::string& log) {
    auto r = DiagnoseLog(*StringSource(log));
    return r.ok() ? r->diagnosis : FailureDiagnosis{};
  });
  EXPECT_GE(s.F1(), 0.85);
  EXPECT_GE(double(s.three_way) / s.cases, 0.85);
  EXPECT_GE(double(s.root_exact) / s.cases, 0.75);
}

TEST(Evaluation, RealDevelopmentSetMeetsTheBar) {
  std::string path = std::string(SCHEDMATE_SHARED_DIR) + "/realdata/failures.jsonl";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent: skipping the real-log evaluation";
  auto cases = LoadFailureCases(path);
  ASSERT_TRUE(cases.ok()) << cases.status().message();
  FailureScores s = ScoreFailures(*cases, [](const std::string& log) {
    auto r = DiagnoseLog(*StringSource(log));
    return r.ok() ? r->diagnosis : FailureDiagnosis{};
  });
  EXPECT_GE(s.F1(), 0.85);
  EXPECT_GE(double(s.three_way) / s.cases, 0.85);
  EXPECT_GE(double(s.component_ok) / s.infra_cases, 0.80);
  EXPECT_GE(double(s.root_exact) / s.cases, 0.75);
}

}  // namespace
}  // namespace schedmate
