#include "history/record.h"

#include <nlohmann/json.hpp>

#include "core/facts_json.h"

namespace schedmate {

Result<EndReason> ParseEndReason(std::string_view name) {
  for (EndReason r : {EndReason::kCompleted, EndReason::kCancelled, EndReason::kFailedUser, EndReason::kFailedFramework,
                      EndReason::kFailedInfra, EndReason::kTimeout, EndReason::kUnknown})
    if (EndReasonName(r) == name) return r;
  return InvalidArgument("unknown end reason '" + std::string(name) + "'");
}

Json RecordToJson(const HistoryRecord& r) {
  auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  Json configs = Json::array();
  for (const auto& c : r.per_config)
    configs.push_back({{"gpu_type", c.gpu_type}, {"num_gpus", c.num_gpus}, {"batch_size", c.batch_size},
                       {"throughput", c.throughput}});
  Json metadata = nullptr;
  if (!r.metadata_json.empty()) {
    auto parsed = ParseJson(r.metadata_json, "metadata");
    metadata = parsed.ok() ? *parsed : Json(r.metadata_json);
  }
  return {{"schema_version", r.schema_version}, {"job_id", r.job_id}, {"name", r.name}, {"user", r.user},
          {"submit_time_s", r.submit_time_s}, {"completed_at_s", r.completed_at_s}, {"duration_s", r.duration_s},
          {"end_reason", EndReasonName(r.end_reason)}, {"num_gpus", r.num_gpus}, {"gpu_type", r.gpu_type},
          {"sm_util", opt(r.sm_util)}, {"mem_util", opt(r.mem_util)}, {"throughput", opt(r.throughput)},
          {"throughput_unit", r.throughput_unit}, {"per_config_throughput", configs},
          {"hardware_versions", r.hardware_versions}, {"software_versions", r.software_versions},
          {"snapshot_hash", r.snapshot_hash}, {"metadata", metadata}};
}

Result<HistoryRecord> RecordFromJson(const Json& j, const std::string& where) {
  if (!j.is_object()) return InvalidArgument(where + ": a record must be a JSON object");
  HistoryRecord r;
  ASSIGN_OR_RETURN(int64_t version, GetInt(j, "schema_version", where));
  if (version < 1 || version > kHistorySchemaVersion)
    return FailedPrecondition(where + ": record schema version " + std::to_string(version) +
                              " is not supported (this build reads up to " + std::to_string(kHistorySchemaVersion) + ")");
  r.schema_version = static_cast<int>(version);
  ASSIGN_OR_RETURN(r.job_id, GetString(j, "job_id", where));
  if (r.job_id.empty()) return InvalidArgument(where + ": field 'job_id' is empty");
  ASSIGN_OR_RETURN(auto name, GetOptString(j, "name", where));
  r.name = name.value_or("");
  ASSIGN_OR_RETURN(auto user, GetOptString(j, "user", where));
  r.user = user.value_or("");
  ASSIGN_OR_RETURN(auto submit, GetOptInt(j, "submit_time_s", where));
  r.submit_time_s = submit.value_or(0);
  ASSIGN_OR_RETURN(r.completed_at_s, GetInt(j, "completed_at_s", where));
  ASSIGN_OR_RETURN(r.duration_s, GetIntInRange(j, "duration_s", where, 0, int64_t{1} << 40));
  ASSIGN_OR_RETURN(auto reason, GetOptString(j, "end_reason", where));
  if (reason) {
    auto parsed = ParseEndReason(*reason);
    if (!parsed.ok()) return InvalidArgument(where + ": field 'end_reason': " + parsed.status().message());
    r.end_reason = *parsed;
  }
  ASSIGN_OR_RETURN(auto gpus, GetOptIntInRange(j, "num_gpus", where, 0, 1 << 20));
  r.num_gpus = static_cast<int32_t>(gpus.value_or(0));
  ASSIGN_OR_RETURN(auto gpu_type, GetOptString(j, "gpu_type", where));
  r.gpu_type = gpu_type.value_or("");
  ASSIGN_OR_RETURN(r.sm_util, GetOptNumber(j, "sm_util", where));
  ASSIGN_OR_RETURN(r.mem_util, GetOptNumber(j, "mem_util", where));
  ASSIGN_OR_RETURN(r.throughput, GetOptNumber(j, "throughput", where));
  ASSIGN_OR_RETURN(auto unit, GetOptString(j, "throughput_unit", where));
  r.throughput_unit = unit.value_or("");
  if (auto pc = j.find("per_config_throughput"); pc != j.end() && pc->is_array()) {
    for (size_t i = 0; i < pc->size(); ++i) {
      std::string w = where + ": per_config_throughput[" + std::to_string(i) + "]";
      const Json& c = (*pc)[i];
      ConfigThroughput t;
      ASSIGN_OR_RETURN(auto gt, GetOptString(c, "gpu_type", w));
      t.gpu_type = gt.value_or("");
      ASSIGN_OR_RETURN(int64_t n, GetIntInRange(c, "num_gpus", w, 0, 1 << 20));
      t.num_gpus = static_cast<int32_t>(n);
      ASSIGN_OR_RETURN(auto b, GetOptInt(c, "batch_size", w));
      t.batch_size = b.value_or(0);
      ASSIGN_OR_RETURN(t.throughput, GetNumber(c, "throughput", w));
      r.per_config.push_back(std::move(t));
    }
  }
  for (auto [field, target] : {std::pair{"hardware_versions", &r.hardware_versions},
                               {"software_versions", &r.software_versions}, {"snapshot_hash", &r.snapshot_hash}}) {
    ASSIGN_OR_RETURN(auto v, GetOptString(j, field, where));
    *target = v.value_or("");
  }
  if (auto m = j.find("metadata"); m != j.end() && !m->is_null()) r.metadata_json = DumpJson(*m);
  return r;
}

}  // namespace schedmate
