// The learned components' weight files on arbitrary bytes: a user may pass
// their own (eval tracker --tagger-weights, eval failures --model-dir). Bad
// rows must be errors, and a parsed model must score without crashing.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "failure/failure_model.h"
#include "tracker/field_tagger.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (auto t = schedmate::FieldTagger::Parse(text); t.ok()) {
    auto p = t->Probabilities({"bias", "w=loss", "int"});
    double sum = 0;
    for (double x : p) sum += x;
    if (!(std::fabs(sum - 1) < 1e-6)) __builtin_trap();
  }
  if (auto m = schedmate::LinearModel::Parse(text, schedmate::FailureClassNames(), "fuzz"); m.ok()) {
    auto p = m->Probabilities({"bias", "c=error"});
    if (p.size() != schedmate::FailureClassNames().size()) __builtin_trap();
  }
  if (auto t = schedmate::ParseSignatureTrust(text, "fuzz"); t.ok()) {
    schedmate::FailureModel m;
    m.signatures = *t;
    for (const auto& [id, r] : m.signatures)
      if (r.right > r.decided || r.right < 0) __builtin_trap();
      else (void)m.Trusts(id);
  }
  return 0;
}
