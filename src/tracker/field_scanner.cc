// The field scanner proper: the Scanner walks one line and reads each
// number with its key, unit, counter total, range end or composite
// duration; then records' boundaries (logger prefixes, glued records).
// Timestamps are read by log_line_stamps.cc, keys and units by scan_key_unit.cc.
#include "tracker/field_scanner.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "tracker/log_line_stamps.h"
#include "tracker/scan_chars.h"
#include "tracker/scan_key_unit.h"

namespace schedmate {
namespace {

using namespace tracker_internal;

bool IsBarByte(std::string_view s, size_t i) {
  // U+2580..U+259F block elements (tqdm), U+2501 heavy horizontal (rich).
  if (i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xE2) {
    unsigned char b1 = static_cast<unsigned char>(s[i + 1]);
    unsigned char b2 = static_cast<unsigned char>(s[i + 2]);
    if (b1 == 0x96 && b2 >= 0x80 && b2 <= 0x9F) return true;
    if (b1 == 0x94 && (b2 == 0x81 || b2 == 0x80)) return true;
  }
  if (s.compare(i, 2, "%|") == 0) return true;
  if (s.compare(i, 3, "[==") == 0 || s.compare(i, 3, "[>>") == 0 ||
      s.compare(i, 3, "==>") == 0 || s.compare(i, 3, "===") == 0)
    return true;
  return false;
}

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  ScannedLine Run() {
    ScannedLine out;
    prev_end_ = MatchLeadingTimestamp(s_, &out);
    if (prev_end_ == 0) prev_end_ = MatchEarlyTimestamp(s_, &out);
    size_t i = prev_end_;
    out_ = &out;
    while (i < s_.size()) {
      char c = s_[i];
      if (!out.has_bar && IsBarByte(s_, i)) out.has_bar = true;
      if (IsDigit(c) || (c == '-' && i + 1 < s_.size() && IsDigit(s_[i + 1]) && NumberBoundary(i)) ||
          (c == '.' && i + 1 < s_.size() && IsDigit(s_[i + 1]) && NumberBoundary(i))) {
        i = Number(i);
      } else if (IsAlpha(c)) {
        i = Word(i);
      } else {
        ++i;
      }
    }
    return out;
  }

 private:
  bool NumberBoundary(size_t i) const {
    if (i == 0) return true;
    char p = s_[i - 1];
    return !IsAlnum(p) && p != '_' && p != '.' && p != '-';
  }

  size_t SkipToken(size_t i) {
    while (i < s_.size() && (IsAlnum(s_[i]) || s_[i] == '.' || s_[i] == '_' ||
                             s_[i] == ':' || s_[i] == '-' || s_[i] == '/'))
      ++i;
    prev_end_ = i;
    return i;
  }

  size_t Word(size_t i) {
    size_t j = i;
    while (j < s_.size() && IsAlpha(s_[j])) ++j;
    bool glued_before = i > 0 && (s_[i - 1] == '_' || IsDigit(s_[i - 1]) || (s_[i - 1] == '/' && i > 1 && IsAlpha(s_[i - 2])));
    // A namespace ("validation/main/loss") is part of a key, not a word of the record.
    bool glued_after = j < s_.size() && (s_[j] == '_' || IsDigit(s_[j]) || (s_[j] == '/' && j + 1 < s_.size() && IsAlpha(s_[j + 1])));
    std::string w;
    for (size_t k = i; k < j; ++k) w += Lower(s_[k]);
    if (!glued_before && !glued_after && out_->words.size() < 256) out_->words.push_back(w);
    if ((w == "nan" || w == "inf") && !glued_before && !glued_after && NanValue(i, j)) {
      ScannedField f;
      ExtractKey(s_.substr(prev_end_, i - prev_end_), &f);
      f.value = w == "nan" ? std::nan("") : HUGE_VAL;
      if (i > 0 && s_[i - 1] == '-') f.value = -f.value;
      out_->fields.push_back(std::move(f));
      prev_end_ = j;
    }
    // A step noun glued to its number ("iteration1300", "iter50") keys it;
    // other words glued to digits ("default7", "s0") are skipped with them.
    bool spaced = i == 0 || s_[i - 1] == ' ' || s_[i - 1] == '\t';  // not a path's "/step1000/"
    if (spaced && j < s_.size() && IsDigit(s_[j]) && (w == "iteration" || w == "iter" || w == "step"))
      return Number(j, /*glued=*/true);
    while (j < s_.size() && (IsAlnum(s_[j]) || s_[j] == '_')) ++j;
    return j;
  }

  // "loss nan," / "'loss': nan}" / "loss: nan loss_cls" — but not
  // Megatron's "number of nan iterations".
  bool NanValue(size_t i, size_t j) const {
    if (i == 0) return false;
    char p = s_[i - 1];
    if (p != ' ' && p != ':' && p != '=' && p != '\'' && p != '"' && p != '-' && p != '\t') return false;
    size_t k = i;
    while (k > 0 && (s_[k - 1] == ' ' || s_[k - 1] == '\t')) --k;
    if (k > 0 && (s_[k - 1] == ':' || s_[k - 1] == '=' || s_[k - 1] == '\'' || s_[k - 1] == '"')) return true;
    if (j >= s_.size()) return true;
    char n = s_[j];
    if (n == ' ' || n == '\t') return j + 1 >= s_.size() || !IsAlpha(s_[j + 1]);
    return n == ',' || n == '}' || n == ')' || n == '|' || n == '\'' || n == '"' || n == ']';
  }

  size_t Number(size_t start, bool glued = false) {
    if (!glued && !NumberBoundary(start)) return SkipToken(start);
    size_t i = start;
    bool negative = s_[i] == '-';
    if (negative) ++i;
    int64_t days;
    if (size_t date = MatchYmd(s_, i, &days); date > 0) {
      StampColumn(start, i + date, days);
      return SkipToken(i);
    }
    size_t int_digits = CountDigits(s_, i);
    std::string digits(s_.substr(i, int_digits));
    i += int_digits;
    // Thousands groups: "10,050" (not "1,2" or "0.0, 1").
    while (int_digits > 0 && int_digits <= 3 && i + 4 <= s_.size() && s_[i] == ',' &&
           CountDigits(s_, i + 1) == 3 && (i + 4 >= s_.size() || !IsDigit(s_[i + 4]))) {
      digits.append(s_.substr(i + 1, 3));
      i += 4;
    }
    if (i < s_.size() && s_[i] == ':' && i + 1 < s_.size() && IsDigit(s_[i + 1])) {
      // A clock since the start under an elapsed key ("ELAP: 4:34:09",
      // "Elapsed Time: 00:00:56") is a duration in seconds; other clocks
      // (bars' "[08:14<10:03", ETAs, times of day) are not fields.
      if (!negative) {
        if (size_t end = ElapsedClock(start, i); end > 0) return end;
      }
      return SkipToken(start);  // clock "0:21:08", "13:02:24"
    }
    bool integer = true;
    if (i + 1 < s_.size() && s_[i] == '.' && IsDigit(s_[i + 1])) {
      integer = false;
      size_t frac = CountDigits(s_, i + 1);
      digits.append(s_.substr(i, frac + 1));
      i += 1 + frac;
      if (i + 1 < s_.size() && s_[i] == '.' && IsDigit(s_[i + 1])) return SkipToken(start);  // 1.2.3
    } else if (int_digits == 0) {
      return SkipToken(start);
    }
    if (i + 1 < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
      size_t k = i + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      size_t ed = CountDigits(s_, k);
      if (ed > 0 && (k + ed >= s_.size() || !IsAlpha(s_[k + ed]))) {
        digits.append(s_.substr(i, k + ed - i));
        integer = false;
        i = k + ed;
      }
    }
    ScannedField f;
    f.integer = integer;
    f.value = std::strtod(digits.c_str(), nullptr) * (negative ? -1 : 1);
    std::string_view before = s_.substr(prev_end_, start - prev_end_);
    ExtractKey(before, &f);
    f.follows_bar = FollowsBar(before);
    i = Counter(i, integer, &f);
    i = RangeEnd(i, integer, &f);
    i = NounAfter(i, integer, start, &f);
    i = Unit(i, &f);
    i = CompositeDuration(i, &f);
    if (i < s_.size() && IsDigit(s_[i])) return SkipToken(start);  // "3dgrut"
    // "10233 s elapsed", "3.70 seconds elapsed": a clock named after its value.
    if (f.key.empty() && !f.unit.empty() && s_.compare(i, 8, " elapsed") == 0) f.key = "elapsed";
    if (f.unit == "it" && s_.compare(i, 2, " [") == 0) f.follows_bar = true;  // tqdm without a total: "1086it [01:06"
    f.bracketed = !f.total && start > 0 && s_[start - 1] == '[' && i < s_.size() && s_[i] == ']';
    out_->fields.push_back(std::move(f));
    prev_end_ = i;
    return i;
  }

  // "H:MM:SS" or "H:MM:SS.ff" at `start` (`colon` is its first ':') after
  // a key that names an elapsed clock and no epoch: the field's end, else 0.
  size_t ElapsedClock(size_t start, size_t colon) {
    size_t h = colon - start;
    if (h == 0 || h > 3 || CountDigits(s_, colon + 1) != 2 || colon + 3 >= s_.size() || s_[colon + 3] != ':' ||
        CountDigits(s_, colon + 4) != 2)
      return 0;
    size_t end = colon + 6;
    double seconds = std::strtod(std::string(s_.substr(start, h)).c_str(), nullptr) * 3600 +
                     std::strtod(std::string(s_.substr(colon + 1, 2)).c_str(), nullptr) * 60 +
                     std::strtod(std::string(s_.substr(colon + 4, 2)).c_str(), nullptr);
    bool whole = true;
    if (end + 1 < s_.size() && s_[end] == '.' && IsDigit(s_[end + 1])) {
      size_t frac = CountDigits(s_, end + 1);
      seconds += std::strtod(std::string(s_.substr(end, frac + 1)).c_str(), nullptr);
      end += 1 + frac;
      whole = false;
    }
    if (end < s_.size() && (IsAlnum(s_[end]) || s_[end] == ':')) return 0;
    std::string_view before = s_.substr(prev_end_, start - prev_end_);
    size_t e = before.size();
    while (e > 0 && before[e - 1] == ' ') --e;
    if (e == 0 || (before[e - 1] != ':' && before[e - 1] != '=')) return 0;
    ScannedField f;
    ExtractKey(before, &f);
    bool elapsed = false;
    for (size_t b = 0; b < f.key.size();) {
      size_t sp = f.key.find(' ', b);
      if (sp == std::string::npos) sp = f.key.size();
      std::string_view w = std::string_view(f.key).substr(b, sp - b);
      if (w == "elapsed" || w == "elap") elapsed = true;
      if (w == "epoch" || w == "eta" || w == "remaining" || w == "left") return 0;
      b = sp + 1;
    }
    if (!elapsed) return 0;
    f.value = seconds;
    f.integer = whole;
    f.unit = "s";
    out_->fields.push_back(std::move(f));
    prev_end_ = end;
    return end;
  }

  // A date and clock under a stamp's name ("created_at: 2025-11-07
  // 07:24:14.26", a CSV logger's column), or ending the line ("… loss 5.3
  // [2019-03-22 21:51:27]"), stamps a record that has none.
  void StampColumn(size_t start, size_t date_end, int64_t days) {
    if (out_->timestamp_s || date_end >= s_.size() || (s_[date_end] != ' ' && s_[date_end] != 'T')) return;
    ScannedField named;
    ExtractKey(s_.substr(prev_end_, start - prev_end_), &named);
    double sec = 0, res = 1;
    size_t clock = MatchClock(s_, date_end + 1, &sec, &res);
    if (clock == 0) return;
    size_t rest = date_end + 1 + clock;
    while (rest < s_.size() && (s_[rest] == ']' || s_[rest] == ')' || s_[rest] == ' ' || s_[rest] == '\t')) ++rest;
    bool ends_line = rest >= s_.size() && !out_->fields.empty();
    if (!ends_line && named.key != "created at" && named.key != "timestamp" && named.key != "time" &&
        named.key != "datetime")
      return;
    out_->timestamp_s = static_cast<double>(days) * 86400.0 + sec;
    out_->timestamp_resolution_s = res;
  }

  // The text before a value ends a drawn bar: "██████| ", "━━━━ ", or an
  // empty tqdm bar "  3%|          | ".
  static bool FollowsBar(std::string_view before) {
    size_t e = before.size();
    while (e > 0 && before[e - 1] == ' ') --e;
    if (e > 0 && before[e - 1] == '|') {
      if (before.substr(0, e - 1).find('|') != std::string_view::npos) return true;  // "|    |"
      --e;
    }
    while (e > 0 && before[e - 1] == ' ') --e;  // tqdm pads the bar
    return e >= 3 && IsBarByte(before, e - 3);
  }

  // A range of steps ("Batch [0-240]", "minibatches 110-119"): the value is
  // its end, the step reached. Only whole numbers, the end not below the
  // start, and no third part ("1-2-3").
  size_t RangeEnd(size_t i, bool integer, ScannedField* f) {
    if (!integer || f->total || f->key.empty() || i + 1 >= s_.size() || s_[i] != '-') return i;
    size_t n = CountDigits(s_, i + 1);
    if (n == 0 || n > 15) return i;
    size_t after = i + 1 + n;
    if (after < s_.size() &&
        (s_[after] == '-' || s_[after] == '.' || s_[after] == ':' || s_[after] == '/' || IsDigit(s_[after])))
      return i;
    double end = std::strtod(std::string(s_.substr(i + 1, n)).c_str(), nullptr);
    if (end < f->value) return i;
    f->value = end;
    return after;
  }

  // A count named after it ("finished 1000 iteration", "after 1200
  // iterations,"): the step noun is its key. Not in parentheses ("84.5s(100
  // iters)" counts the interval) and not before a key of its own ("1000
  // steps: …").
  size_t NounAfter(size_t i, bool integer, size_t start, ScannedField* f) {
    if (!integer || f->total || !f->unit.empty() || i >= s_.size() || s_[i] != ' ') return i;
    if (start > 0 && s_[start - 1] == '(') return i;
    size_t w = i + 1, k = w;
    while (k < s_.size() && IsAlpha(s_[k])) ++k;
    std::string word;
    for (size_t j = w; j < k; ++j) word += Lower(s_[j]);
    if (word != "iteration" && word != "iterations" && word != "iter" && word != "iters" && word != "step" &&
        word != "steps")
      return i;
    if (k < s_.size() && s_[k] != ',' && s_[k] != '.' && s_[k] != ';' && s_[k] != ')') return i;
    if (k < s_.size() && s_[k] == '.' && k + 1 < s_.size() && IsDigit(s_[k + 1])) return i;
    f->key = "iteration";
    return k;
  }

  // "650 / 1891", "[19/678]": an integer over an integer.
  size_t Counter(size_t i, bool integer, ScannedField* f) {
    if (!integer) return i;
    size_t k = i;
    while (k < s_.size() && s_[k] == ' ') ++k;
    if (k >= s_.size() || s_[k] != '/') return i;
    ++k;
    while (k < s_.size() && s_[k] == ' ') ++k;
    size_t n = CountDigits(s_, k);
    if (n == 0 || n > 15) return i;
    size_t after = k + n;
    // "31/3489:" ends a counter; "1/2:30" and "3/4.5" are no counters.
    bool clock_after = s_[after] == ':' && after + 1 < s_.size() && IsDigit(s_[after + 1]);
    if (after < s_.size() && (s_[after] == '/' || s_[after] == '.' || clock_after || IsAlpha(s_[after])))
      return i;
    f->total = std::strtod(std::string(s_.substr(k, n)).c_str(), nullptr);
    return after;
  }

  size_t Unit(size_t i, ScannedField* f) {
    size_t k = i;
    while (k < s_.size() && IsUnitChar(s_[k]) && k - i < 24) ++k;
    if (k > i) {
      std::string unit(s_.substr(i, k - i));
      k = SpacedDenominator(k, &unit);
      if (f->unit.empty()) f->unit = std::move(unit);
      return k;
    }
    if (i < s_.size() && s_[i] == ' ') {
      size_t w = i + 1;
      k = w;
      while (k < s_.size() && IsUnitChar(s_[k]) && k - w < 24) ++k;
      std::string_view word = s_.substr(w, k - w);
      // A word before '=' or ':' is the next field's key ("loss=0.21 step/sec=4.6").
      bool ends = k >= s_.size() || (!IsDigit(s_[k]) && s_[k] != '=' && s_[k] != ':');
      if (ends && IsKnownSpacedUnit(word)) {
        if (f->unit.empty()) f->unit = std::string(word);
        return k;
      }
    }
    return i;
  }

  // A duration written in parts ("50s 169ms", "01h 29m 27s", "1h29m"):
  // one value in seconds. Each part's unit is smaller than the one before.
  size_t CompositeDuration(size_t i, ScannedField* f) const {
    double scale = DurationUnitSeconds(f->unit);
    if (scale <= 0 || scale < 1 || f->total) return i;
    double seconds = f->value * scale;
    size_t end = i;
    while (true) {
      size_t j = end;
      if (j < s_.size() && s_[j] == ' ') ++j;
      size_t digits = CountDigits(s_, j);
      if (digits == 0 || digits > 4) break;
      size_t k = j + digits;
      if (k + 1 < s_.size() && s_[k] == '.' && IsDigit(s_[k + 1])) k += 1 + CountDigits(s_, k + 1);
      size_t u = k;
      while (u < s_.size() && IsAlpha(s_[u])) ++u;
      double part_scale = DurationUnitSeconds(s_.substr(k, u - k));
      // Not a part: a rate ("6s 3ms/step") or a word glued on ("3ms_avg").
      if (part_scale <= 0 || part_scale >= scale || (u < s_.size() && (s_[u] == '/' || s_[u] == '_'))) break;
      seconds += std::strtod(std::string(s_.substr(j, k - j)).c_str(), nullptr) * part_scale;
      scale = part_scale;
      end = u;
    }
    if (end == i) return i;
    f->value = seconds;
    f->integer = false;
    f->unit = "s";
    return end;
  }

  static double DurationUnitSeconds(std::string_view u) {
    if (u == "h" || u == "hr") return 3600;
    if (u == "m" || u == "min") return 60;
    if (u == "s" || u == "sec") return 1;
    if (u == "ms") return 1e-3;
    return -1;
  }

  // A unit's denominator written apart: "0.275s / iter" → "s/iter". Only
  // a word follows the slash ("5 s / 100 iters" is not a unit).
  size_t SpacedDenominator(size_t k, std::string* unit) const {
    if (unit->find('/') != std::string::npos || unit->find('%') != std::string::npos) return k;
    size_t j = k;
    while (j < s_.size() && s_[j] == ' ') ++j;
    if (j == k || j >= s_.size() || s_[j] != '/') return k;
    ++j;
    while (j < s_.size() && s_[j] == ' ') ++j;
    size_t w = j;
    while (j < s_.size() && IsAlpha(s_[j]) && j - w < 16) ++j;
    if (j == w || (j < s_.size() && (IsDigit(s_[j]) || s_[j] == '_' || s_[j] == '=' || s_[j] == ':'))) return k;
    *unit += '/';
    unit->append(s_.substr(w, j - w));
    return j;
  }

  std::string_view s_;
  size_t prev_end_ = 0;
  ScannedLine* out_ = nullptr;
};

bool IsLevelWord(std::string_view s, size_t i) {
  static constexpr std::string_view kLevels[] = {"INFO", "WARNING", "WARN", "ERROR", "DEBUG", "CRITICAL"};
  for (auto l : kLevels)
    if (s.compare(i, l.size(), l) == 0) return true;
  return false;
}

// A tqdm bar's closing rate ("… 3.26it/s", "… 25.72s/it"): whatever
// follows it on the line ("[RANK 0] Evaluating model") is another record.
bool EndsBar(std::string_view s) {
  return s.size() > 4 && (s.substr(s.size() - 4) == "it/s" || s.substr(s.size() - 4) == "s/it") &&
         IsDigit(s[s.size() - 5]);
}

}  // namespace

ScannedLine ScanLine(std::string_view line) { return Scanner(line).Run(); }

size_t LoggerPrefixEnd(std::string_view line) {
  ScannedLine stamp;
  size_t i = MatchLeadingTimestamp(line, &stamp);
  if (i == 0) return 0;
  size_t k = i;
  while (k < line.size() && (line[k] == ' ' || line[k] == ']' || line[k] == '-' || line[k] == '|')) ++k;
  bool bracket = k < line.size() && line[k] == '[';
  if (bracket) ++k;
  if (k >= line.size() || !IsLevelWord(line, k)) return i;
  while (k < line.size() && IsAlpha(line[k])) ++k;
  if (bracket && (k >= line.size() || line[k] != ']')) return i;
  k += bracket;
  while (k < line.size() && (line[k] == ':' || line[k] == '-' || line[k] == '|' || line[k] == ' ')) ++k;
  return k;
}

std::vector<std::string_view> SplitGluedRecords(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 1; i + 1 < line.size(); ++i) {
    bool split = false;
    int64_t days;
    if (line[i] == '[' && line[i - 1] == ']' &&
        (MatchYmd(line, i + 1, &days) > 0 || IsLevelWord(line, i + 1) || EndsBar(line.substr(0, i - 1)))) {
      split = true;
    } else if (IsDigit(line[i]) && line[i - 1] != ' ' && line[i - 1] != '[' &&
               !IsDigit(line[i - 1]) && line[i - 1] != '-' && line[i - 1] != '/' &&
               line[i - 1] != '.' && MatchYmd(line, i, &days) > 0 && i + 10 < line.size() &&
               line[i + 10] == ' ') {
      split = true;
    }
    if (split && i > start) {
      bool content = false;
      for (size_t k = start; k < i && !content; ++k) content = IsAlnum(line[k]);
      if (content) {
        out.push_back(line.substr(start, i - start));
        start = i;
      }
    }
  }
  out.push_back(line.substr(start));
  return out;
}

}  // namespace schedmate
