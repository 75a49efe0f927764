#include "world/workload_catalog.h"

#include <algorithm>
#include <cmath>

namespace schedmate {
namespace {

constexpr double kA100PeakFlops = 312e12;  // bf16 dense

struct ModelSpec {
  const char* family;
  int ref_batch;
  double train_flops_per_sample;  // 3 × forward, or 6 × params × tokens
  double mfu;                     // model-FLOPs utilisation assumed
  double sm_util, gmem_util, gmem_mib;
  int label;
  const char* lucid_model;  // measured by Lucid ("" = no)
  const char* lucid_dataset;
  const char* sia_app;      // profiled by Sia ("" = no)
};

// Per-sample training FLOPs: ResNet-50 4.1 GFLOPs forward at 224 px; ViT-B/16
// 17.6; ConvNeXt-T 4.5; MobileNetV3-L 0.22; EfficientNet-B0 0.39; YOLOv8s 28.6
// at 640 px; BERT-base 110 M params × 384 tokens; DeBERTa-v3-base 184 M ×
// 512; T5-base 220 M × 512; LLaMA-3 8 B × 2048; Qwen-2.5 14.7 B × 2048;
// CLIP ViT-B/32 4.4 image + 2.9 text; Stable Diffusion v1.5 UNet ≈ 0.8
// TFLOPs at 64² latents; 3D UNet ≈ 0.9 TFLOPs per 128³ patch; DLRM ≈ 0.1.
const ModelSpec kSpecs[] = {
    {"llama3-8b", 4, 6 * 8.0e9 * 2048, 0.40, 0.90, 0.85, 70000, 2, "", "", ""},
    {"qwen2.5-14b", 2, 6 * 14.7e9 * 2048, 0.38, 0.90, 0.90, 76000, 2, "", "", ""},
    {"vit", 128, 3 * 17.6e9, 0.35, 0.80, 0.60, 30000, 2, "", "", ""},
    {"bert", 32, 6 * 110e6 * 384, 0.30, 0.95, 0.60, 20000, 2, "BERT", "SQuAD", "bert"},
    {"deberta", 16, 6 * 184e6 * 512, 0.30, 0.90, 0.65, 24000, 2, "", "", ""},
    {"stable-diffusion", 4, 3 * 0.8e12, 0.35, 0.90, 0.80, 40000, 2, "", "", ""},
    {"clip", 256, 3 * 7.3e9, 0.30, 0.80, 0.60, 30000, 2, "", "", ""},
    {"dlrm", 2048, 3 * 0.1e9, 0.05, 0.30, 0.20, 8000, 0, "NeuMF", "MovieLens", "ncf"},
    {"resnet", 32, 3 * 4.1e9, 0.35, 0.80, 0.40, 9000, 1, "ResNet50", "ImageNet", "imagenet"},
    {"unet", 2, 3 * 0.9e12, 0.30, 0.85, 0.70, 30000, 2, "", "", ""},
    {"efficientnet", 32, 3 * 0.39e9, 0.20, 0.45, 0.20, 3000, 0, "EfficientNet", "CIFAR-10", ""},
    {"convnext", 64, 3 * 4.5e9, 0.35, 0.80, 0.50, 16000, 1, "", "", ""},
    {"mobilenet", 32, 3 * 0.22e9, 0.15, 0.45, 0.20, 2700, 0, "MobileNetV3", "ImageNet", ""},
    {"yolo", 16, 3 * 28.6e9, 0.30, 0.75, 0.50, 12000, 1, "", "", "yolov3"},
    {"t5", 8, 6 * 220e6 * 512, 0.30, 0.85, 0.55, 20000, 1, "", "", ""},
};

}  // namespace

WorkloadCatalog WorkloadCatalog::Build(const LucidMeasurements* lucid, const SiaProfiles* sia) {
  WorkloadCatalog c;
  c.lucid_ = lucid;
  c.sia_ = sia;
  for (const ModelSpec& s : kSpecs) {
    CatalogEntry e;
    e.family = s.family;
    e.ref_batch = s.ref_batch;
    e.ref_step_time_s = s.train_flops_per_sample * s.ref_batch / (kA100PeakFlops * s.mfu);
    e.sm_util = s.sm_util;
    e.gmem_util = s.gmem_util;
    e.gmem_mib = s.gmem_mib;
    e.sharing_label = s.label;
    e.source = "flops";
    e.sia_app = s.sia_app;
    if (lucid && *s.lucid_model) {
      // The measured row at the reference batch without AMP, else any batch.
      const SoloMeasure* m = lucid->Solo({s.lucid_model, s.lucid_dataset, s.ref_batch, false});
      if (!m)
        for (const auto& row : lucid->solo())
          if (row.key.model == s.lucid_model && row.key.dataset == s.lucid_dataset && !row.key.amp) {
            m = &row;
            break;
          }
      if (m && m->speed > 0) {
        e.lucid_key = m->key;
        e.ref_batch = m->key.batch_size;
        e.ref_step_time_s = m->key.batch_size / m->speed;  // Lucid's speed is samples/s
        e.sm_util = m->gpu_util / 100.0;
        e.gmem_util = m->gmem_util / 100.0;
        e.gmem_mib = m->gmem_mib;
        e.sharing_label = m->label;
        e.source = "lucid:" + m->key.model + "/" + m->key.dataset;
      }
    }
    if (sia && !e.sia_app.empty()) {
      auto types = sia->GpuTypes(e.sia_app);
      if (types.empty()) e.sia_app.clear();
      else if (e.source == "flops") e.source = "sia:" + e.sia_app;
    } else {
      e.sia_app.clear();
    }
    c.entries_[e.family] = e;
  }
  return c;
}

WorkloadCatalog WorkloadCatalog::FromSharedOrModel(const std::string& shared_dir) {
  std::shared_ptr<LucidMeasurements> lucid;
  std::shared_ptr<SiaProfiles> sia;
  if (auto l = LucidMeasurements::Load(shared_dir + "/traces/lucid"); l.ok())
    lucid = std::make_shared<LucidMeasurements>(std::move(*l));
  if (auto s = SiaProfiles::Load(shared_dir + "/traces/sia/profiles"); s.ok())
    sia = std::make_shared<SiaProfiles>(std::move(*s));
  WorkloadCatalog c = Build(lucid.get(), sia.get());
  c.owned_lucid_ = lucid;
  c.owned_sia_ = sia;
  return c;
}

const CatalogEntry* WorkloadCatalog::Find(const std::string& family) const {
  auto it = entries_.find(family);
  return it == entries_.end() ? nullptr : &it->second;
}

double WorkloadCatalog::StepTime(const std::string& family, const std::string& gpu_type, int gpus,
                                 int local_batch) const {
  const CatalogEntry* e = Find(family);
  if (!e) return 0;
  gpus = std::max(gpus, 1);
  local_batch = std::max(local_batch, 1);
  if (sia_ && !e->sia_app.empty())
    if (auto t = sia_->StepTime(e->sia_app, gpu_type, gpus, local_batch)) return *t;
  // Per-GPU work scales with the local batch; data parallelism adds ~10 %
  // communication per doubling of GPUs.
  double scale = static_cast<double>(local_batch) / e->ref_batch;
  double comm = std::pow(1.0 / 0.9, std::log2(static_cast<double>(gpus)));
  return e->ref_step_time_s * scale * comm;
}

std::pair<double, double> WorkloadCatalog::ColocationSpeed(const std::string& a, const std::string& b) const {
  const CatalogEntry* ea = Find(a);
  const CatalogEntry* eb = Find(b);
  if (!ea || !eb) return {1.0, 1.0};
  if (lucid_ && ea->lucid_key && eb->lucid_key)
    if (auto m = lucid_->PairSpeed(*ea->lucid_key, *eb->lucid_key)) return *m;
  // Utilisation model: when the two jobs ask for more than the whole GPU,
  // each keeps its share of it.
  double demand = ea->sm_util + eb->sm_util;
  if (demand <= 1.0) return {0.95, 0.95};  // light interference only
  return {std::max(0.05, 0.95 / demand), std::max(0.05, 0.95 / demand)};
}

}  // namespace schedmate
