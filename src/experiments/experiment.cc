#include "experiments/experiment.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "plot/svg_chart.h"
#include "sim/outputs.h"
#include "traces/duration_model.h"
#include "traces/synthesizer.h"
#include "core/str_format.h"
#include "traces/trace_loader.h"
#include "traces/vc_config.h"

namespace schedmate {
namespace {

Result<PolicyConfig> PolicyFromJson(const Json& j, const std::string& where) {
  PolicyConfig p;
  if (j.is_string()) {
    p.name = j.get<std::string>();
    return p;
  }
  if (!j.is_object()) return InvalidArgument(where + ": a policy must be a name or an object");
  RETURN_IF_ERROR(OnlyKnownFields(j, {"name", "placement", "estimator", "order", "restart_overhead", "period_s",
                                      "starvation_knob", "thresholds_gpu_s", "seed", "backfill", "backfill_estimate",
                                      "backfill_overdue"},
                                  where));
  ASSIGN_OR_RETURN(p.name, GetString(j, "name", where));
  ASSIGN_OR_RETURN(auto placement, GetOptString(j, "placement", where));
  ASSIGN_OR_RETURN(auto estimator, GetOptString(j, "estimator", where));
  ASSIGN_OR_RETURN(auto order, GetOptString(j, "order", where));
  ASSIGN_OR_RETURN(auto overhead, GetOptString(j, "restart_overhead", where));
  ASSIGN_OR_RETURN(auto period, GetOptIntInRange(j, "period_s", where, 0, 86400 * 365));
  ASSIGN_OR_RETURN(auto knob, GetOptNumber(j, "starvation_knob", where));
  p.placement = placement.value_or("");
  p.estimator = estimator.value_or("");
  p.order = order.value_or("");
  p.restart_overhead = overhead.value_or("");
  p.period_s = period.value_or(-1);
  p.starvation_knob = knob.value_or(-1);
  ASSIGN_OR_RETURN(auto backfill, GetOptString(j, "backfill", where));
  ASSIGN_OR_RETURN(auto backfill_estimate, GetOptString(j, "backfill_estimate", where));
  p.backfill = backfill.value_or("");
  ASSIGN_OR_RETURN(auto backfill_overdue, GetOptString(j, "backfill_overdue", where));
  p.backfill_estimate = backfill_estimate.value_or("");
  p.backfill_overdue = backfill_overdue.value_or("");
  if (!BackfillFromConfig(p).ok())
    return InvalidArgument(where + ": backfill / backfill_estimate / backfill_overdue: " +
                           BackfillFromConfig(p).status().message());
  if (j.contains("thresholds_gpu_s")) {
    const Json& t = j["thresholds_gpu_s"];
    if (!t.is_array()) return InvalidArgument(where + ": thresholds_gpu_s must be an array");
    for (const auto& v : t) {
      if (!v.is_number_integer()) return InvalidArgument(where + ": thresholds must be integers");
      if (!v.is_number_integer() || v.get<int64_t>() <= 0 ||
          (v.is_number_unsigned() && v.get<uint64_t>() > 1'000'000'000'000ull))
        return InvalidArgument(where + ": thresholds must be positive integers");
      p.thresholds_gpu_s.push_back(v.get<int64_t>());
    }
  }
  return p;
}

Json PolicyToJson(const PolicyConfig& p) {
  Json j = {{"name", p.name}};
  if (!p.placement.empty()) j["placement"] = p.placement;
  if (!p.estimator.empty()) j["estimator"] = p.estimator;
  if (!p.order.empty()) j["order"] = p.order;
  if (!p.restart_overhead.empty()) j["restart_overhead"] = p.restart_overhead;
  if (p.period_s >= 0) j["period_s"] = p.period_s;
  if (p.starvation_knob >= 0) j["starvation_knob"] = p.starvation_knob;
  if (!p.thresholds_gpu_s.empty()) j["thresholds_gpu_s"] = p.thresholds_gpu_s;
  if (!p.backfill.empty()) j["backfill"] = p.backfill;
  if (!p.backfill_estimate.empty()) j["backfill_estimate"] = p.backfill_estimate;
  if (!p.backfill_overdue.empty()) j["backfill_overdue"] = p.backfill_overdue;
  return j;
}

Result<ClusterSpec> BuildCluster(const ExperimentConfig& c, Trace& trace,
                                 std::vector<std::string>& notes) {
  ClusterSpec spec;
  spec.gpus_per_node = c.gpus_per_node;
  spec.gpu_type = c.gpu_type;
  if (!c.vc_config_path.empty()) {
    ASSIGN_OR_RETURN(auto vcs, LoadVcConfigFile(c.vc_config_path));
    for (auto& v : vcs) spec.vcs.push_back({v.name, v.nodes});
  } else if (!c.vcs.empty()) {
    spec.vcs = c.vcs;
  } else if (c.nodes > 0) {
    spec.vcs.push_back({"", c.nodes});
  } else {
    return InvalidArgument("no cluster given: use --vc-config FILE or --nodes N");
  }
  if (c.merge_vcs && spec.vcs.size() > 1) {
    std::set<std::string> names;
    int32_t nodes = 0;
    for (const auto& v : spec.vcs) {
      nodes += v.nodes;
      names.insert(v.name);
    }
    int64_t dropped = 0;
    std::erase_if(trace.jobs, [&](const JobSpec& j) {
      bool drop = !names.count(j.vc) && !c.unknown_vc_is_error;
      dropped += drop;
      return drop;
    });
    if (dropped)
      notes.push_back(std::to_string(dropped) +
                      " jobs dropped: their VC is not in the VC config");
    for (auto& j : trace.jobs) j.vc.clear();
    spec.vcs = {{"", nodes}};
    notes.push_back("VCs merged into one pool of " + std::to_string(nodes) +
                    " nodes");
  }
  RETURN_IF_ERROR(spec.Validate());
  return spec;
}

}  // namespace

Result<ExperimentConfig> ExperimentFromJson(const Json& j, std::string_view where_sv) {
  std::string where(where_sv);
  if (!j.is_object()) return InvalidArgument(where + ": config must be a JSON object");
  RETURN_IF_ERROR(OnlyKnownFields(j, {"trace", "cluster", "seed", "policies"}, where));
  ExperimentConfig c;
  if (j.contains("trace")) {
    const Json& t = j["trace"];
    RETURN_IF_ERROR(OnlyKnownFields(t, {"path", "format", "duration_model", "synthetic"}, where + ": trace"));
    ASSIGN_OR_RETURN(auto path, GetOptString(t, "path", where + ": trace"));
    ASSIGN_OR_RETURN(auto format, GetOptString(t, "format", where + ": trace"));
    ASSIGN_OR_RETURN(auto dm, GetOptString(t, "duration_model", where + ": trace"));
    c.trace_path = path.value_or("");
    c.trace_format = format.value_or("auto");
    c.duration_model = dm.value_or("");
    if (t.contains("synthetic")) {
      const Json& s = t["synthetic"];
      std::string w = where + ": trace.synthetic";
      RETURN_IF_ERROR(OnlyKnownFields(s, {"profile", "jobs", "load", "jobs_per_hour"}, w));
      ASSIGN_OR_RETURN(c.synth_profile, GetString(s, "profile", w));
      ASSIGN_OR_RETURN(auto jobs, GetOptIntInRange(s, "jobs", w, 1, 50'000'000));
      ASSIGN_OR_RETURN(auto load, GetOptNumber(s, "load", w));
      ASSIGN_OR_RETURN(auto rate, GetOptNumber(s, "jobs_per_hour", w));
      c.synth_jobs = static_cast<int32_t>(jobs.value_or(c.synth_jobs));
      c.synth_load = load.value_or(c.synth_load);
      c.synth_rate = rate.value_or(0);
    }
  }
  if (j.contains("cluster")) {
    const Json& k = j["cluster"];
    std::string w = where + ": cluster";
    RETURN_IF_ERROR(OnlyKnownFields(k, {"vc_config", "nodes", "gpus_per_node", "gpu_type", "unknown_vc", "merge_vcs", "vcs"}, w));
    ASSIGN_OR_RETURN(auto vc_path, GetOptString(k, "vc_config", w));
    ASSIGN_OR_RETURN(auto nodes, GetOptIntInRange(k, "nodes", w, 1, 1'000'000));
    ASSIGN_OR_RETURN(auto gpn, GetOptIntInRange(k, "gpus_per_node", w, 1, 1024));
    ASSIGN_OR_RETURN(auto gpu_type, GetOptString(k, "gpu_type", w));
    c.vc_config_path = vc_path.value_or("");
    c.nodes = static_cast<int32_t>(nodes.value_or(0));
    c.gpus_per_node = static_cast<int32_t>(gpn.value_or(8));
    c.gpu_type = gpu_type.value_or("V100");
    ASSIGN_OR_RETURN(auto unknown_vc, GetOptString(k, "unknown_vc", w));
    c.unknown_vc_is_error = unknown_vc.value_or("drop") == "error";
    if (k.contains("merge_vcs")) {
      ASSIGN_OR_RETURN(c.merge_vcs, GetBool(k, "merge_vcs", w));
    }
    if (k.contains("vcs")) {
      if (!k["vcs"].is_array()) return InvalidArgument(w + ": vcs must be an array");
      for (const auto& v : k["vcs"]) {
        RETURN_IF_ERROR(OnlyKnownFields(v, {"name", "nodes"}, w + ".vcs"));
        ASSIGN_OR_RETURN(auto name, GetString(v, "name", w + ".vcs"));
        ASSIGN_OR_RETURN(auto n, GetIntInRange(v, "nodes", w + ".vcs", 1, 1'000'000));
        c.vcs.push_back({name, static_cast<int32_t>(n)});
      }
    }
  }
  ASSIGN_OR_RETURN(auto seed, GetOptIntInRange(j, "seed", where, 0, INT64_MAX));
  c.seed = static_cast<uint64_t>(seed.value_or(1));
  if (j.contains("policies")) {
    if (!j["policies"].is_array()) return InvalidArgument(where + ": policies must be an array");
    for (const auto& p : j["policies"]) {
      ASSIGN_OR_RETURN(auto pc, PolicyFromJson(p, where + ": policies"));
      pc.seed = c.seed;
      c.policies.push_back(std::move(pc));
    }
  }
  return c;
}

Json ExperimentToJson(const ExperimentConfig& c) {
  Json trace = Json::object();
  if (!c.synth_profile.empty()) {
    trace["synthetic"] = {{"profile", c.synth_profile}, {"jobs", c.synth_jobs}};
    if (c.synth_rate > 0) trace["synthetic"]["jobs_per_hour"] = c.synth_rate;
    else trace["synthetic"]["load"] = c.synth_load;
  } else {
    trace = {{"path", c.trace_path}, {"format", c.trace_format}};
    if (!c.duration_model.empty()) trace["duration_model"] = c.duration_model;
  }
  Json cluster = {{"gpus_per_node", c.gpus_per_node},
                  {"gpu_type", c.gpu_type},
                  {"merge_vcs", c.merge_vcs},
                  {"unknown_vc", c.unknown_vc_is_error ? "error" : "drop"}};
  if (!c.vc_config_path.empty()) cluster["vc_config"] = c.vc_config_path;
  if (c.nodes > 0) cluster["nodes"] = c.nodes;
  if (!c.vcs.empty()) {
    cluster["vcs"] = Json::array();
    for (const auto& v : c.vcs) cluster["vcs"].push_back({{"name", v.name}, {"nodes", v.nodes}});
  }
  Json policies = Json::array();
  for (const auto& p : c.policies) policies.push_back(PolicyToJson(p));
  return {{"trace", trace}, {"cluster", cluster}, {"seed", c.seed},
          {"policies", policies}};
}

namespace {

void ResolvePolicies(const ExperimentConfig& c, Prepared& p) {
  bool named = false;
  for (const auto& j : p.trace.jobs) named = named || !j.name.empty();
  p.policies = c.policies;
  for (auto& pc : p.policies) {
    if (pc.name == "qssf" && pc.estimator.empty() && !named) {
      pc.estimator = "helios-error-model";
      p.notes.push_back("qssf: the trace has no job names; estimating with "
                        "the Helios error model (seed " +
                        std::to_string(pc.seed) + ")");
    }
  }
}

Result<Prepared> PrepareTraceAndCluster(const ExperimentConfig& c);

}  // namespace

Result<Prepared> PrepareExperiment(const ExperimentConfig& c) {
  ASSIGN_OR_RETURN(Prepared p, PrepareTraceAndCluster(c));
  ResolvePolicies(c, p);
  return p;
}

namespace {

// What the trace asks of the cluster: GPU time demanded over the submit span
// per GPU. Policies tie when it is low (nothing waits), so it is printed.
std::string DescribeOfferedLoad(const Trace& t, const ClusterSpec& cluster) {
  if (t.jobs.empty()) return "offered load: no jobs";
  double demand = 0;
  int64_t first = t.jobs.front().submit_s, last = first;
  for (const auto& j : t.jobs) {
    demand += static_cast<double>(j.gpus) * static_cast<double>(std::max<int64_t>(j.duration_s, 0));
    first = std::min(first, j.submit_s);
    last = std::max(last, j.submit_s);
  }
  double span = std::max<double>(1, static_cast<double>(last - first));
  double gpus = static_cast<double>(cluster.TotalGpus());
  std::string out = StrFormat("offered load %.2f: %zu jobs ask %.0f GPU-hours over %.1f days of submissions on %.0f GPUs",
                              demand / (gpus * span), t.jobs.size(), demand / 3600, span / 86400, gpus);
  // With VCs a job waits for its own VC: the busiest one says more than the average.
  if (cluster.vcs.size() > 1) {
    std::map<std::string, double> vc_demand;
    for (const auto& j : t.jobs)
      vc_demand[j.vc] += static_cast<double>(j.gpus) * static_cast<double>(std::max<int64_t>(j.duration_s, 0));
    double busiest = 0;
    std::string name;
    for (const auto& v : cluster.vcs) {
      double cap = static_cast<double>(v.nodes) * cluster.gpus_per_node * span;
      if (cap > 0 && vc_demand[v.name] / cap > busiest) busiest = vc_demand[v.name] / cap, name = v.name;
    }
    out += StrFormat("; busiest VC %s at %.2f", name.c_str(), busiest);
  }
  if (demand / (gpus * span) < 0.3 && cluster.vcs.size() <= 1) out += " (low: little queueing, so policies differ little)";
  return out;
}

Result<Prepared> PrepareTraceAndCluster(const ExperimentConfig& c) {
  Prepared p;
  if (!c.synth_profile.empty()) {
    ASSIGN_OR_RETURN(ClusterProfile profile, FindProfile(c.synth_profile));
    Trace no_jobs;  // the cluster is needed first, to size the trace
    ASSIGN_OR_RETURN(ClusterSpec spec, BuildCluster(c, no_jobs, p.notes));
    SynthOptions o;
    o.jobs = c.synth_jobs;
    o.seed = c.seed;
    o.cluster_gpus = static_cast<int32_t>(spec.TotalGpus());
    // Jobs are spread over the VCs, so none may exceed the smallest.
    int32_t smallest_vc = INT32_MAX;
    for (const auto& v : spec.vcs) smallest_vc = std::min(smallest_vc, v.nodes * spec.gpus_per_node);
    o.max_gpus_cap = smallest_vc;
    if (c.synth_rate > 0) o.jobs_per_hour = c.synth_rate;
    else o.target_load = c.synth_load;
    CalibrationReport report;
    ASSIGN_OR_RETURN(p.trace, SynthesizeTrace(profile, o, &report));
    if (spec.vcs.size() > 1) {  // spread synthetic jobs over VCs by size
      for (size_t i = 0; i < p.trace.jobs.size(); ++i)
        p.trace.jobs[i].vc = spec.vcs[i % spec.vcs.size()].name;
    }
    p.notes.push_back("synthetic trace '" + profile.name + "' (" +
                      profile.citation + "), seed " + std::to_string(c.seed) +
                      "; calibration:\n" + report.ToText());
    p.cluster = std::move(spec);
    return p;
  }
  if (c.trace_path.empty()) return InvalidArgument("no trace given: use --trace FILE or --synthetic PROFILE");
  ASSIGN_OR_RETURN(TraceFormat format, ParseTraceFormat(c.trace_format));
  LoadReport lr;
  ASSIGN_OR_RETURN(p.trace, LoadTraceFile(c.trace_path, format, {}, &lr));
  if (!c.duration_model.empty()) {
    RETURN_IF_ERROR(ApplyDurationModel(p.trace, c.duration_model, c.seed));
    p.notes.push_back("durations from the '" + c.duration_model +
                      "' model (synthetic; see docs/trace-formats.md)");
  }
  for (const auto& j : p.trace.jobs)
    if (j.duration_s < 0)
      return InvalidArgument(c.trace_path + ": job '" + j.id +
                             "' has no duration (Sia/Pollux workloads run until "
                             "convergence); pass --duration-model sia-buckets");
  if (lr.skipped_cpu_jobs)
    p.notes.push_back(std::to_string(lr.skipped_cpu_jobs) + " CPU-only jobs skipped");
  if (lr.skipped_unfinished)
    p.notes.push_back(std::to_string(lr.skipped_unfinished) + " unfinished (RUNNING/SUSPENDED) jobs skipped");
  ASSIGN_OR_RETURN(p.cluster, BuildCluster(c, p.trace, p.notes));
  p.notes.push_back(DescribeOfferedLoad(p.trace, p.cluster));
  return p;
}

}  // namespace

Result<std::vector<PolicyRun>> RunPolicies(const Prepared& p,
                                           const ExperimentConfig& c,
                                           const ProgressFn& progress) {
  std::vector<PolicyRun> runs;
  for (const PolicyConfig& pc : p.policies) {
    ASSIGN_OR_RETURN(auto policy, MakePolicy(pc));
    SimOptions o;
    o.unknown_vc_is_error = c.unknown_vc_is_error;
    std::string name(policy->Name());
    if (progress) o.on_progress = [&](const SimProgress& s) { progress(name, s); };
    auto t0 = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(SimResult r, Simulate(p.trace, p.cluster, *policy, o));
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    PolicyRun run;
    run.summary = Summarize(r);
    run.summary.wall_s = wall;
    run.summary.events_per_s = wall > 0 ? r.events / wall : 0;
    run.result = std::move(r);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::string FormatComparisonTable(const std::vector<PolicyRun>& runs) {
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof(buf), "%-18s %7s %10s %10s %10s %10s %10s %6s %8s\n",
                "policy", "jobs", "avg JCT h", "med JCT h", "p99 JCT h",
                "avg queue h", "makespan h", "util", "wall s");
  out += buf;
  for (const auto& r : runs) {
    const SimSummary& s = r.summary;
    std::snprintf(buf, sizeof(buf),
                  "%-18s %7lld %10.3f %10.3f %10.3f %11.3f %10.2f %6.3f %8.2f\n",
                  s.policy.c_str(), static_cast<long long>(s.jobs),
                  s.avg_jct_s / 3600, s.median_jct_s / 3600, s.p99_jct_s / 3600,
                  s.avg_queue_s / 3600, s.makespan_s / 3600, s.gpu_utilization,
                  s.wall_s);
    out += buf;
  }
  return out;
}

Status WritePlots(const std::vector<PolicyRun>& runs, const std::string& dir, const std::string& setting) {
  LineChart cdf{"JCT CDF", setting, "job completion time (s, log scale)", "fraction of jobs", true, {}};
  LineChart queue{"Pending jobs over time", setting, "time (h)", "pending jobs", false, {}};
  LineChart util{"GPU utilisation over time", setting, "time (h)", "busy GPUs / all GPUs", false, {}};
  for (const auto& r : runs) {
    std::vector<double> jct;
    for (const SimJob& j : r.result.jobs)
      if (j.phase == JobPhase::kDone) jct.push_back(static_cast<double>(std::max<int64_t>(1, j.finish_s - j.submit_s)));
    cdf.series.push_back(CdfSeries(r.summary.policy, std::move(jct)));
    Series s{r.summary.policy, {}, {}};
    const auto& ts = r.result.series;
    size_t step = std::max<size_t>(1, ts.size() / 1500);
    for (size_t i = 0; i < ts.size(); i += step) {
      s.x.push_back(static_cast<double>(ts[i].t) / 3600.0);
      s.y.push_back(ts[i].pending_jobs);
    }
    queue.series.push_back(std::move(s));
    Series u{r.summary.policy, {}, {}};
    double gpus = static_cast<double>(std::max<int64_t>(1, r.result.total_gpus));
    for (size_t i = 0; i < ts.size(); i += step) {
      u.x.push_back(static_cast<double>(ts[i].t) / 3600.0);
      u.y.push_back(ts[i].busy_gpus / gpus);
    }
    util.series.push_back(std::move(u));
  }
  RETURN_IF_ERROR(WriteSvgFile(cdf, dir + "/jct_cdf.svg"));
  RETURN_IF_ERROR(WriteSvgFile(util, dir + "/gpu_utilization.svg"));
  return WriteSvgFile(queue, dir + "/queue_length.svg");
}

Status WriteExperimentFile(const ExperimentConfig& config, const std::string& path) {
  ExperimentConfig saved = config;
  std::error_code ec;
  if (!saved.trace_path.empty()) saved.trace_path = std::filesystem::absolute(saved.trace_path, ec).string();
  if (!saved.vc_config_path.empty()) saved.vc_config_path = std::filesystem::absolute(saved.vc_config_path, ec).string();
  std::ofstream out(path);
  out << DumpJson(ExperimentToJson(saved), 2) << "\n";
  if (!out) return Unavailable(path + ": cannot write");
  return Status::Ok();
}

Status WriteRunFiles(const std::vector<PolicyRun>& runs, const std::string& dir) {
  Json all = Json::array();
  for (const auto& r : runs) {
    RETURN_IF_ERROR(WriteJobsCsvFile(r.result, dir + "/" + r.summary.policy + "_jobs.csv"));
    RETURN_IF_ERROR(WriteTimeSeriesCsvFile(r.result, dir + "/" + r.summary.policy + "_timeseries.csv"));
    all.push_back(SummaryToJson(r.summary));
  }
  std::ofstream out(dir + "/summary.json");
  out << DumpJson(all, 2) << "\n";
  if (!out) return Unavailable(dir + "/summary.json: write failed");
  return Status::Ok();
}

}  // namespace schedmate
