// `schedmate history export` and `list`: a store's records as JSON lines.
// The export (RecordToJson plus "fingerprint") is what `history import`
// reads back (history/jsonl_import.h); a file export is written through the
// Env atomically, so a full disk or a crash leaves the previous file whole.
#ifndef SCHEDMATE_HISTORY_JSONL_EXPORT_H_
#define SCHEDMATE_HISTORY_JSONL_EXPORT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/env.h"
#include "core/json.h"
#include "history/store.h"

namespace schedmate {

// One record as `export` writes it (with its fingerprint) or as `list
// --json` prints it (without, with an ISO 8601 completion time).
Json ExportLine(const HistoryRecord& r);
Json ListLine(const HistoryRecord& r);

// Every record's ExportLine to `path`, replacing it atomically; the number written.
Result<int64_t> ExportJsonl(HistoryStore& store, Env& env, const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_JSONL_EXPORT_H_
