#include "tracker/track_json.h"

#include <nlohmann/json.hpp>

#include "core/facts_json.h"

namespace schedmate {

Json TrackJson(const TrackResult& r, double ms) {
  Json j = ToJson(r.report);
  j["lines_used_are_offsets"] = r.lines_are_offsets;
  j["scan"] = {{"lines", r.stats.lines}, {"bytes_read", r.bytes_read}, {"file_bytes", r.file_bytes},
               {"stage1_kept_lines", r.stats.kept_lines}, {"ms", ms}};
  return j;
}

}  // namespace schedmate
