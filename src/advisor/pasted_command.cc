#include "advisor/pasted_command.h"

#include <cctype>
#include <set>

namespace schedmate {
namespace {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string PastedCommand(std::string_view command) {
  std::string text;
  size_t pos = 0;
  while (pos <= command.size()) {
    size_t nl = command.find('\n', pos);
    std::string_view line = command.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    size_t lead = line.find_first_not_of(" \t");
    if (lead != std::string_view::npos && line.substr(lead, 2) == "$ ") line = line.substr(lead + 2);
    else if (lead != std::string_view::npos && line[lead] == '!' && lead + 1 < line.size() &&
             std::isalpha(static_cast<unsigned char>(line[lead + 1])))
      line = line.substr(lead + 1);
    text += line;
    if (nl == std::string_view::npos) break;
    text += '\n';
    pos = nl + 1;
  }
  // Names the command sets: NAME=… words, `for NAME in`, `read NAME`.
  std::set<std::string> set;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) continue;
    if (i > 0 && (IsNameChar(text[i - 1]) || text[i - 1] == '$' || text[i - 1] == '{' || text[i - 1] == '-')) continue;
    size_t j = i;
    while (j < text.size() && IsNameChar(text[j])) ++j;
    std::string name = text.substr(i, j - i);
    if (j < text.size() && text[j] == '=') set.insert(name);
    if (name == "for" || name == "read") {
      size_t k = text.find_first_not_of(' ', j);
      size_t e = k;
      while (e < text.size() && IsNameChar(text[e])) ++e;
      if (k != std::string::npos && e > k) set.insert(text.substr(k, e - k));
    }
    i = j;
  }
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\'' && quote != '"') quote = quote == '\'' ? 0 : '\'';
    if (c == '"' && quote != '\'') quote = quote == '"' ? 0 : '"';
    if (c != '$' || quote == '\'' || i + 1 >= text.size()) {
      out += c;
      continue;
    }
    bool braced = text[i + 1] == '{';
    size_t start = i + (braced ? 2 : 1), j = start;
    if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
      out += c;
      continue;
    }
    while (j < text.size() && IsNameChar(text[j])) ++j;
    std::string name = text.substr(start, j - start);
    bool plain = !name.empty() && (!braced || (j < text.size() && text[j] == '}'));
    static const std::set<std::string> kStandard = {"HOME", "PWD", "USER", "TMPDIR", "PATH", "PYTHONPATH",
                                                     "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"};
    if (!plain || set.count(name) || kStandard.count(name)) {
      out += c;
      continue;
    }
    out += "<" + name + ">";
    i = braced ? j : j - 1;
  }
  return out;
}

}  // namespace schedmate
