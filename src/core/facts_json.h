// JSON renderings of the facts, with the field names scripts rely on
// (see the README's command reference). Absent optionals become null.
#ifndef SCHEDMATE_CORE_FACTS_JSON_H_
#define SCHEDMATE_CORE_FACTS_JSON_H_

#include <string_view>

#include "core/facts.h"
#include "core/json.h"

namespace schedmate {

Json ToJson(const WorkloadMetadata& m);
Json ToJson(const DurationEstimate& e);
Json ToJson(const ProgressReport& p);
Json ToJson(const FailureDiagnosis& d);

std::string_view EndReasonName(EndReason r);  // "completed", "failed_user", ...
std::string_view ErrorTypeName(FailureDiagnosis::ErrorType t);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_FACTS_JSON_H_
