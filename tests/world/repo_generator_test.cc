// Generated repositories: deterministic, every style launches something the
// extractor reads back to the truth, copies vary the layout, swaps change
// what they say they change.
#include <gtest/gtest.h>

#include "advisor/metadata_extractor.h"
#include "repo/snapshot.h"
#include "world/repo_generator.h"

namespace schedmate {
namespace {

TEST(RepoGenerator, DeterministicAndVaried) {
  Rng a(3), b(3);
  WorkloadTruth wa = DrawWorkload("llama3-8b", a), wb = DrawWorkload("llama3-8b", b);
  EXPECT_EQ(wa.iterations, wb.iterations);
  GeneratedRepo r1 = GenerateRepo(wa, CodeStyle::kHfTrainer, 11), r2 = GenerateRepo(wa, CodeStyle::kHfTrainer, 11);
  EXPECT_EQ(r1.files, r2.files);
  EXPECT_EQ(r1.command, r2.command);
  int differing = 0;
  for (uint64_t s = 0; s < 20; ++s) differing += GenerateRepo(wa, CodeStyle::kHfTrainer, s).files != r1.files;
  EXPECT_GE(differing, 18);
  Rng rng(5);
  WorkloadTruth other = SwapModel(wa, rng);
  EXPECT_NE(other.family, wa.family);
  WorkloadTruth data = SwapDataset(wa, rng);
  EXPECT_NE(data.dataset, wa.dataset);
  EXPECT_EQ(data.model_name, wa.model_name);
  EXPECT_EQ(WorkloadFamilies().size(), 15u);
}

TEST(RepoGenerator, EveryStyleAndFamilyExtractsToTheTruth) {
  Rng rng(9);
  int checked = 0;
  for (const auto& family : WorkloadFamilies())
    for (int s = 0; s < kNumCodeStyles; ++s) {
      WorkloadTruth w = DrawWorkload(family, rng);
      GeneratedRepo r = GenerateRepo(w, static_cast<CodeStyle>(s), rng.NextU64());
      auto snap = MemorySnapshot(r.files);
      auto md = ExtractMetadata(*snap, r.command);
      ASSERT_TRUE(md.ok()) << family << " " << CodeStyleName(r.style) << ": " << md.status().message();
      SCOPED_TRACE(family + " / " + CodeStyleName(r.style) + " / " + r.command);
      EXPECT_EQ(md->model_name, w.model_name);
      EXPECT_EQ(md->model_type, w.model_type);
      EXPECT_EQ(md->dataset, w.dataset);
      EXPECT_EQ(md->training_iterations, w.iterations);
      EXPECT_EQ(md->batch_size, w.batch_size);
      EXPECT_EQ(md->hardware.num_gpus.value_or(1), w.num_gpus);
      ++checked;
    }
  EXPECT_EQ(checked, 75);
}

}  // namespace
}  // namespace schedmate
