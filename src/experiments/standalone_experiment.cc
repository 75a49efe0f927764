#include "experiments/standalone_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/str_format.h"
#include "core/time_format.h"
#include "experiments/config_fields.h"
#include "experiments/trace_slice.h"
#include "experiments/world_setup.h"
#include "experiments/world_workload_model.h"
#include "history/sqlite_store.h"
#include "integrations/standalone_advice.h"
#include "sim/noisy_oracle_recovery.h"
#include "traces/synthesizer.h"
#include "traces/trace_loader.h"
#include "world/world_artefacts.h"

namespace schedmate {
namespace {

Status ParseTrace(const Json& t, const std::string& w, StandaloneExperimentConfig* c) {
  RETURN_IF_ERROR(OnlyKnownFields(t, {"path", "format", "synth", "jobs", "from", "to", "max_jobs", "max_gpus"}, w));
  RETURN_IF_ERROR(OptionalField(t, "path", w, &c->trace_path));
  RETURN_IF_ERROR(OptionalField(t, "synth", w, &c->synth));
  RETURN_IF_ERROR(OptionalField(t, "jobs", w, &c->synth_jobs));
  if (c->synth_jobs < 1) return InvalidArgument(w + ": field 'jobs': must be >= 1");
  if (!c->synth.empty() && !c->trace_path.empty())
    return InvalidArgument(w + ": fields 'path' and 'synth': give one trace, not both");
  RETURN_IF_ERROR(OptionalField(t, "format", w, &c->trace_format));
  RETURN_IF_ERROR(OptionalField(t, "from", w, &c->from));
  RETURN_IF_ERROR(OptionalField(t, "to", w, &c->to));
  RETURN_IF_ERROR(OptionalField(t, "max_jobs", w, &c->max_jobs));
  RETURN_IF_ERROR(OptionalField(t, "max_gpus", w, &c->max_gpus));
  if (c->max_gpus < 0) return InvalidArgument(w + ": field 'max_gpus': must be >= 0");
  return Status::Ok();
}

Status ParseCluster(const Json& k, const std::string& w, StandaloneExperimentConfig* c) {
  RETURN_IF_ERROR(OnlyKnownFields(k, {"nodes", "target_load", "gpus_per_node"}, w));
  RETURN_IF_ERROR(OptionalField(k, "nodes", w, &c->nodes));
  RETURN_IF_ERROR(OptionalField(k, "target_load", w, &c->target_load));
  RETURN_IF_ERROR(OptionalField(k, "gpus_per_node", w, &c->gpus_per_node));
  if (c->gpus_per_node < 1) return InvalidArgument(w + ": field 'gpus_per_node': must be >= 1");
  if (c->nodes < 0) return InvalidArgument(w + ": field 'nodes': must be >= 0");
  if (c->nodes == 0 && !(c->target_load > 0)) return InvalidArgument(w + ": field 'target_load': must be > 0");
  return Status::Ok();
}

Status ParseFailures(const Json& f, const std::string& w, StandaloneExperimentConfig* c) {
  RETURN_IF_ERROR(OnlyKnownFields(f, {"enabled", "handler", "handler_min_confidence", "handler_error_rates", "unknown_fail_rate",
                                      "node_fault_rate_per_node_hour", "resubmit_prob_infrastructure",
                                      "resubmit_prob_own_fault", "resubmit_delay_s", "checkpoint_interval_s",
                                      "restore_s", "replacement_delay_s", "operator_drain_after_failures",
                                      "operator_notice_s", "broken_node_fail_after_s"},
                                  w));
  FailureParams& p = c->failures;
  RETURN_IF_ERROR(OptionalField(f, "enabled", w, &c->failures_on));
  RETURN_IF_ERROR(OptionalField(f, "handler", w, &c->handler_run));
  RETURN_IF_ERROR(OptionalField(f, "handler_min_confidence", w, &c->handler_min_confidence));
  if (f.contains("handler_error_rates")) {
    const Json& e = f["handler_error_rates"];
    if (!e.is_array()) return InvalidArgument(w + ": field 'handler_error_rates': expected a list of rates");
    for (const Json& x : e) {
      if (!x.is_number() || x.get<double>() < 0 || x.get<double>() > 1)
        return InvalidArgument(w + ": field 'handler_error_rates': each rate must be a number in [0, 1]");
      c->handler_error_rates.push_back(x.get<double>());
    }
  }
  RETURN_IF_ERROR(OptionalField(f, "unknown_fail_rate", w, &p.unknown_fail_rate));
  RETURN_IF_ERROR(OptionalField(f, "node_fault_rate_per_node_hour", w, &p.node_fault_rate_per_node_hour));
  RETURN_IF_ERROR(OptionalField(f, "resubmit_prob_infrastructure", w, &p.resubmit_prob_infrastructure));
  RETURN_IF_ERROR(OptionalField(f, "resubmit_prob_own_fault", w, &p.resubmit_prob_own_fault));
  RETURN_IF_ERROR(OptionalField(f, "operator_drain_after_failures", w, &p.operator_drain_after_failures));
  RETURN_IF_ERROR(OptionalField(f, "resubmit_delay_s", w, &p.resubmit_delay_s));
  RETURN_IF_ERROR(OptionalField(f, "checkpoint_interval_s", w, &p.checkpoint_interval_s));
  RETURN_IF_ERROR(OptionalField(f, "restore_s", w, &p.restore_s));
  RETURN_IF_ERROR(OptionalField(f, "replacement_delay_s", w, &p.replacement_delay_s));
  RETURN_IF_ERROR(OptionalField(f, "operator_notice_s", w, &p.operator_notice_s));
  RETURN_IF_ERROR(OptionalField(f, "broken_node_fail_after_s", w, &p.broken_node_fail_after_s));
  if (c->handler_min_confidence < 0 || c->handler_min_confidence > 1)
    return InvalidArgument(w + ": field 'handler_min_confidence': must be in [0, 1]");
  if (Status s = p.Validate(); !s.ok()) return InvalidArgument(w + ": " + s.message());
  return Status::Ok();
}

Status ParseRuns(const Json& s, const std::string& w, std::vector<std::string>* runs) {
  if (!s.contains("runs") || s["runs"].is_null()) return Status::Ok();
  if (!s["runs"].is_array()) return InvalidArgument(w + ": field 'runs': expected a list");
  for (const Json& r : s["runs"]) {
    if (!r.is_string()) return InvalidArgument(w + ": field 'runs': expected names");
    const std::string name = r.get<std::string>();
    static const std::vector<std::string> kRuns = {"fifo", "qssf", "srtf", "tiresias", "sjf", "lucid", "standalone"};
    if (std::find(kRuns.begin(), kRuns.end(), name) == kRuns.end())
      return InvalidArgument(w + ": field 'runs': unknown run '" + name +
                             "' (fifo, qssf, srtf, tiresias, sjf, lucid, standalone)");
    runs->push_back(name);
  }
  return Status::Ok();
}

bool Wanted(const StandaloneExperimentConfig& c, const std::string& run) {
  return c.runs.empty() || std::find(c.runs.begin(), c.runs.end(), run) != c.runs.end();
}

Status ParseLucid(const Json& l, const std::string& w, StandaloneExperimentConfig* c) {
  RETURN_IF_ERROR(OnlyKnownFields(l, {"profiler_nodes", "profile_time_limit_s", "profile_gpu_limit"}, w));
  RETURN_IF_ERROR(OptionalField(l, "profiler_nodes", w, &c->lucid_profiler_nodes));
  RETURN_IF_ERROR(OptionalField(l, "profile_time_limit_s", w, &c->lucid_profile_time_limit_s));
  RETURN_IF_ERROR(OptionalField(l, "profile_gpu_limit", w, &c->lucid_profile_gpu_limit));
  if (c->lucid_profiler_nodes < 0) return InvalidArgument(w + ": field 'profiler_nodes': must be >= 0");
  if (c->lucid_profile_time_limit_s < 1) return InvalidArgument(w + ": field 'profile_time_limit_s': must be >= 1");
  if (c->lucid_profile_gpu_limit < 1) return InvalidArgument(w + ": field 'profile_gpu_limit': must be >= 1");
  return Status::Ok();
}

Status ParsePolicies(const Json& s, const std::string& w, StandaloneExperimentConfig* c) {
  RETURN_IF_ERROR(OnlyKnownFields(s, {"fallback", "tiresias", "backfill", "backfill_estimate", "backfill_overdue", "runs", "lucid"}, w));
  if (s.contains("lucid")) RETURN_IF_ERROR(ParseLucid(s["lucid"], w + ": lucid", c));
  RETURN_IF_ERROR(OptionalField(s, "fallback", w, &c->fallback));
  RETURN_IF_ERROR(OptionalField(s, "tiresias", w, &c->tiresias));
  RETURN_IF_ERROR(BackfillFields(s, w, &c->backfill));
  RETURN_IF_ERROR(ParseRuns(s, w, &c->runs));
  if (!MakeEstimator(c->fallback, c->seed).ok())
    return InvalidArgument(w + ": field 'fallback': unknown estimator '" + c->fallback + "'");
  if (c->fallback == "oracle" || c->fallback == "helios-error-model")
    return InvalidArgument(w + ": field 'fallback': '" + c->fallback + "' reads the job's own duration; use 'history'");
  PolicyConfig t;
  t.name = c->tiresias;
  if (c->tiresias.rfind("tiresias", 0) != 0 || !MakePolicy(t).ok())
    return InvalidArgument(w + ": field 'tiresias': unknown preset '" + c->tiresias + "'");
  return Status::Ok();
}

// The slice every run replays: the window, a seeded sample, one VC, submit
// times from 0, requests capped.
Result<Trace> PrepareTrace(const StandaloneExperimentConfig& c) {
  Trace t;
  if (!c.synth.empty()) {  // a synthetic trace of a cluster profile (traces/synthesizer.h)
    ASSIGN_OR_RETURN(ClusterProfile profile, FindProfile(c.synth));
    SynthOptions o;
    o.jobs = c.synth_jobs;
    o.seed = c.seed;
    ASSIGN_OR_RETURN(t, SynthesizeTrace(profile, o));
  } else {
    if (c.trace_path.empty()) return InvalidArgument("trace: give trace.path or trace.synth");
    ASSIGN_OR_RETURN(TraceFormat f, ParseTraceFormat(c.trace_format));
    ASSIGN_OR_RETURN(t, LoadTraceFile(c.trace_path, f));
  }
  RETURN_IF_ERROR(KeepSlice({c.from, c.to, c.max_jobs, c.seed}, t));
  RebaseOnOneVc(t, c.max_gpus);
  return t;
}

struct Pool {
  ClusterSpec spec;
  double load = 0;
  int32_t gpus = 0;
};

// `nodes`, or enough for the target load; never narrower than the widest job
// (so no run rejects a job and every run sees the same ones).
Pool SizePool(const StandaloneExperimentConfig& c, const Trace& t) {
  double demand = 0;
  int32_t widest = 1;
  for (const JobSpec& j : t.jobs) {
    demand += static_cast<double>(j.gpus) * static_cast<double>(j.duration_s);
    widest = std::max(widest, j.gpus);
  }
  const double span = std::max<double>(1, static_cast<double>(t.jobs.back().submit_s));
  int32_t nodes = c.nodes;
  if (nodes <= 0) nodes = static_cast<int32_t>(std::ceil(demand / (c.target_load * span * c.gpus_per_node)));
  nodes = std::max(nodes, (widest + c.gpus_per_node - 1) / c.gpus_per_node);
  Pool p;
  p.spec.gpus_per_node = c.gpus_per_node;
  p.spec.gpu_type = "V100";
  p.spec.vcs = {{"main", nodes}};
  p.gpus = nodes * c.gpus_per_node;
  p.load = demand / (static_cast<double>(p.gpus) * span);
  return p;
}

// Helios' choice for QSSF: its name/user history where the trace has job
// names, else the error model it uses for Philly.
std::string QssfEstimatorFor(const Trace& t) {
  bool named = std::any_of(t.jobs.begin(), t.jobs.end(), [](const JobSpec& j) { return !j.name.empty(); });
  return named ? "history" : "helios-error-model";
}

std::vector<PolicyConfig> Baselines(const StandaloneExperimentConfig& c, const Trace& t) {
  PolicyConfig fifo, qssf, srtf, tiresias, oracle;
  fifo.name = "fifo";
  qssf.name = "qssf";
  qssf.estimator = QssfEstimatorFor(t);
  // The Helios artifact's SRTF: true remaining time, 7/30/60 s overhead,
  // consolidate (policies/srtf); it preempts, so no backfill discipline.
  srtf.name = "srtf";
  tiresias.name = c.tiresias;
  oracle.name = "sjf";
  oracle.estimator = "oracle";
  for (PolicyConfig* p : {&fifo, &qssf, &srtf, &tiresias, &oracle}) p->seed = c.seed;
  for (PolicyConfig* p : {&fifo, &qssf, &oracle}) {
    p->backfill = BackfillModeName(c.backfill.mode);
    p->backfill_estimate = BackfillEstimateName(c.backfill.estimate);
    p->backfill_overdue = OverdueRuleName(c.backfill.overdue);
  }
  std::vector<PolicyConfig> out;
  for (const PolicyConfig& p : {fifo, qssf, srtf, tiresias, oracle})
    if (Wanted(c, p.name.rfind("tiresias", 0) == 0 ? "tiresias" : p.name)) out.push_back(p);
  return out;
}

std::string Describe(const StandaloneExperimentConfig& c, const Trace& t, const Pool& pool) {
  std::string window = (c.from.empty() ? "" : " from " + c.from) + (c.to.empty() ? "" : " to " + c.to);
  std::string failures = c.failures_on
                             ? StrFormat("failures on (checkpoint every %lld s, node faults %.2g /node-h, resubmit p %.2f infrastructure"
                                         " / %.2f own fault, operators drain after %d failures)",
                                         (long long)c.failures.checkpoint_interval_s,
                                         c.failures.node_fault_rate_per_node_hour, c.failures.resubmit_prob_infrastructure,
                                         c.failures.resubmit_prob_own_fault, c.failures.operator_drain_after_failures)
                             : std::string("failures off");
  const std::string profiler = Wanted(c, "lucid") && c.lucid_profiler_nodes > 0
                                   ? StrFormat(" (Lucid: + its %d-node profiler)", c.lucid_profiler_nodes)
                                   : std::string();
  return StrFormat("%s%s: %zu jobs over %.1f days%s; pool %d nodes x %d GPUs%s (offered load %.2f); %s; seed %llu",
                   (c.synth.empty() ? c.trace_path : "synthetic " + c.synth).c_str(), window.c_str(), t.jobs.size(), static_cast<double>(t.jobs.back().submit_s) / 86400.0,
                   c.max_gpus > 0 ? StrFormat(", requests capped at %d GPUs", c.max_gpus).c_str() : "",
                   pool.spec.vcs[0].nodes, c.gpus_per_node, profiler.c_str(), pool.load, failures.c_str(),
                   (unsigned long long)c.seed);
}

// What one standalone run needs beyond the trace: the mapped world and its catalog.
struct World {
  WorldMap map;
  const WorkloadCatalog* catalog = nullptr;
};

class Runner {
 public:
  Runner(const StandaloneExperimentConfig& c, const Trace& t, const Pool& pool, const ProgressFn& progress)
      : c_(c), trace_(t), pool_(pool), progress_(progress) {}

  Result<StandaloneRun> Baseline(const PolicyConfig& pc) {
    ASSIGN_OR_RETURN(auto policy, MakePolicy(pc));
    std::string label = pc.name == "sjf" ? "sjf-oracle" : pc.name == "qssf" ? "qssf (" + pc.estimator + ")" : pc.name;
    ASSIGN_OR_RETURN(StandaloneRun r, Replay(label, *policy, nullptr));
    if (auto* queue = dynamic_cast<const OrderedQueuePolicy*>(policy.get())) r.backfilled = queue->backfilled();
    return r;
  }

  // Plain Lucid (policies/lucid) on the pool plus its own profiling VC, its
  // workload model from the same semantic world the Advisor reads; its main
  // queue under the experiment's backfill discipline (while packing is off).
  Result<StandaloneRun> Lucid(const World& world) {
    LucidOptions lo;
    lo.profile_time_limit_s = c_.lucid_profile_time_limit_s;
    lo.profile_gpu_limit = c_.lucid_profile_gpu_limit;
    lo.backfill = c_.backfill;
    lo.backfill.seed = c_.seed;
    if (c_.lucid_profiler_nodes == 0) lo.profiler_vc.clear();
    ClusterSpec spec = pool_.spec;
    if (!lo.profiler_vc.empty()) spec.vcs.push_back({lo.profiler_vc, c_.lucid_profiler_nodes});
    WorldWorkloadModel model(world.map, *world.catalog, WarmupParams{});
    LucidPolicy policy(lo, &model, nullptr);
    ASSIGN_OR_RETURN(StandaloneRun r, Replay("lucid", policy, nullptr, &spec));
    r.lucid = policy.stats();
    r.backfilled = policy.stats().backfilled;
    return r;
  }

  // The standalone policy without recovery (handler_error_rate < 0 and no
  // handler), with the real Failure Handler, or with decisions from the
  // simulator's truth wrong at `oracle_error_rate` (>= 0).
  Result<StandaloneRun> Standalone(const World& world, bool with_handler, double oracle_error_rate = -1) {
    ASSIGN_OR_RETURN(auto store, OpenSqliteHistory(":memory:"));
    LucidSchedmateOptions ao;
    ao.seed = c_.seed;
    WorldArtefactSource artefacts(world.map, world.catalog, ao.seed);
    AdvisorDurationAdvice advice(artefacts, *store, ao);
    ASSIGN_OR_RETURN(auto placer, MakePlacer("consolidate"));
    ASSIGN_OR_RETURN(auto fallback, MakeEstimator(c_.fallback, c_.seed));
    BackfillOptions backfill = c_.backfill;
    backfill.seed = c_.seed;
    StandalonePolicy policy(std::move(placer), std::move(fallback), &advice, backfill);
    SimFailureHandlerOptions ho;
    ho.guards.min_confidence = c_.handler_min_confidence;
    ho.seed = c_.seed;
    SimFailureHandler handler(ho);
    NoisyOracleRecovery oracle(std::max(0.0, oracle_error_rate), c_.seed);
    const bool by_oracle = oracle_error_rate >= 0;
    RecoveryHook* hook = by_oracle ? static_cast<RecoveryHook*>(&oracle) : with_handler ? &handler : nullptr;
    const std::string label = by_oracle      ? StrFormat("standalone+oracle e=%.2f", oracle_error_rate)
                              : with_handler ? "standalone+handler"
                                             : "standalone";
    ASSIGN_OR_RETURN(StandaloneRun r, Replay(label, policy, hook));
    if (!advice.store_error().ok()) return advice.store_error().WithContext("history write-back");
    r.standalone = policy.stats();
    r.advisor = advice.stats();
    r.backfilled = policy.backfilled();
    if (with_handler && !by_oracle) r.handler = handler.tally();
    return r;
  }

 private:
  // On the pool, or on `spec` (Lucid: the pool and its profiler).
  Result<StandaloneRun> Replay(const std::string& label, Policy& policy, RecoveryHook* hook,
                               const ClusterSpec* spec = nullptr) {
    SimOptions so;
    if (c_.failures_on) {
      so.failures = c_.failures;
      so.failures->seed = c_.seed;
      so.recovery = hook;
    }
    if (progress_) so.on_progress = [&](const SimProgress& p) { progress_(label, p); };
    auto t0 = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(SimResult result, Simulate(trace_, spec ? *spec : pool_.spec, policy, so));
    StandaloneRun r;
    r.label = label;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.policy = label;
    r.run.summary = Summarize(result);
    r.run.summary.wall_s = r.wall_s;
    r.run.result = std::move(result);
    return r;
  }

  const StandaloneExperimentConfig& c_;
  const Trace& trace_;
  const Pool& pool_;
  const ProgressFn& progress_;
};

}  // namespace

Result<StandaloneExperimentConfig> StandaloneConfigFromJson(const Json& j, const std::string& w) {
  StandaloneExperimentConfig c;
  if (!j.is_object()) return InvalidArgument(w + ": expected a JSON object");
  RETURN_IF_ERROR(OnlyKnownFields(j, {"name", "seed", "shared", "trace", "cluster", "failures", "policies", "world"}, w));
  RETURN_IF_ERROR(OptionalField(j, "name", w, &c.name));
  RETURN_IF_ERROR(OptionalField(j, "seed", w, &c.seed));
  RETURN_IF_ERROR(OptionalField(j, "shared", w, &c.shared));
  c.mapping.seed = c.seed;
  if (j.contains("trace")) RETURN_IF_ERROR(ParseTrace(j["trace"], w + ": trace", &c));
  if (j.contains("cluster")) RETURN_IF_ERROR(ParseCluster(j["cluster"], w + ": cluster", &c));
  if (j.contains("failures")) RETURN_IF_ERROR(ParseFailures(j["failures"], w + ": failures", &c));
  if (j.contains("policies")) RETURN_IF_ERROR(ParsePolicies(j["policies"], w + ": policies", &c));
  if (j.contains("world")) {
    const Json& m = j["world"];
    const std::string mw = w + ": world";
    RETURN_IF_ERROR(OnlyKnownFields(m, {"seed", "resubmit_prob", "duration_tolerance"}, mw));
    RETURN_IF_ERROR(OptionalField(m, "seed", mw, &c.mapping.seed));
    RETURN_IF_ERROR(OptionalField(m, "resubmit_prob", mw, &c.mapping.resubmit_prob));
    RETURN_IF_ERROR(OptionalField(m, "duration_tolerance", mw, &c.mapping.duration_tolerance));
  }
  return c;
}

Result<StandaloneComparison> RunStandaloneComparison(const StandaloneExperimentConfig& c, const ProgressFn& progress) {
  ASSIGN_OR_RETURN(Trace prepared, PrepareTrace(c));
  return RunStandaloneComparison(c, std::make_shared<const Trace>(std::move(prepared)), progress);
}

Result<StandaloneComparison> RunStandaloneComparison(const StandaloneExperimentConfig& c,
                                                     std::shared_ptr<const Trace> jobs, const ProgressFn& progress) {
  if (!jobs || jobs->jobs.empty()) return InvalidArgument("standalone comparison: no jobs");
  StandaloneComparison out;
  out.trace = std::move(jobs);
  const Trace& trace = *out.trace;
  const Pool pool = SizePool(c, trace);
  out.setting = Describe(c, trace, pool);
  out.jobs = static_cast<int64_t>(trace.jobs.size());
  out.gpus = pool.gpus;
  out.offered_load = pool.load;
  if (c.failures_on) {
    FailureParams params = c.failures;
    params.seed = c.seed;  // as the runs draw it
    std::vector<PlannedFailure> plan = PlanTraceFailures(trace, params);
    for (size_t i = 0; i < plan.size(); ++i)
      if (plan[i].fails && plan[i].category == FailureCategory::kInfrastructure)
        out.resumable_jobs.push_back(static_cast<int32_t>(i));
  }
  Runner runner(c, trace, pool, progress);
  for (const PolicyConfig& pc : Baselines(c, trace)) {
    ASSIGN_OR_RETURN(StandaloneRun r, runner.Baseline(pc));
    out.runs.push_back(std::move(r));
  }
  WorkloadCatalog catalog = LoadWorkloadCatalog(c.shared, &out.catalog_source);
  out.catalog_notice = CatalogNotice(catalog, out.catalog_source);
  World world;
  world.map = MapTrace(trace, catalog, c.mapping);
  world.catalog = &catalog;
  if (Wanted(c, "lucid")) {
    ASSIGN_OR_RETURN(StandaloneRun r, runner.Lucid(world));
    out.runs.push_back(std::move(r));
  }
  for (bool with_handler : {false, true}) {
    if (!Wanted(c, "standalone") || (with_handler && !(c.failures_on && c.handler_run))) break;
    ASSIGN_OR_RETURN(StandaloneRun r, runner.Standalone(world, with_handler));
    out.runs.push_back(std::move(r));
  }
  for (double e : c.handler_error_rates) {
    if (!Wanted(c, "standalone") || !c.failures_on) break;
    ASSIGN_OR_RETURN(StandaloneRun r, runner.Standalone(world, true, e));
    out.runs.push_back(std::move(r));
  }
  return out;
}

}  // namespace schedmate
