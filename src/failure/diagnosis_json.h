// One diagnosis as JSON — what `schedmate diagnose --json` prints and the
// service's POST /v1/diagnose returns (callers add "log" and "recovery").
#ifndef SCHEDMATE_FAILURE_DIAGNOSIS_JSON_H_
#define SCHEDMATE_FAILURE_DIAGNOSIS_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/json.h"
#include "failure/diagnose.h"

namespace schedmate {

// The diagnosis fields plus "signature", "backend" (who answered) and
// "locate" (how the search went over a log of `log_bytes`, in `ms`).
Json DiagnosisJson(const DiagnoseResult& result, const std::string& answered_by, int64_t log_bytes, double ms);

// The located lines around `root_index` (a diagnosis's root_cause_line_index;
// the window's start when it is not there), at most `max_lines`, each text cut
// to `max_text_bytes`: [{index, text, root}] — what the dashboard shows.
Json LocatedLinesAround(const LineWindow& window, int64_t root_index, size_t max_lines,
                        size_t max_text_bytes = SIZE_MAX);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_DIAGNOSIS_JSON_H_
