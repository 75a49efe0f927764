// What Lucid learns about a job from outside the scheduler, as two small
// interfaces (so the policy knows nothing of workloads, code or logs):
//  - LucidWorkloadModel: what Lucid's profiler measures in its short run
//    (utilisation, memory — a warm-up can make a job look lighter than it
//    is) and how fast two jobs really run when packed;
//  - LucidSemanticHooks: the three places schedmate's facts enter (the
//    paper's consumption points). A null hooks pointer is plain Lucid.
#ifndef SCHEDMATE_POLICIES_LUCID_LUCID_INPUTS_H_
#define SCHEDMATE_POLICIES_LUCID_LUCID_INPUTS_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "sim/sim_job.h"

namespace schedmate {

struct JobProfile {
  double sm_util = 0.5;     // 0-1
  double gmem_mib = 4096;
  // Average speed the job keeps when paired with others (Lucid's
  // sharescore input): < 0.85 → sharescore 2, < 0.95 → 1, else 0.
  double avg_pair_speed = 0.9;
};

class LucidWorkloadModel {
 public:
  virtual ~LucidWorkloadModel() = default;
  // What Lucid's profiler measures for `job` in its time-limited run.
  virtual JobProfile Profile(const SimJob& job) const = 0;
  // The speeds (guest, host) relative to running alone while packed.
  virtual std::pair<double, double> CoRunRates(const SimJob& guest, const SimJob& host) const = 0;
};

// What history says about a job (a matched Advisor estimate).
struct HistoryFacts {
  double duration_s = 0;
  JobProfile profile;  // steady-state utilisation, memory, pairing from the matched runs
  // (longest − shortest) / mean of the matched runs' durations; 0 unknown.
  double spread = 0;
};

class LucidSemanticHooks {
 public:
  virtual ~LucidSemanticHooks() = default;
  // 1. At submit: a history match lets the job skip the profiler; its
  //    profile and duration come from the match. nullopt = no match (Lucid
  //    profiles and estimates as usual). `*latency_s` is how long the
  //    answer took (the job waits that long before it can be queued).
  virtual std::optional<HistoryFacts> AtSubmit(const SimJob& job, int64_t now, int64_t* latency_s) = 0;
  // 2. After packing `guest` onto `host`: when to read the host's
  //    throughput again (a few tens of its steps), or nullopt to skip.
  virtual std::optional<int64_t> PackCheckAfter(const SimJob& host, const SimJob& guest) = 0;
  //    TP_after / TP_before of the host from its log; nullopt when its log
  //    yields no throughput (the check is skipped).
  virtual std::optional<double> PackSlowdown(const SimJob& host, const SimJob& guest, int64_t packed_at,
                                             int64_t now) = 0;
  // 3. A job ended: write it back to the history.
  virtual void AtEnd(const SimJob& job, int64_t now) = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_LUCID_LUCID_INPUTS_H_
