#include "llm/json_schema.h"

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

bool HasType(const Json& v, const std::string& t) {
  if (t == "null") return v.is_null();
  if (t == "object") return v.is_object();
  if (t == "array") return v.is_array();
  if (t == "string") return v.is_string();
  if (t == "boolean") return v.is_boolean();
  // Only an integer literal: a float such as 3.0, 1e8 or 1e19 is refused,
  // never truncated, so a line number or step is the one the model wrote.
  if (t == "integer") return v.is_number_integer();
  if (t == "number") return v.is_number();
  return false;
}

Status Fail(const std::string& path, const std::string& what) {
  return InvalidArgument(path + ": " + what);
}

Status Validate(const Json& schema, const Json& v, const std::string& path) {
  if (!schema.is_object()) return Status::Ok();
  if (auto t = schema.find("type"); t != schema.end()) {
    bool ok = false;
    std::string names;
    if (t->is_string()) {
      ok = HasType(v, t->get<std::string>());
      names = t->get<std::string>();
    } else if (t->is_array()) {
      for (const auto& x : *t)
        if (x.is_string()) {
          ok = ok || HasType(v, x.get<std::string>());
          names += (names.empty() ? "" : "|") + x.get<std::string>();
        }
    }
    if (!ok) return Fail(path, "expected " + names + ", got " + std::string(v.type_name()));
  }
  if (auto e = schema.find("enum"); e != schema.end() && e->is_array()) {
    bool found = false;
    for (const auto& x : *e) found = found || x == v;
    if (!found) return Fail(path, "not one of " + DumpJson(*e));
  }
  if (v.is_number()) {
    double d = v.get<double>();
    if (auto m = schema.find("minimum"); m != schema.end() && m->is_number() && d < m->get<double>())
      return Fail(path, "below minimum " + DumpJson(*m));
    if (auto m = schema.find("maximum"); m != schema.end() && m->is_number() && d > m->get<double>())
      return Fail(path, "above maximum " + DumpJson(*m));
  }
  if (v.is_string()) {
    if (auto m = schema.find("maxLength"); m != schema.end() && m->is_number_integer() &&
                                           v.get<std::string>().size() > m->get<size_t>())
      return Fail(path, "longer than " + DumpJson(*m));
  }
  if (v.is_array()) {
    if (auto m = schema.find("minItems"); m != schema.end() && m->is_number_integer() && v.size() < m->get<size_t>())
      return Fail(path, "fewer than " + DumpJson(*m) + " items");
    if (auto m = schema.find("maxItems"); m != schema.end() && m->is_number_integer() && v.size() > m->get<size_t>())
      return Fail(path, "more than " + DumpJson(*m) + " items");
    if (auto items = schema.find("items"); items != schema.end())
      for (size_t i = 0; i < v.size(); ++i)
        RETURN_IF_ERROR(Validate(*items, v[i], path + "[" + std::to_string(i) + "]"));
  }
  if (v.is_object()) {
    const Json* props = nullptr;
    if (auto p = schema.find("properties"); p != schema.end() && p->is_object()) props = &*p;
    if (auto r = schema.find("required"); r != schema.end() && r->is_array())
      for (const auto& name : *r)
        if (name.is_string() && !v.contains(name.get<std::string>()))
          return Fail(path, "missing required field '" + name.get<std::string>() + "'");
    bool closed = false;
    if (auto a = schema.find("additionalProperties"); a != schema.end() && a->is_boolean()) closed = !a->get<bool>();
    for (auto it = v.begin(); it != v.end(); ++it) {
      const Json* sub = nullptr;
      if (props) {
        auto p = props->find(it.key());
        if (p != props->end()) sub = &*p;
      }
      if (!sub && closed) return Fail(path, "unexpected field '" + it.key() + "'");
      if (sub) RETURN_IF_ERROR(Validate(*sub, it.value(), path + "." + it.key()));
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateJsonSchema(const Json& schema, const Json& value) { return Validate(schema, value, "$"); }

}  // namespace schedmate
