// Experiment configs are user files: parse + validate must never throw.
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "experiments/experiment.h"
#include "experiments/lucid_experiment.h"
#include "core/json.h"
#include "policies/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view s(reinterpret_cast<const char*>(data), size);
  auto j = schedmate::ParseJson(s, "fuzz.json");
  if (!j.ok()) return 0;
  (void)schedmate::LucidConfigFromJson(*j, "fuzz.json");
  auto c = schedmate::ExperimentFromJson(*j, "fuzz.json");
  if (!c.ok()) return 0;
  for (const auto& p : c->policies) (void)schedmate::MakePolicy(p);
  return 0;
}
