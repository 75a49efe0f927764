#include "advisor/config_files.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <sstream>

#include <nlohmann/json.hpp>
#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include "core/json.h"

namespace schedmate {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string Join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }

void WalkYaml(const YAML::Node& n, const std::string& prefix, ConfigFile* out, int depth) {
  if (depth > 64) return;
  int line = n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      out->entries.push_back({prefix, n.Scalar(), line});
      break;
    case YAML::NodeType::Sequence: {
      bool scalars = true;
      for (const auto& item : n) scalars = scalars && item.IsScalar();
      if (scalars) {
        std::string joined;
        for (const auto& item : n) joined += (joined.empty() ? "" : ",") + item.Scalar();
        out->entries.push_back({prefix, joined, line});
      } else {
        size_t i = 0;
        for (const auto& item : n) WalkYaml(item, Join(prefix, std::to_string(i++)), out, depth + 1);
      }
      break;
    }
    case YAML::NodeType::Map:
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) continue;
        WalkYaml(kv.second, Join(prefix, kv.first.Scalar()), out, depth + 1);
      }
      break;
    default:
      break;
  }
}

void HydraDefaults(const YAML::Node& root, ConfigFile* out) {
  if (!root.IsMap() || !root["defaults"] || !root["defaults"].IsSequence()) return;
  for (const auto& item : root["defaults"]) {
    if (item.IsMap()) {
      for (const auto& kv : item)
        if (kv.first.IsScalar() && kv.second.IsScalar()) {
          std::string group = kv.first.Scalar();
          while (!group.empty() && (group[0] == '/' || group[0] == '+')) group.erase(0, 1);
          if (group.rfind("override ", 0) == 0) group = group.substr(9);
          out->defaults.emplace_back(group, kv.second.Scalar());
        }
    }
  }
}

// nlohmann keeps no positions: the line of `"key":` in the text.
int JsonLine(std::string_view text, const std::string& key) {
  size_t p = text.find("\"" + key + "\"");
  if (p == std::string_view::npos) return 0;
  int line = 1;
  for (size_t i = 0; i < p; ++i) line += text[i] == '\n';
  return line;
}

void WalkJson(const Json& j, const std::string& prefix, std::string_view text, ConfigFile* out, int depth) {
  if (depth > 64) return;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) WalkJson(it.value(), Join(prefix, it.key()), text, out, depth + 1);
  } else if (j.is_array()) {
    bool scalars = true;
    for (const auto& x : j) scalars = scalars && !x.is_structured();
    if (scalars) {
      std::string joined;
      for (const auto& x : j) joined += (joined.empty() ? "" : ",") + (x.is_string() ? x.get<std::string>() : x.dump());
      out->entries.push_back({prefix, joined, 0});
    } else {
      for (size_t i = 0; i < j.size(); ++i) WalkJson(j[i], Join(prefix, std::to_string(i)), text, out, depth + 1);
    }
  } else {
    std::string last = prefix.substr(prefix.rfind('.') == std::string::npos ? 0 : prefix.rfind('.') + 1);
    out->entries.push_back({prefix, j.is_string() ? j.get<std::string>() : j.dump(), JsonLine(text, last)});
  }
}

void WalkToml(const toml::node& n, const std::string& prefix, ConfigFile* out, int depth) {
  if (depth > 64) return;
  int line = static_cast<int>(n.source().begin.line);
  if (const auto* t = n.as_table()) {
    for (const auto& [k, v] : *t) WalkToml(v, Join(prefix, std::string(k.str())), out, depth + 1);
  } else if (const auto* a = n.as_array()) {
    size_t i = 0;
    for (const auto& v : *a) WalkToml(v, Join(prefix, std::to_string(i++)), out, depth + 1);
  } else {
    std::ostringstream s;
    if (const auto* str = n.as_string()) {
      s << str->get();
    } else if (const auto* f = n.as_floating_point()) {
      char buf[64];  // shortest text that reads back the same double
      auto r = std::to_chars(buf, buf + sizeof buf, f->get());
      s << std::string_view(buf, static_cast<size_t>(r.ptr - buf));
    } else {
      n.visit([&](const auto& x) { s << x; });
    }
    out->entries.push_back({prefix, s.str(), line});
  }
}

}  // namespace

const ConfigEntry* ConfigFile::Find(std::string_view key) const {
  const ConfigEntry* found = nullptr;
  for (const auto& e : entries)
    if (e.key == key) found = &e;
  return found;
}

bool IsConfigPath(std::string_view p) {
  return EndsWith(p, ".yaml") || EndsWith(p, ".yml") || EndsWith(p, ".json") || EndsWith(p, ".toml");
}

Result<ConfigFile> ParseConfig(std::string_view text, std::string_view path) {
  ConfigFile out;
  std::string where(path);
  if (EndsWith(path, ".yaml") || EndsWith(path, ".yml")) {
    try {
      std::vector<YAML::Node> docs = YAML::LoadAll(std::string(text));
      for (const auto& doc : docs) {
        WalkYaml(doc, "", &out, 0);
        HydraDefaults(doc, &out);
      }
    } catch (const YAML::Exception& e) {
      return InvalidArgument(where + ":" + std::to_string(e.mark.line + 1) + ": YAML: " + e.msg);
    } catch (const std::exception& e) {
      return InvalidArgument(where + ": YAML: " + e.what());
    }
    return out;
  }
  if (EndsWith(path, ".json")) {
    ASSIGN_OR_RETURN(Json j, ParseJson(text, where));
    WalkJson(j, "", text, &out, 0);
    return out;
  }
  if (EndsWith(path, ".toml")) {
    try {
      toml::table t = toml::parse(text, std::string_view(where));
      WalkToml(t, "", &out, 0);
    } catch (const toml::parse_error& e) {
      return InvalidArgument(where + ":" + std::to_string(e.source().begin.line) + ": TOML: " +
                             std::string(e.description()));
    } catch (const std::exception& e) {
      return InvalidArgument(where + ": TOML: " + e.what());
    }
    return out;
  }
  return InvalidArgument(where + ": not a YAML, JSON or TOML file");
}

}  // namespace schedmate
