// Durations for traces that have none (Sia/Pollux workloads run "until
// convergence"). The "sia-buckets" model inverts the way Sia and Pollux
// sampled their workloads from raw traces (../shared/traces/README.md):
// the application names a GPU-time bucket —
//   cifar10 < 1 GPU-h, deepspeech2 and bert 1-10 GPU-h, yolov3 10-100 GPU-h,
//   imagenet 100-1000 GPU-h (Sia drops jobs >= 1000 GPU-h and < 60 s) —
// and a job's GPU time is drawn log-uniformly within its bucket (seeded by
// job id), then divided by its GPU count. The result is synthetic: the
// trace is marked so.
#ifndef SCHEDMATE_TRACES_DURATION_MODEL_H_
#define SCHEDMATE_TRACES_DURATION_MODEL_H_

#include <cstdint>
#include <string_view>

#include "core/job_spec.h"
#include "core/status.h"

namespace schedmate {

// Fills in every duration_s == -1. Errors name a job whose application the
// model does not know.
Status ApplyDurationModel(Trace& trace, std::string_view model, uint64_t seed);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_DURATION_MODEL_H_
