// Dates, clocks and the timestamp a logger puts in front of a record, for
// the field scanner (field_scanner.h). Internal to src/tracker.
#ifndef SCHEDMATE_TRACKER_LOG_LINE_STAMPS_H_
#define SCHEDMATE_TRACKER_LOG_LINE_STAMPS_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace schedmate {

struct ScannedLine;

namespace tracker_internal {

// A date at i: "YYYY-MM-DD", "YYYY/MM/DD" (returns its length, sets days).
size_t MatchYmd(std::string_view s, size_t i, int64_t* days);

// "HH:MM:SS[.,fff]" at i; returns its length.
size_t MatchClock(std::string_view s, size_t i, double* seconds, double* resolution);

// A leading timestamp: after optional '>', '[', blanks and one "[tag]"
// ("[titan] 2026-02-24 19:46:17,508", "[11/01 11:27:04 d2…]", "[05:25:00.138]").
// Sets out->timestamp_s and its resolution; returns where the record starts, or 0.
size_t MatchLeadingTimestamp(std::string_view s, ScannedLine* out);

// A full date and clock ("2021-01-15 10:27:59,124") within the first 48
// bytes, after a prefix the leading match does not know: the logger's
// stamp. Returns its end, or 0.
size_t MatchEarlyTimestamp(std::string_view s, ScannedLine* out);

}  // namespace tracker_internal
}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_LOG_LINE_STAMPS_H_
