#include "advisor/config_files.h"

#include <yaml.h>

#include <cctype>
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

// A YAML document as a small tree built from libyaml's events (libyaml is
// the reference parser; yaml-cpp 0.7 spins forever on inputs as short as
// `,"d":x`). Aliases are not expanded, so alias bombs cost nothing.
struct YamlNode {
  enum Kind { kScalar, kMap, kSeq, kAlias } kind = kScalar;
  std::string scalar;
  int line = 0;
  // A mapping: keys[i] → values[i] (scalar keys; "" for others). Kept as two
  // vectors because std::pair of an incomplete type is not portable.
  std::vector<std::string> keys;
  std::vector<YamlNode> values;
  std::vector<YamlNode> seq;
};

constexpr size_t kMaxYamlNodes = 200000;

class YamlBuilder {
 public:
  // Parses all documents; error names the line.
  Status Parse(std::string_view text, const std::string& where, std::vector<YamlNode>* docs) {
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return Internal("libyaml: cannot initialise");
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    Status status = Status::Ok();
    std::vector<YamlNode*> stack;
    std::vector<std::string> pending_key;  // per open mapping: "" = expecting a key
    std::vector<bool> has_key;
    size_t nodes = 0;
    bool done = false;
    while (!done) {
      yaml_event_t ev;
      if (!yaml_parser_parse(&parser, &ev)) {
        status = InvalidArgument(where + ":" + std::to_string(parser.problem_mark.line + 1) + ": YAML: " +
                                 (parser.problem ? parser.problem : "syntax error"));
        break;
      }
      int line = static_cast<int>(ev.start_mark.line) + 1;
      YamlNode node;
      node.line = line;
      bool value = false, open = false;
      switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_DOCUMENT_START_EVENT: docs->emplace_back(); docs->back().kind = YamlNode::kScalar; stack = {&docs->back()}; pending_key = {""}; has_key = {false}; break;
        case YAML_SCALAR_EVENT:
          node.kind = YamlNode::kScalar;
          node.scalar.assign(reinterpret_cast<const char*>(ev.data.scalar.value), ev.data.scalar.length);
          value = true;
          break;
        case YAML_ALIAS_EVENT: node.kind = YamlNode::kAlias; value = true; break;
        case YAML_MAPPING_START_EVENT: node.kind = YamlNode::kMap; value = open = true; break;
        case YAML_SEQUENCE_START_EVENT: node.kind = YamlNode::kSeq; value = open = true; break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
          if (stack.size() > 1) {
            stack.pop_back();
            pending_key.pop_back();
            has_key.pop_back();
          }
          break;
        default: break;
      }
      yaml_event_delete(&ev);
      if (!value || stack.empty()) continue;
      if (++nodes > kMaxYamlNodes) {
        status = ResourceExhausted(where + ": YAML: more than " + std::to_string(kMaxYamlNodes) + " nodes");
        break;
      }
      YamlNode* parent = stack.back();
      YamlNode* placed = nullptr;
      if (stack.size() == 1 && parent->kind == YamlNode::kScalar && parent->values.empty() && parent->seq.empty() &&
          parent->scalar.empty()) {
        *parent = std::move(node);  // the document's root
        placed = parent;
      } else if (parent->kind == YamlNode::kMap) {
        if (!has_key.back()) {  // a key (non-scalar keys are kept as "")
          pending_key.back() = node.kind == YamlNode::kScalar ? node.scalar : "";
          has_key.back() = true;
          if (!open) continue;
          // A complex key: parse it into a throwaway slot.
          parent->keys.emplace_back();
          parent->values.push_back(std::move(node));
          placed = &parent->values.back();
          has_key.back() = false;
        } else {
          parent->keys.push_back(pending_key.back());
          parent->values.push_back(std::move(node));
          placed = &parent->values.back();
          has_key.back() = false;
        }
      } else if (parent->kind == YamlNode::kSeq) {
        parent->seq.push_back(std::move(node));
        placed = &parent->seq.back();
      } else {
        continue;
      }
      if (open) {
        stack.push_back(placed);
        pending_key.push_back("");
        has_key.push_back(false);
      }
    }
    yaml_parser_delete(&parser);
    return status;
  }
};

void WalkYaml(const YamlNode& n, const std::string& prefix, ConfigFile* out, int depth) {
  if (depth > 64) return;
  switch (n.kind) {
    case YamlNode::kScalar:
      if (!prefix.empty()) out->entries.push_back({prefix, n.scalar, n.line});
      break;
    case YamlNode::kSeq: {
      bool scalars = true;
      for (const auto& item : n.seq) scalars = scalars && item.kind == YamlNode::kScalar;
      if (scalars) {
        std::string joined;
        for (const auto& item : n.seq) joined += (joined.empty() ? "" : ",") + item.scalar;
        out->entries.push_back({prefix, joined, n.line, true});
      } else {
        for (size_t i = 0; i < n.seq.size(); ++i) WalkYaml(n.seq[i], Join(prefix, std::to_string(i)), out, depth + 1);
      }
      break;
    }
    case YamlNode::kMap:
      for (size_t i = 0; i < n.keys.size(); ++i)
        if (!n.keys[i].empty()) WalkYaml(n.values[i], Join(prefix, n.keys[i]), out, depth + 1);
      break;
    default:
      break;
  }
}

void HydraDefaults(const YamlNode& root, ConfigFile* out) {
  if (root.kind != YamlNode::kMap) return;
  for (size_t i = 0; i < root.keys.size(); ++i) {
    const YamlNode& v = root.values[i];
    if (root.keys[i] != "defaults" || v.kind != YamlNode::kSeq) continue;
    for (const auto& item : v.seq) {
      if (item.kind == YamlNode::kScalar) {  // `- base`: a file beside this one
        if (item.scalar != "_self_") out->defaults.emplace_back("", item.scalar);
        continue;
      }
      if (item.kind != YamlNode::kMap) continue;
      for (size_t g = 0; g < item.keys.size(); ++g) {
        const YamlNode& gv = item.values[g];
        if (gv.kind != YamlNode::kScalar) continue;
        std::string group = item.keys[g];
        if (group.rfind("override ", 0) == 0) group = group.substr(9);
        while (!group.empty() && group[0] == '+') group.erase(0, 1);
        bool absolute = !group.empty() && group[0] == '/';
        while (!group.empty() && group[0] == '/') group.erase(0, 1);
        if (size_t at = group.find('@'); at != std::string::npos) group = group.substr(0, at);  // optim@optimizer
        // A leading '/' (an absolute group, from the config root) is kept for the reader.
        out->defaults.emplace_back(absolute ? "/" + group : group, gv.scalar);
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
      out->entries.push_back({prefix, joined, 0, true});
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

// JSON as many projects write it (JSONC, JSON5's common subset): `//` and
// `/* */` comments and trailing commas become spaces, so every line keeps
// its number.
std::string WithoutCommentsAndTrailingCommas(std::string_view text) {
  std::string out(text);
  char quote = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"') {
      quote = c;
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      // The closing */ is looked for after the opening /* (so /*/ opens a comment, not a whole one).
      out[i] = out[i + 1] = ' ';
      size_t j = i + 2;
      for (; j < out.size() && !(out[j] == '*' && j + 1 < out.size() && out[j + 1] == '/'); ++j)
        if (out[j] != '\n') out[j] = ' ';
      if (j + 1 < out.size()) out[j] = out[j + 1] = ' ';
      i = j + 1;
    }
  }
  for (size_t i = 0; i < out.size(); ++i) {  // the text has no comments now; strings still guard their commas
    if (out[i] == '"') {
      for (++i; i < out.size() && out[i] != '"'; ++i)
        if (out[i] == '\\') ++i;
      continue;
    }
    if (out[i] != ',') continue;
    size_t j = i + 1;
    while (j < out.size() && std::isspace(static_cast<unsigned char>(out[j]))) ++j;
    if (j < out.size() && (out[j] == '}' || out[j] == ']')) out[i] = ' ';
  }
  return out;
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
  // Configs are text; YAML forbids C0 control characters anyway.
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r')
      return InvalidArgument(where + ": control characters: not a text config");
  }
  if (EndsWith(path, ".yaml") || EndsWith(path, ".yml")) {
    std::vector<YamlNode> docs;
    RETURN_IF_ERROR(YamlBuilder().Parse(text, where, &docs));
    for (const auto& doc : docs) {
      WalkYaml(doc, "", &out, 0);
      HydraDefaults(doc, &out);
    }
    return out;
  }
  if (EndsWith(path, ".json") || EndsWith(path, ".jsonnet")) {  // Jsonnet is a superset: its plain-JSON files are read
    auto strict = ParseJson(text, where);
    if (strict.ok()) {
      WalkJson(*strict, "", text, &out, 0);
      return out;
    }
    const std::string relaxed = WithoutCommentsAndTrailingCommas(text);
    ASSIGN_OR_RETURN(Json j, ParseJson(relaxed, where));
    WalkJson(j, "", relaxed, &out, 0);
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
