// Field-by-field agreement of extracted metadata with a generated
// repository's truth (the Advisor's field accuracy; shared by `eval
// advisor` and `world check`).
#ifndef SCHEDMATE_EXPERIMENTS_FIELD_SCORE_H_
#define SCHEDMATE_EXPERIMENTS_FIELD_SCORE_H_

#include <map>
#include <string>

#include "core/facts.h"
#include "world/repo_generator.h"

namespace schedmate {

struct FieldTally {
  int total = 0;
  int all_correct = 0;
  std::map<std::string, int> ok;

  void Score(const WorkloadMetadata& md, const WorkloadTruth& t) {
    ++total;
    int before = 0, after = 0;
    for (const auto& [k, v] : ok) before += v;
    ok["model_name"] += md.model_name == t.model_name;
    ok["model_type"] += md.model_type == t.model_type;
    ok["dataset"] += md.dataset == t.dataset;
    ok["training_iterations"] += md.training_iterations == t.iterations;
    ok["iteration_type"] += md.iteration_type == t.iteration_type;
    ok["batch_size"] += md.batch_size == t.batch_size;
    ok["hardware.num_gpus"] += md.hardware.num_gpus.value_or(1) == t.num_gpus;
    for (const auto& [k, v] : ok) after += v;
    all_correct += after - before == static_cast<int>(ok.size());
  }
  double Mean() const {
    double m = 0;
    for (const auto& [k, v] : ok) m += total ? static_cast<double>(v) / total : 0;
    return ok.empty() ? 0 : m / static_cast<double>(ok.size());
  }
};

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_FIELD_SCORE_H_
