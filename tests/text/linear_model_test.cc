// The multinomial logistic model behind the learned components: it learns a
// separable toy problem, round-trips through its TSV, and names bad rows.
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

}  // namespace
}  // namespace schedmate
