// The MILP interface and its CBC backend on tiny problems with known answers.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "solver/cbc_solver.h"
#include "solver/isolated_solver.h"

namespace schedmate {
namespace {

// max 5x + 4y + 3z, 2x + 3y + z <= 5, binary: x = y = 1, objective 9.
MilpProblem Knapsack() {
  MilpProblem p;
  p.maximize = true;
  for (double c : {5.0, 4.0, 3.0}) p.AddColumn(c, 0, 1, true);
  p.rows.push_back({{0, 1, 2}, {2, 3, 1}, -kMilpInfinity, 5});
  return p;
}

TEST(SiaSolverTest, SolvesKnapsackToOptimality) {
  CbcSolver solver;
  auto s = solver.Solve(Knapsack(), {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->proven_optimal);
  EXPECT_NEAR(s->objective, 9, 1e-6);
  EXPECT_NEAR(s->values[0], 1, 1e-6);
  EXPECT_NEAR(s->values[1], 1, 1e-6);
  EXPECT_NEAR(s->values[2], 0, 1e-6);
}

TEST(SiaSolverTest, MinimisesWithEqualityLikeRows) {
  MilpProblem p;  // min x + 2y, x + y >= 3, x <= 2, integers
  p.AddColumn(1, 0, 2, true);
  p.AddColumn(2, 0, 10, true);
  p.rows.push_back({{0, 1}, {1, 1}, 3, kMilpInfinity});
  CbcSolver solver;
  auto s = solver.Solve(p, {});
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(s->objective, 4, 1e-6);  // x = 2, y = 1
}

TEST(SiaSolverTest, AStartOrNoPreprocessingGivesTheSameOptimum) {
  CbcSolver solver;
  MilpOptions no_preprocess;
  no_preprocess.preprocess = false;
  MilpProblem good = Knapsack(), bad = Knapsack(), wrong = Knapsack();
  good.start = {1, 1, 0};  // the optimum
  bad.start = {1, 1, 1};   // infeasible (weight 6 > 5): ignored
  wrong.start = {1, 0};    // one value short
  for (const MilpProblem* p : {&good, &bad}) {
    for (const MilpOptions& o : {MilpOptions{}, no_preprocess}) {
      auto s = solver.Solve(*p, o);
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      EXPECT_NEAR(s->objective, 9, 1e-6);
    }
  }
  auto s = solver.Solve(wrong, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("start"), std::string::npos);
}

TEST(SiaSolverTest, InfeasibleProblemIsFailedPrecondition) {
  MilpProblem p;
  p.AddColumn(1, 0, 1, true);
  p.rows.push_back({{0}, {1}, 2, kMilpInfinity});  // x >= 2 with x <= 1
  CbcSolver solver;
  auto s = solver.Solve(p, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kFailedPrecondition);
}

TEST(SiaSolverTest, MalformedProblemNamesTheRow) {
  MilpProblem p = Knapsack();
  p.rows[0].cols.push_back(7);
  p.rows[0].coefs.push_back(1);
  CbcSolver solver;
  auto s = solver.Solve(p, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("row 0"), std::string::npos);
}

// Solvers that fail the way a library can: abort inside, or never return.
class AbortingSolver final : public MilpSolver {
 public:
  Result<MilpSolution> Solve(const MilpProblem&, const MilpOptions&) override { std::abort(); }
};
class HangingSolver final : public MilpSolver {
 public:
  Result<MilpSolution> Solve(const MilpProblem&, const MilpOptions&) override {
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return MilpSolution{};
  }
};

TEST(SiaSolverTest, IsolationGivesTheSameAnswerAndErrors) {
  CbcSolver cbc;
  IsolatedSolver isolated(&cbc);
  auto s = isolated.Solve(Knapsack(), {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->proven_optimal);
  EXPECT_NEAR(s->objective, 9, 1e-6);
  ASSERT_EQ(s->values.size(), 3u);
  EXPECT_NEAR(s->values[1], 1, 1e-6);
  MilpProblem infeasible;
  infeasible.AddColumn(1, 0, 1, true);
  infeasible.rows.push_back({{0}, {1}, 2, kMilpInfinity});
  EXPECT_EQ(isolated.Solve(infeasible, {}).status().code(), StatusCode::kFailedPrecondition);
}

TEST(SiaSolverTest, ASolverThatAbortsFailsOneSolveNotTheProcess) {
  AbortingSolver aborting;
  IsolatedSolver isolated(&aborting);
  auto s = isolated.Solve(Knapsack(), {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInternal);
  EXPECT_NE(s.status().message().find("signal 6"), std::string::npos) << s.status().message();
}

TEST(SiaSolverTest, ASolverThatHangsIsKilledAtTheDeadline) {
  HangingSolver hanging;
  IsolatedSolver isolated(&hanging, /*grace_s=*/0.2);
  MilpOptions o;
  o.time_limit_s = 0.1;
  auto t0 = std::chrono::steady_clock::now();
  auto s = isolated.Solve(Knapsack(), o);
  EXPECT_EQ(s.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
}

}  // namespace
}  // namespace schedmate
