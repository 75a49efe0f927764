// Parsing and printing of calendar times found in cluster traces.
// All results are Unix seconds (UTC); times without a zone are taken as UTC,
// which keeps relative times exact (traces are replayed relative to a start).
#ifndef SCHEDMATE_CORE_TIME_FORMAT_H_
#define SCHEDMATE_CORE_TIME_FORMAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace schedmate {

// Days since 1970-01-01 for a proleptic Gregorian date. REQUIRES: valid date.
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d);

// Accepts "YYYY-MM-DD HH:MM:SS", "YYYY-MM-DDTHH:MM:SS", optional fractional
// seconds, and an optional zone suffix "Z", "+HH:MM", "-HHMM".
// Returns nullopt for anything else (including out-of-range fields and
// instants outside the years 1801..2299).
std::optional<int64_t> ParseDateTime(std::string_view text);

// "YYYY-MM-DD HH:MM:SS" in UTC.
std::string FormatDateTime(int64_t unix_seconds);
// ISO 8601, "YYYY-MM-DDTHH:MM:SSZ" (UTC), for output scripts read.
std::string FormatIso8601(int64_t unix_seconds);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_TIME_FORMAT_H_
