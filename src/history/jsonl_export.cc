#include "history/jsonl_export.h"

#include <nlohmann/json.hpp>

#include "core/time_format.h"
#include "history/record.h"

namespace schedmate {

Json ExportLine(const HistoryRecord& r) {
  Json j = RecordToJson(r);
  j["fingerprint"] = r.fingerprint;
  return j;
}

Json ListLine(const HistoryRecord& r) {
  Json j = RecordToJson(r);
  j["completed_at"] = FormatIso8601(r.completed_at_s);
  return j;
}

Result<int64_t> ExportJsonl(HistoryStore& store, Env& env, const std::string& path) {
  std::string text;
  int64_t n = 0;
  RETURN_IF_ERROR(store.ForEach([&](const HistoryRecord& r) -> Status {
    text += DumpJson(ExportLine(r));
    text += '\n';
    ++n;
    return Status::Ok();
  }));
  Status s = env.WriteFileAtomic(path, text);
  if (!s.ok()) return s.WithContext(path + ": cannot write");
  return n;
}

}  // namespace schedmate
