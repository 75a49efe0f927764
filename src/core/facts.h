// The facts schedmate hands to schedulers (DESIGN §1). Every field a
// component might not know is optional: a policy treats a missing fact as
// "use your own behaviour". Facts carry their evidence, never a bare number.
#ifndef SCHEDMATE_CORE_FACTS_H_
#define SCHEDMATE_CORE_FACTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate {

// Where a metadata value came from.
struct FieldSource {
  std::string field;  // e.g. "batch_size"
  std::string file;   // path inside the snapshot, or "<command>"
  int32_t line = 0;   // 1-based; 0 = whole file / not line-addressable
  std::string key;    // the setting that gave it ("model.name", "--arch", "<config file>"); may be empty
};

// §1.1 step 2: what workload a job is.
struct WorkloadMetadata {
  // Required by the schema (but each may be unknown until extracted).
  std::optional<std::string> model_name;
  std::optional<std::string> model_type;  // e.g. "llm-pretrain", "detection"
  std::optional<std::string> dataset;
  std::optional<int64_t> training_iterations;
  std::optional<std::string> iteration_type;  // "step" | "epoch"
  std::optional<int64_t> batch_size;
  struct Hardware {
    std::optional<int32_t> num_gpus;
    std::optional<int32_t> num_nodes;
    std::optional<std::string> gpu_type;
  } hardware;
  // Optional fields.
  std::optional<int64_t> d_model;
  std::optional<int64_t> num_layers;
  std::optional<int64_t> num_params;
  std::optional<int64_t> seq_len;
  std::optional<double> learning_rate;
  std::optional<int32_t> num_workers;
  std::optional<std::string> precision;
  std::optional<std::string> framework;
  std::optional<std::string> launcher;
  // Provenance.
  std::vector<std::string> files_read;
  std::string extractor;  // "embedded", "llm", "cascade"
  std::vector<FieldSource> sources;
  // Schema fields left null on purpose, with why ("dataset": "a placeholder
  // path /path/to/data"): a value the code does not fix stays unknown.
  std::vector<std::pair<std::string, std::string>> unresolved;
  // What decided the model type ("name:llama", "call:get_peft_model", …).
  std::vector<std::string> model_type_evidence;
  double confidence = 0.0;  // [0, 1]
};

// End reasons written back to history (§1.1 step 5).
enum class EndReason {
  kCompleted,
  kCancelled,
  kFailedUser,
  kFailedFramework,
  kFailedInfra,
  kTimeout,
  kUnknown,
};

// §1.1 step 4: an estimate from history, or an explicit fallback.
struct DurationEstimate {
  enum class Method { kHistory, kFallback };
  Method method = Method::kFallback;
  std::optional<double> duration_s;
  std::optional<double> sm_util;  // [0, 1]
  // GPU memory use [0, 1]: the mean over the matches that recorded it, so a
  // scheduler packing jobs needs no second read of the history.
  std::optional<double> mem_util;
  std::optional<double> spread;   // relative spread of matched durations
  struct Match {
    std::string job_id;
    double score = 0.0;
  };
  std::vector<Match> matches;
  std::string fallback_reason;  // why, when method == kFallback
};

// §1.2: the Tracker's answer for a running job.
struct ProgressReport {
  enum class Status { kOk, kMissing };
  Status status = Status::kMissing;
  std::optional<int64_t> step;
  std::optional<int64_t> total_steps;
  std::optional<double> step_time_s;
  std::optional<double> throughput;
  std::optional<std::string> throughput_unit;
  std::optional<double> loss;  // NaN when the log prints nan
  std::optional<double> steady_step_time_s;
  std::optional<double> steady_throughput;
  std::optional<double> progress_fraction;
  std::optional<double> eta_s;
  std::vector<int64_t> lines_used;  // 0-based line numbers
  // How sure the backend is (0–1); the cascade asks the LLM below a threshold.
  double confidence = 0;
  std::string backend = "embedded";  // which backend produced the answer
};

// §1.3: the Failure Handler's diagnosis.
struct FailureDiagnosis {
  enum class ErrorType { kInfrastructure, kFramework, kUserScript, kUnknown };
  ErrorType error_type = ErrorType::kUnknown;
  // For infrastructure: "gpu", "nvlink", "network", "node", "storage".
  std::optional<std::string> faulty_component;
  std::optional<std::string> root_cause_line;
  std::optional<int64_t> root_cause_line_index;  // 0-based
  std::vector<std::string> evidence;
  double confidence = 0.0;
};

// Whether a faulty component lives inside the node (gpu, nvlink, node): the
// node itself is broken and must leave service. Storage and network faults
// lie outside it (a file system, a switch, the fabric): draining the node
// gains nothing, and the job may run again on it.
inline bool ComponentLivesInNode(std::string_view component) {
  return component == "gpu" || component == "nvlink" || component == "node";
}

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_FACTS_H_
