// Sia's goodput model (Pollux's throughput model × statistical efficiency)
// and the application model, against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "policies/sia/app_model.h"
#include "policies/sia/goodput.h"
#include "policies/sia/perf_model.h"
#include "sia_test_profile.h"

namespace schedmate::sia {
namespace {

PerfParams Linear() {
  PerfParams p;
  p.alpha_c = 0.1, p.beta_c = 0.01;
  p.alpha_n = 0.2, p.beta_n = 0.02;
  p.alpha_r = 0.05, p.beta_r = 0.01;
  p.gamma = 1;  // no overlap: step = compute + network
  return p;
}

TEST(SiaGoodputTest, EfficiencyFollowsGradientNoiseScale) {
  GoodputModel m(Linear(), {/*sqr=*/1, /*var=*/3}, /*init=*/128);
  // scale 2: gain = (3 + 1) / (3 / 2 + 1) = 1.6, efficiency = 1.6 / 2.
  EXPECT_NEAR(m.Efficiency(256), 0.8, 1e-12);
  EXPECT_NEAR(m.Efficiency(128), 1.0, 1e-12);
}

TEST(SiaGoodputTest, ThroughputUsesTheSlowestLink) {
  GoodputModel m(Linear(), {1, 3}, 128);
  // One node, 4 GPUs, batch 10 each: compute 0.2 + intra-node 0.05 + 0.01 × 2.
  EXPECT_NEAR(m.Throughput(1, 4, 10, 0), 40 / 0.27, 1e-9);
  // Two nodes: inter-node 0.2 + 0.02 × 2.
  EXPECT_NEAR(m.Throughput(2, 4, 10, 0), 40 / 0.44, 1e-9);
  // One accumulation step adds one compute pass: 80 samples in 0.2 + 0.27.
  EXPECT_NEAR(m.Throughput(1, 4, 10, 1), 80 / 0.47, 1e-9);
}

TEST(SiaGoodputTest, OptimizeAccumulatesOnOneGpuAboveTheInitialBatch) {
  GoodputModel m(Linear(), {0, 1}, 128);  // pure noise: bigger batches pay off fully
  BatchChoice c = m.Optimize(1, 1, {1024, 16, 256});
  ASSERT_GT(c.goodput, 0);
  EXPECT_GE(c.accum_steps, 1);
  EXPECT_LE(c.atomic_bsz, 256);
  EXPECT_GE(c.atomic_bsz, 16);
}

TEST(SiaGoodputTest, FitObjectiveGradientMatchesCentralDifferences) {
  // Observations on every link kind (none, intra-node, inter-node) and a
  // point with gamma > 1, so each term of the exact gradient is exercised.
  std::vector<PerfObservation> obs = {{1, 1, 32, 0.12, 0.0},
                                      {1, 1, 64, 0.19, 0.01},
                                      {1, 4, 32, 0.20, 0.06},
                                      {2, 8, 64, 0.45, 0.20}};
  PerfFitObjective f(obs);
  std::vector<double> z = {std::log(0.05), std::log(0.002), std::log(0.1), std::log(0.01),
                           std::log(0.03), std::log(0.004), 1.7};
  std::vector<double> grad;
  double value = f(z, &grad);
  EXPECT_DOUBLE_EQ(value, f(z, nullptr));
  ASSERT_EQ(grad.size(), 7u);
  for (size_t i = 0; i < z.size(); ++i) {
    std::vector<double> up = z, down = z;
    up[i] += 1e-6, down[i] -= 1e-6;
    double numeric = (f(up, nullptr) - f(down, nullptr)) / 2e-6;
    EXPECT_NEAR(grad[i], numeric, 1e-6 + 1e-5 * std::abs(numeric)) << "variable " << i;
  }
}

TEST(SiaGoodputTest, FitRecoversAComputeOnlyModel) {
  std::vector<PerfObservation> obs;
  for (int b : {16, 32, 64, 128}) obs.push_back({1, 1, b, 0.05 + 0.002 * b, 0.0});
  PerfParams p = FitPerfParams(obs);
  EXPECT_NEAR(p.alpha_c, 0.05, 0.005);
  EXPECT_NEAR(p.beta_c, 0.002, 0.0002);
  // No multi-GPU data: the network terms stay at Pollux's floor, so the model
  // predicts doubling when the GPU count doubles (SOSP'23 §3.2).
  GoodputModel m(p, {1, 0}, 16);
  EXPECT_NEAR(m.Throughput(1, 2, 64, 0) / m.Throughput(1, 1, 64, 0), 2.0, 0.01);
}

TEST(SiaGoodputTest, FitLearnsTheNetworkTermFromMultiGpuSamples) {
  std::vector<PerfObservation> obs;
  for (int b : {16, 64}) {
    obs.push_back({1, 1, b, 0.05 + 0.002 * b, 0.0});
    obs.push_back({1, 4, b, 0.05 + 0.002 * b + 0.03, 0.03});
  }
  PerfParams p = FitPerfParams(obs);
  double step = PredictStepTime(p, PredictComputeTime(p, 64), PredictNetworkTime(p, 1, 4));
  EXPECT_NEAR(step, 0.05 + 0.128 + 0.03, 0.02);
}

TEST(SiaAppModelTest, PlacementKeyIsTheSmallestRotation) {
  EXPECT_EQ(PlacementKey({2, 1, 1}), "112");
  EXPECT_EQ(PlacementKey({4, 0, 4}), "44");
}

TEST(SiaAppModelTest, InterpolatesStepTimeAndGradients) {
  auto m = AppModel::Create(TestProfile(), "fast", 100);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_NEAR(m->StepTimeAt({1}, 96).step_s, 0.01 + 0.096, 1e-12);  // between 64 and 128
  EXPECT_NEAR(m->StepTimeAt({1}, 1000).step_s, 0.01 + 0.256, 1e-12);  // clamped to 256
  EXPECT_EQ(m->max_epochs(), 3);  // the validation files have three epochs
  EXPECT_DOUBLE_EQ(m->ProgressAt(2), 200);
  GradStats g = m->GradAt(576, 0);  // half way from 128 to 1024
  EXPECT_NEAR(g.var, 3.0, 1e-12);
  EXPECT_EQ(m->init_batch_size(), 128);
  EXPECT_NEAR(m->OneGpuThroughput(), 256 / 0.266, 1e-9);
}

}  // namespace
}  // namespace schedmate::sia
