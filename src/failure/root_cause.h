// Picks the root-cause line in a located region of a failed job's log and
// classifies it (DESIGN §1.3 step 2, embedded backend): the first *real*
// error — not a warning, a wrapper (ChildFailedError, DistBackendError,
// "Failed to import"), a SIGTERM the launcher sent to healthy ranks, or a
// line of the cascade.
//
// Every line is matched against the signature base; a Python exception line
// ("[rank3]: ValueError: …") that no signature explains is a generic
// user-script candidate. The root cause is the earliest line of the highest
// weight; an indented "(…)" continuation counts with the line it continues
// (OpenACC's "(CUDA_ERROR_ECC_UNCORRECTABLE)"). Context rules: an OOM in a
// window that also shows a GPU hardware fault is the GPU's fault.
#ifndef SCHEDMATE_FAILURE_ROOT_CAUSE_H_
#define SCHEDMATE_FAILURE_ROOT_CAUSE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/facts.h"
#include "failure/signatures.h"

namespace schedmate {

// A window of lines: (0-based line number in the file, text), oldest first.
using LineWindow = std::vector<std::pair<int64_t, std::string>>;

struct RootCauseDetail {
  FailureDiagnosis diagnosis;
  std::string signature_id;  // "generic-exception" or "" when unknown
  int weight = 0;
};

RootCauseDetail DiagnoseWindow(const LineWindow& window,
                               const SignatureBase& base = SignatureBase::Default());

// The exception type of a Python exception line ("ValueError" for
// "[rank5]: ValueError: File … not found."), or empty.
std::string ExceptionType(std::string_view line);

// Source code a Python traceback echoes (an indented line after `File "…",
// line N`, or a `raise …` statement): it names an error without being one.
bool IsTracebackCodeLine(const LineWindow& window, size_t i);

// An infrastructure signature whose words, on this (lower-case) line, do not
// report an event: every matching alternative has a term that only occurs
// inside a path ("/ibm/gpfs-homes/…", "…/tpu/preempted_hook.py": where a file
// lives, not that GPFS failed or the node was preempted) or as one of several
// alternatives the message lists ("has failed, got preempted, or crashed",
// "is preempted or failed"). Such a line is no signature candidate (an
// exception line stays a generic one) and the learned reading decides; it
// sees the signature with a "sig-weak" mark.
bool WeakInfrastructureMatch(std::string_view lower, const Signature& sig);

// A line without its launcher and logger prefixes ("[rank3]: ", timestamps).
std::string_view WithoutLogPrefixes(std::string_view line);

// True when a line looks like a failure (a signature of any kind, an
// exception line, or an error word): the locator's per-line test.
bool IsFailureLine(std::string_view line, const SignatureBase& base = SignatureBase::Default());


}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_ROOT_CAUSE_H_
