#include "world/sia_profiles.h"

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <fstream>

#include "traces/csv_table.h"

namespace schedmate {

Result<SiaProfiles> SiaProfiles::Load(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return NotFound(dir + ": not a directory");
  SiaProfiles p;
  std::vector<fs::path> files;
  for (const auto& app : fs::directory_iterator(dir, ec))
    if (app.is_directory())
      for (const auto& f : fs::directory_iterator(app.path(), ec)) {
        std::string name = f.path().filename().string();
        if (name.rfind("placements", 0) == 0 && f.path().extension() == ".csv") files.push_back(f.path());
      }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string app = f.parent_path().filename().string();
    std::string stem = f.stem().string();  // placements or placements-dgx
    std::string type = stem == "placements" ? "default" : stem.substr(std::string("placements-").size());
    std::ifstream in(f);
    if (!in) return NotFound(f.string() + ": cannot open");
    ASSIGN_OR_RETURN(CsvTable t, CsvTable::Open(in, f.string()));
    ASSIGN_OR_RETURN(int bsz, t.Require("local_bsz"));
    ASSIGN_OR_RETURN(int step, t.Require("step_time"));
    ASSIGN_OR_RETURN(int sync, t.Require("sync_time"));
    ASSIGN_OR_RETURN(int place, t.Require("placement"));
    auto& rows = p.data_[app][type];
    while (true) {
      ASSIGN_OR_RETURN(bool more, t.Next());
      if (!more) break;
      PlacementMeasure m;
      ASSIGN_OR_RETURN(int64_t b, t.NonNegativeInt(bsz));
      m.local_batch = static_cast<int>(b);
      ASSIGN_OR_RETURN(m.step_time_s, t.Number(step));
      ASSIGN_OR_RETURN(m.sync_time_s, t.Number(sync));
      if (m.step_time_s <= 0) return t.ColumnError(step, "step time must be positive");
      m.placement = std::string(t.Field(place));
      if (m.placement.empty() || m.placement.size() > 64) return t.ColumnError(place, "expected one digit per node");
      for (char c : m.placement) {
        if (c < '1' || c > '9') return t.ColumnError(place, "expected one digit per node");
        m.gpus += c - '0';
      }
      m.nodes = static_cast<int>(m.placement.size());
      rows.push_back(std::move(m));
    }
  }
  if (p.data_.empty()) return NotFound(dir + ": no placements-*.csv profiles");
  return p;
}

std::vector<std::string> SiaProfiles::Apps() const {
  std::vector<std::string> out;
  for (const auto& [app, types] : data_) out.push_back(app);
  return out;
}

std::vector<std::string> SiaProfiles::GpuTypes(const std::string& app) const {
  std::vector<std::string> out;
  auto it = data_.find(app);
  if (it != data_.end())
    for (const auto& [type, rows] : it->second) out.push_back(type);
  return out;
}

std::optional<double> SiaProfiles::StepTime(const std::string& app, const std::string& gpu_type, int gpus,
                                            int local_batch) const {
  auto a = data_.find(app);
  if (a == data_.end()) return std::nullopt;
  auto t = a->second.find(gpu_type);
  if (t == a->second.end()) return std::nullopt;
  // The placement with `gpus` GPUs on the fewest nodes (the most packed).
  int best_nodes = 1 << 30;
  for (const auto& m : t->second)
    if (m.gpus == gpus) best_nodes = std::min(best_nodes, m.nodes);
  if (best_nodes == 1 << 30) return std::nullopt;
  std::vector<const PlacementMeasure*> rows;
  for (const auto& m : t->second)
    if (m.gpus == gpus && m.nodes == best_nodes) rows.push_back(&m);
  // Several placements of that shape: keep the first one's rows.
  std::string shape = rows.front()->placement;
  std::vector<const PlacementMeasure*> same;
  for (const auto* m : rows)
    if (m->placement == shape) same.push_back(m);
  std::sort(same.begin(), same.end(), [](auto* x, auto* y) { return x->local_batch < y->local_batch; });
  if (local_batch <= same.front()->local_batch) return same.front()->step_time_s;
  if (local_batch >= same.back()->local_batch) {
    // Beyond the largest measured batch: step time grows with the batch.
    const auto* last = same.back();
    return last->step_time_s * static_cast<double>(local_batch) / last->local_batch;
  }
  for (size_t i = 1; i < same.size(); ++i)
    if (same[i]->local_batch >= local_batch) {
      const auto* lo = same[i - 1];
      const auto* hi = same[i];
      double f = static_cast<double>(local_batch - lo->local_batch) / std::max(1, hi->local_batch - lo->local_batch);
      return lo->step_time_s + f * (hi->step_time_s - lo->step_time_s);
    }
  return same.back()->step_time_s;
}

}  // namespace schedmate

namespace schedmate {
namespace {

// placements-aws.csv → ("placements", "aws"); placements.csv → type "default".
std::pair<std::string, std::string> KindAndType(const std::string& stem) {
  size_t dash = stem.find('-');
  if (dash == std::string::npos) return {stem, "default"};
  return {stem.substr(0, dash), stem.substr(dash + 1)};
}

Result<SiaStepRow> ReadStepRow(CsvTable& t, bool placements) {
  SiaStepRow r;
  ASSIGN_OR_RETURN(int bsz, t.Require("local_bsz"));
  ASSIGN_OR_RETURN(int step, t.Require("step_time"));
  ASSIGN_OR_RETURN(int sync, t.Require("sync_time"));
  ASSIGN_OR_RETURN(int64_t b, t.NonNegativeInt(bsz));
  r.local_bsz = static_cast<int>(std::min<int64_t>(b, 1 << 20));
  ASSIGN_OR_RETURN(r.step_time_s, t.Number(step));
  ASSIGN_OR_RETURN(r.sync_time_s, t.Number(sync));
  if (r.step_time_s <= 0) return t.ColumnError(step, "step time must be positive");
  if (r.sync_time_s < 0) return t.ColumnError(sync, "sync time must not be negative");
  if (placements) {
    ASSIGN_OR_RETURN(int place, t.Require("placement"));
    r.placement = std::string(t.Field(place));
    if (r.placement.empty() || r.placement.size() > 64) return t.ColumnError(place, "expected one digit per node");
    r.replicas = 0;
    for (char c : r.placement) {
      if (c < '1' || c > '9') return t.ColumnError(place, "expected one digit per node");
      r.replicas += c - '0';
    }
    r.nodes = static_cast<int>(r.placement.size());
    return r;
  }
  ASSIGN_OR_RETURN(int nodes, t.Require("num_nodes"));
  ASSIGN_OR_RETURN(int replicas, t.Require("num_replicas"));
  ASSIGN_OR_RETURN(int64_t n, t.NonNegativeInt(nodes));
  ASSIGN_OR_RETURN(int64_t k, t.NonNegativeInt(replicas));
  if (n < 1 || n > 4096) return t.ColumnError(nodes, "must be 1 to 4096");
  if (k < n || k > 1 << 20) return t.ColumnError(replicas, "must be at least num_nodes");
  r.nodes = static_cast<int>(n), r.replicas = static_cast<int>(k);
  return r;
}

Result<SiaEpochRow> ReadEpochRow(CsvTable& t) {
  SiaEpochRow r;
  ASSIGN_OR_RETURN(int progress, t.Require("progress"));
  ASSIGN_OR_RETURN(int sqr, t.Require("grad_sqr"));
  ASSIGN_OR_RETURN(int var, t.Require("grad_var"));
  ASSIGN_OR_RETURN(r.progress, t.Number(progress));
  ASSIGN_OR_RETURN(r.grad_sqr, t.Number(sqr));
  ASSIGN_OR_RETURN(r.grad_var, t.Number(var));
  return r;
}

Status ReadTableFile(const std::filesystem::path& f, SiaAppTables& out) {
  auto [kind, type] = KindAndType(f.stem().string());
  std::ifstream in(f);
  if (!in) return NotFound(f.string() + ": cannot open");
  ASSIGN_OR_RETURN(CsvTable t, CsvTable::Open(in, f.string()));
  while (true) {
    ASSIGN_OR_RETURN(bool more, t.Next());
    if (!more) break;
    if (kind == "validation") {
      int bsz = std::atoi(type.c_str());
      if (bsz <= 0) return InvalidArgument(f.string() + ": expected validation-<batch size>.csv");
      ASSIGN_OR_RETURN(SiaEpochRow r, ReadEpochRow(t));
      out.validation[bsz].push_back(r);
    } else {
      ASSIGN_OR_RETURN(SiaStepRow r, ReadStepRow(t, kind == "placements"));
      (kind == "placements" ? out.placements : out.scalability)[type].push_back(std::move(r));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::map<std::string, SiaAppTables>> LoadSiaAppTables(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return NotFound(dir + ": not a directory");
  std::vector<fs::path> files;
  for (const auto& app : fs::directory_iterator(dir, ec))
    if (app.is_directory())
      for (const auto& f : fs::directory_iterator(app.path(), ec)) {
        auto kind = KindAndType(f.path().stem().string()).first;
        bool known = kind == "placements" || kind == "scalability" || kind == "validation";
        if (known && f.path().extension() == ".csv") files.push_back(f.path());
      }
  std::sort(files.begin(), files.end());
  std::map<std::string, SiaAppTables> out;
  for (const auto& f : files) RETURN_IF_ERROR(ReadTableFile(f, out[f.parent_path().filename().string()]));
  if (out.empty()) return NotFound(dir + ": no Sia profile tables");
  return out;
}

}  // namespace schedmate
