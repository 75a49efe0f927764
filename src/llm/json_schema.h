// Validation of LLM answers against the JSON schema they were asked for
// (DESIGN §2: every field an LLM returns is checked before use). Supports
// the subset our schemas use: type (one or a list, incl. "null"),
// properties, required, additionalProperties: false, enum, minimum,
// maximum, items, minItems, maxItems, maxLength. Stricter than JSON Schema
// in one place: "integer" accepts only an integer literal, not 3.0 or 1e8.
#ifndef SCHEDMATE_LLM_JSON_SCHEMA_H_
#define SCHEDMATE_LLM_JSON_SCHEMA_H_

#include "core/json.h"
#include "core/status.h"

namespace schedmate {

// OK, or InvalidArgument naming the first offending path ("$.step: ...").
Status ValidateJsonSchema(const Json& schema, const Json& value);

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_JSON_SCHEMA_H_
