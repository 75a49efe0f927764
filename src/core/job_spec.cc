#include "core/job_spec.h"

#include <algorithm>
#include <cctype>

namespace schedmate {

std::string_view EndStateName(EndState s) {
  switch (s) {
    case EndState::kCompleted: return "COMPLETED";
    case EndState::kFailed: return "FAILED";
    case EndState::kCancelled: return "CANCELLED";
    case EndState::kTimeout: return "TIMEOUT";
    case EndState::kNodeFail: return "NODE_FAIL";
    case EndState::kUnknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

std::optional<EndState> ParseEndState(std::string_view text) {
  std::string up(text);
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  if (up == "COMPLETED" || up == "PASS") return EndState::kCompleted;
  if (up == "FAILED") return EndState::kFailed;
  if (up == "CANCELLED" || up == "KILLED") return EndState::kCancelled;
  if (up == "TIMEOUT") return EndState::kTimeout;
  if (up == "NODE_FAIL") return EndState::kNodeFail;
  if (up == "UNKNOWN" || up.empty()) return EndState::kUnknown;
  return std::nullopt;
}

}  // namespace schedmate
