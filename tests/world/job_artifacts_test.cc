// A mapped job's artefacts: the failure library parses and every template
// is diagnosed as labelled by the real Failure Handler; log tails carry the
// job's step time and the injected error at the recorded line; repositories
// are generated once per key and materialised once.
#include <gtest/gtest.h>

#include "failure/failure_model.h"

#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "failure/diagnose.h"
#include "loggen/failure_injection.h"
#include "tracker/progress_scan.h"
#include "tracker/tracker.h"
#include "core/facts_json.h"
#include "world/job_artifacts.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

TEST(FailureInjections, LibraryCoversEveryCauseAndParsesStrictly) {
  const auto& lib = FailureInjections::Default();
  Rng rng(1);
  for (const char* c : {"gpu", "nvlink", "network", "node", "storage"})
    EXPECT_NE(lib.Pick("infrastructure", c, rng), nullptr) << c;
  EXPECT_NE(lib.Pick("framework", "", rng), nullptr);
  EXPECT_NE(lib.Pick("user_script", "", rng), nullptr);
  EXPECT_EQ(lib.Pick("cosmic_rays", "", rng), nullptr);
  auto bad = FailureInjections::Parse("=== a infrastructure gpu\nno root here\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 1"), std::string::npos);
  EXPECT_FALSE(FailureInjections::Parse("=== a framework gpu\n> x\n").ok());    // component on framework
  EXPECT_FALSE(FailureInjections::Parse("=== a weather -\n> x\n").ok());
  EXPECT_FALSE(FailureInjections::Parse("=== a user_script -\n> x\n> y\n").ok());  // two roots
  EXPECT_FALSE(FailureInjections::Parse("stray\n=== a user_script -\n> x\n").ok());
}

TEST(FailureInjections, EveryTemplateIsDiagnosedAsLabelled) {
  for (const FailureTemplate& t : FailureInjections::Default().templates()) {
    Rng rng(7);
    InjectedError e = RenderInjection(t, InjectionContext{}, rng);
    for (const auto& l : e.lines)
      for (const char* ph : {"{rank}", "{node}", "{gpu}", "{pid}", "{step}", "{script}", "{ip}", "{port}", "{jobid}"})
        EXPECT_EQ(l.find(ph), std::string::npos) << t.id << ": " << l;
    MappedJob m;
    m.failure = InjectedCause{t.category, t.component};
    JobLogSpec spec;
    spec.total_steps = 1000;
    spec.speeds = {{0, 0.5}};
    JobLogTailOptions o;
    RenderedLog log = RenderJobLogTail(spec, 700, &e, o);
    auto d = DiagnoseLog(*StringSource(log.text));
    ASSERT_TRUE(d.ok()) << t.id;
    // Where the labelled real logs contradict the signature this template's
    // root line matches (a rendezvous timeout is as often a dead master as a
    // network fault), the real data wins: the class is the learned reading's,
    // never sure enough to act on. The line must still be found.
    RootCauseDetail sig = DiagnoseWindow({{0, e.lines[static_cast<size_t>(e.root_index)]}});
    if (!FailureModel::Default().Trusts(sig.signature_id)) {
      EXPECT_LE(d->diagnosis.confidence, kLearnedConfidenceCap) << t.id;
    } else {
      EXPECT_EQ(ErrorTypeName(d->diagnosis.error_type), t.category) << t.id;
      if (t.category == "infrastructure") {
        EXPECT_EQ(d->diagnosis.faulty_component.value_or(""), t.component) << t.id;
      }
    }
    EXPECT_EQ(d->diagnosis.root_cause_line_index.value_or(-1), log.root_line) << t.id;
    EXPECT_EQ(Lines(log.text)[static_cast<size_t>(log.root_line)], e.lines[static_cast<size_t>(e.root_index)]);
  }
}

TEST(JobArtifacts, LogTailCarriesTheStepTimeAndTheEnd) {
  MappedJob m;
  m.truth.batch_size = 16;
  m.truth.num_gpus = 2;
  m.step_time_s = 0.37;
  m.total_steps = 5000;
  m.steps_run = 4000;
  m.log_every = 10;
  for (auto f : {JobLogFormat::kNanoGpt, JobLogFormat::kMegatron, JobLogFormat::kHfTqdm, JobLogFormat::kMmcv,
                 JobLogFormat::kTorchtitan}) {
    m.log_format = f;
    RenderedLog log = JobLogAtEnd(m, "j1", 3);
    EXPECT_EQ(log.root_line, -1);
    EXPECT_NE(log.text.find("Training completed"), std::string::npos);
    ProgressScanOptions so;
    ProgressReport r = ScanProgress(Lines(log.text), so);
    ASSERT_EQ(r.status, ProgressReport::Status::kOk) << static_cast<int>(f);
    EXPECT_EQ(r.step.value_or(-1), 4000) << static_cast<int>(f);
    EXPECT_NEAR(r.steady_step_time_s.value_or(0), 0.37, 0.37 * 0.05) << static_cast<int>(f);
  }
  m.end_state = EndState::kFailed;
  m.failure = InjectedCause{"infrastructure", "nvlink"};
  RenderedLog failed = JobLogAtEnd(m, "j1", 3);
  ASSERT_GE(failed.root_line, 0);
  EXPECT_EQ(failed.text.find("Training completed"), std::string::npos);
  std::optional<InjectedError> e = InjectedErrorFor(m, "j1", 3);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->component, "nvlink");
  EXPECT_EQ(Lines(failed.text)[static_cast<size_t>(failed.root_line)], e->lines[static_cast<size_t>(e->root_index)]);
}

TEST(JobArtifacts, RepositoriesAreMadeOncePerKey) {
  MappedJob m;
  Rng rng(2);
  m.truth = DrawWorkload("bert", rng);
  m.style = CodeStyle::kLightning;
  m.layout_seed = 9;
  m.repo_key = 12345;
  RepoCache cache(2);
  const std::string command = cache.Get(m).command;
  cache.Get(m);
  EXPECT_EQ(cache.generated(), 1u);
  fs::path dir = fs::temp_directory_path() / ("sm_artifacts_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto root = cache.Materialize(m, dir.string());
  ASSERT_TRUE(root.ok()) << root.status().message();
  EXPECT_TRUE(fs::exists(*root + "/COMMAND"));
  fs::remove(*root + "/COMMAND");  // complete marker present: not rewritten
  ASSERT_TRUE(cache.Materialize(m, dir.string()).ok());
  EXPECT_FALSE(fs::exists(*root + "/COMMAND"));
  EXPECT_EQ(RepoKeyHex(12345), "0000000000003039");
  EXPECT_FALSE(command.empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace schedmate
