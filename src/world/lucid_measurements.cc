#include "world/lucid_measurements.h"

#include <fstream>

#include "traces/csv_table.h"

namespace schedmate {
namespace {

Result<WorkloadKey> ReadKey(const CsvTable& t, const std::string& suffix) {
  WorkloadKey k;
  ASSIGN_OR_RETURN(int model, t.Require("model" + suffix));
  ASSIGN_OR_RETURN(int dataset, t.Require("dataset" + suffix));
  ASSIGN_OR_RETURN(int batch, t.Require("batchsize" + suffix));
  ASSIGN_OR_RETURN(int amp, t.Require("amp" + suffix));
  k.model = std::string(t.Field(model));
  k.dataset = std::string(t.Field(dataset));
  ASSIGN_OR_RETURN(int64_t b, t.NonNegativeInt(batch));
  ASSIGN_OR_RETURN(int64_t a, t.NonNegativeInt(amp));
  if (a > 1) return t.ColumnError(amp, "expected 0 or 1");
  k.batch_size = static_cast<int>(b);
  k.amp = a == 1;
  return k;
}

}  // namespace

Result<LucidMeasurements> LucidMeasurements::Load(const std::string& dir) {
  LucidMeasurements m;
  {
    std::string path = dir + "/single_data.csv";
    std::ifstream in(path);
    if (!in) return NotFound(path + ": cannot open");
    ASSIGN_OR_RETURN(CsvTable t, CsvTable::Open(in, path));
    ASSIGN_OR_RETURN(int speed, t.Require("speed"));
    ASSIGN_OR_RETURN(int util, t.Require("gpu_util"));
    ASSIGN_OR_RETURN(int mutil, t.Require("gmem_util"));
    ASSIGN_OR_RETURN(int mem, t.Require("gmem"));
    ASSIGN_OR_RETURN(int label, t.Require("label"));
    while (true) {
      ASSIGN_OR_RETURN(bool more, t.Next());
      if (!more) break;
      SoloMeasure s;
      ASSIGN_OR_RETURN(s.key, ReadKey(t, ""));
      ASSIGN_OR_RETURN(s.speed, t.Number(speed));
      ASSIGN_OR_RETURN(s.gpu_util, t.Number(util));
      ASSIGN_OR_RETURN(s.gmem_util, t.Number(mutil));
      ASSIGN_OR_RETURN(s.gmem_mib, t.Number(mem));
      ASSIGN_OR_RETURN(int64_t l, t.NonNegativeInt(label));
      s.label = static_cast<int>(l);
      m.solo_index_[s.key] = m.solo_.size();
      m.solo_.push_back(std::move(s));
    }
  }
  {
    std::string path = dir + "/colocate_info.csv";
    std::ifstream in(path);
    if (!in) return NotFound(path + ": cannot open");
    ASSIGN_OR_RETURN(CsvTable t, CsvTable::Open(in, path));
    ASSIGN_OR_RETURN(int g1, t.Require("gpu_num1"));
    ASSIGN_OR_RETURN(int g2, t.Require("gpu_num2"));
    ASSIGN_OR_RETURN(int s1, t.Require("speed1"));
    ASSIGN_OR_RETURN(int s2, t.Require("speed2"));
    ASSIGN_OR_RETURN(int util, t.Require("gpu_util"));
    ASSIGN_OR_RETURN(int mutil, t.Require("gmem_util"));
    ASSIGN_OR_RETURN(int mem, t.Require("gmem"));
    while (true) {
      ASSIGN_OR_RETURN(bool more, t.Next());
      if (!more) break;
      PairMeasure p;
      ASSIGN_OR_RETURN(p.a, ReadKey(t, "1"));
      ASSIGN_OR_RETURN(p.b, ReadKey(t, "2"));
      ASSIGN_OR_RETURN(int64_t ga, t.NonNegativeInt(g1));
      ASSIGN_OR_RETURN(int64_t gb, t.NonNegativeInt(g2));
      p.gpus_a = static_cast<int>(ga);
      p.gpus_b = static_cast<int>(gb);
      ASSIGN_OR_RETURN(p.speed_a, t.Number(s1));
      ASSIGN_OR_RETURN(p.speed_b, t.Number(s2));
      if (p.speed_a < 0 || p.speed_b < 0) return t.RowError("negative relative speed");
      ASSIGN_OR_RETURN(p.gpu_util, t.Number(util));
      ASSIGN_OR_RETURN(p.gmem_util, t.Number(mutil));
      ASSIGN_OR_RETURN(p.gmem_mib, t.Number(mem));
      m.pairs_.push_back(std::move(p));
    }
  }
  return m;
}

const SoloMeasure* LucidMeasurements::Solo(const WorkloadKey& k) const {
  auto it = solo_index_.find(k);
  return it == solo_index_.end() ? nullptr : &solo_[it->second];
}

std::optional<std::pair<double, double>> LucidMeasurements::PairSpeed(const WorkloadKey& a,
                                                                      const WorkloadKey& b) const {
  double sa = 0, sb = 0;
  int n = 0;
  for (const auto& p : pairs_) {
    if (p.a == a && p.b == b) {
      sa += p.speed_a;
      sb += p.speed_b;
      ++n;
    } else if (p.a == b && p.b == a) {
      sa += p.speed_b;
      sb += p.speed_a;
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return std::make_pair(sa / n, sb / n);
}

std::optional<double> LucidMeasurements::AveragePairedSpeed(const WorkloadKey& a) const {
  double sum = 0;
  int n = 0;
  for (const auto& p : pairs_) {
    if (p.a == a) {
      sum += p.speed_a;
      ++n;
    }
    if (p.b == a) {
      sum += p.speed_b;
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

}  // namespace schedmate
