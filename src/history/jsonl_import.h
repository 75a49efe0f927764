// `schedmate history import FILE`: the JSONL that `history export` writes
// (RecordToJson plus "fingerprint": [floats]) into a store.
#ifndef SCHEDMATE_HISTORY_JSONL_IMPORT_H_
#define SCHEDMATE_HISTORY_JSONL_IMPORT_H_

#include <string>

#include "history/store.h"

namespace schedmate {

// Every line is checked before the first write, so a malformed line (named
// "path:line: field") imports nothing on any backend; then the records go
// through HistoryStore::Import — one transaction in SQLite, checkpointed
// chunks in Redis, whose checkpoint is named after the file's bytes so the
// same file, imported again after a failure, resumes. A record whose job is
// stored with a later completion is skipped unless `force`.
Result<ImportCounts> ImportJsonl(HistoryStore& store, const std::string& path, bool force);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_JSONL_IMPORT_H_
