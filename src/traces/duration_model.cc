#include "traces/duration_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/random.h"

namespace schedmate {
namespace {

// GPU-hour bounds of the bucket Sia assigned this application to.
bool Bucket(std::string_view app, double* lo_h, double* hi_h) {
  if (app == "cifar10") { *lo_h = 60.0 / 3600; *hi_h = 1; return true; }
  if (app == "deepspeech2" || app == "bert") { *lo_h = 1; *hi_h = 10; return true; }
  if (app == "yolov3") { *lo_h = 10; *hi_h = 100; return true; }
  if (app == "imagenet") { *lo_h = 100; *hi_h = 1000; return true; }
  return false;
}

}  // namespace

Status ApplyDurationModel(Trace& trace, std::string_view model, uint64_t seed) {
  if (model != "sia-buckets")
    return InvalidArgument("unknown duration model '" + std::string(model) +
                           "' (sia-buckets)");
  bool changed = false;
  for (JobSpec& j : trace.jobs) {
    if (j.duration_s >= 0) continue;
    double lo, hi;
    if (!Bucket(j.type, &lo, &hi))
      return InvalidArgument("job '" + j.id + "': application '" + j.type +
                             "' has no GPU-time bucket in the sia-buckets model");
    Rng rng(seed ^ StableHash(j.id));
    double gpu_h = std::exp(rng.Uniform(std::log(lo), std::log(hi)));
    j.duration_s = std::max<int64_t>(60, std::llround(gpu_h * 3600 / std::max(1, j.gpus)));
    changed = true;
  }
  if (changed) trace.synthetic = true;
  return Status::Ok();
}

}  // namespace schedmate
