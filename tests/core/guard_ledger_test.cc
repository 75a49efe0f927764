// Guard limits (core/guard_ledger.h) and running outside programs
// (core/subprocess.h) with a deadline.
#include <chrono>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/guard_ledger.h"
#include "core/subprocess.h"

namespace schedmate {
namespace {

TEST(GuardLedger, WindowCapAndCooldown) {
  GuardLimit quota{"isolate", 2, 3600'000, 0};
  EXPECT_EQ(RefusalReason(quota, {}, 0), "");
  EXPECT_EQ(RefusalReason(quota, {1000}, 2000), "");
  EXPECT_NE(RefusalReason(quota, {1000, 1500}, 2000), "");
  EXPECT_EQ(RefusalReason(quota, {1000, 1500}, 1000 + 3600'000), "");  // the first left the window
  GuardLimit per_job{"restart/j", 3, 0, 600'000};
  EXPECT_NE(RefusalReason(per_job, {0}, 599'000).find("cool-down"), std::string::npos);
  EXPECT_EQ(RefusalReason(per_job, {0}, 600'000), "");
  EXPECT_NE(RefusalReason(per_job, {0, 700'000, 1'400'000}, 99'000'000).find("limit"), std::string::npos);
}

TEST(GuardLedger, MemoryLedgerGrantsWithTheAuditAndRefusesWithout) {
  MemoryGuardLedger ledger;
  GuardLimit one{"isolate", 1, 0, 0};
  auto a = ledger.Reserve(one, 10, {{"n", 1}});
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->granted);
  auto b = ledger.Reserve(one, 20, {{"n", 2}});
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(b->granted);
  EXPECT_FALSE(b->why.empty());
  auto trail = ledger.AuditTrail(10);
  ASSERT_TRUE(trail.ok());
  ASSERT_EQ(trail->size(), 1u);  // a refused reservation records nothing
  EXPECT_EQ((*trail)[0]["n"], 1);
}

TEST(Subprocess, ExitCodeOutputAndCap) {
  auto r = RunCommand({"/bin/sh", "-c", "echo hello; echo err >&2; exit 3"}, 5000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_NE(r->output.find("hello"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
  auto big = RunCommand({"/bin/sh", "-c", "head -c 1000000 /dev/zero"}, 5000, 1000);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->output.size(), 1000u);
  EXPECT_EQ(big->exit_code, 0);
  EXPECT_FALSE(RunCommand({"no-such-program-xyz"}, 5000).ok());
  EXPECT_FALSE(RunCommand({}, 5000).ok());
}

TEST(Subprocess, TheDeadlineKillsTheWholeProcessGroup) {
  auto t0 = std::chrono::steady_clock::now();
  // The child starts a grandchild that holds the pipe open; both must go.
  auto r = RunCommand({"/bin/sh", "-c", "sleep 30 & sleep 30"}, 300);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_code, -1);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  // A program that closes its output and keeps running is still held to the deadline.
  t0 = std::chrono::steady_clock::now();
  auto quiet = RunCommand({"/bin/sh", "-c", "exec >/dev/null 2>&1; sleep 30"}, 300);
  ASSERT_TRUE(quiet.ok());
  EXPECT_TRUE(quiet->timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
}

}  // namespace
}  // namespace schedmate
