// Shared by the hand-worked policy scenarios: a job, the expected start /
// finish / preemptions of each, and one replay checked against them.
#ifndef SCHEDMATE_TESTS_POLICIES_SCENARIO_SUPPORT_H_
#define SCHEDMATE_TESTS_POLICIES_SCENARIO_SUPPORT_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "policies/registry.h"
#include "sim/engine.h"

namespace schedmate::scenario {

struct Expect {
  int64_t start, finish, preemptions;
};

inline JobSpec Job(std::string id, int64_t submit, int32_t gpus, int64_t dur) {
  JobSpec j;
  j.id = std::move(id);
  j.name = j.id;
  j.submit_s = submit;
  j.gpus = gpus;
  j.duration_s = dur;
  return j;
}

// Replays `t` on `nodes` × `gpus_per_node` GPUs with `pc`; every job's times
// must be as `want` says, in trace order.
inline void Check(const PolicyConfig& pc, const Trace& t, int32_t nodes, int32_t gpus_per_node,
                  const std::vector<Expect>& want) {
  auto policy = MakePolicy(pc);
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  auto r = Simulate(t, ClusterSpec{{{"", nodes}}, gpus_per_node, "V100"}, **policy);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->jobs.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const SimJob& j = r->jobs[i];
    EXPECT_EQ(j.first_start_s, want[i].start) << pc.name << " job " << j.spec->id;
    EXPECT_EQ(j.finish_s, want[i].finish) << pc.name << " job " << j.spec->id;
    EXPECT_EQ(j.preemptions, want[i].preemptions) << pc.name << " job " << j.spec->id;
  }
}

}  // namespace schedmate::scenario

#endif  // SCHEDMATE_TESTS_POLICIES_SCENARIO_SUPPORT_H_
