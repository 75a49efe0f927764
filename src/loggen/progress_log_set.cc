#include "loggen/progress_log_set.h"

#include <cmath>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

Json TruthJson(const ProgressLogTruth& t) {
  auto num = [](const std::optional<double>& v) -> Json {
    if (!v) return nullptr;
    if (std::isnan(*v)) return "nan";
    return *v;
  };
  return {{"step", t.step ? Json(*t.step) : Json(nullptr)},
          {"total_steps", t.total_steps ? Json(*t.total_steps) : Json(nullptr)},
          {"step_time_s", num(t.step_time_s)},
          {"throughput", num(t.throughput)},
          {"throughput_unit", t.throughput_unit ? Json(*t.throughput_unit) : Json(nullptr)},
          {"loss", num(t.loss)}};
}

}  // namespace

Result<std::string> WriteProgressLogSet(const std::string& path, const ProgressLogOptions& o) {
  std::string report;
  std::ofstream out(path, std::ios::binary);
  if (!out) return InvalidArgument(path + ": cannot write");
  std::map<std::string, int> per_format;
  int noisy = 0;
  size_t bytes = 0;
  for (const auto& log : GenerateProgressLogs(o)) {
    Json j = {{"id", log.id},
              {"framework", log.format + (log.noisy ? " (noisy)" : "")},
              {"noisy", log.noisy},
              {"log", log.text},
              {"truth", TruthJson(log.truth)}};
    std::string row = DumpJson(j);
    out << row << '\n';
    bytes += row.size() + 1;
    ++per_format[log.format];
    noisy += log.noisy;
  }
  if (!out.flush()) return Unavailable(path + ": write failed");
  report += StrFormat("wrote %s: %d logs (%d noisy), %.1f MB, seed %llu\n", path.c_str(), o.count, noisy, bytes / 1e6,
                      (unsigned long long)o.seed);
  for (const auto& [name, n] : per_format) report += StrFormat("  %-14s %d\n", name.c_str(), n);
  return report;
}

}  // namespace schedmate
