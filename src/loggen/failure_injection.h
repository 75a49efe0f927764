// First errors the semantic world injects into failed jobs' logs (issue 6):
// a library of templates (data/failure_injections.txt, compiled in), each a
// realistic first error — with the traceback frames printed just before it —
// labelled with the category and component a correct diagnosis names.
// The generator adds the cascade (job_log_tail.h).
#ifndef SCHEDMATE_LOGGEN_FAILURE_INJECTION_H_
#define SCHEDMATE_LOGGEN_FAILURE_INJECTION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/random.h"
#include "core/status.h"

namespace schedmate {

struct FailureTemplate {
  std::string id;         // "gpu.ecc"
  std::string category;   // infrastructure | framework | user_script
  std::string component;  // gpu | nvlink | network | node | storage | "" (not infrastructure)
  std::vector<std::string> lines;  // with {placeholders}
  int root_index = 0;
};

// One template rendered for a job.
struct InjectedError {
  std::string template_id, category, component;
  std::vector<std::string> lines;
  int root_index = 0;
};

// Values substituted into a template's placeholders.
struct InjectionContext {
  int rank = 0;
  std::string node = "node-017";
  std::string script = "train.py";
  int64_t step = 0;
  std::string job_id = "1";
};

class FailureInjections {
 public:
  // The compiled-in library.
  static const FailureInjections& Default();
  // Parses the text format of data/failure_injections.txt; errors name the line.
  static Result<FailureInjections> Parse(std::string_view text);

  const std::vector<FailureTemplate>& templates() const { return templates_; }
  // A template of the category (and, for infrastructure, component), drawn
  // uniformly; nullptr when the library has none.
  const FailureTemplate* Pick(std::string_view category, std::string_view component, Rng& rng) const;

 private:
  std::vector<FailureTemplate> templates_;
};

// Substitutes the placeholders; numbers not in the context (pids, ports,
// addresses, GPU bus ids) are drawn from `rng`.
InjectedError RenderInjection(const FailureTemplate& t, const InjectionContext& c, Rng& rng);

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_FAILURE_INJECTION_H_
