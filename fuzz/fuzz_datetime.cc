#include <cstdint>
#include <string_view>

#include "core/time_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view s(reinterpret_cast<const char*>(data), size);
  auto t = schedmate::ParseDateTime(s);
  // Whatever parses must print and parse back to the same instant.
  if (t && schedmate::ParseDateTime(schedmate::FormatDateTime(*t)) != t)
    __builtin_trap();
  return 0;
}
