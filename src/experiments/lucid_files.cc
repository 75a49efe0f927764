#include "experiments/lucid_files.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/data_paths.h"
#include "core/json.h"
#include "core/str_format.h"
#include "sim/outputs.h"

namespace schedmate {
namespace {

// "lucid+schedmate" → "lucid_schedmate", "undo threshold 0.3" → "undo_threshold_0.3".
std::string FileLabel(const std::string& label) {
  std::string out;
  for (char c : label) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return out;
}

}  // namespace

Result<LucidExperimentConfig> ReadLucidConfigFile(const std::string& path, const std::string& shared_flag) {
  ASSIGN_OR_RETURN(Json j, ReadJsonFile(path));
  ASSIGN_OR_RETURN(LucidExperimentConfig c, LucidConfigFromJson(j, path));
  if (!c.shared.empty() && shared_flag.empty()) {
    ASSIGN_OR_RETURN(c.shared, ResolveConfigPath(c.shared, path, "shared", SharedDir{}));
  }
  ASSIGN_OR_RETURN(c.trace_path, ResolveConfigPath(c.trace_path, path, "trace.path",
                                                   FindSharedDir(shared_flag.empty() ? c.shared : shared_flag)));
  return c;
}

std::vector<LucidVariant> LucidAblations() {
  std::vector<LucidVariant> v;
  auto add = [&](std::string label, auto edit) {
    LucidVariant x;
    x.label = std::move(label);
    edit(x);
    v.push_back(x);
  };
  add("lucid+schedmate", [](LucidVariant&) {});
  add("advisor only", [](LucidVariant& x) { x.schedmate.use_tracker = false; });
  add("tracker only", [](LucidVariant& x) { x.schedmate.use_advisor = x.schedmate.write_back = false; });
  for (double t : {0.3, 0.7, 0.9})
    add(StrFormat("undo threshold %.1f", t), [t](LucidVariant& x) { x.undo_threshold = t; });
  for (double d : {0.0, 0.25, 0.5, 0.6, 0.75})
    add(StrFormat("detection %.2f", d), [d](LucidVariant& x) { x.schedmate.detection_rate = d; });
  for (double h : {0.25, 0.5, 0.75})
    add(StrFormat("hit rate x%.2f", h), [h](LucidVariant& x) { x.schedmate.hit_rate_scale = h; });
  add("LLM advisor (9 s)", [](LucidVariant& x) { x.schedmate.advisor_latency_s = 9; });
  return v;
}

Status WriteLucidOutputs(const LucidComparison& c, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::vector<PolicyRun> runs;
  for (const auto& run : c.runs) runs.push_back(run.run);
  std::ofstream(dir + "/summary.json") << DumpJson(LucidComparisonToJson(c), 2) << "\n";
  std::ofstream(dir + "/table.txt") << FormatLucidTable(c);
  RETURN_IF_ERROR(WritePlots(runs, dir, c.setting));
  for (const PolicyRun& run : runs)
    RETURN_IF_ERROR(WriteJobsCsvFile(run.result, dir + "/" + FileLabel(run.summary.policy) + "_jobs.csv"));
  return Status::Ok();
}

}  // namespace schedmate
