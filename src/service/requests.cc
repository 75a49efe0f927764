#include "service/requests.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "advisor/advisor.h"

namespace schedmate {
namespace {

constexpr size_t kMaxCommandBytes = 64u << 10;

// Reads one JSON object's fields, remembering which field failed.
class FieldReader {
 public:
  FieldReader(const Json& obj, std::string prefix, std::string* bad_field)
      : obj_(obj), prefix_(std::move(prefix)), bad_field_(bad_field) {}

  Status OnlyKnown(std::initializer_list<std::string_view> known) {
    for (const auto& [key, value] : obj_.items()) {
      Status s = OnlyKnownFields(Json{{key, value}}, known, Where());
      if (!s.ok()) return Fail(key, s);
    }
    return Status::Ok();
  }

  // A string without NUL bytes, at most `max_bytes`; absent leaves `out`.
  Status String(std::string_view field, std::string* out, bool required, size_t max_bytes = 4096) {
    auto v = GetOptString(obj_, field, Where());
    if (!v.ok()) return Fail(field, v.status());
    if (!*v) return required ? Fail(field, InvalidArgument(Name(field) + " is missing")) : Status::Ok();
    if ((*v)->find('\0') != std::string::npos)
      return Fail(field, InvalidArgument(Name(field) + " contains a NUL byte"));
    if ((*v)->size() > max_bytes)
      return Fail(field, InvalidArgument(Name(field) + " is longer than " + std::to_string(max_bytes) + " bytes"));
    *out = std::move(**v);
    return Status::Ok();
  }

  Status Int(std::string_view field, int64_t lo, int64_t hi, std::optional<int64_t>* out) {
    auto v = GetOptIntInRange(obj_, field, Where(), lo, hi);
    if (!v.ok()) return Fail(field, v.status());
    if (*v) *out = **v;
    return Status::Ok();
  }

  Status Int(std::string_view field, int lo, int hi, int* out) {
    std::optional<int64_t> v;
    RETURN_IF_ERROR(Int(field, lo, hi, &v));
    if (v) *out = static_cast<int>(*v);
    return Status::Ok();
  }

  Status Number(std::string_view field, double lo, double hi, double* out) {
    auto v = GetOptNumber(obj_, field, Where());
    if (!v.ok()) return Fail(field, v.status());
    if (!*v) return Status::Ok();
    if (!(**v >= lo && **v <= hi))
      return Fail(
          field, InvalidArgument(Name(field) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"));
    *out = **v;
    return Status::Ok();
  }

  Status Bool(std::string_view field, bool* out) {
    if (!obj_.contains(std::string(field)) || obj_[std::string(field)].is_null()) return Status::Ok();
    auto v = GetBool(obj_, field, Where());
    if (!v.ok()) return Fail(field, v.status());
    *out = *v;
    return Status::Ok();
  }

  // The sub-object `field` (absent: null), for a nested reader.
  Result<const Json*> Object(std::string_view field) {
    auto it = obj_.find(std::string(field));
    if (it == obj_.end() || it->is_null()) return static_cast<const Json*>(nullptr);
    if (!it->is_object()) return Fail(field, InvalidArgument(Name(field) + " must be an object"));
    return &*it;
  }

  Status Fail(std::string_view field, Status s) {
    *bad_field_ = prefix_ + std::string(field);
    return s;
  }
  std::string Name(std::string_view field) const { return "field '" + prefix_ + std::string(field) + "'"; }
  const std::string& prefix() const { return prefix_; }

 private:
  std::string Where() const { return prefix_.empty() ? "request" : "request." + prefix_.substr(0, prefix_.size() - 1); }

  const Json& obj_;
  std::string prefix_;
  std::string* bad_field_;
};

Status ReadLog(FieldReader& in, LogRequest* log) {
  RETURN_IF_ERROR(in.String("log_path", &log->path, false));
  std::string text;
  RETURN_IF_ERROR(in.String("log_text", &text, false, SIZE_MAX));
  const bool has_text = !text.empty();
  if (has_text == !log->path.empty())
    return in.Fail("log_path", InvalidArgument("give exactly one of 'log_path' and a non-empty 'log_text'"));
  if (has_text) log->text = std::move(text);
  return Status::Ok();
}

Status ReadJob(FieldReader& in, std::string* bad_field, JobContext* job) {
  ASSIGN_OR_RETURN(const Json* obj, in.Object("job"));
  if (!obj) return Status::Ok();
  FieldReader j(*obj, "job.", bad_field);
  RETURN_IF_ERROR(j.OnlyKnown({"job_id", "node", "checkpoint"}));
  RETURN_IF_ERROR(j.String("job_id", &job->job_id, false));
  RETURN_IF_ERROR(j.String("node", &job->node, false));
  return j.String("checkpoint", &job->checkpoint, false);
}

// A fingerprint the index can hold: kFingerprintDimension finite numbers.
Status ReadFingerprint(const Json& record, std::string* bad_field, std::vector<float>* out) {
  auto it = record.find("fingerprint");
  if (it == record.end() || it->is_null()) return Status::Ok();
  *bad_field = "record.fingerprint";
  if (!it->is_array() || it->size() != static_cast<size_t>(kFingerprintDimension))
    return InvalidArgument("field 'record.fingerprint' must be an array of " + std::to_string(kFingerprintDimension) +
                           " numbers");
  for (const Json& v : *it) {
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      return InvalidArgument("field 'record.fingerprint' holds a value that is not a finite number");
    out->push_back(v.get<float>());
  }
  bad_field->clear();
  return Status::Ok();
}

}  // namespace

Result<Json> ParseRequestBody(std::string_view body) {
  ASSIGN_OR_RETURN(Json j, ParseJson(body, "request body"));
  if (!j.is_object()) return InvalidArgument("request body: expected a JSON object");
  return j;
}

Result<AdviseRequest> ParseAdviseRequest(const Json& body, std::string* bad_field) {
  FieldReader in(body, "", bad_field);
  AdviseRequest r;
  RETURN_IF_ERROR(in.OnlyKnown({"repo", "rev", "cmd", "workdir", "as_of", "k", "min_score", "job_id"}));
  RETURN_IF_ERROR(in.String("repo", &r.repo, true));
  RETURN_IF_ERROR(in.String("rev", &r.rev, false, 256));
  RETURN_IF_ERROR(in.String("cmd", &r.cmd, true, kMaxCommandBytes));
  RETURN_IF_ERROR(in.String("workdir", &r.workdir, false));
  RETURN_IF_ERROR(in.Int("as_of", 1, int64_t{1} << 40, &r.as_of_s));
  RETURN_IF_ERROR(in.Int("k", 1, 100, &r.k));
  RETURN_IF_ERROR(in.Number("min_score", 0.0, 1.0, &r.min_score));
  RETURN_IF_ERROR(in.String("job_id", &r.job_id, false, 256));
  if (r.repo.empty()) return in.Fail("repo", InvalidArgument("field 'repo' is empty"));
  if (r.cmd.empty()) return in.Fail("cmd", InvalidArgument("field 'cmd' is empty"));
  return r;
}

Result<TrackRequest> ParseTrackRequest(const Json& body, std::string* bad_field) {
  FieldReader in(body, "", bad_field);
  TrackRequest r;
  RETURN_IF_ERROR(in.OnlyKnown({"log_path", "log_text", "samples", "offsets", "job_id"}));
  RETURN_IF_ERROR(ReadLog(in, &r.log));
  RETURN_IF_ERROR(in.Int("samples", 1, 1000, &r.samples));
  RETURN_IF_ERROR(in.Bool("offsets", &r.offsets));
  RETURN_IF_ERROR(in.String("job_id", &r.job_id, false, 256));
  return r;
}

Result<DiagnoseRequest> ParseDiagnoseRequest(const Json& body, std::string* bad_field) {
  FieldReader in(body, "", bad_field);
  DiagnoseRequest r;
  RETURN_IF_ERROR(in.OnlyKnown({"log_path", "log_text", "context", "offsets", "job"}));
  RETURN_IF_ERROR(ReadLog(in, &r.log));
  RETURN_IF_ERROR(in.Int("context", 10, 100000, &r.context));
  RETURN_IF_ERROR(in.Bool("offsets", &r.offsets));
  RETURN_IF_ERROR(ReadJob(in, bad_field, &r.job));
  return r;
}

Result<HistoryWriteRequest> ParseHistoryWriteRequest(const Json& body, std::string* bad_field) {
  FieldReader in(body, "", bad_field);
  HistoryWriteRequest r;
  RETURN_IF_ERROR(in.OnlyKnown({"record", "repo", "rev", "cmd", "workdir"}));
  ASSIGN_OR_RETURN(const Json* record, in.Object("record"));
  if (!record) return in.Fail("record", InvalidArgument("field 'record' is missing"));
  auto parsed = RecordFromJson(*record, "record");
  if (!parsed.ok()) return in.Fail("record", InvalidArgument(parsed.status().message()));
  r.record = std::move(*parsed);
  RETURN_IF_ERROR(ReadFingerprint(*record, bad_field, &r.record.fingerprint));
  RETURN_IF_ERROR(in.String("repo", &r.repo, false));
  RETURN_IF_ERROR(in.String("rev", &r.rev, false, 256));
  RETURN_IF_ERROR(in.String("cmd", &r.cmd, false, kMaxCommandBytes));
  RETURN_IF_ERROR(in.String("workdir", &r.workdir, false));
  if (r.needs_extraction() && (r.repo.empty() || r.cmd.empty()))
    return in.Fail("repo", InvalidArgument("a record without a fingerprint needs 'repo' and 'cmd' to extract its "
                                           "metadata"));
  if (!r.needs_extraction() && r.record.metadata_json.empty())
    return in.Fail("record.metadata", InvalidArgument("a record with a fingerprint needs its metadata"));
  return r;
}

Result<JobEventsRequest> ParseJobEventsRequest(const Json& body, std::string* bad_field) {
  FieldReader in(body, "", bad_field);
  JobEventsRequest r;
  RETURN_IF_ERROR(in.OnlyKnown({"source", "events"}));
  RETURN_IF_ERROR(in.String("source", &r.source, false, 256));
  auto events = body.find("events");
  if (events == body.end() || !events->is_array() || events->empty() || events->size() > kMaxJobEvents)
    return in.Fail("events", InvalidArgument("field 'events' must be an array of 1 to " +
                                             std::to_string(kMaxJobEvents) + " events"));
  for (size_t i = 0; i < events->size(); ++i) {
    const Json& e = (*events)[i];
    const std::string prefix = "events[" + std::to_string(i) + "].";
    if (!e.is_object()) return in.Fail(prefix.substr(0, prefix.size() - 1), InvalidArgument("an event must be an object"));
    FieldReader ev(e, prefix, bad_field);
    JobEvent out;
    RETURN_IF_ERROR(ev.OnlyKnown({"job_id", "kind", "command", "workdir", "repo", "advice", "progress", "diagnosis",
                                  "located"}));
    RETURN_IF_ERROR(ev.String("job_id", &out.job_id, true, 256));
    if (out.job_id.empty()) return ev.Fail("job_id", InvalidArgument("field '" + prefix + "job_id' is empty"));
    std::string kind;
    RETURN_IF_ERROR(ev.String("kind", &kind, true, 32));
    const char* part = kind == "advice" ? "advice" : kind == "progress" ? "progress" : kind == "failure" ? "diagnosis" : "";
    if (!*part)
      return ev.Fail("kind", InvalidArgument("field '" + prefix + "kind' must be advice, progress or failure"));
    out.kind = kind == "advice" ? JobEvent::Kind::kAdvice : kind == "progress" ? JobEvent::Kind::kProgress
                                                                                : JobEvent::Kind::kFailure;
    for (const char* f : {"command", "workdir", "repo"}) {
      std::string v;
      RETURN_IF_ERROR(ev.String(f, &v, false, kMaxCommandBytes));
      if (!v.empty()) out.request[std::string(f) == "command" ? "cmd" : f] = v;
    }
    ASSIGN_OR_RETURN(const Json* payload, ev.Object(part));
    if (!payload) return ev.Fail(part, InvalidArgument("field '" + prefix + part + "' is missing for kind " + kind));
    out.body = *payload;
    if (auto located = e.find("located"); located != e.end() && !located->is_null()) {
      if (!located->is_array() || located->size() > kMaxLocatedLines)
        return ev.Fail("located", InvalidArgument("field '" + prefix + "located' must be an array of at most " +
                                                  std::to_string(kMaxLocatedLines) + " lines"));
      for (const Json& line : *located) {
        auto index = line.find("index");
        auto text = line.find("text");
        if (!line.is_object() || index == line.end() || !index->is_number_integer() || text == line.end() ||
            !text->is_string() || text->get_ref<const std::string&>().size() > (64u << 10))
          return ev.Fail("located", InvalidArgument("field '" + prefix +
                                                    "located' holds a line that is not {index: integer, text: "
                                                    "string of at most 64 KiB}"));
        out.located.emplace_back(index->get<int64_t>(), text->get<std::string>());
      }
    }
    r.events.push_back(std::move(out));
  }
  return r;
}

Result<int64_t> ParseQueryLimit(const std::map<std::string, std::string>& query,
                                std::initializer_list<std::string_view> known, int64_t default_limit,
                                std::string* bad_field) {
  for (const auto& [key, value] : query) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    *bad_field = key;
    return InvalidArgument("unknown query parameter '" + key + "'");
  }
  auto it = query.find("limit");
  if (it == query.end()) return default_limit;
  char* end = nullptr;
  int64_t limit = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end != '\0' || limit < 1 || limit > 1000) {
    *bad_field = "limit";
    return InvalidArgument("limit must be an integer in [1, 1000]");
  }
  return limit;
}

}  // namespace schedmate
