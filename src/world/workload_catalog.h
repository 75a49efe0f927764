// The semantic world's workload catalog (issue 6): for each of the paper's
// 15 model families, how a training step behaves — seconds per step on a
// GPU type and count, SM and memory utilisation, memory footprint, and the
// speed two jobs keep when they share GPUs.
//
// Grounded where public measurements exist, derived where they do not:
//  - Lucid's solo measurements (samples/s, utilisation, memory) for the
//    families it measured (BERT, ResNet, MobileNet, EfficientNet, and
//    NeuMF as the recommendation proxy for DLRM), and its pairwise
//    co-location speeds;
//  - Sia's per-GPU-type step times for the apps it profiled (bert,
//    imagenet → ResNet-50, yolov3, ncf → DLRM);
//  - otherwise a FLOPs model: training FLOPs per sample (3 × forward, or
//    6 × parameters × tokens for transformers) over an A100's 312 TFLOP/s
//    at a stated model-FLOPs utilisation, scaled by batch and GPU count.
// Every workload says which of these its numbers come from (`source`).
#ifndef SCHEDMATE_WORLD_WORKLOAD_CATALOG_H_
#define SCHEDMATE_WORLD_WORKLOAD_CATALOG_H_

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/status.h"
#include "world/lucid_measurements.h"
#include "world/sia_profiles.h"

namespace schedmate {

struct CatalogEntry {
  std::string family;
  std::string source;       // "lucid:ResNet50/ImageNet", "sia:imagenet", "flops"
  int ref_batch = 32;       // per GPU
  double ref_step_time_s = 0;  // one A100-class GPU at ref_batch
  double sm_util = 0.5;     // 0-1
  double gmem_util = 0.3;   // 0-1
  double gmem_mib = 4096;
  int sharing_label = 1;    // Lucid's 0 light … 2 heavy
  std::optional<WorkloadKey> lucid_key;
  std::string sia_app;      // "" when Sia did not profile it
};

class WorkloadCatalog {
 public:
  // Either source may be null (then those families use the FLOPs model).
  static WorkloadCatalog Build(const LucidMeasurements* lucid, const SiaProfiles* sia);
  // The shared data under `shared_dir` when present, else the FLOPs model only.
  static WorkloadCatalog FromSharedOrModel(const std::string& shared_dir);

  // Whether any family comes from measurements (else all use the FLOPs model).
  bool HasMeasurements() const { return lucid_ || sia_; }

  const CatalogEntry* Find(const std::string& family) const;
  const std::map<std::string, CatalogEntry>& entries() const { return entries_; }

  // Seconds per step for `gpus` GPUs of `gpu_type` ("dgx" = A100 …) at a
  // per-GPU batch: Sia's measurement when it has one, else the reference
  // step time scaled by batch and by a data-parallel efficiency of 0.9 per
  // doubling of GPUs.
  double StepTime(const std::string& family, const std::string& gpu_type, int gpus, int local_batch) const;
  // Each job's speed relative to running alone while the two share GPUs:
  // Lucid's measurement when both were measured together, else a
  // utilisation model — the GPU's spare SM capacity split in proportion.
  std::pair<double, double> ColocationSpeed(const std::string& a, const std::string& b) const;

 private:
  std::map<std::string, CatalogEntry> entries_;
  const LucidMeasurements* lucid_ = nullptr;
  const SiaProfiles* sia_ = nullptr;
  std::shared_ptr<LucidMeasurements> owned_lucid_;
  std::shared_ptr<SiaProfiles> owned_sia_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_WORKLOAD_CATALOG_H_
