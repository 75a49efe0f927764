#include "policies/sia/app_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace schedmate::sia {

Result<AppConstants> LookupAppConstants(const std::string& app) {
  // {max_epochs, restart delay, restart penalty, slowdown}; sources in README.md.
  static const std::map<std::string, AppConstants> kApps = {
      {"bert", {2, 120, 120, 1.2}},        {"cifar10", {100, 50, 30, 1.8}},
      {"deepspeech2", {80, 25, 25, 1.2}},  {"imagenet", {90, 250, 250, 1.2}},
      {"ncf", {10, 15, 30, 1.5}},          {"yolov3", {50, 80, 45, 1.2}},
  };
  auto it = kApps.find(app);
  if (it == kApps.end()) return NotFound("sia: no constants for application '" + app + "'");
  return it->second;
}

std::string PlacementKey(const Placement& placement) {
  Placement p;
  for (int g : placement)
    if (g > 0) p.push_back(g);
  Placement best = p;
  for (size_t i = 1; i < p.size(); ++i) {
    Placement rotated(p.begin() + i, p.end());
    rotated.insert(rotated.end(), p.begin(), p.begin() + i);
    best = std::min(best, rotated);
  }
  std::string key;
  for (int g : best) key += std::to_string(g);
  return key;
}

namespace {

int MaxLocal(const std::vector<StepSample>& rows) {
  int m = 0;
  for (const auto& r : rows) m = std::max(m, r.local_bsz);
  return m;
}

}  // namespace

Result<AppModel> AppModel::Create(const AppProfile& app, const std::string& gpu_type, int max_epochs) {
  auto t = app.gpu_types.find(gpu_type);
  std::string where = "sia profile " + app.name + "/" + gpu_type + ": ";
  if (t == app.gpu_types.end()) return InvalidArgument(where + "no placements file");
  if (app.validation.empty()) return InvalidArgument(where + "no validation-*.csv files");
  AppModel m;
  m.name_ = app.name;
  m.placements_ = t->second.placements;
  m.scalability_ = t->second.scalability;
  if (m.placements_.empty()) return InvalidArgument(where + "empty placements");
  for (const auto& [bsz, epochs] : app.validation) {
    if (epochs.empty()) return InvalidArgument(where + "validation-" + std::to_string(bsz) + ".csv is empty");
    m.validation_.push_back({bsz, epochs});
  }
  m.min_local_bsz_ = m.placements_.front().local_bsz;
  for (const auto& r : m.placements_) m.min_local_bsz_ = std::min(m.min_local_bsz_, r.local_bsz);
  m.max_local_bsz_ = MaxLocal(m.placements_);
  // applications.py:51-52: DeepSpeech2 on RTX 2080Ti is memory-capped at 57.
  if (app.name == "deepspeech2" && gpu_type == "rtx") m.max_local_bsz_ = 57;
  size_t shortest = m.validation_.front().second.size();
  for (const auto& v : m.validation_) shortest = std::min(shortest, v.second.size());
  m.max_epochs_ = std::min<int>(max_epochs, static_cast<int>(shortest));
  // Mean of repeated (nodes, replicas, bsz) placements, then the scalability rows.
  std::map<std::tuple<int, int, int>, std::tuple<double, double, int>> sums;
  for (const auto& r : m.placements_) {
    auto& [step, sync, n] = sums[{r.nodes, r.replicas, r.local_bsz}];
    step += r.step_time_s, sync += r.sync_time_s, ++n;
  }
  for (const auto& [k, v] : sums)
    m.grid_.push_back({std::get<0>(k), std::get<1>(k), double(std::get<2>(k)), std::get<0>(v) / std::get<2>(v),
                       std::get<1>(v) / std::get<2>(v)});
  for (const auto& r : m.scalability_)
    m.grid_.push_back({r.nodes, r.replicas, double(r.local_bsz), r.step_time_s, r.sync_time_s});
  if (m.OneGpuSamples().empty()) return InvalidArgument(where + "no 1-GPU measurements");
  return m;
}

double AppModel::ProgressAt(int epoch) const {
  if (epoch <= 0) return 0;
  double p = -1;
  for (const auto& [bsz, rows] : validation_) {
    double v = rows[std::min<size_t>(epoch - 1, rows.size() - 1)].progress;
    p = p < 0 ? v : std::min(p, v);
  }
  return p;
}

GradStats AppModel::GradAt(int batch_size, int epoch) const {
  auto at = [&](size_t i) {
    const auto& rows = validation_[i].second;
    const EpochStats& e = rows[std::clamp<size_t>(epoch, 0, rows.size() - 1)];
    return GradStats{e.grad_sqr, e.grad_var};
  };
  size_t hi = 0;
  while (hi + 1 < validation_.size() && validation_[hi].first < batch_size) ++hi;
  if (hi == 0 || validation_[hi].first <= batch_size) return at(hi);
  size_t lo = hi - 1;
  double f = double(batch_size - validation_[lo].first) / (validation_[hi].first - validation_[lo].first);
  GradStats a = at(lo), b = at(hi);
  return {a.sqr + f * (b.sqr - a.sqr), a.var + f * (b.var - a.var)};
}

StepTime AppModel::AlongBatch(const std::vector<Point>& rows, double bsz) const {
  // rows: one (nodes, replicas), ascending batch. Clamped outside the range.
  if (bsz <= rows.front().bsz) return {rows.front().step, rows.front().sync};
  if (bsz >= rows.back().bsz) return {rows.back().step, rows.back().sync};
  size_t i = 1;
  while (rows[i].bsz < bsz) ++i;
  const Point &a = rows[i - 1], &b = rows[i];
  double f = (bsz - a.bsz) / (b.bsz - a.bsz);
  return {a.step + f * (b.step - a.step), a.sync + f * (b.sync - a.sync)};
}

StepTime AppModel::AtNodes(int nodes, int replicas, double bsz) const {
  std::map<int, std::vector<Point>> by_replicas;
  for (const auto& p : grid_)
    if (p.nodes == nodes) by_replicas[p.replicas].push_back(p);
  if (by_replicas.empty()) return {};
  for (auto& [r, rows] : by_replicas)
    std::sort(rows.begin(), rows.end(), [](const Point& a, const Point& b) { return a.bsz < b.bsz; });
  auto hi = by_replicas.lower_bound(replicas);
  if (hi == by_replicas.end()) return AlongBatch(std::prev(hi)->second, bsz);
  if (hi->first == replicas || hi == by_replicas.begin()) return AlongBatch(hi->second, bsz);
  auto lo = std::prev(hi);
  StepTime a = AlongBatch(lo->second, bsz), b = AlongBatch(hi->second, bsz);
  double f = double(replicas - lo->first) / (hi->first - lo->first);
  return {a.step_s + f * (b.step_s - a.step_s), a.sync_s + f * (b.sync_s - a.sync_s)};
}

StepTime AppModel::Interpolate(int nodes, int replicas, int local_bsz) const {
  nodes = std::min(nodes, 16);  // applications.py:284
  StepTime here = AtNodes(nodes, replicas, local_bsz);
  if (here.step_s > 0) return here;
  int lo = 0, hi = 0;
  for (const auto& p : grid_) {
    if (p.nodes < nodes) lo = std::max(lo, p.nodes);
    if (p.nodes > nodes && (hi == 0 || p.nodes < hi)) hi = p.nodes;
  }
  if (lo == 0) return AtNodes(hi, replicas, local_bsz);
  if (hi == 0) return AtNodes(lo, replicas, local_bsz);
  StepTime a = AtNodes(lo, replicas, local_bsz), b = AtNodes(hi, replicas, local_bsz);
  double f = double(nodes - lo) / (hi - lo);
  return {a.step_s + f * (b.step_s - a.step_s), a.sync_s + f * (b.sync_s - a.sync_s)};
}

StepTime AppModel::StepTimeAt(const Placement& placement, int local_bsz) const {
  std::string key = PlacementKey(placement);
  std::vector<Point> rows;
  for (const auto& r : placements_)
    if (r.placement == key) rows.push_back({r.nodes, r.replicas, double(r.local_bsz), r.step_time_s, r.sync_time_s});
  if (!rows.empty()) {
    std::sort(rows.begin(), rows.end(), [](const Point& a, const Point& b) { return a.bsz < b.bsz; });
    return AlongBatch(rows, local_bsz);
  }
  int nodes = static_cast<int>(key.size()), replicas = 0;
  for (int g : placement) replicas += g;
  return Interpolate(nodes, replicas, local_bsz);
}

int AppModel::MaxLocalBsz(const Placement& placement) const {
  std::string key = PlacementKey(placement);
  int nodes = static_cast<int>(key.size()), replicas = 0, best = 0;
  for (int g : placement) replicas += g;
  for (const auto& r : placements_)
    if (r.placement == key) best = std::max(best, r.local_bsz);
  if (best > 0) return best;
  for (const auto& r : scalability_)
    if (r.nodes >= nodes && r.replicas >= replicas) best = std::max(best, r.local_bsz);
  return best > 0 ? best : max_local_bsz_;
}

int AppModel::MaxMeasuredLocalBszAt(int replicas) const {
  int best = 0;
  for (const auto& r : placements_)
    if (r.replicas == replicas) best = std::max(best, r.local_bsz);
  return best;
}

std::vector<StepSample> AppModel::OneGpuSamples() const {
  std::vector<StepSample> out;
  for (const auto& r : placements_)
    if (r.replicas == 1) out.push_back(r);
  return out;
}

double AppModel::OneGpuThroughput() const {
  int bsz = 0;
  double step = 0;
  for (const auto& r : OneGpuSamples()) bsz = std::max(bsz, r.local_bsz), step = std::max(step, r.step_time_s);
  return step > 0 ? bsz / step : 0;
}

}  // namespace schedmate::sia
