// Timestamps of log lines: dates (Y-M-D, M/D, M/D/Y), clocks, glog's
// "I1011 13:38:08.128839 tid file.py:35]" prefix, and a logger's stamp a
// little way into the line.
#include "tracker/log_line_stamps.h"

#include <algorithm>
#include <cmath>

#include "tracker/field_scanner.h"
#include "tracker/scan_chars.h"

namespace schedmate::tracker_internal {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

// A date at i: "YYYY-MM-DD", "YYYY/MM/DD" (returns its length, sets days).
size_t MatchYmd(std::string_view s, size_t i, int64_t* days) {
  if (CountDigits(s, i) != 4 || i + 10 > s.size()) return 0;
  char sep = s[i + 4];
  if ((sep != '-' && sep != '/') || s[i + 7] != sep) return 0;
  if (CountDigits(s, i + 5) != 2 || CountDigits(s, i + 8) != 2) return 0;
  int m = ParseInt(s, i + 5, 2), d = ParseInt(s, i + 8, 2);
  if (m < 1 || m > 12 || d < 1 || d > 31) return 0;
  *days = DaysFromCivil(ParseInt(s, i, 4), m, d);
  return 10;
}

namespace {

// "MM/DD" without a year (detectron2, PaddleDetection): ordered within a
// year; "MM/DD/YYYY" (Python logging's "%m/%d/%Y", the HF examples' format).
size_t MatchMd(std::string_view s, size_t i, int64_t* days) {
  if (CountDigits(s, i) != 2 || i + 5 > s.size() || s[i + 2] != '/') return 0;
  if (CountDigits(s, i + 3) != 2) return 0;
  int m = ParseInt(s, i, 2), d = ParseInt(s, i + 3, 2);
  if (m < 1 || m > 12 || d < 1 || d > 31) return 0;
  if (i + 10 <= s.size() && s[i + 5] == '/' && CountDigits(s, i + 6) == 4) {
    *days = DaysFromCivil(ParseInt(s, i + 6, 4), m, d);
    return 10;
  }
  *days = m * 31 + d;
  return 5;
}

}  // namespace

// "HH:MM:SS[.,fff]" at i; returns its length.
size_t MatchClock(std::string_view s, size_t i, double* seconds, double* resolution) {
  if (CountDigits(s, i) != 2 || i + 8 > s.size()) return 0;
  if (s[i + 2] != ':' || s[i + 5] != ':') return 0;
  if (CountDigits(s, i + 3) != 2 || CountDigits(s, i + 6) != 2) return 0;
  *seconds = ParseInt(s, i, 2) * 3600.0 + ParseInt(s, i + 3, 2) * 60.0 + ParseInt(s, i + 6, 2);
  *resolution = 1;
  size_t n = 8;
  if (i + n < s.size() && (s[i + n] == '.' || s[i + n] == ',')) {
    size_t frac = CountDigits(s, i + n + 1);
    if (frac > 0) {
      double scale = 0.1;
      for (size_t k = 0; k < frac && k < 9; ++k, scale /= 10)
        *seconds += (s[i + n + 1 + k] - '0') * scale;
      *resolution = std::pow(10.0, -static_cast<double>(std::min<size_t>(frac, 9)));
      n += 1 + frac;
    }
  }
  return n;
}

namespace {

// glog's thread id and source after its stamp (" 140115512289024
// logging_writer.py:35]") belong to the prefix, not the record: returns
// where the record starts.
size_t MatchGlogSource(std::string_view s, size_t i) {
  size_t k = i;
  while (k < s.size() && s[k] == ' ') ++k;
  size_t tid = CountDigits(s, k);
  if (tid == 0 || k + tid >= s.size() || s[k + tid] != ' ') return i;
  size_t end = s.find(']', k + tid + 1);
  if (end == std::string_view::npos || end - k > 96) return i;
  std::string_view source = s.substr(k + tid + 1, end - k - tid - 1);
  size_t colon = source.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == source.size() || source.find(' ') != std::string_view::npos ||
      CountDigits(source, colon + 1) != source.size() - colon - 1)
    return i;
  return end + 1;
}

}  // namespace

// A leading timestamp: after optional '>', '[', blanks and one "[tag]"
// ("[titan] 2026-02-24 19:46:17,508", "[11/01 11:27:04 d2…]", "[05:25:00.138]").
size_t MatchLeadingTimestamp(std::string_view s, ScannedLine* out) {
  size_t i = 0;
  auto skip_open = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '>' || s[i] == '[' || s[i] == '\t')) ++i;
  };
  skip_open();
  for (int tags = 0; tags < 3 && i < s.size() && IsAlpha(s[i]); ++tags) {  // bracketed tags: "[rank0]:[titan]"
    size_t j = i;
    while (j < s.size() && j - i < 24 && (IsAlnum(s[j]) || s[j] == '_')) ++j;
    if (j < s.size() && s[j] == ']' && i > 0 && s[i - 1] == '[') {
      i = j + 1;
      if (i < s.size() && s[i] == ':') ++i;
      skip_open();
    } else {
      break;
    }
  }
  int64_t days = 0;
  // glog / absl: "I1011 13:38:08.128839 140115512289024 file.py:35]".
  if (i + 6 < s.size() && (s[i] == 'I' || s[i] == 'W' || s[i] == 'E' || s[i] == 'F') && CountDigits(s, i + 1) == 4 &&
      s[i + 5] == ' ') {
    int m = ParseInt(s, i + 1, 2), d = ParseInt(s, i + 3, 2);
    double sec = 0, res = 1;
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31)
      if (size_t clock = MatchClock(s, i + 6, &sec, &res); clock > 0) {
        out->timestamp_s = (m * 31 + d) * 86400.0 + sec;
        out->timestamp_resolution_s = res;
        return MatchGlogSource(s, i + 6 + clock);
      }
  }
  size_t date = MatchYmd(s, i, &days);
  // "19-08-09 08:27:27.746" (BasicSR): a two-digit year, only before a clock.
  if (date == 0 && CountDigits(s, i) == 2 && i + 11 < s.size() && s[i + 2] == '-' && s[i + 5] == '-' &&
      CountDigits(s, i + 3) == 2 && CountDigits(s, i + 6) == 2 && s[i + 8] == ' ' && CountDigits(s, i + 9) == 2 &&
      s[i + 11] == ':') {
    int m = ParseInt(s, i + 3, 2), d = ParseInt(s, i + 6, 2);
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
      days = DaysFromCivil(2000 + ParseInt(s, i, 2), m, d);
      date = 8;
    }
  }
  if (date == 0) date = MatchMd(s, i, &days);
  // "09-24 22:50:46": month and day with a dash, only before a clock.
  if (date == 0 && CountDigits(s, i) == 2 && i + 8 < s.size() && s[i + 2] == '-' && CountDigits(s, i + 3) == 2 &&
      s[i + 5] == ' ' && CountDigits(s, i + 6) == 2 && s[i + 8] == ':') {
    int m = ParseInt(s, i, 2), d = ParseInt(s, i + 3, 2);
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
      days = m * 31 + d;
      date = 5;
    }
  }
  size_t t = i;
  if (date > 0) {
    t = i + date;
    if (t >= s.size() || (s[t] != ' ' && s[t] != 'T')) return 0;
    ++t;
  }
  double sec = 0, res = 1;
  size_t clock = MatchClock(s, t, &sec, &res);
  if (clock == 0) return 0;
  out->timestamp_s = static_cast<double>(days) * 86400.0 + sec;
  out->timestamp_resolution_s = res;
  return t + clock;
}

// A full date and clock ("2021-01-15 10:27:59,124") within the first 48
// bytes, after a prefix the leading match does not know ("Training: ",
// "[INFO|trainer_tf.py:527] "): the logger's stamp. Returns its end, or 0.
size_t MatchEarlyTimestamp(std::string_view s, ScannedLine* out) {
  for (size_t i = 1; i + 19 <= s.size() && i < 48; ++i) {
    if (!IsDigit(s[i]) || IsDigit(s[i - 1])) continue;
    // The prefix is a logger's, not a record's: no number outside brackets.
    int depth = 0;
    bool numbers = false;
    for (size_t k = 0; k < i; ++k) {
      depth += s[k] == '[' ? 1 : s[k] == ']' ? -1 : 0;
      numbers = numbers || (depth <= 0 && IsDigit(s[k]));
    }
    if (numbers) return 0;
    int64_t days = 0;
    size_t date = MatchYmd(s, i, &days);
    if (date == 0 || i + date >= s.size() || (s[i + date] != ' ' && s[i + date] != 'T')) continue;
    double sec = 0, res = 1;
    size_t clock = MatchClock(s, i + date + 1, &sec, &res);
    if (clock == 0) continue;
    out->timestamp_s = static_cast<double>(days) * 86400.0 + sec;
    out->timestamp_resolution_s = res;
    return i + date + 1 + clock;
  }
  return 0;
}

}  // namespace schedmate::tracker_internal
