#include "policies/sia/sia_policy.h"

#include <algorithm>
#include <cmath>

namespace schedmate::sia {

SiaPolicy::SiaPolicy(SiaCluster cluster, SiaParams params, MilpSolver* solver)
    : cluster_(std::move(cluster)), params_(params), solver_(solver), options_(AllocationOptions(cluster_)) {}

int SiaPolicy::PreviousChoice(const std::string& job) const {
  auto it = previous_.find(job);
  return it == previous_.end() ? -1 : it->second;
}

int SiaPolicy::MaxReplicas(const SiaJob& job) const {
  // cluster.py:376-379, shared across types (--share_max_replicas):
  // at most double what has been observed anywhere, 64, and the batch limit.
  int best = 1;
  for (int t = 0; t < job.num_types(); ++t) {
    const AppModel& app = job.app_on(t);
    int cap = std::min({std::max(params_.doubling * job.MaxObservedReplicas(t), 1), 64,
                        app.max_batch_size() / std::max(1, app.min_local_bsz())});
    best = std::max(best, cap);
  }
  return best;
}

std::vector<double> SiaPolicy::RawRow(const SiaJob& job, std::vector<bool>& unknown) const {
  std::vector<double> row(options_.size(), params_.zero_gain);
  unknown.assign(cluster_.types.size(), false);
  int max_replicas = MaxReplicas(job);
  int source = -1;  // the first type with a model: unseen types are projected from it
  for (int t = 0; t < job.num_types() && source < 0; ++t)
    if (job.GoodputOn(t)) source = t;
  auto limits = [&](int t) {
    const AppModel& app = job.app_on(t);
    int max_batch = job.target_batch_size() > 0 ? job.target_batch_size() : app.max_batch_size();
    return BatchLimits{max_batch, app.min_local_bsz(), app.max_local_bsz()};
  };
  for (size_t t = 0; t < cluster_.types.size(); ++t) {
    int type = static_cast<int>(t);
    std::optional<GoodputModel> own = job.GoodputOn(type);
    if (!own && source < 0) {
      unknown[t] = true;
      continue;
    }
    bool any = false;
    for (size_t j = 0; j < options_.size(); ++j) {
      const AllocOption& o = options_[j];
      if (o.type != type || o.gpus > max_replicas) continue;
      any = true;
      if (own) {
        row[j] = own->Optimize(o.nodes, o.gpus, limits(type)).goodput;
        continue;
      }
      // sia.py:437-507: another type's model at the same replica count,
      // scaled by the ratio of 1-GPU throughputs.
      int per_node = cluster_.types[source].gpus_per_node;
      int nodes = (o.gpus + per_node - 1) / per_node;
      double ratio = job.app_on(type).OneGpuThroughput() / job.app_on(source).OneGpuThroughput();
      row[j] = job.GoodputOn(source)->Optimize(nodes, o.gpus, limits(source)).goodput * ratio;
    }
    if (!any) unknown[t] = true;
  }
  return row;
}

std::vector<double> SiaPolicy::GoodputRow(const SiaJob& job) const {
  std::vector<bool> unknown;
  std::vector<double> row = RawRow(job, unknown);
  // sia.py:674-719: normalise to the smallest valid entry of the known types.
  double lowest = 0;
  for (size_t j = 0; j < row.size(); ++j)
    if (!unknown[options_[j].type] && row[j] > params_.zero_gain && (lowest == 0 || row[j] < lowest)) lowest = row[j];
  double scale = lowest > 0 ? 1.0 / lowest : 1.0;
  for (size_t j = 0; j < row.size(); ++j) {
    row[j] *= scale;
    // A type with no model offers its 1-GPU option at utility 1.
    if (unknown[options_[j].type] && options_[j].gpus == 1) row[j] = 1.0;
    if (row[j] <= params_.zero_gain) row[j] = params_.zero_gain;
  }
  return row;
}

double SiaPolicy::RestartFactor(const SiaJob& job, int64_t now_s) {
  // sia.py:722-739 (Pollux's form).
  double penalty = job.constants().restart_penalty_s;
  double age = static_cast<double>(now_s - job.submit_s());
  if (age < penalty) return 1.0;
  double lost = job.num_restarts() * penalty;
  return std::max(age - lost, 0.0) / (age + penalty);
}

MilpProblem SiaPolicy::BuildProblem(const std::vector<const SiaJob*>& jobs,
                                    const std::vector<std::vector<double>>& utility,
                                    const std::vector<int>& capacity,
                                    std::vector<std::pair<int, int>>& owners) const {
  MilpProblem p;
  owners.clear();
  p.maximize = params_.p > 0;
  std::vector<MilpRow> per_type(cluster_.types.size());
  for (size_t t = 0; t < per_type.size(); ++t) per_type[t].upper = capacity[t];
  // Options of each type by GPU count, for the dominance test.
  std::vector<std::vector<int>> by_type(cluster_.types.size());
  for (size_t j = 0; j < options_.size(); ++j) by_type[options_[j].type].push_back(static_cast<int>(j));
  for (auto& v : by_type)
    std::stable_sort(v.begin(), v.end(), [&](int a, int b) { return options_[a].gpus < options_[b].gpus; });
  const double sense = p.maximize ? 1.0 : -1.0;  // sense × gain: larger is better
  std::vector<bool> keep(options_.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    MilpRow one;
    one.upper = 1;
    int forced = jobs[i]->restarting() ? PreviousChoice(jobs[i]->name()) : -1;
    int previous = PreviousChoice(jobs[i]->name());
    for (const auto& type_options : by_type) {
      // An option that needs more GPUs of a type than another option of
      // that type for a strictly worse gain is never in an optimum (taking
      // the smaller one frees GPUs and improves the objective): leave it out.
      double best = -kMilpInfinity;
      for (int j : type_options) {
        double v = sense * (utility[i][j] - params_.lambda_n);
        keep[j] = !params_.prune_dominated || v >= best;
        best = std::max(best, v);
      }
    }
    for (size_t j = 0; j < options_.size(); ++j) {
      double gain = utility[i][j] - params_.lambda_n;  // choosing j removes λ
      bool useful = p.maximize ? gain > 0 : gain < 0;
      // A column that can only worsen the objective is never chosen
      // (X = 0 is always feasible for it): leave it out.
      if ((!useful || !keep[j]) && static_cast<int>(j) != forced) continue;
      // Half the utilities' rounding step: breaks ties only (prefer_current).
      const double keep = params_.prefer_current && static_cast<int>(j) == previous ? 0.005 : 0.0;
      int col = p.AddColumn(gain + (p.maximize ? keep : -keep), static_cast<int>(j) == forced ? 1 : 0, 1, true);
      if (params_.warm_start) p.start.push_back(static_cast<int>(j) == previous ? 1 : 0);
      owners.push_back({static_cast<int>(i), static_cast<int>(j)});
      one.cols.push_back(col), one.coefs.push_back(1);
      per_type[options_[j].type].cols.push_back(col);
      per_type[options_[j].type].coefs.push_back(options_[j].gpus);
    }
    p.rows.push_back(std::move(one));
  }
  for (auto& r : per_type) p.rows.push_back(std::move(r));
  // A previous allocation that no longer fits is no start.
  if (params_.warm_start) {
    for (const MilpRow& r : p.rows) {
      double used = 0;
      for (size_t k = 0; k < r.cols.size(); ++k) used += r.coefs[k] * p.start[r.cols[k]];
      if (used > r.upper + 1e-9) {
        p.start.clear();
        break;
      }
    }
    if (std::none_of(p.start.begin(), p.start.end(), [](double v) { return v != 0; })) p.start.clear();
  }
  return p;
}

RoundDecision SiaPolicy::KeepPrevious(const std::vector<const SiaJob*>& jobs, std::string note) const {
  RoundDecision d;
  d.note = std::move(note);
  for (const SiaJob* j : jobs) d.choice[j->name()] = PreviousChoice(j->name());
  return d;
}

RoundDecision SiaPolicy::Decide(const std::vector<const SiaJob*>& jobs, const std::vector<int>& capacity,
                                int64_t now_s) {
  std::vector<std::vector<double>> utility;
  for (const SiaJob* job : jobs) {
    std::vector<double> g = GoodputRow(*job);
    int prev = PreviousChoice(job->name());
    double factor = RestartFactor(*job, now_s);
    for (size_t j = 0; j < g.size(); ++j) {
      if (prev >= 0 && static_cast<int>(j) != prev) g[j] *= factor;
      // sia.py:908-922: G^p rounded to 2 decimals, clipped.
      g[j] = std::min(std::round(std::pow(g[j], params_.p) * 100) / 100, params_.clip);
    }
    utility.push_back(std::move(g));
  }
  std::vector<std::pair<int, int>> owners;
  MilpProblem problem = BuildProblem(jobs, utility, capacity, owners);
  Result<MilpSolution> s = solver_->Solve(problem, params_.milp);
  if (!s.ok()) return KeepPrevious(jobs, s.status().ToString());
  RoundDecision d;
  d.solved = true;
  d.objective = s->objective + params_.lambda_n * static_cast<double>(jobs.size());
  for (const SiaJob* job : jobs) d.choice[job->name()] = -1;
  for (size_t c = 0; c < owners.size(); ++c)
    if (s->values[c] > 0.5) d.choice[jobs[owners[c].first]->name()] = owners[c].second;
  previous_.clear();
  for (const auto& [name, c] : d.choice) previous_[name] = c;
  return d;
}

}  // namespace schedmate::sia
