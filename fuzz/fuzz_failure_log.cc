// The Failure Handler on arbitrary bytes: the locator with tiny chunks (so
// the binary search runs on small inputs), the root-cause rules, and the
// knowledge-base parser and the world's failure-injection parser on the
// same bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "failure/diagnose.h"
#include "failure/signatures.h"
#include "loggen/failure_injection.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  schedmate::LocateOptions o;
  o.chunk_bytes = 1024;
  o.context_lines = 40;
  auto r = schedmate::DiagnoseLog(*schedmate::StringSource(text), o);
  if (!r.ok()) __builtin_trap();
  const auto& d = r->diagnosis;
  if (d.root_cause_line_index && (*d.root_cause_line_index < 0 || !d.root_cause_line)) __builtin_trap();
  if (d.confidence < 0 || d.confidence > 1) __builtin_trap();
  schedmate::DiagnoseTail(text, 50);
  schedmate::DiagnoseLastError(text);
  auto kb = schedmate::SignatureBase::Parse(text, "fuzz");
  if (kb.ok()) kb->Match(schedmate::ToLower(text));
  auto lib = schedmate::FailureInjections::Parse(text);
  if (lib.ok()) {
    schedmate::Rng rng(1);
    for (const auto& t : lib->templates()) {
      if (t.root_index < 0 || static_cast<size_t>(t.root_index) >= t.lines.size()) __builtin_trap();
      schedmate::RenderInjection(t, {}, rng);
    }
  }
  return 0;
}
