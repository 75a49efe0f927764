// One JSON POST to an OpenAI-compatible endpoint, bounded in wall-clock time
// and in answer size whatever the server does: silent, trickling a byte at a
// time (headers included), or streaming an endless body. cpp-httplib's own
// timeouts are per socket read, so each trickled byte would restart them;
// here a watchdog shuts the socket down at the deadline, and the body is
// received piecewise and refused as soon as it passes the cap.
#ifndef SCHEDMATE_LLM_HTTP_POST_H_
#define SCHEDMATE_LLM_HTTP_POST_H_

#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "llm/endpoint.h"

namespace schedmate {

using LlmClock = std::chrono::steady_clock;

// Transport errors, HTTP status, an oversized or non-JSON body become an
// LlmError (kTimeout when `deadline` passed first, kTooLarge past
// endpoint.max_response_bytes).
struct PostResult {
  std::optional<Json> body;
  std::optional<LlmError> error;
};
PostResult PostJson(const LlmEndpoint& endpoint, const std::string& path, const std::string& body,
                    LlmClock::time_point deadline);

// PostJson to `<base_url>/v1<path>` within endpoint.deadline_s in total:
// transport failures, 429 and 5xx are retried with exponential backoff
// while the budget has time left for the backoff. *attempts counts POSTs.
PostResult PostJsonWithRetries(const LlmEndpoint& endpoint, const std::string& path, const std::string& body,
                               int* attempts);

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_HTTP_POST_H_
