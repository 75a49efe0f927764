#include "failure/diagnosis_json.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/facts_json.h"

namespace schedmate {

Json DiagnosisJson(const DiagnoseResult& r, const std::string& answered_by, int64_t log_bytes, double ms) {
  Json j = ToJson(r.diagnosis);
  j["signature"] = r.signature_id;
  j["backend"] = answered_by;
  j["locate"] = {{"searched", r.located.searched}, {"path", r.located.path},
                 {"background_templates", r.located.background.size()}, {"probes", r.located.probes},
                 {"bytes_read", r.located.bytes_read}, {"file_bytes", log_bytes},
                 {"lines_are_offsets", r.located.lines_are_offsets},
                 {"context_lines", r.located.window.size()}, {"ms", ms}};
  return j;
}

Json LocatedLinesAround(const LineWindow& window, int64_t root_index, size_t max_lines, size_t max_text_bytes) {
  auto root = std::find_if(window.begin(), window.end(), [&](const auto& l) { return l.first == root_index; });
  const size_t half = max_lines / 2;
  size_t center = root == window.end() ? 0 : static_cast<size_t>(root - window.begin());
  size_t first = center > half ? center - half : 0;
  size_t last = std::min(window.size(), first + max_lines);
  Json lines = Json::array();
  for (size_t i = first; i < last; ++i)
    lines.push_back({{"index", window[i].first},
                     {"text", window[i].second.substr(0, max_text_bytes)},
                     {"root", window[i].first == root_index}});
  return lines;
}

}  // namespace schedmate
