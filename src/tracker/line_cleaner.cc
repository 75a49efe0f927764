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

}  // namespace

void SplitRefreshes(std::string_view raw, std::vector<std::string>* out) {
  out->clear();
  size_t start = 0;
  while (start <= raw.size()) {
    size_t cr = raw.find('\r', start);
    std::string_view seg = raw.substr(start, cr == std::string_view::npos ? std::string_view::npos : cr - start);
    std::string cleaned = StripEscapes(seg);
    if (!cleaned.empty()) out->push_back(std::move(cleaned));
    if (cr == std::string_view::npos) break;
    start = cr + 1;
  }
}

std::string CleanLogLine(std::string_view raw) {
  std::vector<std::string> segments;
  SplitRefreshes(raw, &segments);
  return segments.empty() ? std::string() : std::move(segments.back());
}

}  // namespace schedmate
