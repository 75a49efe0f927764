#include "tracker/line_cleaner.h"

namespace schedmate {
namespace {

// Removes ANSI/VT100 escapes: CSI (ESC [ ... final 0x40-0x7E), OSC
// (ESC ] ... BEL or ESC \), and two-byte ESC sequences. Other control bytes
// except TAB become spaces.
std::string StripEscapes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0x1B) {
      if (i + 1 >= s.size()) break;
      char kind = s[i + 1];
      if (kind == '[') {
        i += 2;
        while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7E)) ++i;
      } else if (kind == ']') {
        i += 2;
        while (i < s.size() && s[i] != '\a' &&
               !(s[i] == 0x1B && i + 1 < s.size() && s[i + 1] == '\\'))
          ++i;
        if (i < s.size() && s[i] == 0x1B) ++i;
      } else {
        ++i;
      }
      continue;
    }
    if (c < 0x20 && c != '\t') {
      out += ' ';
      continue;
    }
    if (c == 0x7F) continue;
    out += static_cast<char>(c);
  }
  // Trailing blanks carry nothing (tqdm pads its lines).
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
  return out;
}

// Length of the well-formed UTF-8 sequence at s[i], 0 when it is not one.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

bool IsBinaryControl(unsigned char c) { return (c < 0x20 && !(c >= 0x07 && c <= 0x0D) && c != 0x1B) || c == 0x7F; }

}  // namespace

bool LooksLikeText(std::string_view raw) {
  size_t bad = 0;
  for (size_t i = 0; i < raw.size();) {
    size_t n = Utf8SequenceLength(raw, i);
    if (n == 0 || (n == 1 && IsBinaryControl(static_cast<unsigned char>(raw[i])))) {
      ++bad;
      n = 1;
    }
    i += n;
  }
  return bad * 8 <= raw.size();
}

void SplitRefreshes(std::string_view raw, std::vector<std::string>* out) {
  out->clear();
  size_t start = 0;
  while (start <= raw.size()) {
    size_t cr = raw.find('\r', start);
    std::string_view seg = raw.substr(start, cr == std::string_view::npos ? std::string_view::npos : cr - start);
    std::string cleaned = LooksLikeText(seg) ? StripEscapes(seg) : std::string();
    if (!cleaned.empty()) out->push_back(std::move(cleaned));
    if (cr == std::string_view::npos) break;
    start = cr + 1;
  }
}

std::string CleanLogLine(std::string_view raw) {
  if (!LooksLikeText(raw)) return std::string();
  std::vector<std::string> segments;
  SplitRefreshes(raw, &segments);
  return segments.empty() ? std::string() : std::move(segments.back());
}

}  // namespace schedmate
