// The workload catalog: every family present, grounded in Lucid and Sia
// where they measured it, the FLOPs model elsewhere, and sane physics.
#include <filesystem>

#include <gtest/gtest.h>

#include "world/repo_generator.h"
#include "world/workload_catalog.h"

namespace schedmate {
namespace {

TEST(WorkloadCatalog, ModelOnlyCoversEveryFamilySensibly) {
  WorkloadCatalog c = WorkloadCatalog::Build(nullptr, nullptr);
  for (const auto& f : WorkloadFamilies()) {
    const CatalogEntry* e = c.Find(f);
    ASSERT_NE(e, nullptr) << f;
    EXPECT_EQ(e->source, "flops") << f;
    EXPECT_GT(e->ref_step_time_s, 0) << f;
    EXPECT_GT(c.StepTime(f, "dgx", 8, e->ref_batch), c.StepTime(f, "dgx", 1, e->ref_batch)) << f;  // communication
    EXPECT_NEAR(c.StepTime(f, "dgx", 1, 2 * e->ref_batch), 2 * e->ref_step_time_s, 1e-9) << f;
  }
  EXPECT_GT(c.Find("qwen2.5-14b")->ref_step_time_s / c.Find("qwen2.5-14b")->ref_batch,
            c.Find("llama3-8b")->ref_step_time_s / c.Find("llama3-8b")->ref_batch);  // bigger model, slower per sample
  auto light = c.ColocationSpeed("mobilenet", "efficientnet");
  auto heavy = c.ColocationSpeed("llama3-8b", "qwen2.5-14b");
  EXPECT_GT(light.first, heavy.first);
  EXPECT_EQ(c.Find("nope"), nullptr);
}

TEST(WorkloadCatalog, GroundedInTheSharedMeasurements) {
  std::string shared = SCHEDMATE_SHARED_DIR;
  if (!std::filesystem::exists(shared + "/traces/lucid/single_data.csv")) GTEST_SKIP() << shared << " absent";
  WorkloadCatalog c = WorkloadCatalog::FromSharedOrModel(shared);
  const CatalogEntry* resnet = c.Find("resnet");
  ASSERT_NE(resnet, nullptr);
  EXPECT_EQ(resnet->source, "lucid:ResNet50/ImageNet");
  EXPECT_EQ(resnet->sia_app, "imagenet");
  EXPECT_EQ(c.Find("yolo")->source, "sia:yolov3");
  EXPECT_EQ(c.Find("llama3-8b")->source, "flops");
  // Sia's A100 measurement wins for step time: 0.1456 s at 20 per GPU on one GPU.
  EXPECT_NEAR(c.StepTime("resnet", "dgx", 1, 20), 0.1456034928560257, 1e-12);
  // A measured pair comes from Lucid.
  auto pair = c.ColocationSpeed("mobilenet", "resnet");
  EXPECT_GT(pair.first, 0.05);
  EXPECT_LE(pair.first, 1.5);
}

}  // namespace
}  // namespace schedmate
