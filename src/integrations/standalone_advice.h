// The standalone policy's estimates from the real Advisor (issue 18): the
// semantic layer of the Lucid loop (lucid_schedmate.h) with only its Advisor
// and write-back switched on — the embedded extractor reads the job's
// repository (from the artefact source), history is matched as of the submit time (top-3,
// end-reason aware), and every job that ends for good is written back.
#ifndef SCHEDMATE_INTEGRATIONS_STANDALONE_ADVICE_H_
#define SCHEDMATE_INTEGRATIONS_STANDALONE_ADVICE_H_

#include <cstdint>
#include <optional>

#include "integrations/lucid_schedmate.h"
#include "policies/standalone/standalone.h"

namespace schedmate {

class AdvisorDurationAdvice final : public DurationAdvice {
 public:
  // `artefacts` and `store` outlive this; `store` should be empty.
  // Options other than the Advisor's (tracker, detection) are ignored.
  AdvisorDurationAdvice(JobArtefactSource& artefacts, HistoryStore& store, LucidSchedmateOptions options);

  std::optional<AdvisedDuration> AtSubmit(const SimJob& job, int64_t now) override;
  void AtEnd(const SimJob& job, int64_t now) override;

  const LucidSchedmateStats& stats() const { return semantic_.stats(); }
  // The first write-back error (the run continued without write-back).
  const Status& store_error() const { return semantic_.store_error(); }

 private:
  LucidSchedmate semantic_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_STANDALONE_ADVICE_H_
