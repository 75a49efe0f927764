#include "policies/sjf/sjf.h"

namespace schedmate {

void SjfPolicy::OnEnd(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  estimator_->Observe(*j.spec, j.executed_s, j.finish_s);
}

}  // namespace schedmate
