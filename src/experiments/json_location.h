// Where a value sits in a JSON text, for error messages that name a line:
// nlohmann::json keeps no positions, so the text is scanned again along the
// path of object keys and array indices once an error is found.
#ifndef SCHEDMATE_EXPERIMENTS_JSON_LOCATION_H_
#define SCHEDMATE_EXPERIMENTS_JSON_LOCATION_H_

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace schedmate {

// One step of a path: an object key or an array index.
using JsonPathStep = std::variant<std::string, size_t>;
using JsonPath = std::vector<JsonPathStep>;

// The 1-based line on which the value at `path` starts in `text` (for an
// object member: the line of its key); 0 when the text is not valid JSON
// along the path or the path names nothing. An empty path is the document.
int JsonLineOf(std::string_view text, const JsonPath& path);

// "experiments[1].settings[0].args" — the path as a user reads it.
std::string JsonPathString(const JsonPath& path);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_JSON_LOCATION_H_
