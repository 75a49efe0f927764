#include "advisor/python_source.h"

#include <tree_sitter/api.h>

#include <cstring>
#include <memory>

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
    if (type == "call") Call(node);
    else if (type == "assignment") Assign(node);
    else if (type == "import_statement" || type == "import_from_statement") Import(node, type);
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) Visit(ts_node_named_child(node, i), depth + 1);
  }

 private:
  std::string Text(TSNode n) const {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (a > src_.size() || b > src_.size() || b < a) return "";
    return std::string(src_.substr(a, b - a));
  }
  int Line(TSNode n) const { return static_cast<int>(ts_node_start_point(n).row) + 1; }

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
    if (!ts_node_is_null(args)) {
      uint32_t count = ts_node_named_child_count(args);
      for (uint32_t i = 0; i < count && i < 64; ++i) {
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
    if (out_->calls.size() < 20000) out_->calls.push_back(std::move(c));
  }

  void Assign(TSNode n) {
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right)) return;
    std::string target = Dotted(left);
    if (target.empty()) return;
    if (out_->assigns.size() < 20000) out_->assigns.push_back({target, Value(right), Line(n)});
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

}  // namespace schedmate
