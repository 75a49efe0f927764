#include "core/time_format.h"

#include <cstdio>

namespace schedmate {
namespace {

// Reads exactly `n` digits at `pos`, advancing it.
std::optional<int> Digits(std::string_view s, size_t& pos, int n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (int i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  pos += n;
  return v;
}

bool Expect(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Parses "Z", "+HH:MM", "+HHMM", "+HH"; returns the offset in seconds.
std::optional<int64_t> ParseZone(std::string_view s, size_t& pos) {
  if (pos == s.size()) return 0;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
    return 0;
  }
  if (s[pos] != '+' && s[pos] != '-') return std::nullopt;
  int sign = s[pos] == '-' ? -1 : 1;
  ++pos;
  auto hh = Digits(s, pos, 2);
  if (!hh || *hh > 23) return std::nullopt;
  int mm = 0;
  if (pos < s.size()) {
    if (s[pos] == ':') ++pos;
    auto m = Digits(s, pos, 2);
    if (!m || *m > 59) return std::nullopt;
    mm = *m;
  }
  return sign * (*hh * 3600 + mm * 60);
}

}  // namespace

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  // Howard Hinnant's days_from_civil.
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::optional<int64_t> ParseDateTime(std::string_view s) {
  size_t pos = 0;
  auto year = Digits(s, pos, 4);
  if (!year || !Expect(s, pos, '-')) return std::nullopt;
  auto month = Digits(s, pos, 2);
  if (!month || !Expect(s, pos, '-')) return std::nullopt;
  auto day = Digits(s, pos, 2);
  if (!day || pos >= s.size() || (s[pos] != ' ' && s[pos] != 'T'))
    return std::nullopt;
  ++pos;
  auto hour = Digits(s, pos, 2);
  if (!hour || !Expect(s, pos, ':')) return std::nullopt;
  auto minute = Digits(s, pos, 2);
  if (!minute || !Expect(s, pos, ':')) return std::nullopt;
  auto second = Digits(s, pos, 2);
  if (!second) return std::nullopt;
  if (pos < s.size() && s[pos] == '.') {  // fractional seconds: truncated
    ++pos;
    size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return std::nullopt;
  }
  if (*month < 1 || *month > 12 || *day < 1 ||
      *day > DaysInMonth(*year, *month) || *hour > 23 || *minute > 59 ||
      *second > 60)
    return std::nullopt;
  auto zone = ParseZone(s, pos);
  if (!zone || pos != s.size()) return std::nullopt;
  int64_t days = DaysFromCivil(*year, *month, *day);
  int64_t t = days * 86400 + *hour * 3600 + *minute * 60 + *second - *zone;
  // Years 1801..2299 only: traces are modern, and every accepted instant
  // then prints (FormatDateTime) as a string this function parses back.
  static const int64_t kMin = DaysFromCivil(1801, 1, 1) * 86400;
  static const int64_t kMax = DaysFromCivil(2300, 1, 1) * 86400 - 1;
  if (t < kMin || t > kMax) return std::nullopt;
  return t;
}

std::string FormatDateTime(int64_t t) {
  int64_t days = t >= 0 ? t / 86400 : (t - 86399) / 86400;
  int64_t secs = t - days * 86400;
  // civil_from_days
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%04lld-%02u-%02u %02lld:%02lld:%02lld",
                static_cast<long long>(y), m, d,
                static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60),
                static_cast<long long>(secs % 60));
  return buf;
}

std::string FormatIso8601(int64_t unix_seconds) {
  std::string s = FormatDateTime(unix_seconds);
  if (s.size() > 10) s[10] = 'T';
  return s + "Z";
}

}  // namespace schedmate
