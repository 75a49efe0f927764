// Unrelated log lines that bury training progress in a real cluster's job
// output: NCCL and driver chatter, HTTP access logs, pip, kernel messages,
// monitoring samples, config dumps, download bars, Python warnings. None of
// them is training progress (some carry numbers, "step" or "loss" words).
#ifndef SCHEDMATE_LOGGEN_NOISE_LINES_H_
#define SCHEDMATE_LOGGEN_NOISE_LINES_H_

#include <string>

#include "core/random.h"

namespace schedmate {

std::string NoiseLine(Rng& rng);

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_NOISE_LINES_H_
