// Cost of preempting a job: checkpoint + cold start, added to its remaining
// work when it is stopped.
//  none:   0 s (Tiresias' original simulator).
//  lucid:  40 s for <= 8 GPUs, else 60 s (Lucid policy.py ckpt_overhead,
//          "optimistic" against Tiresias' measured 62 s average).
//  helios: 7 s for 1 GPU, 30 s for 2-8 GPUs, 60 s above (HeliosArtifact
//          `framework/QSSF Service/policies/policy.py` ckpt_overhead, used by
//          its srtf.py).
//  fixed:  a constant.
#ifndef SCHEDMATE_SIM_RESTART_OVERHEAD_H_
#define SCHEDMATE_SIM_RESTART_OVERHEAD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace schedmate {

struct RestartOverhead {
  enum class Kind { kNone, kLucid, kHelios, kFixed };
  Kind kind = Kind::kNone;
  int64_t fixed_s = 0;

  int64_t For(int32_t gpus) const {
    switch (kind) {
      case Kind::kNone: return 0;
      case Kind::kLucid: return gpus <= 8 ? 40 : 60;
      case Kind::kHelios: return gpus <= 1 ? 7 : gpus <= 8 ? 30 : 60;
      case Kind::kFixed: return fixed_s;
    }
    return 0;
  }
  std::string Name() const;
  // "none", "lucid", "helios", or a number of seconds.
  static Result<RestartOverhead> Parse(std::string_view text);
};

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_RESTART_OVERHEAD_H_
