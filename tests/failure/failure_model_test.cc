// The Failure Handler's learned classifier: trained on a few labelled logs,
// it reads a failure no signature knows, picks its root line over a wrapper
// printed after it, never reports more than the capped confidence, and
// leaves what a signature is sure of to the signature.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <gtest/gtest.h>

#include "failure/failure_model.h"
#include "failure/line_printer.h"
#include "failure/diagnose.h"
#include "failure/failure_training.h"
#include "failure/recovery.h"

namespace schedmate {
namespace {

FailureCase Case(const std::string& log, FailureDiagnosis::ErrorType cat, std::optional<std::string> comp, int64_t root) {
  FailureCase c;
  c.id = "x";
  c.log = log;
  c.category = cat;
  c.component = std::move(comp);
  c.root_cause_line_index = root;
  return c;
}

FailureModel Trained() {
  using E = FailureDiagnosis::ErrorType;
  std::vector<LinearModel::Example> line, klass;
  const SignatureBase& base = SignatureBase::Default();
  for (int i = 0; i < 6; ++i) {
    FailureExamples(Case("step 10 loss 1.0\nstep 11 loss 0.9\nquuxlib.BadWidgetError: widget " + std::to_string(i) +
                             " is malformed\nprocess exited with code 1\n",
                         E::kUserScript, std::nullopt, 2),
                    base, &line, &klass);
    FailureExamples(Case("step 5 loss 2.0\nfrobnicator: lost contact with storage array fs" + std::to_string(i) +
                             " (io timeout)\ntraining aborted\n",
                         E::kInfrastructure, "storage", 1),
                    base, &line, &klass);
  }
  FailureModel m;
  m.line = LinearModel::Train(RootLineClassNames(), line, {});
  m.klass = LinearModel::Train(FailureClassNames(), klass, {});
  return m;
}

LineWindow Window(const std::vector<std::string>& lines) {
  LineWindow w;
  for (size_t i = 0; i < lines.size(); ++i) w.emplace_back(static_cast<int64_t>(i), lines[i]);
  return w;
}

TEST(FailureModel, ReadsWhatNoSignatureKnows) {
  FailureModel m = Trained();
  LineWindow w = Window({"step 90 loss 0.5", "frobnicator: lost contact with storage array fs9 (io timeout)",
                         "training aborted"});
  RootCauseDetail d = DiagnoseWindowLearned(w, m);
  EXPECT_EQ(d.signature_id, "learned");
  EXPECT_EQ(d.diagnosis.error_type, FailureDiagnosis::ErrorType::kInfrastructure);
  EXPECT_EQ(d.diagnosis.faulty_component, "storage");
  EXPECT_EQ(d.diagnosis.root_cause_line_index, 1);
  EXPECT_LE(d.diagnosis.confidence, kLearnedConfidenceCap);  // never enough to drain a node alone
  EXPECT_LT(d.diagnosis.confidence, RecoveryGuards{}.min_confidence);
  LineWindow u = Window({"step 3 loss 1.2", "quuxlib.BadWidgetError: widget 42 is malformed", "process exited with code 1"});
  RootCauseDetail du = DiagnoseWindowLearned(u, m);
  EXPECT_EQ(du.diagnosis.error_type, FailureDiagnosis::ErrorType::kUserScript);
  EXPECT_EQ(du.diagnosis.root_cause_line_index, 1);
}

TEST(FailureModel, SureSignaturesStand) {
  FailureModel m = Trained();
  LineWindow w = Window({"step 1", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", "x"});
  RootCauseDetail sig = DiagnoseWindow(w);
  RootCauseDetail d = DiagnoseWindowLearned(w, m);
  ASSERT_GE(sig.weight, m.sure_weight);
  EXPECT_EQ(d.signature_id, sig.signature_id);
  EXPECT_EQ(d.diagnosis.faulty_component, "gpu");
}

TEST(FailureModel, ASignatureTheLabelsContradictIsOneFeatureAmongOthers) {
  FailureModel m = Trained();
  LineWindow w = Window({"step 1", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", "x"});
  RootCauseDetail sig = DiagnoseWindow(w);
  m.signatures[sig.signature_id] = {3, 0};  // wrong on three development logs out of three
  EXPECT_FALSE(m.Trusts(sig.signature_id));
  RootCauseDetail d = DiagnoseWindowLearned(w, m);
  EXPECT_EQ(d.signature_id, "learned");
  EXPECT_LE(d.diagnosis.confidence, kLearnedConfidenceCap);  // no recovery acts on it alone
  m.signatures[sig.signature_id] = {1, 0};  // one contradiction is not enough
  EXPECT_TRUE(m.Trusts(sig.signature_id));
  EXPECT_TRUE(m.Trusts("never-seen"));
  // The record is read back as written, and bad rows name their line.
  auto t = ParseSignatureTrust("# c\ngpu.xid\t5\t2\n", "t.tsv");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(DumpSignatureTrust(*t), "gpu.xid\t5\t2\n");
  auto bad = ParseSignatureTrust("gpu.xid\t2\t5\n", "t.tsv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("t.tsv:1"), std::string::npos);
  EXPECT_FALSE(ParseSignatureTrust("gpu.xid 5 2\n", "t.tsv").ok());
  // A labelled case: which signature decides it and whether it agrees.
  auto outcome = SignatureOutcome(Case("NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n",
                                       FailureDiagnosis::ErrorType::kUserScript, std::nullopt, 0),
                                  SignatureBase::Default());
  ASSERT_TRUE(outcome.has_value());
  EXPECT_FALSE(outcome->second);
}

// Concepts group synonyms so that what one log taught reaches its kind: an
// InfiniBand and a Gloo socket error share "net", a quota and a stale handle
// share "storage"; a line mentions each concept once.
TEST(FailureModel, ConceptsGroupSynonyms) {
  auto has = [](const std::vector<std::string>& v, const char* k) {
    return std::find(v.begin(), v.end(), k) != v.end();
  };
  auto ib = ConceptsOf("nccl warn net/ib : got completion from peer with error 12, opcode 0, len 0");
  auto gloo = ConceptsOf("gloo::enforcenotmet: socket connection closed by remote peer");
  EXPECT_TRUE(has(ib, "net") && has(gloo, "net"));
  EXPECT_FALSE(has(ib, "storage") || has(gloo, "storage"));
  auto quota = ConceptsOf("oserror: [errno 122] disk quota exceeded: '/scratch/run/ckpt'");
  auto stale = ConceptsOf("oserror: [errno 116] stale file handle");
  EXPECT_TRUE(has(quota, "storage") && has(stale, "storage"));
  EXPECT_FALSE(has(quota, "gpu-hw"));
  EXPECT_TRUE(has(ConceptsOf("importerror: cannot import name 'x' from 'y' (version 2.1 required)"), "version"));
  // How a process died is not where it died: a segfault or a SIGKILL is a
  // "crash", and only what names the node or the scheduler is "node".
  auto segv = ConceptsOf("segmentation fault (core dumped)");
  auto kill = ConceptsOf("torch.distributed.elastic: process 4 exited with signal 9 (sigkill)");
  EXPECT_TRUE(has(segv, "crash") && has(kill, "crash"));
  EXPECT_FALSE(has(segv, "node") || has(kill, "node"));
  EXPECT_TRUE(has(ConceptsOf("slurmstepd: error: *** job 7 cancelled due to node failure ***"), "node"));
  auto twice = ConceptsOf("nccl socket nccl socket");
  EXPECT_EQ(std::count(twice.begin(), twice.end(), std::string("net")), 1);
  EXPECT_TRUE(ConceptsOf("epoch 3 step 200").empty());
}

// The concepts are features of both models: a line's in the line model, the
// window's in the class model.
TEST(FailureModel, ConceptsAreFeaturesOfBothModels) {
  LineWindow w = {{0, "Traceback (most recent call last):"}, {1, "OSError: [Errno 5] Input/output error"}};
  const SignatureBase& base = SignatureBase::Default();
  WindowFacts facts(w, base);
  auto line = LineFeatures(w, 1, base, facts);
  EXPECT_NE(std::find(line.begin(), line.end(), "k=storage"), line.end());
  auto klass = ClassFeatures(w, 1, base, facts);
  EXPECT_NE(std::find(klass.begin(), klass.end(), "ck=storage"), klass.end());
  EXPECT_NE(std::find(klass.begin(), klass.end(), "r:k=storage"), klass.end());
}

// A bare "RuntimeError:" says its message is on the next lines; a re-raise
// in the DataLoader's parent is a wrapper, so the worker's own error below it
// is the root cause (the embedded models, trained on the corpus).
TEST(FailureModel, BareExceptionsAndWorkerReRaisesAreNotTheRoot) {
  const SignatureBase& base = SignatureBase::Default();
  LineWindow bare = {{0, "RuntimeError:"}, {1, "RuntimeError: the widget is broken"}};
  WindowFacts facts(bare, base);
  auto has = [](const std::vector<std::string>& v, const char* k) { return std::find(v.begin(), v.end(), k) != v.end(); };
  EXPECT_TRUE(has(LineFeatures(bare, 0, base, facts), "exc-bare"));
  EXPECT_FALSE(has(LineFeatures(bare, 1, base, facts), "exc-bare"));
  LineWindow w = Window({"epoch 1 step 12 loss 0.9", "Traceback (most recent call last):",
                         "  File \"train.py\", line 40, in <module>", "    for batch in loader:",
                         "RuntimeError: Caught RuntimeError in DataLoader worker process 1.", "Original Traceback (most recent call last):",
                         "  File \"/usr/lib/python3/site-packages/torch/utils/data/_utils/worker.py\", line 302, in _worker_loop",
                         "    data = fetcher.fetch(index)",
                         "RuntimeError: stack expects each tensor to be equal size, but got [3, 224, 224] at entry 0 and [3, 200, 224] at entry 5"});
  RootCauseDetail d = DiagnoseWindowLearned(w, FailureModel::Default());
  EXPECT_EQ(d.diagnosis.root_cause_line_index, 8) << d.diagnosis.root_cause_line.value_or("");
  EXPECT_EQ(d.diagnosis.error_type, FailureDiagnosis::ErrorType::kUserScript);
}

TEST(LinePrinter, TheShapeOfALineNamesWhoPrintedIt) {
  EXPECT_EQ(LinePrinter("[  218.250408] NVRM: GPU 0000:0a:00.0: RmInitAdapter failed!"), "kernel");
  EXPECT_EQ(LinePrinter("Dec  2 11:38:46 worker4 systemd[1]: Stopped job.service"), "syslog");
  EXPECT_EQ(LinePrinter("slurmstepd: error: *** STEP 12.0 ON n1 CANCELLED AT 2023-11-29T15:47:21 ***"), "slurm");
  EXPECT_EQ(LinePrinter("  Warning  Evicted  52m  kubelet  The node was low on resource: memory."), "kubernetes");
  EXPECT_EQ(LinePrinter("E0330 21:37:34.807000 155011 api.py:869] failed (exitcode: 1)"), "cpp-log-E");
  EXPECT_EQ(LinePrinter("[rank0]: F1119 18:06:58.546988 14145 math.cu:79] Check failed"), "cpp-log-F");
  EXPECT_EQ(LinePrinter("n1:12098:12141 [2] transport/net.cc:244 NCCL WARN Cuda failure 1"), "nccl");
  EXPECT_EQ(LinePrinter("  what():  NCCL Error 1: unhandled cuda error"), "cpp-what");
  EXPECT_EQ(LinePrinter("torch.distributed.DistNetworkError: The server socket has failed"), "py-qualified");
  EXPECT_EQ(LinePrinter("[rank3]: ValueError: bad shape"), "py");
  EXPECT_EQ(LinePrinter("UserWarning: TypedStorage is deprecated"), "warning");
  EXPECT_EQ(LinePrinter("step 10 loss 0.5"), "other");
}

TEST(FailureModel, TheClassModelReadsWhoPrintedTheRootAndWhatFollows) {
  const SignatureBase& base = SignatureBase::Default();
  LineWindow w = Window({"step 10 loss 0.5", "[ 9.5] kernel: EXT4-fs error (device sda1): lost inode",
                         "OSError: [Errno 5] Input/output error", "training aborted"});
  WindowFacts facts(w, base);
  auto f = ClassFeatures(w, 1, base, facts);
  auto has = [&](const std::string& x) { return std::find(f.begin(), f.end(), x) != f.end(); };
  EXPECT_TRUE(has("r:who=kernel"));
  EXPECT_TRUE(has("r:bi=device_sda"));
  EXPECT_TRUE(has("ak=storage"));   // errno 5] after the root
  EXPECT_TRUE(has("cwho=py"));      // the exception line is a failure line
  EXPECT_FALSE(has("bk=storage"));  // nothing about storage before it
}

TEST(FailureModel, TheClassModelReadsTheFailuresOwnLinesNotTheWholeWindow) {
  // The same failure in a short excerpt and inside a long log's located
  // window: lines far before the root (another warning, a retried read) and
  // far after it (a launcher's cascade) give the class model no features.
  const SignatureBase& base = SignatureBase::Default();
  std::vector<std::string> excerpt = {"Traceback (most recent call last):", "  File \"train.py\", line 3, in <module>",
                                      "OSError: [Errno 5] Input/output error"};
  std::vector<std::string> far_before, far_after;
  for (int i = 0; i < kClassContextBefore + 5; ++i)
    far_before.push_back(i % 2 ? "WARNING: error reading shard_0012.tar: Connection reset by peer; retrying"
                               : "step " + std::to_string(i) + " loss 0.5");
  for (int i = 0; i < kClassContextAfter + 5; ++i) far_after.push_back("srun: error: node-3: task 1: Exited with exit code 1");
  std::vector<std::string> near_before(far_before.end() - kClassContextBefore + 2, far_before.end());
  std::vector<std::string> near_after(far_after.begin(), far_after.begin() + 2);
  auto context = [&](std::vector<std::string> lines, size_t root) {
    LineWindow w = Window(lines);
    WindowFacts facts(w, base);
    std::set<std::string> out;
    for (const auto& f : ClassFeatures(w, root, base, facts))
      if (f.rfind("r:", 0) != 0) out.insert(f);  // the root line's own features aside
    return out;
  };
  std::vector<std::string> short_log = near_before;
  short_log.insert(short_log.end(), excerpt.begin(), excerpt.end());
  short_log.insert(short_log.end(), near_after.begin(), near_after.end());
  std::vector<std::string> long_log = far_before;
  long_log.insert(long_log.end(), excerpt.begin(), excerpt.end());
  long_log.insert(long_log.end(), far_after.begin(), far_after.end());
  EXPECT_EQ(context(short_log, near_before.size() + 2), context(long_log, far_before.size() + 2));
  // Within reach, they count: the excerpt alone reads less.
  EXPECT_NE(context(excerpt, 2), context(short_log, near_before.size() + 2));
}

TEST(FailureModel, AnExceptionThatEchoesAnEarlierFailureLineIsReportedAtThatLine) {
  const SignatureBase& base = SignatureBase::Default();
  LineWindow w = Window({"epoch 0 step 1", "THCudaCheck FAIL file=/src/Module.cpp line=59 error=101 : invalid device ordinal",
                         "Traceback (most recent call last):", "  File \"train.py\", line 3, in <module>",
                         "    torch.cuda.set_device(3)",
                         "RuntimeError: cuda runtime error (101) : invalid device ordinal at /src/Module.cpp:59"});
  WindowFacts facts(w, base);
  EXPECT_EQ(facts.echo_of[5], 1);
  EXPECT_EQ(facts.echo_of[1], -1);
  EXPECT_EQ(facts.echo_of[3], -1);  // a traceback frame echoes nothing
  LineWindow prefixed = Window({"vllm-1 | ERROR engine.py:366]   File \"/x/worker.py\", line 4, in check",
                                "vllm-1 | ERROR engine.py:366] ValueError: No available memory for the cache blocks.",
                                "vllm-1 | ERROR engine.py:366] ValueError: No available memory for the cache blocks."});
  WindowFacts same_prefix(prefixed, base);
  EXPECT_EQ(same_prefix.echo_of[1], -1);  // a shared logger prefix says nothing
  EXPECT_EQ(same_prefix.echo_of[2], -1);  // nor does a line repeated whole
  RootCauseDetail d = DiagnoseWindowLearned(w, FailureModel::Default());
  EXPECT_EQ(d.diagnosis.root_cause_line_index, 1) << d.diagnosis.root_cause_line.value_or("");
}

// Near ties of the root-line probabilities are relative to the top one: where
// every line is improbable, the first line is no tie of a line three times as
// probable; among real near ties the earliest wins (a later echo says the same).
TEST(FailureModel, RootLineNearTiesAreRelativeToTheTopProbability) {
  EXPECT_EQ(RootLineOfProbabilities({0.06, 0.02, 0.10}), 2u);  // an absolute 0.05 margin chose 0
  EXPECT_EQ(RootLineOfProbabilities({0.02, 0.30, 0.33}), 1u);
  EXPECT_EQ(RootLineOfProbabilities({0.85, 0.10, 0.90}), 0u);
  EXPECT_EQ(RootLineOfProbabilities({0.5, 0.95}), 1u);
  EXPECT_EQ(RootLineOfProbabilities({0.0, 0.0}), 0u);
  EXPECT_EQ(RootLineOfProbabilities({}), 0u);
}

// The rare infrastructure classes are weighed up (a prior correction chosen
// by cross-validation) and the result stays a distribution.
TEST(FailureModel, InfrastructureClassesAreWeighedUpAndRenormalised) {
  ASSERT_EQ(FailureClassNames().size(), 7u);  // gpu nvlink network node storage framework user
  std::vector<double> c = WeighInfrastructureClasses({0, 0, 0, 0.3, 0, 0.35, 0.35});
  double sum = 0;
  for (double x : c) sum += x;
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_EQ(std::max_element(c.begin(), c.end()) - c.begin(), 3);  // node: 0.6 / 1.3 against 0.35 / 1.3
  EXPECT_NEAR(c[3], 0.6 / 1.3, 1e-9);
  // A clear framework reading stays framework.
  c = WeighInfrastructureClasses({0.05, 0, 0, 0.05, 0, 0.8, 0.1});
  EXPECT_EQ(std::max_element(c.begin(), c.end()) - c.begin(), 5);
  // The learned confidence is still capped below the recovery guard.
  EXPECT_LT(kLearnedConfidenceCap, 0.8);
}

TEST(FailureModel, LoadNamesTheMissingFile) {
  auto m = LoadFailureModel("/nonexistent-dir");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("failure_line_model.tsv"), std::string::npos);
}

}  // namespace
}  // namespace schedmate

namespace schedmate {
namespace {

TEST(Locator, PeriodicFailureLookingLinesAreBackground) {
  EXPECT_EQ(LineTemplate("WARNING: error reading shard_0123.tar (attempt 1/5) at 0x7f3a9c"),
            LineTemplate("WARNING: error reading shard_9981.tar (attempt 3/5) at 0x7f00ff"));
  // 20,000 lines of training output with a harmless retry every third line,
  // then the real failure and its cascade.
  std::string log;
  for (int i = 0; i < 20000; ++i) {
    if (i % 3 == 0) log += "WARNING: error reading shard_" + std::to_string(i % 977) + ".tar: Connection reset by peer; retrying\n";
    else log += "step " + std::to_string(i) + " loss 0." + std::to_string(1000 + i % 777) + " lr 1e-4\n";
  }
  log += "RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
  for (int i = 0; i < 300; ++i) log += "[rank" + std::to_string(i % 8) + "]: SIGTERM received, shutting down\n";
  auto located = LocateFailure(*StringSource(log));
  ASSERT_TRUE(located.ok());
  EXPECT_EQ(located->path, "binary search");
  EXPECT_FALSE(located->background.empty());
  auto d = DiagnoseLog(*StringSource(log));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->diagnosis.root_cause_line_index, 20000);
  EXPECT_EQ(d->diagnosis.faulty_component, "gpu");
}

// `train failure-model --seed`: the same seed writes the same models; the
// order of examples is the only thing it changes.
TEST(FailureTraining, TheSeedFixesTheModels) {
  const std::string data = std::string(SCHEDMATE_SHARED_DIR) + "/realdata/failures.jsonl";
  if (!std::ifstream(data)) GTEST_SKIP() << data << " is absent (../shared is not beside the checkout)";
  auto train = [&](uint64_t seed, const std::string& dir) {
    std::filesystem::create_directories(dir);
    FailureTrainingOptions o;
    o.datasets = {data};
    o.out_dir = dir;
    o.epochs = 3;
    o.seed = seed;
    EXPECT_TRUE(TrainFailureModels(o, nullptr).ok());
    std::ifstream f(dir + "/failure_class_model.tsv");
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const std::string root = testing::TempDir() + "/seed_" + std::to_string(getpid());
  const std::string a = train(1, root + "/a"), b = train(1, root + "/b"), c = train(7, root + "/c");
  std::filesystem::remove_all(root);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// `train failure-model --ensemble N`: each model is the average of the runs
// with seeds seed … seed+N-1, so an ensemble of two equals the mean of the
// two single runs, and differs from either.
TEST(FailureTraining, AnEnsembleAveragesRunsOfSuccessiveSeeds) {
  const std::string data = std::string(SCHEDMATE_SHARED_DIR) + "/realdata/failures.jsonl";
  if (!std::ifstream(data)) GTEST_SKIP() << data << " is absent (../shared is not beside the checkout)";
  const std::string root = testing::TempDir() + "/ensemble_" + std::to_string(getpid());
  auto train = [&](uint64_t seed, int runs, const std::string& dir) -> LinearModel {
    std::filesystem::create_directories(dir);
    FailureTrainingOptions o;
    o.datasets = {data};
    o.out_dir = dir;
    o.epochs = 3;
    o.min_weight = 0;
    o.seed = seed;
    o.ensemble = runs;
    EXPECT_TRUE(TrainFailureModels(o, nullptr).ok());
    auto m = LoadFailureModel(dir);
    EXPECT_TRUE(m.ok());
    return m.ok() ? m->klass : LinearModel();
  };
  const LinearModel one = train(1, 1, root + "/one"), two = train(2, 1, root + "/two");
  const LinearModel both = train(1, 2, root + "/both");
  std::filesystem::remove_all(root);
  const std::vector<std::string> features = {"bias", "r:exc=RuntimeError", "ck=gpu-hw", "c=cuda"};
  const std::vector<double> p1 = one.Probabilities(features), p2 = two.Probabilities(features);
  const std::vector<double> pm = LinearModel::Average({one, two}).Probabilities(features);
  const std::vector<double> pb = both.Probabilities(features);
  ASSERT_EQ(pb.size(), pm.size());
  for (size_t k = 0; k < pb.size(); ++k) EXPECT_NEAR(pb[k], pm[k], 1e-3) << FailureClassNames()[k];
  double from_one = 0, from_two = 0;
  for (size_t k = 0; k < pb.size(); ++k) from_one += std::fabs(pb[k] - p1[k]), from_two += std::fabs(pb[k] - p2[k]);
  EXPECT_GT(from_one, 1e-4);
  EXPECT_GT(from_two, 1e-4);
}

}  // namespace
}  // namespace schedmate
