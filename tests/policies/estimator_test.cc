#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "policies/estimators/duration_estimator.h"
#include "policies/estimators/job_name_estimator.h"

namespace schedmate {
namespace {

JobSpec Named(std::string name, std::string user, int32_t gpus, int64_t dur = 0) {
  JobSpec j;
  j.id = name + "-" + user + std::to_string(dur);
  j.name = std::move(name);
  j.user = std::move(user);
  j.gpus = gpus;
  j.duration_s = dur;
  return j;
}

TEST(SequenceRatioTest, MatchesDifflib) {
  // difflib.SequenceMatcher(None, a, b).ratio()
  EXPECT_DOUBLE_EQ(SequenceRatio("abcd", "bcde"), 0.75);
  EXPECT_DOUBLE_EQ(SequenceRatio("resnet50_train", "resnet50_train"), 1.0);
  EXPECT_NEAR(SequenceRatio("bert_base_ft", "bert_large_ft"), 0.8, 1e-9);
  EXPECT_NEAR(SequenceRatio("train_resnet2", "train_resnet"), 0.96, 1e-9);
  EXPECT_DOUBLE_EQ(SequenceRatio("", ""), 1.0);
  EXPECT_DOUBLE_EQ(SequenceRatio("abc", "xyz"), 0.0);
}

TEST(JobNameEstimatorTest, FollowsHeliosFallbackOrder) {
  JobNameEstimator e(/*prior_s=*/1000);
  EXPECT_EQ(e.Estimate(Named("x", "u", 1), 0), 1000);  // no history yet
  e.Observe(Named("train_resnet", "alice", 8), 100, 0);
  e.Observe(Named("train_resnet", "alice", 4), 300, 0);
  e.Observe(Named("train_resnet", "bob", 8), 1000, 0);
  e.Observe(Named("eval", "carol", 1), 50, 0);
  // Exact name, same user, same GPUs.
  EXPECT_EQ(e.Estimate(Named("train_resnet", "alice", 8), 0), 100);
  // Exact name, same user, other GPUs: the user's mean for that name.
  EXPECT_EQ(e.Estimate(Named("train_resnet", "alice", 2), 0), 200);
  // Exact name, unknown user: everyone's mean for that name.
  EXPECT_NEAR(e.Estimate(Named("train_resnet", "dave", 8), 0), 1400 / 3.0, 1e-9);
  // Close name (ratio >= 0.6): the user's jobs of that name.
  EXPECT_EQ(e.Estimate(Named("train_resnet2", "alice", 8), 0), 100);
  // No close name: the user's mean, else the global mean.
  EXPECT_EQ(e.Estimate(Named("zzzzzz", "carol", 1), 0), 50);
  EXPECT_EQ(e.Estimate(Named("zzzzzz", "erin", 1), 0), 1450 / 4.0);
}

TEST(HeliosErrorModelTest, ErrorBucketsMatchThePublishedMix) {
  HeliosErrorModelEstimator e(6);
  int within10 = 0, within50 = 0, within100 = 0, within1000 = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    JobSpec j = Named("j", "u", 1, 1000);
    j.id = "job" + std::to_string(i);
    double rel = std::fabs(e.Estimate(j, 0) - 1000) / 1000;
    within10 += rel <= 0.1;
    within50 += rel <= 0.5;
    within100 += rel <= 1.0;
    within1000 += rel <= 10.0;
  }
  EXPECT_NEAR(within10 / double(n), 0.1, 0.01);
  EXPECT_NEAR(within50 / double(n), 0.5, 0.015);
  EXPECT_NEAR(within100 / double(n), 0.7, 0.015);
  EXPECT_NEAR(within1000 / double(n), 0.9, 0.01);
  // Deterministic per job id, regardless of call order.
  JobSpec j = Named("j", "u", 1, 1000);
  j.id = "job7";
  EXPECT_EQ(e.Estimate(j, 0), HeliosErrorModelEstimator(6).Estimate(j, 0));
}

}  // namespace
}  // namespace schedmate

#include "traces/synthesizer.h"

namespace schedmate {
namespace {

// The trigram prefilter must agree with a brute-force difflib scan.
TEST(JobNameEstimatorTest, IndexedFuzzyMatchAgreesWithBruteForce) {
  SynthOptions o;
  o.jobs = 6000;
  auto t = SynthesizeTrace(*FindProfile("saturn"), o);
  ASSERT_TRUE(t.ok());
  JobNameEstimator e;
  std::vector<std::string> known;
  for (size_t i = 0; i < t->jobs.size(); i += 2) {
    e.Observe(t->jobs[i], 10, 0);
    if (std::find(known.begin(), known.end(), t->jobs[i].name) == known.end())
      known.push_back(t->jobs[i].name);
  }
  int questions = 0, agree = 0;
  for (size_t i = 1; i < t->jobs.size() && questions < 400; i += 2) {
    const std::string& q = t->jobs[i].name;
    if (std::find(known.begin(), known.end(), q) != known.end()) continue;
    std::vector<std::pair<double, std::string>> brute;
    for (const auto& k : known) {
      double r = SequenceRatio(q, k);
      if (r >= 0.6) brute.emplace_back(r, k);
    }
    std::stable_sort(brute.begin(), brute.end(),
                     [](auto& a, auto& b) { return a.first > b.first; });
    auto got = e.CloseMatches(q);
    bool same = got.size() == std::min<size_t>(2, brute.size());
    for (size_t k = 0; same && k < got.size(); ++k) same = *got[k] == brute[k].second;
    agree += same;
    ++questions;
  }
  ASSERT_GT(questions, 100);
  EXPECT_EQ(agree, questions) << agree << " of " << questions << " questions agree";
}

}  // namespace
}  // namespace schedmate
