// The service's error answers: an HTTP status and a stable code a client can
// branch on, as {"error": {"code", "message", "field"}}. The codes are part
// of the API (docs/service.md lists them); messages are for people.
#ifndef SCHEDMATE_SERVICE_API_ERROR_H_
#define SCHEDMATE_SERVICE_API_ERROR_H_

#include <string>

#include "core/status.h"

namespace schedmate {

struct ApiError {
  int http_status = 500;
  std::string code;     // "invalid_json", "invalid_request", "unauthorized", …
  std::string message;
  std::string field;    // the request field at fault, "" when none
  int retry_after_s = 0;  // > 0: sent as Retry-After (429, 503)
};

ApiError InvalidJson(std::string message);
// A request field is missing, mistyped or out of range (400).
ApiError InvalidRequest(std::string field, std::string message);
ApiError Unauthorized(std::string message);
ApiError PayloadTooLarge(size_t limit_bytes);
ApiError RateLimited(int retry_after_s);
ApiError QueueFull(int retry_after_s);
ApiError RequestTimeout(int limit_ms);

// A component's Status as an answer: bad input 400, refused path 403,
// missing file or record 404, store trouble 503, anything else 500.
// `field` names the request field the failing value came from.
ApiError FromStatus(const Status& status, std::string field = "");

// {"error": {"code", "message", "field"?}}
std::string ErrorBody(const ApiError& error);

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_API_ERROR_H_
