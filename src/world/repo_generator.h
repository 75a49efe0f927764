// Generated training repositories with known truth (issue 6's "generated
// repositories and commands"; the Advisor's evaluation corpus). A workload —
// one of the paper's 15 model families with its datasets, batch sizes, GPU
// counts and iteration budgets — is written in one of five real code
// styles, and varied the way users vary projects: renamed scripts and
// directories, values moved between argparse defaults, config files and
// command-line overrides, shell wrappers, `python -m` packages, unrelated
// files, prompt text in comments. Deterministic from the seed; nothing is
// written to disk unless a caller materialises it.
#ifndef SCHEDMATE_WORLD_REPO_GENERATOR_H_
#define SCHEDMATE_WORLD_REPO_GENERATOR_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/random.h"

namespace schedmate {

struct WorkloadTruth {
  std::string family;      // "llama3-8b", "resnet", …
  std::string model_name;  // as the code names it
  std::string model_type;  // schema task
  std::string dataset;
  int64_t iterations = 0;
  std::string iteration_type;  // step | epoch
  int64_t batch_size = 0;
  int32_t num_gpus = 1;
  double learning_rate = 1e-4;
  // The run's behaviour (for history records and estimates).
  double seconds_per_iteration = 1;
  double sm_util = 0.5;
};

enum class CodeStyle { kRawLoop, kHfTrainer, kLightning, kHydra, kDeepSpeed };
inline constexpr int kNumCodeStyles = 5;
const char* CodeStyleName(CodeStyle s);

struct GeneratedRepo {
  std::map<std::string, std::string> files;
  std::string command;
  WorkloadTruth truth;
  CodeStyle style = CodeStyle::kRawLoop;
};

// The 15 families of the paper's Table 2.
const std::vector<std::string>& WorkloadFamilies();

// A random workload of `family` (datasets, batch, GPUs, budget drawn).
WorkloadTruth DrawWorkload(const std::string& family, Rng& rng);
// Another model of the same project shape: a different family, same job
// name, batch and budget (the paper's "same name, different model").
WorkloadTruth SwapModel(const WorkloadTruth& w, Rng& rng);
// The same model on another dataset.
WorkloadTruth SwapDataset(const WorkloadTruth& w, Rng& rng);

// Writes `w` in `style`; `layout_seed` varies names, layout and where each
// value lives, without changing what the run does.
GeneratedRepo GenerateRepo(const WorkloadTruth& w, CodeStyle style, uint64_t layout_seed);

// A job's run time under the duration model: iterations × seconds per
// iteration × lognormal noise (σ = `noise`).
double SampleDurationS(const WorkloadTruth& w, Rng& rng, double noise = 0.15);

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_REPO_GENERATOR_H_
