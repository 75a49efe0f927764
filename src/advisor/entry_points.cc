#include "advisor/entry_points.h"

#include <cctype>

namespace schedmate {
namespace {

bool NameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }
bool ModuleChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

}  // namespace

// Every `NAME = module.path:function` (quoted or not) is an entry point; the
// three file formats all write them this way.
std::map<std::string, EntryPoint> ParseConsoleScripts(std::string_view text) {
  std::map<std::string, EntryPoint> out;
  for (size_t colon = text.find(':'); colon != std::string_view::npos && out.size() < 512;
       colon = text.find(':', colon + 1)) {
    // module before the colon
    size_t m = colon;
    while (m > 0 && ModuleChar(text[m - 1])) --m;
    if (m == colon) continue;
    std::string module(text.substr(m, colon - m));
    // function after it
    size_t f = colon + 1;
    while (f < text.size() && (std::isalnum(static_cast<unsigned char>(text[f])) || text[f] == '_' || text[f] == '.')) ++f;
    std::string function(text.substr(colon + 1, f - colon - 1));
    if (function.empty()) continue;
    // "= " or "=" or '"' before the module, then the name
    size_t e = m;
    while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '"' || text[e - 1] == '\'')) --e;
    if (e == 0 || text[e - 1] != '=') continue;
    --e;
    while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '"' || text[e - 1] == '\'')) --e;
    size_t n = e;
    while (n > 0 && NameChar(text[n - 1])) --n;
    if (n == e) continue;
    std::string name(text.substr(n, e - n));
    if (name == "version" || name == "name" || module.empty() || std::isdigit(static_cast<unsigned char>(module[0])))
      continue;
    out[name] = {module, function};
  }
  return out;
}

}  // namespace schedmate
