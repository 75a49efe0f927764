#include <cstdint>
#include <sstream>
#include <string>

#include "traces/vc_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  auto vcs = schedmate::LoadVcConfig(in, "fuzz_vc.csv");
  if (vcs.ok())
    for (const auto& v : *vcs)
      if (v.nodes < 1 || v.name.empty()) __builtin_trap();
  return 0;
}
