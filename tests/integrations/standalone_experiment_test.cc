// The standalone runner: config errors name the file and the field; a small
// Philly slice runs every policy on the same jobs, the standalone policy
// orders by the real Advisor's estimates once history has matches, and the
// Handler run diagnoses the failures; the Advisor-backed advice matches only
// finished runs.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "experiments/standalone_experiment.h"
#include "history/sqlite_store.h"
#include "integrations/standalone_advice.h"
#include "world/world_artefacts.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

Status ConfigError(const char* text) {
  auto j = ParseJson(text, "test");
  EXPECT_TRUE(j.ok());
  auto c = StandaloneConfigFromJson(*j, "cfg.json");
  return c.ok() ? Status::Ok() : c.status();
}

void ExpectNamed(const Status& s, const std::string& field) {
  ASSERT_FALSE(s.ok()) << field;
  EXPECT_NE(s.message().find("cfg.json"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find(field), std::string::npos) << s.ToString();
}

TEST(StandaloneExperimentTest, ConfigErrorsNameTheField) {
  ExpectNamed(ConfigError(R"({"cluster": {"gpus_per_node": 0}})"), "gpus_per_node");
  ExpectNamed(ConfigError(R"({"cluster": {"nodes": "four"}})"), "nodes");
  ExpectNamed(ConfigError(R"({"failures": {"checkpoint_intervl_s": 60}})"), "checkpoint_intervl_s");
  ExpectNamed(ConfigError(R"({"failures": {"resubmit_prob_infrastructure": 2}})"), "resubmit_prob_infrastructure");
  ExpectNamed(ConfigError(R"({"failures": {"handler_error_rates": [1.5]}})"), "handler_error_rates");
  ExpectNamed(ConfigError(R"({"trace": {"synth": "seren", "path": "x.csv"}})"), "synth");
  ExpectNamed(ConfigError(R"({"failures": {"handler_min_confidence": 1.5}})"), "handler_min_confidence");
  ExpectNamed(ConfigError(R"({"policies": {"fallback": "oracle"}})"), "fallback");
  ExpectNamed(ConfigError(R"({"policies": {"lucid": {"profiler_nodes": -1}}})"), "profiler_nodes");
  ExpectNamed(ConfigError(R"({"policies": {"runs": ["srtf", "las"]}})"), "runs");
  ExpectNamed(ConfigError(R"({"policies": {"tiresias": "las"}})"), "tiresias");
  ExpectNamed(ConfigError(R"({"trace": {"max_gpus": -1}})"), "max_gpus");
  auto ok = ParseJson(R"({"cluster": {"nodes": 3}, "failures": {"handler": false, "checkpoint_interval_s": 600}})", "t");
  auto c = StandaloneConfigFromJson(*ok, "cfg.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->nodes, 3);
  EXPECT_FALSE(c->handler_run);
  EXPECT_EQ(c->failures.checkpoint_interval_s, 600);
}

TEST(StandaloneExperimentTest, AdviceMatchesOnlyRunsThatEndedBeforeTheSubmit) {
  Trace trace;
  for (int i = 0; i < 2; ++i) {
    JobSpec j;
    j.id = "j" + std::to_string(i);
    j.user = "alice";
    j.vc = "main";
    j.gpus = 4;
    j.submit_s = i * 10000;
    j.duration_s = 3000;
    j.state = EndState::kCompleted;
    trace.jobs.push_back(j);
  }
  WorkloadCatalog catalog = WorkloadCatalog::Build(nullptr, nullptr);
  MappingParams p;
  p.edit_prob = p.swap_model_prob = p.swap_dataset_prob = 0;
  WorldMap world = MapTrace(trace, catalog, p);
  ASSERT_EQ(world.jobs[0].project, world.jobs[1].project);
  WorldArtefactSource artefacts(world, &catalog, 1);
  auto store = OpenSqliteHistory(":memory:");
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  AdvisorDurationAdvice advice(artefacts, **store, {});
  std::vector<SimJob> jobs(2);
  for (int i = 0; i < 2; ++i) {
    jobs[i].spec = &trace.jobs[i];
    jobs[i].index = JobIndex(i);
    jobs[i].gpus = 4;
    jobs[i].submit_s = trace.jobs[i].submit_s;
  }
  EXPECT_FALSE(advice.AtSubmit(jobs[0], 0).has_value());  // empty history
  advice.AtEnd(jobs[0], 3000);
  EXPECT_FALSE(advice.AtSubmit(jobs[1], 2999).has_value());  // ended after this submit
  auto d = advice.AtSubmit(jobs[1], 10000);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->duration_s, 3000, 1);
  EXPECT_EQ(d->spread, 0.0);  // one matched run: no spread
  EXPECT_TRUE(advice.store_error().ok());
}

TEST(StandaloneExperimentTest, SmallPhillySliceRunsEveryPolicyOnTheSameJobs) {
  const std::string philly = std::string(SCHEDMATE_SHARED_DIR) + "/traces/philly/philly.csv";
  if (!fs::exists(philly)) GTEST_SKIP() << philly << " absent";
  StandaloneExperimentConfig c;
  c.trace_path = philly;
  c.trace_format = "philly";
  c.from = "2017-10-01";
  c.to = "2017-10-08";
  c.max_jobs = 150;
  c.nodes = 2;
  c.max_gpus = 16;
  c.shared = SCHEDMATE_SHARED_DIR;
  auto r = RunStandaloneComparison(c);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->runs.size(), 8u);
  const std::vector<std::string> labels = {"fifo",   "qssf (helios-error-model)", "srtf", "tiresias-lucid", "sjf-oracle",
                                           "lucid", "standalone",                "standalone+handler"};
  for (size_t i = 0; i < labels.size(); ++i) {
    EXPECT_EQ(r->runs[i].label, labels[i]);
    EXPECT_EQ(r->runs[i].run.summary.jobs, 150) << labels[i];
    EXPECT_GT(r->runs[i].run.result.failures.job_failures, 0) << labels[i];
  }
  ASSERT_TRUE(r->runs[5].lucid.has_value());
  EXPECT_GT(r->runs[5].lucid->profiled, 0);
  const StandaloneRun& sa = r->runs[6];
  ASSERT_TRUE(sa.standalone.has_value());
  EXPECT_EQ(sa.standalone->from_history + sa.standalone->fallbacks, 150);
  EXPECT_GT(sa.standalone->from_history, 0);
  EXPECT_GT(sa.standalone->fallbacks, 0);
  ASSERT_TRUE(r->runs[7].handler.has_value());
  EXPECT_GT(r->runs[7].handler->diagnosed, 0);
  EXPECT_FALSE(sa.handler.has_value());
  std::string table = FormatStandaloneTable(*r);
  EXPECT_NE(table.find("-25.7 %"), std::string::npos) << table;
  c.failures_on = false;
  auto off = RunStandaloneComparison(c);
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  ASSERT_EQ(off->runs.size(), 7u);  // no Handler run without failures
  for (const StandaloneRun& run : off->runs) EXPECT_EQ(run.run.result.failures.job_failures, 0) << run.label;
}

}  // namespace
}  // namespace schedmate
