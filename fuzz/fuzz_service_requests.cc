// The service's request bodies come from any client on the socket: parsing
// them (body, then each endpoint's fields) must never throw, abort or crash,
// and a failure must name a field or the body.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "service/requests.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view s(reinterpret_cast<const char*>(data), size);
  auto body = schedmate::ParseRequestBody(s);
  if (!body.ok()) return 0;
  std::string field;
  (void)schedmate::ParseAdviseRequest(*body, &field);
  (void)schedmate::ParseTrackRequest(*body, &field);
  (void)schedmate::ParseDiagnoseRequest(*body, &field);
  (void)schedmate::ParseHistoryWriteRequest(*body, &field);
  (void)schedmate::ParseJobEventsRequest(*body, &field);
  return 0;
}
