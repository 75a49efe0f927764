#include "failure/diagnosis_json.h"

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

}  // namespace schedmate
