#include "advisor/python_source.h"

#include <tree_sitter/api.h>

#include <cstring>
#include <functional>
#include <list>
#include <memory>
#include <optional>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace schedmate {
namespace {

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};

class Walker {
 public:
  Walker(std::string_view src, PythonFacts* out) : src_(src), out_(out) {}

  void Visit(TSNode node, int depth) {
    if (depth > 200) return;  // pathological nesting
    std::string_view type = ts_node_type(node);
    std::string saved_scope = scope_;
    if (type == "call") Call(node);
    else if (type == "assignment") Assign(node);
    else if (type == "import_statement" || type == "import_from_statement") Import(node, type);
    bool saved_in_class = in_class_;
    if (type == "function_definition" || type == "class_definition") {
      TSNode name = ts_node_child_by_field_name(node, "name", 4);
      if (!ts_node_is_null(name)) scope_ = in_class_ && type == "function_definition" ? scope_ + "." + Text(name) : Text(name);
      in_class_ = type == "class_definition";
      if (type == "function_definition") ++functions_;
      if (type == "function_definition") Parameters(node);
      if (type == "class_definition" && !ts_node_is_null(name) && out_->classes.size() < 5000) {
        PyClass k{Text(name), {}, Line(node)};
        TSNode supers = ts_node_child_by_field_name(node, "superclasses", 12);
        if (!ts_node_is_null(supers)) {
          uint32_t count = ts_node_named_child_count(supers);
          for (uint32_t i = 0; i < count && i < 16; ++i)
            if (std::string d = Dotted(ts_node_named_child(supers, i)); !d.empty()) k.bases.push_back(d);
        }
        out_->classes.push_back(std::move(k));
      }
    }
    uint32_t n = ts_node_named_child_count(node);
    if (type == "if_statement" || type == "elif_clause" || type == "else_clause") {
      VisitBranches(node, type, n, depth);
    } else if (type == "conditional_expression" && n == 3) {
      // `A if C else B`: a call that is A or B knows C (Call reads branch_).
      const std::string condition = Text(ts_node_named_child(node, 1)).substr(0, 200);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode child = ts_node_named_child(node, i);
        if (i != 1) branch_ = {child, condition, i == 2};
        Visit(child, depth + 1);
        branch_.node = TSNode{};
      }
    } else {
      for (uint32_t i = 0; i < n; ++i) Visit(ts_node_named_child(node, i), depth + 1);
    }
    scope_ = saved_scope;
    in_class_ = saved_in_class;
    if (type == "function_definition") --functions_;
  }

 private:
  std::string Text(TSNode n) const {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (a > src_.size() || b > src_.size() || b < a) return "";
    return std::string(src_.substr(a, b - a));
  }
  int Line(TSNode n) const { return static_cast<int>(ts_node_start_point(n).row) + 1; }
  int EndLine(TSNode n) const { return static_cast<int>(ts_node_end_point(n).row) + 1; }

  void Entry(const std::string& container, const std::string& key, TSNode value) {
    if (out_->entries.size() < 5000)
      out_->entries.push_back({container, key, Line(value), EndLine(value), static_cast<int>(ts_node_start_byte(value)),
                               static_cast<int>(ts_node_end_byte(value))});
  }

  // "a.b.c" for identifiers and attribute chains; empty otherwise.
  std::string Dotted(TSNode n) const {
    std::string_view type = ts_node_type(n);
    if (type == "identifier") return Text(n);
    if (type == "attribute") {
      TSNode obj = ts_node_child_by_field_name(n, "object", 6);
      TSNode attr = ts_node_child_by_field_name(n, "attribute", 9);
      std::string left = ts_node_is_null(obj) ? "" : Dotted(obj);
      if (left.empty() || ts_node_is_null(attr)) return "";
      return left + "." + Text(attr);
    }
    return "";
  }

  PyValue Value(TSNode n) const {
    PyValue v;
    std::string_view type = ts_node_type(n);
    if (type == "string") {
      v.kind = PyValue::Kind::kString;
      // Concatenate the string_content children; f-strings keep their text.
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        std::string_view ct = ts_node_type(c);
        if (ct == "string_content" || ct == "escape_sequence") v.text += Text(c);
        else if (ct == "interpolation") v.kind = PyValue::Kind::kOther;
      }
      if (v.kind == PyValue::Kind::kOther) v.text = Text(n);
    } else if (type == "integer") {
      v.kind = PyValue::Kind::kInt;
      v.text = Text(n);
    } else if (type == "float") {
      v.kind = PyValue::Kind::kFloat;
      v.text = Text(n);
    } else if (type == "true" || type == "false") {
      v.kind = PyValue::Kind::kBool;
      v.text = type == "true" ? "True" : "False";
    } else if (type == "none") {
      v.kind = PyValue::Kind::kNone;
      v.text = "None";
    } else if (type == "unary_operator" && Text(n).size() > 1 && Text(n)[0] == '-') {
      TSNode arg = ts_node_named_child(n, 0);
      v = Value(arg);
      if (v.kind == PyValue::Kind::kInt || v.kind == PyValue::Kind::kFloat) v.text = "-" + v.text;
      else v = {PyValue::Kind::kOther, Text(n)};
    } else if ((type == "list" || type == "tuple") && depth_ < 4) {
      v.kind = PyValue::Kind::kList;
      v.text = Text(n).substr(0, 200);
      uint32_t count = ts_node_named_child_count(n);
      ++depth_;
      for (uint32_t i = 0; i < count && i < 64; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (std::string_view(ts_node_type(c)) != "comment") v.items.push_back(Value(c));
      }
      --depth_;
    } else if (std::string d = Dotted(n); !d.empty()) {
      v.kind = PyValue::Kind::kName;
      v.text = d;
    } else {
      v.kind = PyValue::Kind::kOther;
      v.text = Text(n).substr(0, 200);
    }
    return v;
  }

  void Call(TSNode n) {
    TSNode fn = ts_node_child_by_field_name(n, "function", 8);
    TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
    if (ts_node_is_null(fn)) return;
    PyCall c;
    c.callee = Dotted(fn);
    if (c.callee.empty()) return;
    c.line = Line(n);
    c.begin = static_cast<int>(ts_node_start_byte(n));
    if (!ts_node_is_null(args)) {
      uint32_t count = ts_node_named_child_count(args);
      for (uint32_t i = 0; i < count && i < 512; ++i) {  // hyper-parameter objects take a hundred keywords
        TSNode a = ts_node_named_child(args, i);
        if (std::string_view(ts_node_type(a)) == "keyword_argument") {
          TSNode name = ts_node_child_by_field_name(a, "name", 4);
          TSNode value = ts_node_child_by_field_name(a, "value", 5);
          if (!ts_node_is_null(name) && !ts_node_is_null(value)) c.kwargs.emplace_back(Text(name), Value(value));
        } else if (std::string_view(ts_node_type(a)) != "comment") {
          c.args.push_back(Value(a));
        }
      }
    }
    c.scope = scope_;
    if (!ts_node_is_null(branch_.node) && ts_node_eq(branch_.node, n)) {
      c.condition = branch_.condition;
      c.condition_negated = branch_.negated;
    }
    if (out_->calls.size() < 20000) out_->calls.push_back(std::move(c));
  }

  // The body of `if C:` / `elif C:` binds under C (not the __main__ guard);
  // an `else:` body under "<else>"; the condition itself and later clauses
  // under what encloses the statement.
  void VisitBranches(TSNode node, std::string_view type, uint32_t n, int depth) {
    const std::string outer = condition_;
    TSNode body{};
    std::string body_condition = outer;
    if (type != "else_clause") {
      body = ts_node_child_by_field_name(node, "consequence", 11);
      TSNode c = ts_node_child_by_field_name(node, "condition", 9);
      std::string text = ts_node_is_null(c) ? "" : Text(c);
      if (text.find("__name__") == std::string::npos) body_condition = text.substr(0, 200);
    }
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_named_child(node, i);
      if (type == "else_clause") condition_ = "<else>";
      else if (!ts_node_is_null(body) && ts_node_eq(child, body)) condition_ = body_condition;
      Visit(child, depth + 1);
      condition_ = outer;
    }
  }

  void Assign(TSNode n) {
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right)) return;
    std::string target = Dotted(left);
    if (target.empty() && std::string_view(ts_node_type(left)) == "subscript") {
      // method_configs["nerfacto"] = TrainerConfig(...): an entry of a table.
      TSNode object = ts_node_child_by_field_name(left, "value", 5);
      TSNode index = ts_node_child_by_field_name(left, "subscript", 9);
      if (!ts_node_is_null(object) && !ts_node_is_null(index) && !Dotted(object).empty()) {
        PyValue k = Value(index);
        if (k.kind == PyValue::Kind::kString && !k.text.empty()) Entry(Dotted(object), k.text, right);
      }
    }
    if (target.empty()) return;
    bool typed = !ts_node_is_null(ts_node_child_by_field_name(n, "type", 4));
    if (typed) {
      if (auto d = FieldDefault(right)) {
        Emit(target, *d, Line(n), PyAssign::Origin::kField);
        return;
      }
    }
    Emit(target, Value(right), Line(n), typed && !scope_.empty() ? PyAssign::Origin::kField : PyAssign::Origin::kAssign);
    Flatten(target, right, 0);
  }

  void Emit(const std::string& target, PyValue v, int line, PyAssign::Origin origin) {
    if (out_->assigns.size() < 20000)
      out_->assigns.push_back(
          {target, std::move(v), line, scope_, origin, functions_ > 0 && origin != PyAssign::Origin::kParam, condition_});
  }

  // `x = dict(a=1, b=dict(c=2))` and `x = {"a": 1}` → x.a = 1, x.b.c = 2.
  void Flatten(const std::string& prefix, TSNode n, int depth) {
    if (depth > 6) return;
    std::string_view type = ts_node_type(n);
    if (type == "dictionary") {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count && i < 256; ++i) {
        TSNode pair = ts_node_named_child(n, i);
        if (std::string_view(ts_node_type(pair)) != "pair") continue;
        TSNode key = ts_node_child_by_field_name(pair, "key", 3);
        TSNode value = ts_node_child_by_field_name(pair, "value", 5);
        if (ts_node_is_null(key) || ts_node_is_null(value)) continue;
        PyValue k = Value(key);
        if (k.kind != PyValue::Kind::kString || k.text.empty()) continue;
        Entry(prefix, k.text, value);
        Emit(prefix + "." + k.text, Value(value), Line(pair), PyAssign::Origin::kAssign);
        Flatten(prefix + "." + k.text, value, depth + 1);
      }
    } else if (type == "call") {
      TSNode fn = ts_node_child_by_field_name(n, "function", 8);
      TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
      if (ts_node_is_null(fn) || ts_node_is_null(args)) return;
      std::string callee = Dotted(fn);
      if (callee != "dict" && callee != "ConfigDict" && callee != "ml_collections.ConfigDict" && callee != "edict" &&
          callee != "EasyDict" && callee != "Config")
        return;
      uint32_t count = ts_node_named_child_count(args);
      for (uint32_t i = 0; i < count && i < 256; ++i) {
        TSNode a = ts_node_named_child(args, i);
        if (std::string_view(ts_node_type(a)) == "keyword_argument") {
          TSNode name = ts_node_child_by_field_name(a, "name", 4);
          TSNode value = ts_node_child_by_field_name(a, "value", 5);
          if (ts_node_is_null(name) || ts_node_is_null(value)) continue;
          Emit(prefix + "." + Text(name), Value(value), Line(a), PyAssign::Origin::kAssign);
          Flatten(prefix + "." + Text(name), value, depth + 1);
        } else if (std::string_view(ts_node_type(a)) == "dictionary") {
          Flatten(prefix, a, depth + 1);
        }
      }
    }
  }

  // The default of `field(default=v)`, `field(default_factory=lambda: v)`,
  // `typer.Option(v)` / `Option(default=v)`; nullopt for other values.
  std::optional<PyValue> FieldDefault(TSNode right) {
    if (std::string_view(ts_node_type(right)) != "call") return std::nullopt;
    TSNode fn = ts_node_child_by_field_name(right, "function", 8);
    TSNode args = ts_node_child_by_field_name(right, "arguments", 9);
    if (ts_node_is_null(fn) || ts_node_is_null(args)) return std::nullopt;
    std::string callee = Dotted(fn);
    std::string last = callee.substr(callee.rfind('.') == std::string::npos ? 0 : callee.rfind('.') + 1);
    if (last != "field" && last != "Field" && last != "Option" && last != "Argument" && last != "Param")
      return std::nullopt;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      if (std::string_view(ts_node_type(a)) == "keyword_argument") {
        TSNode name = ts_node_child_by_field_name(a, "name", 4);
        TSNode value = ts_node_child_by_field_name(a, "value", 5);
        if (ts_node_is_null(name) || ts_node_is_null(value)) continue;
        if (Text(name) == "default") return Value(value);
      } else if (i == 0 && last != "field" && std::string_view(ts_node_type(a)) != "comment") {
        return Value(a);  // typer.Option(3e-4, ...)
      }
    }
    return PyValue{};  // a field without a default
  }

  // Defaults of a function's parameters (fire/typer entry points, main(...)).
  void Parameters(TSNode fn) {
    TSNode params = ts_node_child_by_field_name(fn, "parameters", 10);
    if (ts_node_is_null(params)) return;
    uint32_t count = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < count && i < 128; ++i) {
      TSNode p = ts_node_named_child(params, i);
      std::string_view pt = ts_node_type(p);
      if (pt != "default_parameter" && pt != "typed_default_parameter") continue;
      TSNode name = ts_node_child_by_field_name(p, "name", 4);
      TSNode value = ts_node_child_by_field_name(p, "value", 5);
      if (ts_node_is_null(name) || ts_node_is_null(value)) continue;
      PyValue v = Value(value);
      if (auto d = FieldDefault(value)) v = *d;
      Emit(Text(name), v, Line(p), PyAssign::Origin::kParam);
    }
  }

  void Import(TSNode n, std::string_view type) {
    PyImport imp;
    imp.line = Line(n);
    if (type == "import_statement") {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        TSNode name = std::string_view(ts_node_type(c)) == "aliased_import" ? ts_node_child_by_field_name(c, "name", 4) : c;
        if (!ts_node_is_null(name)) out_->imports.push_back({Text(name), {}, imp.line});
      }
      return;
    }
    TSNode module = ts_node_child_by_field_name(n, "module_name", 11);
    if (ts_node_is_null(module)) return;
    imp.module = Text(module);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (ts_node_eq(c, module)) continue;
      std::string_view ct = ts_node_type(c);
      if (ct == "dotted_name") imp.names.push_back(Text(c));
      else if (ct == "aliased_import") {
        TSNode name = ts_node_child_by_field_name(c, "name", 4);
        if (!ts_node_is_null(name)) imp.names.push_back(Text(name));
      }
    }
    out_->imports.push_back(std::move(imp));
  }

  std::string_view src_;
  PythonFacts* out_;
  std::string scope_;
  bool in_class_ = false;
  int functions_ = 0;
  std::string condition_;  // PyAssign::condition of what is bound here
  // The branch of a conditional expression being visited (PyCall::condition).
  struct Branch {
    TSNode node{};
    std::string condition;
    bool negated = false;
  } branch_;
  mutable int depth_ = 0;
};

}  // namespace

const PyValue* PyCall::Kwarg(std::string_view name) const {
  for (const auto& [k, v] : kwargs)
    if (k == name) return &v;
  return nullptr;
}

PythonFacts ParsePython(std::string_view source) {
  PythonFacts out;
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), tree_sitter_python())) {
    out.has_syntax_errors = true;
    return out;
  }
  ts_parser_set_timeout_micros(parser.get(), 2'000'000);  // a pathological file stops here
  std::unique_ptr<TSTree, TreeDeleter> tree(
      ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<uint32_t>(source.size())));
  if (!tree) {
    out.has_syntax_errors = true;
    return out;
  }
  TSNode root = ts_tree_root_node(tree.get());
  out.has_syntax_errors = ts_node_has_error(root);
  Walker(source, &out).Visit(root, 0);
  return out;
}

namespace {

// Most recently used first; bounded by entries and by bytes of source kept.
struct ParseCache {
  struct Entry {
    size_t hash;
    std::string text;
    std::shared_ptr<const PythonFacts> facts;
  };
  static constexpr size_t kMaxEntries = 256;
  static constexpr size_t kMaxBytes = 16u << 20;
  std::list<Entry> entries;
  size_t bytes = 0;
  PythonParseCacheStats stats;
};

ParseCache& ThisThreadsCache() {
  thread_local ParseCache cache;
  return cache;
}

}  // namespace

std::shared_ptr<const PythonFacts> ParsePythonShared(std::string_view source) {
  ParseCache& c = ThisThreadsCache();
  const size_t hash = std::hash<std::string_view>{}(source);
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it) {
    if (it->hash != hash || it->text != source) continue;
    c.entries.splice(c.entries.begin(), c.entries, it);
    ++c.stats.hits;
    return it->facts;
  }
  ++c.stats.parsed;
  auto facts = std::make_shared<const PythonFacts>(ParsePython(source));
  if (source.size() > ParseCache::kMaxBytes / 4) return facts;  // too big to keep
  c.entries.push_front({hash, std::string(source), facts});
  c.bytes += source.size();
  while (c.entries.size() > ParseCache::kMaxEntries || c.bytes > ParseCache::kMaxBytes) {
    c.bytes -= c.entries.back().text.size();
    c.entries.pop_back();
  }
  return facts;
}

PythonParseCacheStats PythonParseCacheStatsOfThisThread() { return ThisThreadsCache().stats; }

void ForgetSharedPythonParsesOfThisThread() {
  ParseCache& c = ThisThreadsCache();
  c.entries.clear();
  c.bytes = 0;
}

}  // namespace schedmate
