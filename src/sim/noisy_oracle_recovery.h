// A recovery hook that decides from the simulator's truth and is wrong at a
// given rate: the sensitivity of a run to the Failure Handler's accuracy
// (issue 18), without its logs, guards or diagnoser. Right: an
// infrastructure failure restarts the job from its checkpoint and drains the
// node when it is broken; any other failure is left to its user. Wrong (with
// probability `error_rate`, drawn per failure): an infrastructure failure is
// missed (no restart, a broken node stays in service) and any other failure
// drains the job's healthy node (a misdiagnosis, paid in capacity).
#ifndef SCHEDMATE_SIM_NOISY_ORACLE_RECOVERY_H_
#define SCHEDMATE_SIM_NOISY_ORACLE_RECOVERY_H_

#include <cstdint>

#include "sim/recovery_hook.h"

namespace schedmate {

class NoisyOracleRecovery final : public RecoveryHook {
 public:
  // REQUIRES: 0 <= error_rate <= 1.
  NoisyOracleRecovery(double error_rate, uint64_t seed) : error_rate_(error_rate), seed_(seed) {}
  RecoveryDecision OnJobFailure(const JobFailureEvent& failure) override;
  int64_t wrong() const { return wrong_; }

 private:
  double error_rate_;
  uint64_t seed_;
  int64_t wrong_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_NOISY_ORACLE_RECOVERY_H_
