#include "core/facts_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

template <typename T>
Json Opt(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

// Numbers that may be NaN (a log printing "loss: nan") are rendered "nan".
Json OptNumber(const std::optional<double>& v) {
  if (!v) return nullptr;
  if (std::isnan(*v)) return "nan";
  return *v;
}

}  // namespace

std::string_view EndReasonName(EndReason r) {
  switch (r) {
    case EndReason::kCompleted: return "completed";
    case EndReason::kCancelled: return "cancelled";
    case EndReason::kFailedUser: return "failed_user";
    case EndReason::kFailedFramework: return "failed_framework";
    case EndReason::kFailedInfra: return "failed_infra";
    case EndReason::kTimeout: return "timeout";
    case EndReason::kUnknown: return "unknown";
  }
  return "unknown";
}

std::string_view ErrorTypeName(FailureDiagnosis::ErrorType t) {
  using E = FailureDiagnosis::ErrorType;
  switch (t) {
    case E::kInfrastructure: return "infrastructure";
    case E::kFramework: return "framework";
    case E::kUserScript: return "user_script";
    case E::kUnknown: return "unknown";
  }
  return "unknown";
}

Json ToJson(const WorkloadMetadata& m) {
  Json j;
  j["model_name"] = Opt(m.model_name);
  j["model_type"] = Opt(m.model_type);
  j["dataset"] = Opt(m.dataset);
  j["training_iterations"] = Opt(m.training_iterations);
  j["iteration_type"] = Opt(m.iteration_type);
  j["batch_size"] = Opt(m.batch_size);
  j["hardware"] = {{"num_gpus", Opt(m.hardware.num_gpus)},
                   {"num_nodes", Opt(m.hardware.num_nodes)},
                   {"gpu_type", Opt(m.hardware.gpu_type)}};
  j["d_model"] = Opt(m.d_model);
  j["num_layers"] = Opt(m.num_layers);
  j["num_params"] = Opt(m.num_params);
  j["seq_len"] = Opt(m.seq_len);
  j["learning_rate"] = OptNumber(m.learning_rate);
  j["num_workers"] = Opt(m.num_workers);
  j["precision"] = Opt(m.precision);
  j["framework"] = Opt(m.framework);
  j["launcher"] = Opt(m.launcher);
  Json fields = Json::object();
  for (const auto& s : m.sources)
    fields[s.field] = s.key.empty() ? Json{{"file", s.file}, {"line", s.line}}
                                    : Json{{"file", s.file}, {"line", s.line}, {"key", s.key}};
  Json unresolved = Json::object();
  for (const auto& [field, why] : m.unresolved) unresolved[field] = why;
  j["provenance"] = {{"unresolved", unresolved},
                     {"model_type_evidence", m.model_type_evidence},
                     {"files_read", m.files_read},
                     {"extractor", m.extractor},
                     {"fields", fields}};
  j["confidence"] = m.confidence;
  return j;
}

Json ToJson(const DurationEstimate& e) {
  Json matches = Json::array();
  for (const auto& m : e.matches)
    matches.push_back({{"id", m.job_id}, {"score", m.score}});
  Json j = {
      {"method", e.method == DurationEstimate::Method::kHistory ? "history"
                                                                : "fallback"},
      {"duration_s", OptNumber(e.duration_s)},
      {"sm_util", OptNumber(e.sm_util)},
      {"mem_util", OptNumber(e.mem_util)},
      {"spread", OptNumber(e.spread)},
      {"matches", matches}};
  if (!e.fallback_reason.empty()) j["fallback_reason"] = e.fallback_reason;
  return j;
}

Json ToJson(const ProgressReport& p) {
  return {{"status",
           p.status == ProgressReport::Status::kOk ? "ok" : "missing"},
          {"step", Opt(p.step)},
          {"total_steps", Opt(p.total_steps)},
          {"step_time_s", OptNumber(p.step_time_s)},
          {"throughput", OptNumber(p.throughput)},
          {"throughput_unit", Opt(p.throughput_unit)},
          {"loss", OptNumber(p.loss)},
          {"steady_step_time_s", OptNumber(p.steady_step_time_s)},
          {"steady_throughput", OptNumber(p.steady_throughput)},
          {"progress_fraction", OptNumber(p.progress_fraction)},
          {"eta_s", OptNumber(p.eta_s)},
          {"lines_used", p.lines_used},
          {"confidence", p.confidence},
          {"backend", p.backend}};
}

Json ToJson(const FailureDiagnosis& d) {
  return {{"error_type", ErrorTypeName(d.error_type)},
          {"faulty_component", Opt(d.faulty_component)},
          {"root_cause_line", Opt(d.root_cause_line)},
          {"root_cause_line_index", Opt(d.root_cause_line_index)},
          {"evidence", d.evidence},
          {"confidence", d.confidence}};
}

}  // namespace schedmate
