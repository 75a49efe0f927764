#include "core/json.h"

#include "core/file_io.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

std::string Where(std::string_view where, std::string_view field) {
  std::string s(where);
  if (!s.empty()) s += ": ";
  s += "field '";
  s += field;
  s += "'";
  return s;
}

const Json* Find(const Json& obj, std::string_view field) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(std::string(field));
  return it == obj.end() ? nullptr : &*it;
}

Status Missing(std::string_view where, std::string_view field) {
  return InvalidArgument(Where(where, field) + " is missing");
}

Status Mistyped(std::string_view where, std::string_view field,
                std::string_view want, const Json& got) {
  return InvalidArgument(Where(where, field) + " must be " +
                         std::string(want) + ", got " + got.type_name());
}

// A whole number that fits int64 (1, 1.0; not 1.5, 1e30 or 2^64 - 1).
bool IsInteger(const Json& v) {
  if (v.is_number_unsigned())
    return v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX);
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  double d = v.get<double>();
  return std::isfinite(d) && d == std::floor(d) && d >= -9.2e18 && d <= 9.2e18;
}

}  // namespace

Result<Json> ParseJson(std::string_view text, std::string_view source) {
  Json j = Json::parse(text.begin(), text.end(), nullptr,
                       /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    // Re-parse with exceptions only to extract the position for the message.
    try {
      Json unused = Json::parse(text.begin(), text.end());
      (void)unused;
    } catch (const Json::exception& e) {
      return InvalidArgument(std::string(source) + ": invalid JSON: " +
                             e.what());
    }
    return InvalidArgument(std::string(source) + ": invalid JSON");
  }
  return j;
}

Result<Json> ReadJsonFile(const std::string& path, size_t max_bytes) {
  ASSIGN_OR_RETURN(std::string text, ReadFileCapped(path, max_bytes));
  return ParseJson(text, path);
}

Status ForEachJsonLine(const std::string& path,
                       const std::function<Status(const Json&, const std::string&)>& fn) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open");
  std::string row;
  int line_no = 0;
  while (std::getline(in, row)) {
    ++line_no;
    if (row.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = path + ":" + std::to_string(line_no);
    ASSIGN_OR_RETURN(Json j, ParseJson(row, where));
    RETURN_IF_ERROR(fn(j, where));
  }
  return Status::Ok();
}

Result<int64_t> GetInt(const Json& obj, std::string_view field,
                       std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v) return Missing(where, field);
  if (!IsInteger(*v)) return Mistyped(where, field, "an integer", *v);
  return v->is_number_integer() ? v->get<int64_t>()
                                : static_cast<int64_t>(v->get<double>());
}

Result<int64_t> GetIntInRange(const Json& obj, std::string_view field,
                              std::string_view where, int64_t lo, int64_t hi) {
  ASSIGN_OR_RETURN(int64_t x, GetInt(obj, field, where));
  if (x < lo || x > hi)
    return InvalidArgument(Where(where, field) + " must be in " +
                           std::to_string(lo) + ".." + std::to_string(hi) +
                           ", got " + std::to_string(x));
  return x;
}

Result<std::optional<int64_t>> GetOptIntInRange(const Json& obj,
                                                std::string_view field,
                                                std::string_view where,
                                                int64_t lo, int64_t hi) {
  const Json* v = Find(obj, field);
  if (!v || v->is_null()) return std::optional<int64_t>();
  ASSIGN_OR_RETURN(int64_t x, GetIntInRange(obj, field, where, lo, hi));
  return std::optional<int64_t>(x);
}

Result<double> GetNumber(const Json& obj, std::string_view field,
                         std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v) return Missing(where, field);
  if (!v->is_number()) return Mistyped(where, field, "a number", *v);
  return v->get<double>();
}

Result<std::string> GetString(const Json& obj, std::string_view field,
                              std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v) return Missing(where, field);
  if (!v->is_string()) return Mistyped(where, field, "a string", *v);
  return v->get<std::string>();
}

Result<bool> GetBool(const Json& obj, std::string_view field,
                     std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v) return Missing(where, field);
  if (!v->is_boolean()) return Mistyped(where, field, "true or false", *v);
  return v->get<bool>();
}

Result<std::optional<int64_t>> GetOptInt(const Json& obj,
                                         std::string_view field,
                                         std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v || v->is_null()) return std::optional<int64_t>();
  ASSIGN_OR_RETURN(int64_t x, GetInt(obj, field, where));
  return std::optional<int64_t>(x);
}

Result<std::optional<double>> GetOptNumber(const Json& obj,
                                           std::string_view field,
                                           std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v || v->is_null()) return std::optional<double>();
  ASSIGN_OR_RETURN(double x, GetNumber(obj, field, where));
  return std::optional<double>(x);
}

Result<CorpusOrigin> GetCorpusOrigin(const Json& obj, std::string_view where) {
  ASSIGN_OR_RETURN(std::optional<std::string> url, GetOptString(obj, "url", where));
  ASSIGN_OR_RETURN(std::optional<std::string> source, GetOptString(obj, "source", where));
  ASSIGN_OR_RETURN(std::optional<std::string> split, GetOptString(obj, "split", where));
  CorpusOrigin o{url.value_or(source.value_or("")), split.value_or("")};
  if (!o.split.empty() && o.split != "dev" && o.split != "val")
    return InvalidArgument(std::string(where) + ": field 'split': expected \"dev\", \"val\" or null, got '" + o.split +
                           "'");
  return o;
}

Result<std::optional<std::string>> GetOptString(const Json& obj,
                                                std::string_view field,
                                                std::string_view where) {
  const Json* v = Find(obj, field);
  if (!v || v->is_null()) return std::optional<std::string>();
  ASSIGN_OR_RETURN(std::string x, GetString(obj, field, where));
  return std::optional<std::string>(std::move(x));
}

std::string DumpJson(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

namespace {

// Edits (insertions, deletions, substitutions) between two short strings.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

Status OnlyKnownFields(const Json& obj, std::initializer_list<std::string_view> known, std::string_view where) {
  if (!obj.is_object()) return Status::Ok();
  for (const auto& [key, value] : obj.items()) {
    bool ok = false;
    std::string_view closest;
    size_t best = SIZE_MAX;
    for (std::string_view k : known) {
      if (k == key) ok = true;
      if (size_t d = EditDistance(key, k); d < best) best = d, closest = k;
    }
    if (ok) continue;
    std::string message = std::string(where) + ": unknown field '" + key + "'";
    if (best <= 3) message += " (did you mean '" + std::string(closest) + "'?)";
    message += "; known:";
    for (std::string_view k : known) message += " " + std::string(k);
    return InvalidArgument(message);
  }
  return Status::Ok();
}

}  // namespace schedmate
