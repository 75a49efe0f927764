#include "advisor/entry_points.h"

#include <cctype>

#include "repo/tools.h"

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

std::map<std::string, EntryPoint> ParseSetupScripts(std::string_view text) {
  std::map<std::string, EntryPoint> out;
  size_t at = text.find("scripts");
  while (at != std::string_view::npos && out.size() < 256) {
    size_t open = text.find('[', at), close = open == std::string_view::npos ? open : text.find(']', open);
    size_t eq = text.find('=', at);
    if (open == std::string_view::npos || close == std::string_view::npos || eq == std::string_view::npos || eq > open ||
        text.substr(at, eq - at).find_first_not_of("scripts \t") != std::string_view::npos) {
      at = text.find("scripts", at + 7);
      continue;
    }
    std::string_view list = text.substr(open + 1, close - open - 1);
    size_t q = 0;
    while ((q = list.find_first_of("'\"", q)) != std::string_view::npos) {
      size_t end = list.find(list[q], q + 1);
      if (end == std::string_view::npos) break;
      std::string path(list.substr(q + 1, end - q - 1));
      std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
      if (!name.empty() && path.find(' ') == std::string::npos) out[name] = {"", "", path};
      q = end + 1;
    }
    at = text.find("scripts", close);
  }
  return out;
}

// Readable by the file tools (a zero-byte head): in the root, of a kind and
// in a directory they read, whatever its size.
bool FileInSnapshot(const RepoSnapshot& snapshot, const std::string& path) {
  return FileHeadTool(snapshot, path, 0).ok();
}

}  // namespace schedmate
