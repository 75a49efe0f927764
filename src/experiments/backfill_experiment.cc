#include "experiments/backfill_experiment.h"

#include <map>
#include <memory>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/str_format.h"

namespace schedmate {
namespace {

template <typename T>
Status ParseList(const Json& j, const char* key, const std::string& w, Result<T> (*parse)(std::string_view),
                 std::vector<T>* out) {
  if (!j.contains(key) || j[key].is_null()) return Status::Ok();
  const std::string field = w + ": field '" + key + "'";
  if (!j[key].is_array() || j[key].empty()) return InvalidArgument(field + ": expected a non-empty list");
  out->clear();
  for (const Json& v : j[key]) {
    if (!v.is_string()) return InvalidArgument(field + ": expected names");
    auto parsed = parse(v.get<std::string>());
    if (!parsed.ok()) return InvalidArgument(field + ": " + parsed.status().message());
    out->push_back(*parsed);
  }
  return Status::Ok();
}

// The (discipline, estimate) settings to run: strict once (it has no
// planner), the others once per estimate source.
std::vector<std::pair<BackfillMode, std::optional<BackfillEstimate>>> Settings(const BackfillExperimentConfig& c) {
  std::vector<std::pair<BackfillMode, std::optional<BackfillEstimate>>> out;
  for (BackfillMode m : c.disciplines) {
    if (m == BackfillMode::kStrict) {
      out.emplace_back(m, std::nullopt);
      continue;
    }
    for (BackfillEstimate e : c.estimates) out.emplace_back(m, e);
  }
  return out;
}

BackfillOptions OptionsFor(BackfillMode m, std::optional<BackfillEstimate> e, uint64_t seed, OverdueRule overdue) {
  BackfillOptions o;
  o.mode = m;
  o.estimate = e.value_or(BackfillEstimate::kOracle);
  o.seed = seed;
  o.overdue = overdue;
  return o;
}

std::string SettingLabel(BackfillMode m, std::optional<BackfillEstimate> e) {
  return std::string(BackfillModeName(m)) + (e ? "/" + std::string(BackfillEstimateName(*e)) : "");
}

ProgressFn Labelled(const ProgressFn& progress, const std::string& setting) {
  if (!progress) return {};
  return [progress, setting](const std::string& label, const SimProgress& p) { progress(label + " " + setting, p); };
}

class Sweep {
 public:
  Sweep(const BackfillExperimentConfig& c, const ProgressFn& progress) : c_(c), progress_(progress) {}

  Status Lucid(BackfillMode m, std::optional<BackfillEstimate> e) {
    LucidExperimentConfig lc = *c_.lucid;
    lc.lucid.backfill = OptionsFor(m, e, lc.seed, c_.overdue);
    ProgressFn p = Labelled(progress_, SettingLabel(m, e));
    LucidProgress lp;
    if (p) lp = [p](const std::string& label, const SimProgress& s) { p(label, s); };
    ASSIGN_OR_RETURN(LucidComparison r, RunLucidComparison(lc, lp));
    if (!jobs_) {
      jobs_ = r.trace;
      main_nodes_ = r.main_gpus / lc.gpus_per_node;
      out_.settings.push_back("lucid: " + r.setting);
      out_.catalog_notice = r.catalog_notice;
    }
    for (const LucidRunResult& run : r.runs)
      out_.rows.push_back({run.label, m, e, run.run.summary, run.lucid.backfilled, run.wall_s});
    return Status::Ok();
  }

  Status Queue(BackfillMode m, std::optional<BackfillEstimate> e) {
    StandaloneExperimentConfig sc = *c_.queue;
    sc.backfill = OptionsFor(m, e, sc.seed, c_.overdue);
    if (jobs_) {  // Lucid's jobs on Lucid's main cluster (its profiler nodes are Lucid's own)
      sc.nodes = main_nodes_;
      sc.trace_path = "the Lucid runs' jobs";
    }
    ProgressFn p = Labelled(progress_, SettingLabel(m, e));
    Result<StandaloneComparison> r =
        jobs_ ? RunStandaloneComparison(sc, jobs_, p) : RunStandaloneComparison(sc, p);
    if (!r.ok()) return r.status();
    if (!queue_described_) {
      out_.settings.push_back("queue policies: " + r->setting);
      if (out_.catalog_notice.empty()) out_.catalog_notice = r->catalog_notice;
      queue_described_ = true;
    }
    for (const StandaloneRun& run : r->runs)
      out_.rows.push_back({run.label, m, e, run.run.summary, run.backfilled, run.wall_s});
    return Status::Ok();
  }

  BackfillReport Take() { return std::move(out_); }

 private:
  const BackfillExperimentConfig& c_;
  const ProgressFn& progress_;
  std::shared_ptr<const Trace> jobs_;  // Lucid's, once it ran
  int32_t main_nodes_ = 0;
  bool queue_described_ = false;
  BackfillReport out_;
};

double Hours(double s) { return s / 3600.0; }

}  // namespace

Result<BackfillExperimentConfig> BackfillConfigFromJson(const Json& j, const std::string& w) {
  BackfillExperimentConfig c;
  if (!j.is_object()) return InvalidArgument(w + ": expected a JSON object");
  RETURN_IF_ERROR(OnlyKnownFields(j, {"name", "lucid", "standalone", "disciplines", "estimates", "overdue"}, w));
  if (j.contains("name")) {
    ASSIGN_OR_RETURN(c.name, GetString(j, "name", w));
  }
  if (j.contains("lucid")) {
    ASSIGN_OR_RETURN(c.lucid, LucidConfigFromJson(j["lucid"], w + ": lucid"));
  }
  if (j.contains("standalone")) {
    const Json& s = j["standalone"];
    if (c.lucid && s.is_object() && (s.contains("trace") || s.contains("cluster")))
      return InvalidArgument(w + ": standalone: fields 'trace' and 'cluster' come from 'lucid' when it is given");
    ASSIGN_OR_RETURN(c.queue, StandaloneConfigFromJson(s, w + ": standalone"));
  }
  if (!c.lucid && !c.queue) return InvalidArgument(w + ": give 'lucid', 'standalone' or both");
  RETURN_IF_ERROR(ParseList(j, "disciplines", w, &ParseBackfillMode, &c.disciplines));
  RETURN_IF_ERROR(ParseList(j, "estimates", w, &ParseBackfillEstimate, &c.estimates));
  if (j.contains("overdue")) {
    ASSIGN_OR_RETURN(std::string rule, GetString(j, "overdue", w));
    auto parsed = ParseOverdueRule(rule);
    if (!parsed.ok()) return InvalidArgument(w + ": field 'overdue': " + parsed.status().message());
    c.overdue = *parsed;
  }
  return c;
}

Result<BackfillReport> RunBackfillExperiment(const BackfillExperimentConfig& c, const ProgressFn& progress) {
  Sweep sweep(c, progress);
  for (auto [mode, estimate] : Settings(c)) {
    if (c.lucid) RETURN_IF_ERROR(sweep.Lucid(mode, estimate));
    if (c.queue) RETURN_IF_ERROR(sweep.Queue(mode, estimate));
  }
  return sweep.Take();
}

std::string FormatBackfillTable(const BackfillReport& r) {
  std::string s;
  for (const std::string& setting : r.settings) s += "setting: " + setting + "\n";
  std::map<std::string, double> strict_jct;
  for (const BackfillRow& row : r.rows)
    if (row.mode == BackfillMode::kStrict) strict_jct[row.policy] = row.summary.avg_jct_s;
  s += StrFormat("\n%-18s %-13s %-11s %9s %9s %9s %9s %6s %10s %8s\n", "policy", "backfill", "estimate", "avg JCT h",
                 "p99 JCT h", "queue h", "makespan", "util %", "backfilled", "x strict");
  for (const BackfillRow& row : r.rows) {
    const SimSummary& m = row.summary;
    auto base = strict_jct.find(row.policy);
    const double ratio = base != strict_jct.end() && m.avg_jct_s > 0 ? base->second / m.avg_jct_s : 0.0;
    s += StrFormat("%-18s %-13s %-11s %9.2f %9.2f %9.2f %9.1f %6.1f %10lld %8.2f\n", row.policy.c_str(),
                   std::string(BackfillModeName(row.mode)).c_str(),
                   row.estimate ? std::string(BackfillEstimateName(*row.estimate)).c_str() : "-", Hours(m.avg_jct_s),
                   Hours(m.p99_jct_s), Hours(m.avg_queue_s), Hours(m.makespan_s), 100 * m.gpu_utilization,
                   (long long)row.backfilled, ratio);
  }
  s += "\nx strict = the policy's strict average JCT / this row's (> 1: backfilling helps); makespan in hours;\n"
       "backfilled = jobs started while an earlier job in queue order waited. Lucid backfills only while its\n"
       "packing is off (with packing on it already tries every queued job).\n";
  return s;
}

Json BackfillReportToJson(const BackfillReport& r) {
  Json rows = Json::array();
  for (const BackfillRow& row : r.rows) {
    const SimSummary& m = row.summary;
    rows.push_back({{"policy", row.policy}, {"backfill", std::string(BackfillModeName(row.mode))},
                    {"estimate", row.estimate ? Json(std::string(BackfillEstimateName(*row.estimate))) : Json()},
                    {"jobs", m.jobs}, {"avg_jct_s", m.avg_jct_s}, {"p99_jct_s", m.p99_jct_s},
                    {"avg_queue_s", m.avg_queue_s}, {"makespan_s", m.makespan_s},
                    {"gpu_utilization", m.gpu_utilization}, {"backfilled", row.backfilled}, {"wall_s", row.wall_s}});
  }
  return {{"settings", r.settings}, {"rows", rows}};
}

}  // namespace schedmate
