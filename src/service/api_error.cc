#include "service/api_error.h"

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {

ApiError InvalidJson(std::string message) { return {400, "invalid_json", std::move(message), "", 0}; }

ApiError InvalidRequest(std::string field, std::string message) {
  return {400, "invalid_request", std::move(message), std::move(field), 0};
}

ApiError Unauthorized(std::string message) { return {401, "unauthorized", std::move(message), "", 0}; }

ApiError PayloadTooLarge(size_t limit_bytes) {
  return {413, "payload_too_large", "the request body exceeds " + std::to_string(limit_bytes) + " bytes", "", 0};
}

ApiError RateLimited(int retry_after_s) {
  return {429, "rate_limited", "this channel's request rate limit is reached; retry later", "", retry_after_s};
}

ApiError QueueFull(int retry_after_s) {
  return {503, "queue_full", "this channel's work queue is full; retry later", "", retry_after_s};
}

ApiError RequestTimeout(int limit_ms) {
  return {504, "timeout", "no answer within the request time limit of " + std::to_string(limit_ms) + " ms", "", 0};
}

ApiError FromStatus(const Status& status, std::string field) {
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kOutOfRange:
      return {400, "invalid_request", status.message(), std::move(field), 0};
    case StatusCode::kPermissionDenied:
      return {403, "forbidden_path", status.message(), std::move(field), 0};
    case StatusCode::kNotFound:
      return {404, "not_found", status.message(), std::move(field), 0};
    case StatusCode::kResourceExhausted:
      return {413, "too_large", status.message(), std::move(field), 0};
    case StatusCode::kUnavailable:
    case StatusCode::kDataLoss:
    case StatusCode::kFailedPrecondition:
      return {503, "store_unavailable", status.message(), std::move(field), 1};
    default:
      return {500, "internal", status.message(), std::move(field), 0};
  }
}

std::string ErrorBody(const ApiError& error) {
  Json e = {{"code", error.code}, {"message", error.message}};
  if (!error.field.empty()) e["field"] = error.field;
  return DumpJson(Json{{"error", e}});
}

}  // namespace schedmate
