// JSON helpers that never throw across the API. nlohmann::json is the value
// type; parse errors and missing/mistyped fields come back as Status with the
// source and the field path in the message.
#ifndef SCHEDMATE_CORE_JSON_H_
#define SCHEDMATE_CORE_JSON_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/status.h"

namespace schedmate {

using Json = nlohmann::json;

// Parses `text`; `source` names the file or channel for error messages.
Result<Json> ParseJson(std::string_view text, std::string_view source);
// Reads and parses a file (capped at `max_bytes`).
Result<Json> ReadJsonFile(const std::string& path,
                          size_t max_bytes = 64u << 20);

// Field accessors: error when absent or of the wrong type, naming the field.
Result<int64_t> GetInt(const Json& obj, std::string_view field,
                       std::string_view where);
// An integer within [lo, hi]; the error names the field and the range.
Result<int64_t> GetIntInRange(const Json& obj, std::string_view field,
                              std::string_view where, int64_t lo, int64_t hi);
Result<std::optional<int64_t>> GetOptIntInRange(const Json& obj,
                                                std::string_view field,
                                                std::string_view where,
                                                int64_t lo, int64_t hi);
Result<double> GetNumber(const Json& obj, std::string_view field,
                         std::string_view where);
Result<std::string> GetString(const Json& obj, std::string_view field,
                              std::string_view where);
Result<bool> GetBool(const Json& obj, std::string_view field,
                     std::string_view where);
// Optional variants: nullopt when absent or null; error when mistyped.
Result<std::optional<int64_t>> GetOptInt(const Json& obj,
                                         std::string_view field,
                                         std::string_view where);
Result<std::optional<double>> GetOptNumber(const Json& obj,
                                           std::string_view field,
                                           std::string_view where);
Result<std::optional<std::string>> GetOptString(const Json& obj,
                                                std::string_view field,
                                                std::string_view where);

// Where a labelled corpus record came from and which part it is in: its
// "url" (else "source", else "") and its "split" ("dev", "val" or absent →
// ""); any other split is an error naming the field.
struct CorpusOrigin {
  std::string source, split;
};
Result<CorpusOrigin> GetCorpusOrigin(const Json& obj, std::string_view where);

// Calls `fn` with each non-blank line of a JSONL file, parsed, and its
// "path:line"; stops at the first error (a parse error names the line).
Status ForEachJsonLine(const std::string& path,
                       const std::function<Status(const Json&, const std::string&)>& fn);

// Serialises without throwing (invalid UTF-8 is replaced).
std::string DumpJson(const Json& value, int indent = -1);

// A config object's fields must be among `known`: a typo is an error naming
// the field (and the closest known one), never a setting silently ignored.
Status OnlyKnownFields(const Json& obj, std::initializer_list<std::string_view> known, std::string_view where);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_JSON_H_
