#include "tracker/field_scanner.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace schedmate {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAlnum(char c) { return IsDigit(c) || IsAlpha(c); }
char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

size_t CountDigits(std::string_view s, size_t i) {
  size_t n = 0;
  while (i + n < s.size() && IsDigit(s[i + n])) ++n;
  return n;
}

int ParseInt(std::string_view s, size_t i, size_t n) {
  int v = 0;
  for (size_t k = 0; k < n; ++k) v = v * 10 + (s[i + k] - '0');
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

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

bool IsUnitChar(char c) { return IsAlpha(c) || c == '/' || c == '%'; }

// A word that is a unit ("ms", "s", "%", "tokens/s", "GiB"), not a name ("data").
bool IsUnitWord(std::string_view w) {
  if (w.find('/') != std::string_view::npos || w.find('%') != std::string_view::npos) return true;
  std::string l;
  for (char c : w) l += Lower(c);
  static constexpr std::string_view kUnits[] = {
      "s", "sec", "secs", "second", "seconds", "ms", "msec", "us", "min", "mins", "minute", "minutes", "h", "hr",
      "hrs", "hour", "hours", "m", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "tokens", "token", "tok",
      "toks", "samples", "sample", "images", "image", "img", "imgs", "words", "it", "its", "iter", "iters", "steps",
      "step", "flops", "tflops", "gflops", "pflops", "w", "hz", "khz", "fps", "x", "k"};
  for (auto u : kUnits)
    if (l == u) return true;
  return false;
}

bool IsKnownSpacedUnit(std::string_view w) {
  static constexpr std::string_view kUnits[] = {"s", "sec", "secs", "seconds", "ms", "msec"};
  for (auto u : kUnits)
    if (w == u) return true;
  // "samples/s", "toks/s/device", "sec/step", "samples/" (cut off): a word
  // with a slash that starts with a letter.
  return w.size() >= 2 && IsAlpha(w[0]) && w.find('/') != std::string_view::npos;
}

bool IsLowerAlpha(char c) { return c >= 'a' && c <= 'z'; }
bool IsUpperAlpha(char c) { return c >= 'A' && c <= 'Z'; }

// camelCase keys are words ("TotalLoss", "StepTime", "valLoss" → "total
// loss", "step time", "val loss"), split where a lower-case letter meets an
// upper-case one. A key with an acronym ("RPNLogLoss", "RCNNL1Loss") names
// one part of a model and stays one word.
bool SplitsCamelCase(std::string_view raw) {
  bool camel = false;
  for (size_t i = 1; i < raw.size(); ++i) {
    if (IsUpperAlpha(raw[i - 1]) && IsUpperAlpha(raw[i])) return false;
    camel = camel || (IsLowerAlpha(raw[i - 1]) && IsUpperAlpha(raw[i]));
  }
  return camel;
}

std::string NormalizeKey(std::string_view raw) {
  std::string k;
  bool camel = SplitsCamelCase(raw);
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (camel && i > 0 && IsLowerAlpha(raw[i - 1]) && IsUpperAlpha(c) && !k.empty() && k.back() != ' ') k += ' ';
    char l = Lower(c);
    if (l == '_' || l == '-' || l == '.' || l == '\'' || l == '"' || l == '`' || l == ' ' || l == '\t') {
      if (!k.empty() && k.back() != ' ') k += ' ';
    } else {
      k += l;
    }
  }
  while (!k.empty() && k.back() == ' ') k.pop_back();
  return k;
}

bool IsTrimChar(char c) {
  return c == ' ' || c == '\t' || c == ':' || c == '=' || c == '[' || c == '(' ||
         c == '\'' || c == '"' || c == '`' || c == '>' || c == '<' || c == '*';
}

// A value printed inside a call ("loss=tensor(0.18, device='cuda:0')",
// "'lr': np.float64(1e-05)"): the name before '(' wraps the value, the key
// is in front of it.
std::string_view WithoutCallWrapper(std::string_view text) {
  if (text.size() < 2 || text.back() != '(') return text;
  size_t e = text.size() - 1, b = e;
  while (b > 0 && (IsAlnum(text[b - 1]) || text[b - 1] == '_' || text[b - 1] == '.')) --b;
  if (b == e || !IsAlpha(text[b])) return text;
  size_t k = b;
  while (k > 0 && text[k - 1] == ' ') --k;
  if (k == 0 || (text[k - 1] != '=' && text[k - 1] != ':')) return text;
  return text.substr(0, k);
}

// The key in front of a value: the text since the previous token, cut at
// the last separator, with a trailing "(unit)" moved to `unit`.
void ExtractKey(std::string_view text, ScannedField* f) {
  text = WithoutCallWrapper(text);
  size_t b = 0, e = text.size();
  while (e > b && IsTrimChar(text[e - 1])) --e;
  std::string_view t = text.substr(b, e - b);
  if (t.empty() && text.find('(') != std::string_view::npos) {
    f->parenthesised = true;
    return;
  }
  if (!t.empty() && t.back() == ')') {
    size_t open = t.rfind('(');
    if (open != std::string_view::npos) {
      std::string_view inside = t.substr(open + 1, t.size() - open - 2);
      bool unit_like = !inside.empty() && inside.size() <= 16;
      for (char c : inside) unit_like = unit_like && IsUnitChar(c);
      if (unit_like && IsUnitWord(inside)) {
        f->unit = std::string(inside);
        t = t.substr(0, open);
      } else if (unit_like) {
        t = t.substr(0, open);  // "time (data): 0.86 (0.002)": names the value in parentheses, not a unit
      }
    }
  }
  size_t cut = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '|' || c == ',' || c == ';' || c == '\t' || c == '{' || c == '}' ||
        c == ':' || c == '=' || c == ']' || c == '[' || c == ')' || c == '(' || c == '<' || c == '>' ||
        static_cast<unsigned char>(c) >= 0x80)  // bar glyphs, emoji, bullets
      cut = i + 1;
    else if (c == '-' && i > 0 && i + 1 < t.size() && t[i - 1] == ' ' && t[i + 1] == ' ')
      cut = i + 1;
  }
  f->key = NormalizeKey(t.substr(cut));
  // Keep the last few words: "Training neural network step" → fine either way.
  size_t words = 0, pos = f->key.size();
  while (pos > 0) {
    size_t sp = f->key.rfind(' ', pos - 1);
    if (++words == 6 && sp != std::string::npos) {
      f->key = f->key.substr(sp + 1);
      break;
    }
    if (sp == std::string::npos) break;
    pos = sp;
  }
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
