#include "integrations/standalone_advice.h"

namespace schedmate {
namespace {

LucidSchedmateOptions AdvisorOnly(LucidSchedmateOptions o) {
  o.use_advisor = true;
  o.use_tracker = false;  // nothing is packed: no slowdown to check
  o.write_back = true;
  return o;
}

}  // namespace

AdvisorDurationAdvice::AdvisorDurationAdvice(JobArtefactSource& artefacts, HistoryStore& store,
                                             LucidSchedmateOptions options)
    : semantic_(artefacts, store, AdvisorOnly(options)) {}

std::optional<AdvisedDuration> AdvisorDurationAdvice::AtSubmit(const SimJob& job, int64_t now) {
  int64_t latency_s = 0;  // the standalone runner models no Advisor latency
  std::optional<HistoryFacts> facts = semantic_.AtSubmit(job, now, &latency_s);
  if (!facts) return std::nullopt;
  return AdvisedDuration{facts->duration_s, facts->spread};
}

void AdvisorDurationAdvice::AtEnd(const SimJob& job, int64_t now) { semantic_.AtEnd(job, now); }

}  // namespace schedmate
