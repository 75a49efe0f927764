// The multinomial logistic model behind the learned components: it learns a
// separable toy problem, round-trips through its TSV, and names bad rows.
#include <cmath>

#include <gtest/gtest.h>

#include "text/linear_model.h"

namespace schedmate {
namespace {

TEST(LinearModel, LearnsAndRoundTrips) {
  std::vector<LinearModel::Example> ex;
  for (int i = 0; i < 20; ++i) {
    ex.push_back({{"bias", "w=loss", i % 2 ? "frac" : "int"}, 1, 1});
    ex.push_back({{"bias", "w=step", "int"}, 0, 1});
    ex.push_back({{"bias", "w=time", "u=ms"}, 2, 1});
  }
  LinearModel m = LinearModel::Train({"step", "loss", "time"}, ex, {});
  EXPECT_EQ(m.Best({"bias", "w=loss", "frac"}), 1);
  EXPECT_EQ(m.Best({"bias", "w=step", "int"}), 0);
  EXPECT_EQ(m.Best({"bias", "u=ms"}), 2);
  auto p = m.Probabilities({"bias", "w=time"});
  EXPECT_NEAR(p[0] + p[1] + p[2], 1.0, 1e-9);
  auto back = LinearModel::Parse(m.Dump(0), {"step", "loss", "time"}, "toy");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_NEAR(back->Probabilities({"bias", "w=loss"})[1], m.Probabilities({"bias", "w=loss"})[1], 1e-3);
  auto bad = LinearModel::Parse("# c\nw=x\tnope\t1\n", {"step"}, "toy");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("toy line 2"), std::string::npos);
  EXPECT_FALSE(LinearModel::Parse("w=x\tstep\tabc\n", {"step"}, "toy").ok());
  EXPECT_EQ(LinearModel({"a", "b"}).Probabilities({"x"}).size(), 2u);  // empty model: uniform
}

// An ensemble of runs is one linear model: each weight is the mean of the
// runs' (a weight a run lacks counts as 0), so its scores are the runs' mean.
TEST(LinearModel, AverageIsTheMeanOfTheWeights) {
  auto a = LinearModel::Parse("w=x\tyes\t2\nw=y\tno\t1\n", {"no", "yes"}, "a");
  auto b = LinearModel::Parse("w=x\tyes\t4\n", {"no", "yes"}, "b");
  ASSERT_TRUE(a.ok() && b.ok());
  LinearModel m = LinearModel::Average({*a, *b});
  auto back = LinearModel::Parse(m.Dump(0), {"no", "yes"}, "mean");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(m.Dump(0), "w=x\tno\t0\nw=x\tyes\t3\nw=y\tno\t0.5\nw=y\tyes\t0\n");
  const double e = std::exp(3.0 - 0.5);  // scores of {w=x, w=y}: yes 3, no 0.5
  EXPECT_NEAR(m.Probabilities({"w=x", "w=y"})[1], e / (1 + e), 1e-6);
  EXPECT_EQ(LinearModel::Average({*a}).Dump(0), a->Dump(0));
}

}  // namespace
}  // namespace schedmate
