// Walking the lines of an embedded data file (a TSV of rules, a lexicon):
// one place for the split, the '\r' of a file saved on Windows, and the
// blank and '#' comment lines such files skip.
#ifndef SCHEDMATE_CORE_TEXT_LINES_H_
#define SCHEDMATE_CORE_TEXT_LINES_H_

#include <string_view>

namespace schedmate {

// Calls fn(line) for each line of `text` without its '\n' and a trailing
// '\r', skipping empty lines and lines that start with '#'.
template <class Fn>
void ForEachDataLine(std::string_view text, Fn&& fn) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    fn(line);
  }
}

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_TEXT_LINES_H_
