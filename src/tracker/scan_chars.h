// Byte classes and digit runs shared by the field scanner's parts
// (field_scanner.cc, log_line_stamps.cc, scan_key_unit.cc). Internal to
// src/tracker.
#ifndef SCHEDMATE_TRACKER_SCAN_CHARS_H_
#define SCHEDMATE_TRACKER_SCAN_CHARS_H_

#include <cstddef>
#include <string_view>

namespace schedmate::tracker_internal {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool IsAlnum(char c) { return IsDigit(c) || IsAlpha(c); }
inline char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
inline bool IsLowerAlpha(char c) { return c >= 'a' && c <= 'z'; }
inline bool IsUpperAlpha(char c) { return c >= 'A' && c <= 'Z'; }

inline size_t CountDigits(std::string_view s, size_t i) {
  size_t n = 0;
  while (i + n < s.size() && IsDigit(s[i + n])) ++n;
  return n;
}

inline int ParseInt(std::string_view s, size_t i, size_t n) {
  int v = 0;
  for (size_t k = 0; k < n; ++k) v = v * 10 + (s[i + k] - '0');
  return v;
}

}  // namespace schedmate::tracker_internal

#endif  // SCHEDMATE_TRACKER_SCAN_CHARS_H_
