#include "core/guard_ledger.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace schedmate {

std::string RefusalReason(const GuardLimit& limit, const std::vector<int64_t>& events_ms, int64_t now_ms) {
  if (!events_ms.empty() && limit.cooldown_ms > 0 && now_ms - events_ms.back() < limit.cooldown_ms)
    return "cool-down: the last one was " + std::to_string((now_ms - events_ms.back()) / 1000) + " s ago (" +
           std::to_string(limit.cooldown_ms / 1000) + " s required)";
  auto in_window = std::count_if(events_ms.begin(), events_ms.end(), [&](int64_t t) {
    return limit.window_ms <= 0 || t > now_ms - limit.window_ms;
  });
  if (in_window >= limit.max_events)
    return "limit reached: " + std::to_string(in_window) + " of " + std::to_string(limit.max_events) +
           (limit.window_ms > 0 ? " per " + std::to_string(limit.window_ms / 1000) + " s" : std::string(" in all"));
  return "";
}

Result<GuardDecision> MemoryGuardLedger::Reserve(const GuardLimit& limit, int64_t now_ms, const Json& audit) {
  std::vector<int64_t>& events = events_ms_[limit.scope];
  GuardDecision d;
  d.why = RefusalReason(limit, events, now_ms);
  if (!d.why.empty()) return d;
  events.push_back(now_ms);
  audit_.push_back(audit);
  d.granted = true;
  return d;
}

Status MemoryGuardLedger::Audit(const Json& record) {
  audit_.push_back(record);
  return Status::Ok();
}

Result<std::vector<Json>> MemoryGuardLedger::AuditTrail(size_t limit) {
  size_t from = audit_.size() > limit ? audit_.size() - limit : 0;
  return std::vector<Json>(audit_.begin() + static_cast<long>(from), audit_.end());
}

}  // namespace schedmate
