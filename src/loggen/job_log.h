// The log of one simulated job (issue 6): what the job prints while it
// trains, in its framework's format, with step times that follow the job's
// actual speed — including the segments where a partner was packed onto its
// GPUs and it ran slower. Only the requested window of steps is generated,
// so a 100k-job trace does not write 100k full logs. The Tracker reads these
// lines exactly as it reads a real log.
#ifndef SCHEDMATE_LOGGEN_JOB_LOG_H_
#define SCHEDMATE_LOGGEN_JOB_LOG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace schedmate {

enum class JobLogFormat { kNanoGpt, kMegatron, kHfTqdm, kMmcv, kTorchtitan };

struct SpeedSegment {
  int64_t from_step = 0;  // this speed applies from this step on
  double step_time_s = 1;
};

struct JobLogSpec {
  JobLogFormat format = JobLogFormat::kNanoGpt;
  int64_t total_steps = 1000;
  int64_t log_every = 10;
  int64_t samples_per_step = 32;     // for throughput fields
  std::vector<SpeedSegment> speeds;  // sorted by from_step; first from 0
  double loss0 = 4.0;
  uint64_t seed = 1;
};

// Lines printed for steps in (from_step, to_step], oldest first. Timestamped
// formats stamp each line with the job's elapsed time at that step.
std::vector<std::string> JobLogWindow(const JobLogSpec& spec, int64_t from_step, int64_t to_step);

// Seconds from step 0 to `step` under the speed segments.
double ElapsedAtStep(const JobLogSpec& spec, int64_t step);

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_JOB_LOG_H_
