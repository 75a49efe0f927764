#include "sim/noisy_oracle_recovery.h"

#include "core/random.h"

namespace schedmate {

RecoveryDecision NoisyOracleRecovery::OnJobFailure(const JobFailureEvent& f) {
  // One draw per failure from its own stream, so the error rate does not
  // shift any other draw of the run.
  Rng rng(seed_ ^ StableHash(f.job_id) ^ static_cast<uint64_t>(f.now_s) ^ 0x0a3c1e5ull);
  const bool wrong = rng.Uniform() < error_rate_;
  wrong_ += wrong;
  const bool infrastructure = f.category == FailureCategory::kInfrastructure;
  if (infrastructure) return wrong ? RecoveryDecision{} : RecoveryDecision{f.node_broken, true};
  return wrong ? RecoveryDecision{true, false} : RecoveryDecision{};
}

}  // namespace schedmate
