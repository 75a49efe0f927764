#include "experiments/lucid_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "core/random.h"
#include "core/str_format.h"
#include "core/time_format.h"
#include "experiments/config_fields.h"
#include "experiments/trace_slice.h"
#include "experiments/world_setup.h"
#include "history/sqlite_store.h"
#include "experiments/world_workload_model.h"
#include "sim/metrics.h"
#include "traces/synthesizer.h"
#include "traces/trace_loader.h"
#include "world/world_artefacts.h"

namespace schedmate {
namespace {

Status ParseSchedmate(const Json& j, const std::string& w, LucidVariant* v) {
  RETURN_IF_ERROR(OnlyKnownFields(j, {"label", "advisor", "tracker", "write_back", "detection_rate", "hit_rate_scale",
                                      "advisor_latency_s", "check_steps", "undo_threshold"},
                                  w));
  RETURN_IF_ERROR(OptionalField(j, "label", w, &v->label));
  RETURN_IF_ERROR(OptionalField(j, "advisor", w, &v->schedmate.use_advisor));
  RETURN_IF_ERROR(OptionalField(j, "tracker", w, &v->schedmate.use_tracker));
  RETURN_IF_ERROR(OptionalField(j, "write_back", w, &v->schedmate.write_back));
  RETURN_IF_ERROR(OptionalField(j, "detection_rate", w, &v->schedmate.detection_rate));
  RETURN_IF_ERROR(OptionalField(j, "hit_rate_scale", w, &v->schedmate.hit_rate_scale));
  RETURN_IF_ERROR(OptionalField(j, "advisor_latency_s", w, &v->schedmate.advisor_latency_s));
  RETURN_IF_ERROR(OptionalField(j, "check_steps", w, &v->schedmate.check_steps));
  RETURN_IF_ERROR(OptionalField(j, "undo_threshold", w, &v->undo_threshold));
  if (v->undo_threshold <= 0 || v->undo_threshold > 1) return InvalidArgument(w + ": field 'undo_threshold': must be in (0, 1]");
  if (v->schedmate.detection_rate < 0 || v->schedmate.detection_rate > 1)
    return InvalidArgument(w + ": field 'detection_rate': must be in [0, 1]");
  return Status::Ok();
}

// Adds c.mix_jobs synthetic jobs of c.mix_synth, spread over t's span.
Status MixIn(const LucidExperimentConfig& c, Trace& t) {
  ASSIGN_OR_RETURN(ClusterProfile profile, FindProfile(c.mix_synth));
  SynthOptions o;
  o.jobs = c.mix_jobs;
  o.seed = c.seed ^ 0x5eed;
  ASSIGN_OR_RETURN(Trace m, SynthesizeTrace(profile, o));
  const int64_t lo = t.jobs.front().submit_s, span = std::max<int64_t>(1, t.jobs.back().submit_s - lo);
  const int64_t mspan = std::max<int64_t>(1, m.jobs.back().submit_s - m.jobs.front().submit_s);
  for (JobSpec j : m.jobs) {
    j.id = "mix-" + j.id;
    j.submit_s = lo + (j.submit_s - m.jobs.front().submit_s) * span / mspan;
    t.jobs.push_back(std::move(j));
  }
  std::stable_sort(t.jobs.begin(), t.jobs.end(), [](const JobSpec& a, const JobSpec& b) { return a.submit_s < b.submit_s; });
  return Status::Ok();
}

Result<Trace> PrepareTrace(const LucidExperimentConfig& c) {
  Trace t;
  if (!c.synth.empty()) {
    ASSIGN_OR_RETURN(ClusterProfile profile, FindProfile(c.synth));
    SynthOptions o;
    o.jobs = c.synth_jobs;
    o.seed = c.seed;
    if (c.nodes > 0 && c.target_load > 0) {  // arrivals paced for this load on this cluster
      o.cluster_gpus = c.nodes * c.gpus_per_node;
      o.target_load = c.target_load;
      o.max_gpus_cap = o.cluster_gpus;
    }
    ASSIGN_OR_RETURN(t, SynthesizeTrace(profile, o));
  } else {
    if (c.trace_path.empty()) return InvalidArgument("no trace: give trace.path or trace.synth");
    ASSIGN_OR_RETURN(TraceFormat f, ParseTraceFormat(c.trace_format));
    ASSIGN_OR_RETURN(t, LoadTraceFile(c.trace_path, f));
  }
  RETURN_IF_ERROR(KeepSlice({c.from, c.to, c.max_jobs, c.seed}, t));
  if (!c.mix_synth.empty() && c.mix_jobs > 0) RETURN_IF_ERROR(MixIn(c, t));
  RebaseOnOneVc(t, c.max_gpus);
  if (c.arrival_scale != 1)
    for (auto& j : t.jobs) j.submit_s = static_cast<int64_t>(static_cast<double>(j.submit_s) * c.arrival_scale);
  return t;
}

struct Sized {
  ClusterSpec spec;
  double load = 0;
  int32_t main_gpus = 0;
};

// Whether a variant models an LLM Advisor, which holds one GPU of the main cluster.
bool HoldsLlmGpu(const LucidVariant& v) { return v.schedmate.use_advisor && v.schedmate.advisor_latency_s > 0; }

// `reserve`: GPUs some variant holds; the widest job must still fit beside
// them, so every run sees the same jobs.
Sized SizeCluster(const LucidExperimentConfig& c, const Trace& t, int32_t reserve) {
  double demand = 0;
  int32_t widest = 1;
  for (const auto& j : t.jobs) demand += static_cast<double>(j.gpus) * static_cast<double>(j.duration_s), widest = std::max(widest, j.gpus);
  double span = std::max<double>(1, static_cast<double>(t.jobs.back().submit_s - t.jobs.front().submit_s));
  int32_t nodes = c.nodes;
  if (nodes <= 0)
    nodes = static_cast<int32_t>(std::ceil(demand / (std::max(c.target_load, 0.01) * span * c.gpus_per_node)));
  nodes = std::max(nodes, (widest + reserve + c.gpus_per_node - 1) / c.gpus_per_node);
  Sized s;
  s.spec.gpus_per_node = c.gpus_per_node;
  s.spec.gpu_type = "A100";
  s.spec.vcs = {{"main", nodes}};
  if (c.profiler_nodes > 0 && !c.lucid.profiler_vc.empty()) s.spec.vcs.push_back({c.lucid.profiler_vc, c.profiler_nodes});
  s.main_gpus = nodes * c.gpus_per_node;
  s.load = demand / (static_cast<double>(s.main_gpus) * span);
  return s;
}

double Hours(double s) { return s / 3600.0; }

}  // namespace

Result<LucidExperimentConfig> LucidConfigFromJson(const Json& j, const std::string& w) {
  LucidExperimentConfig c;
  if (!j.is_object()) return InvalidArgument(w + ": expected a JSON object");
  RETURN_IF_ERROR(OnlyKnownFields(j, {"name", "seed", "shared", "trace", "cluster", "lucid", "world", "variants"}, w));
  RETURN_IF_ERROR(OptionalField(j, "name", w, &c.name));
  RETURN_IF_ERROR(OptionalField(j, "seed", w, &c.seed));
  RETURN_IF_ERROR(OptionalField(j, "shared", w, &c.shared));
  if (j.contains("trace")) {
    const Json& t = j["trace"];
    std::string tw = w + ": trace";
    RETURN_IF_ERROR(OnlyKnownFields(t, {"path", "format", "from", "to", "synth", "jobs", "max_jobs", "max_gpus",
                                        "mix_synth", "mix_jobs", "arrival_scale"},
                                    tw));
    RETURN_IF_ERROR(OptionalField(t, "path", tw, &c.trace_path));
    RETURN_IF_ERROR(OptionalField(t, "format", tw, &c.trace_format));
    RETURN_IF_ERROR(OptionalField(t, "from", tw, &c.from));
    RETURN_IF_ERROR(OptionalField(t, "to", tw, &c.to));
    RETURN_IF_ERROR(OptionalField(t, "synth", tw, &c.synth));
    RETURN_IF_ERROR(OptionalField(t, "jobs", tw, &c.synth_jobs));
    RETURN_IF_ERROR(OptionalField(t, "max_jobs", tw, &c.max_jobs));
    RETURN_IF_ERROR(OptionalField(t, "max_gpus", tw, &c.max_gpus));
    RETURN_IF_ERROR(OptionalField(t, "mix_synth", tw, &c.mix_synth));
    RETURN_IF_ERROR(OptionalField(t, "mix_jobs", tw, &c.mix_jobs));
    RETURN_IF_ERROR(OptionalField(t, "arrival_scale", tw, &c.arrival_scale));
    if (c.arrival_scale <= 0) return InvalidArgument(tw + ": field 'arrival_scale': must be > 0");
  }
  if (j.contains("cluster")) {
    const Json& k = j["cluster"];
    std::string kw = w + ": cluster";
    RETURN_IF_ERROR(OnlyKnownFields(k, {"nodes", "target_load", "gpus_per_node", "profiler_nodes"}, kw));
    RETURN_IF_ERROR(OptionalField(k, "nodes", kw, &c.nodes));
    RETURN_IF_ERROR(OptionalField(k, "target_load", kw, &c.target_load));
    RETURN_IF_ERROR(OptionalField(k, "gpus_per_node", kw, &c.gpus_per_node));
    RETURN_IF_ERROR(OptionalField(k, "profiler_nodes", kw, &c.profiler_nodes));
    if (c.gpus_per_node < 1) return InvalidArgument(kw + ": field 'gpus_per_node': must be >= 1");
  }
  if (j.contains("lucid")) {
    const Json& l = j["lucid"];
    std::string lw = w + ": lucid";
    RETURN_IF_ERROR(OnlyKnownFields(l, {"profile_time_limit_s", "profile_gpu_limit", "credit_profiled_progress",
                                        "profile_whole_node", "indolent_packing", "packing_min_jobs",
                                        "evict_overhead_s", "retrain_period_s", "backfill", "backfill_estimate", "backfill_overdue"},
                                    lw));
    RETURN_IF_ERROR(OptionalField(l, "profile_time_limit_s", lw, &c.lucid.profile_time_limit_s));
    RETURN_IF_ERROR(OptionalField(l, "profile_gpu_limit", lw, &c.lucid.profile_gpu_limit));
    RETURN_IF_ERROR(OptionalField(l, "credit_profiled_progress", lw, &c.lucid.credit_profiled_progress));
    RETURN_IF_ERROR(OptionalField(l, "profile_whole_node", lw, &c.lucid.profile_whole_node));
    RETURN_IF_ERROR(OptionalField(l, "indolent_packing", lw, &c.lucid.indolent_packing));
    RETURN_IF_ERROR(OptionalField(l, "packing_min_jobs", lw, &c.lucid.packing_min_jobs));
    RETURN_IF_ERROR(OptionalField(l, "evict_overhead_s", lw, &c.lucid.evict_overhead_s));
    RETURN_IF_ERROR(OptionalField(l, "retrain_period_s", lw, &c.lucid.retrain_period_s));
    if (c.lucid.profile_time_limit_s < 1) return InvalidArgument(lw + ": field 'profile_time_limit_s': must be >= 1");
    RETURN_IF_ERROR(BackfillFields(l, lw, &c.lucid.backfill));
  }
  c.lucid.backfill.seed = c.seed;
  if (j.contains("world")) {
    const Json& m = j["world"];
    std::string mw = w + ": world";
    RETURN_IF_ERROR(OnlyKnownFields(m, {"seed", "resubmit_prob", "duration_tolerance", "warmup_low", "warmup_high"}, mw));
    RETURN_IF_ERROR(OptionalField(m, "seed", mw, &c.mapping.seed));
    RETURN_IF_ERROR(OptionalField(m, "resubmit_prob", mw, &c.mapping.resubmit_prob));
    RETURN_IF_ERROR(OptionalField(m, "duration_tolerance", mw, &c.mapping.duration_tolerance));
    RETURN_IF_ERROR(OptionalField(m, "warmup_low", mw, &c.warmup.low));
    RETURN_IF_ERROR(OptionalField(m, "warmup_high", mw, &c.warmup.high));
  }
  if (j.contains("variants")) {
    if (!j["variants"].is_array()) return InvalidArgument(w + ": field 'variants': expected a list");
    for (size_t i = 0; i < j["variants"].size(); ++i) {
      LucidVariant v;
      v.label = "variant " + std::to_string(i);
      RETURN_IF_ERROR(ParseSchedmate(j["variants"][i], w + ": variants[" + std::to_string(i) + "]", &v));
      c.variants.push_back(v);
    }
  }
  return c;
}

Result<LucidComparison> RunLucidComparison(const LucidExperimentConfig& c, const LucidProgress& progress) {
  ASSIGN_OR_RETURN(Trace prepared, PrepareTrace(c));
  auto shared_trace = std::make_shared<const Trace>(std::move(prepared));
  const Trace& trace = *shared_trace;
  std::vector<LucidVariant> variants = c.variants;
  if (variants.empty()) variants.push_back({"lucid+schedmate", {}, c.lucid.undo_threshold});
  int32_t reserve = 0;
  for (const auto& v : variants) reserve = std::max(reserve, HoldsLlmGpu(v) ? 1 : 0);
  Sized sized = SizeCluster(c, trace, reserve);
  LucidComparison out;
  WorkloadCatalog catalog = LoadWorkloadCatalog(c.shared, &out.catalog_source);
  out.catalog_notice = CatalogNotice(catalog, out.catalog_source);
  WorldMap world = MapTrace(trace, catalog, c.mapping);
  WorldWorkloadModel model(world, catalog, c.warmup);
  out.trace = shared_trace;
  out.jobs = static_cast<int64_t>(trace.jobs.size());
  out.offered_load = sized.load;
  out.main_gpus = sized.main_gpus;
  std::string source = c.synth.empty() ? c.trace_path : "synthetic " + c.synth;
  out.setting = StrFormat("%s%s%s%s: %lld jobs over %.1f days; main cluster %d nodes x %d GPUs (offered load %.2f), "
                          "profiler %d nodes, limit %lld s for <= %d GPUs",
                          source.c_str(), c.from.empty() ? "" : (" from " + c.from).c_str(),
                          c.to.empty() ? "" : (" to " + c.to).c_str(),
                          c.max_gpus > 0 ? StrFormat(" (requests capped at %d GPUs)", c.max_gpus).c_str() : "",
                          (long long)out.jobs, static_cast<double>(trace.jobs.back().submit_s) / 86400.0,
                          sized.spec.vcs[0].nodes, c.gpus_per_node, sized.load, c.profiler_nodes,
                          (long long)c.lucid.profile_time_limit_s, c.lucid.profile_gpu_limit);
  auto replay = [&](const std::string& label, LucidOptions lo, LucidSemanticHooks* hooks,
                    const ClusterSpec& spec) -> Result<LucidRunResult> {
    LucidPolicy policy(std::move(lo), &model, hooks);
    auto t0 = std::chrono::steady_clock::now();
    SimOptions so;
    if (progress) so.on_progress = [&](const SimProgress& p) { progress(label, p); };
    ASSIGN_OR_RETURN(SimResult r, Simulate(trace, spec, policy, so));
    LucidRunResult rr;
    rr.label = label;
    rr.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.policy = label;
    rr.run.summary = Summarize(r);
    rr.run.summary.wall_s = rr.wall_s;
    rr.run.result = std::move(r);
    rr.lucid = policy.stats();
    return rr;
  };
  ASSIGN_OR_RETURN(LucidRunResult base, replay("lucid", c.lucid, nullptr, sized.spec));
  out.runs.push_back(std::move(base));
  for (size_t i = 0; i < variants.size(); ++i) {
    const LucidVariant& v = variants[i];
    std::string db = (std::filesystem::temp_directory_path() /
                      StrFormat("schedmate_lucid_%d_%zu.db", static_cast<int>(getpid()), i)).string();
    std::filesystem::remove(db);
    SqliteOptions sqo;
    sqo.group_commit = 256;  // a simulation writes tens of thousands of records
    ASSIGN_OR_RETURN(auto store, OpenSqliteHistory(db, sqo));
    LucidSchedmateOptions so = v.schedmate;
    so.seed = c.seed;
    WorldArtefactSource artefacts(world, &catalog, so.seed);
    LucidSchedmate hooks(artefacts, *store, so);
    LucidOptions lo = c.lucid;
    lo.undo_threshold = v.undo_threshold;
    // An LLM Advisor (modelled latency) holds one GPU of the main cluster, as in the paper.
    ClusterSpec spec = sized.spec;
    if (HoldsLlmGpu(v)) spec.vcs[0].reserved_gpus = 1;
    auto r = replay(v.label, lo, &hooks, spec);
    store.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    if (!r.ok()) return r.status();
    if (!hooks.store_error().ok()) return hooks.store_error().WithContext("history write-back");
    r->schedmate = hooks.stats();
    out.runs.push_back(std::move(r).value());
  }
  return out;
}

std::string FormatLucidTable(const LucidComparison& c) {
  std::string s = "setting: " + c.setting + "\n" + c.catalog_source + "\n\n";
  s += StrFormat("%-22s %9s %9s %9s %9s %8s %7s %6s %6s %8s %7s %8s %7s\n", "policy", "avg JCT h", "queue h", "p99 JCT h",
                 "makespan", "JCT x", "packs", "evict", "hits", "profiled", "prof GPUh", "adv ms", "wall s");
  const double base = c.runs.empty() ? 0 : c.runs[0].run.summary.avg_jct_s;
  for (const auto& r : c.runs) {
    const SimSummary& m = r.run.summary;
    double adv_ms = r.schedmate && r.schedmate->advised ? r.schedmate->advisor_ms / r.schedmate->advised : 0;
    s += StrFormat("%-22s %9.2f %9.2f %9.2f %9.1f %8.2f %7lld %6lld %6lld %8lld %9.1f %8.2f %7.1f\n", r.label.c_str(),
                   Hours(m.avg_jct_s), Hours(m.avg_queue_s), Hours(m.p99_jct_s), Hours(m.makespan_s),
                   m.avg_jct_s > 0 ? base / m.avg_jct_s : 0.0, (long long)r.lucid.packs, (long long)r.lucid.evictions,
                   (long long)r.lucid.history_hits, (long long)r.lucid.profiled,
                   static_cast<double>(r.lucid.profiler_gpu_s) / 3600.0, adv_ms, r.wall_s);
  }
  for (const auto& r : c.runs)
    if (!c.runs.empty() && r.run.summary.jobs != c.runs[0].run.summary.jobs)
      s += StrFormat("WARNING: %s ran %lld jobs, Lucid %lld: its averages are over other jobs\n", r.label.c_str(),
                     (long long)r.run.summary.jobs, (long long)c.runs[0].run.summary.jobs);
  s += "\nJCT x = Lucid's average JCT / this run's (> 1 is better); makespan in hours; adv ms = Advisor wall time per\n"
       "job (embedded backend, measured); prof GPUh = GPU-hours of Lucid's profiling cluster.\n";
  return s;
}

Json LucidComparisonToJson(const LucidComparison& c) {
  Json runs = Json::array();
  for (const auto& r : c.runs) {
    const SimSummary& m = r.run.summary;
    Json j = {{"label", r.label}, {"avg_jct_s", m.avg_jct_s}, {"avg_queue_s", m.avg_queue_s}, {"p99_jct_s", m.p99_jct_s},
              {"makespan_s", m.makespan_s}, {"jobs", m.jobs}, {"packs", r.lucid.packs}, {"evictions", r.lucid.evictions},
              {"history_hits", r.lucid.history_hits}, {"profiled", r.lucid.profiled},
              {"finished_in_profiler", r.lucid.finished_in_profiler}, {"profiler_gpu_h", r.lucid.profiler_gpu_s / 3600.0},
              {"advice_wait_s", r.lucid.advice_wait_s}, {"wall_s", r.wall_s},
              {"jct_ratio_vs_lucid", m.avg_jct_s > 0 ? c.runs[0].run.summary.avg_jct_s / m.avg_jct_s : 0.0}};
    if (r.schedmate)
      j["schedmate"] = {{"advised", r.schedmate->advised}, {"hits", r.schedmate->hits},
                        {"advisor_ms_total", r.schedmate->advisor_ms}, {"extract_ms_total", r.schedmate->extract_ms},
                        {"repositories_extracted", r.schedmate->extracted},
                        {"python_files_parsed", r.schedmate->python_parsed},
                        {"python_parses_saved", r.schedmate->python_parses_saved}, {"checks", r.schedmate->checks},
                        {"checks_unreadable", r.schedmate->checks_unreadable},
                        {"checks_undetected", r.schedmate->checks_undetected}, {"tracker_ms_total", r.schedmate->tracker_ms},
                        {"written_back", r.schedmate->written_back}, {"write_back_ms_total", r.schedmate->write_back_ms}};
    runs.push_back(j);
  }
  return {{"setting", c.setting}, {"catalog", c.catalog_source}, {"offered_load", c.offered_load}, {"jobs", c.jobs}, {"main_gpus", c.main_gpus},
          {"runs", runs}};
}

}  // namespace schedmate
