#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "text/hashed_ngram_embedder.h"
#include "text/line_classifier.h"

namespace schedmate {
namespace {

TEST(HashedNgramEmbedderTest, DeterministicNormalisedAndDigitBlind) {
  HashedNgramEmbedder e;
  auto a = *e.Embed("iter 120: loss 2.3141, time 152.31ms");
  auto b = *e.Embed("iter 130: loss 2.2987, time 150.02ms");
  auto c = *e.Embed("Traceback (most recent call last):");
  EXPECT_EQ(a, *e.Embed("iter 120: loss 2.3141, time 152.31ms"));
  double norm = 0;
  for (float x : a) norm += x * x;
  EXPECT_NEAR(norm, 1.0, 1e-5);
  EXPECT_NEAR(Cosine(a, b), 1.0, 1e-6);  // only digits differ
  EXPECT_LT(Cosine(a, c), 0.3);
  EXPECT_EQ(HashedNgramEmbedder::Normalize("Step 0012/3400\tOK", 100), "step 0/0 ok");
  auto empty = *e.Embed("");
  for (float x : empty) EXPECT_EQ(x, 0.0f);
}

TEST(HashedNgramEmbedderTest, DimensionIsConfigurable) {
  HashedNgramEmbedder e(HashedNgramOptions{.dimension = 64});
  EXPECT_EQ(e.Embed("hello world")->size(), 64u);
}

std::vector<std::pair<LineCategory, std::string>> DevSet() {
  std::ifstream in(std::string(SCHEDMATE_SOURCE_DIR) + "/data/line_labels_dev.tsv");
  std::vector<std::pair<LineCategory, std::string>> out;
  std::string row;
  while (std::getline(in, row)) {
    if (row.empty() || row[0] == '#') continue;
    size_t tab = row.find('\t');
    out.emplace_back(*ParseLineCategory(row.substr(0, tab)), row.substr(tab + 1));
  }
  return out;
}

// The held-out dev set: overall accuracy, and recall of progress lines
// through the stage-1 filter (what the tracker depends on).
TEST(LineClassifierTest, HeldOutAccuracyAndProgressRecall) {
  const auto& c = LineClassifier::Default();
  auto s = c.MakeScratch();
  auto dev = DevSet();
  ASSERT_GE(dev.size(), 40u);
  int correct = 0, progress = 0, progress_kept = 0, other = 0, other_kept = 0;
  for (const auto& [truth, line] : dev) {
    LineScores r = c.Classify(line, s);
    correct += r.best == truth;
    bool kept = c.MaybeProgress(line, s);
    if (truth == LineCategory::kProgress) {
      ++progress;
      progress_kept += kept;
    } else {
      ++other;
      other_kept += kept;
    }
  }
  double acc = double(correct) / dev.size();
  EXPECT_GE(acc, 0.75) << correct << "/" << dev.size();
  EXPECT_EQ(progress_kept, progress) << "stage 1 must not drop progress lines";
  EXPECT_LE(other_kept, other / 3) << "stage 1 should drop most other lines";
}

TEST(LineClassifierTest, BadExemplarFilesAreErrors) {
  EXPECT_FALSE(LineClassifier::FromExemplars("progress no tab", "x.tsv").ok());
  auto r = LineClassifier::FromExemplars("nonsense\tline\n", "x.tsv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("x.tsv:1"), std::string::npos);
  EXPECT_FALSE(LineClassifier::FromExemplars("progress\tstep 1\n", "x.tsv").ok());
}

}  // namespace
}  // namespace schedmate
