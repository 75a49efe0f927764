// Fuzzes one trace loader (SM_FUZZ_FORMAT) end to end: any input must give
// a trace or an error, never a crash, a hang or unbounded memory.
#include <cstdint>
#include <sstream>
#include <string>

#include "traces/trace_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const schedmate::TraceFormat format =
      *schedmate::ParseTraceFormat(SM_FUZZ_FORMAT);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  schedmate::LoadReport report;
  auto trace = schedmate::LoadTrace(in, "fuzz.csv", format, {}, &report);
  if (trace.ok()) {
    for (const auto& j : trace->jobs) {
      if (j.gpus < 0 || j.duration_s < -1) __builtin_trap();  // loader contract
    }
  } else if (trace.status().message().empty()) {
    __builtin_trap();  // errors must explain themselves
  }
  return 0;
}
