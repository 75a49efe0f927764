#include "history/jsonl_import.h"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {
namespace {

Result<HistoryRecord> RecordFromLine(const Json& j, const std::string& where) {
  ASSIGN_OR_RETURN(HistoryRecord r, RecordFromJson(j, where));
  auto fp = j.find("fingerprint");
  if (fp == j.end() || fp->is_null()) return r;
  if (!fp->is_array()) return InvalidArgument(where + ": fingerprint: expected an array of numbers");
  for (size_t i = 0; i < fp->size(); ++i) {
    if (!(*fp)[i].is_number())
      return InvalidArgument(where + ": fingerprint[" + std::to_string(i) + "]: expected a number");
    r.fingerprint.push_back((*fp)[i].get<float>());
  }
  return r;
}

Status ForEachRecord(const std::string& path, const RecordSink& sink) {
  return ForEachJsonLine(path, [&](const Json& j, const std::string& where) -> Status {
    ASSIGN_OR_RETURN(HistoryRecord r, RecordFromLine(j, where));
    return sink(r);
  });
}

// FNV-1a of the file's bytes and its size: the same file, the same id.
Result<std::string> ContentId(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open");
  uint64_t h = 1469598103934665603ull, size = 0;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) h = (h ^ static_cast<unsigned char>(buf[i])) * 1099511628211ull;
    size += static_cast<uint64_t>(in.gcount());
  }
  char id[48];
  std::snprintf(id, sizeof id, "%016llx-%llu", static_cast<unsigned long long>(h),
                static_cast<unsigned long long>(size));
  return std::string(id);
}

}  // namespace

Result<ImportCounts> ImportJsonl(HistoryStore& store, const std::string& path, bool force) {
  RETURN_IF_ERROR(ForEachRecord(path, [](const HistoryRecord&) { return Status::Ok(); }));
  ImportOptions options;
  options.force = force;
  ASSIGN_OR_RETURN(options.checkpoint_id, ContentId(path));
  if (force) options.checkpoint_id += "-force";  // a forced import does not resume an unforced one
  return store.Import([&](const RecordSink& sink) { return ForEachRecord(path, sink); }, options);
}

}  // namespace schedmate
