// Reading an experiment config's optional fields: absent or null keeps the
// default; a mistyped value is an error naming `where` and the field. Shared
// by the experiment configs (Lucid, standalone, backfill, …).
#ifndef SCHEDMATE_EXPERIMENTS_CONFIG_FIELDS_H_
#define SCHEDMATE_EXPERIMENTS_CONFIG_FIELDS_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/status.h"
#include "policies/common/backfill.h"

namespace schedmate {

template <typename T>
Status OptionalField(const Json& j, const char* key, const std::string& where, T* out) {
  if (!j.contains(key) || j[key].is_null()) return Status::Ok();
  if constexpr (std::is_same_v<T, std::string>) {
    ASSIGN_OR_RETURN(*out, GetString(j, key, where));
  } else if constexpr (std::is_same_v<T, bool>) {
    ASSIGN_OR_RETURN(*out, GetBool(j, key, where));
  } else if constexpr (std::is_floating_point_v<T>) {
    ASSIGN_OR_RETURN(*out, GetNumber(j, key, where));
  } else {
    ASSIGN_OR_RETURN(int64_t v, GetInt(j, key, where));
    *out = static_cast<T>(v);
  }
  return Status::Ok();
}

// The optional "backfill" (strict | easy | conservative) and
// "backfill_estimate" (oracle | user-limit | advisor) fields of `j`.
inline Status BackfillFields(const Json& j, const std::string& where, BackfillOptions* b) {
  std::string mode(BackfillModeName(b->mode)), source(BackfillEstimateName(b->estimate)),
      overdue(OverdueRuleName(b->overdue));
  RETURN_IF_ERROR(OptionalField(j, "backfill", where, &mode));
  RETURN_IF_ERROR(OptionalField(j, "backfill_estimate", where, &source));
  RETURN_IF_ERROR(OptionalField(j, "backfill_overdue", where, &overdue));
  auto o = ParseOverdueRule(overdue);
  if (!o.ok()) return InvalidArgument(where + ": field 'backfill_overdue': " + o.status().message());
  b->overdue = *o;
  auto m = ParseBackfillMode(mode);
  if (!m.ok()) return InvalidArgument(where + ": field 'backfill': " + m.status().message());
  auto e = ParseBackfillEstimate(source);
  if (!e.ok()) return InvalidArgument(where + ": field 'backfill_estimate': " + e.status().message());
  b->mode = *m;
  b->estimate = *e;
  return Status::Ok();
}

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_CONFIG_FIELDS_H_
