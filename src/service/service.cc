#include "service/service.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <variant>

#include <nlohmann/json.hpp>

#include "advisor/advice.h"
#include "core/facts_json.h"
#include "failure/diagnose.h"
#include "failure/diagnosis_json.h"
#include "failure/llm_diagnosis.h"
#include "failure/recovery.h"
#include "history/open_history.h"
#include "repo/snapshot.h"
#include "repo/tools.h"
#include "service/requests.h"
#include "tracker/track_json.h"
#include "tracker/tracker.h"

namespace schedmate {

struct AdviseJob {
  AdviseKey key;
  AdviseRequest request;
};

namespace {

using SteadyClock = std::chrono::steady_clock;

double MsSince(SteadyClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
}

Reply JsonReply(const Json& body, int status = 200) { return {status, DumpJson(body), "application/json", 0}; }

// The body parsed into a request, or the 400 naming what is wrong.
template <typename T, typename Parse>
std::variant<T, ApiError> ParseBody(const std::string& body, Parse parse) {
  auto json = ParseRequestBody(body);
  if (!json.ok()) return InvalidJson(json.status().message());
  std::string field;
  auto request = parse(*json, &field);
  if (!request.ok()) return InvalidRequest(field, request.status().message());
  return std::move(*request);
}

// "PATH" or "PATH@REV", as OpenSnapshot reads it.
std::string SnapshotSpec(const std::string& resolved, const std::string& rev) {
  return rev.empty() ? resolved : resolved + "@" + rev;
}

// An inline log, kept in a temporary file while the Tracker reads it from
// its end (as `schedmate track -` does with standard input).
class TempLog {
 public:
  static Result<TempLog> Write(const std::string& text) {
    std::string path = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : "/tmp") + "/schedmate-log-XXXXXX";
    int fd = mkstemp(path.data());
    if (fd < 0) return Internal("cannot create a temporary file for log_text");
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    TempLog log(path);
    if (!ok) return Internal("cannot write log_text to a temporary file");
    return log;
  }
  TempLog(TempLog&& o) noexcept : path_(std::move(o.path_)) { o.path_.clear(); }
  TempLog(const TempLog&) = delete;
  ~TempLog() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  explicit TempLog(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// Compares every byte whatever the first difference, so the time taken does
// not tell a guesser how much of the token is right.
bool TokenEquals(const std::string& given, const std::string& token) {
  if (given.size() != token.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < token.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ token[i]);
  return diff == 0;
}

int64_t NowS() { return static_cast<int64_t>(std::time(nullptr)); }

// The ledger whose audit trail the dashboard shows: --ledger, else the
// history file when the history is SQLite (where the agent and `diagnose
// --audit` keep it by default).
std::string LedgerPath(const ServiceOptions& o) {
  if (!o.ledger.empty()) return o.ledger;
  return o.history.rfind("redis://", 0) == 0 ? "" : o.history;
}

}  // namespace

Reply ErrorReply(const ApiError& error) {
  return {error.http_status, ErrorBody(error), "application/json", error.retry_after_s};
}

Result<std::unique_ptr<Service>> Service::Create(ServiceOptions options) {
  ASSIGN_OR_RETURN(AllowedRoots roots, AllowedRoots::Make(options.allow_roots));
  std::unique_ptr<Service> service(new Service(std::move(options), std::move(roots)));
  (void)service->EnsureStore();  // an error is kept for /readyz; requests retry the open
  return service;
}

Service::Service(ServiceOptions options, AllowedRoots roots)
    : options_(std::move(options)),
      roots_(std::move(roots)),
      jobs_(options_.recent_jobs),
      audit_(LedgerPath(options_)) {
  submit_ = std::make_unique<WorkChannel>(options_.submit, *options_.clock, options_.before_task);
  run_ = std::make_unique<WorkChannel>(options_.run, *options_.clock, options_.before_task);
  exit_ = std::make_unique<WorkChannel>(options_.exit, *options_.clock, options_.before_task);
}

Service::~Service() {
  submit_.reset();
  run_.reset();
  exit_.reset();
}

Status Service::EnsureStore() {
  std::lock_guard<std::mutex> lock(store_mu_);
  if (history_) return Status::Ok();
  auto store = OpenHistory(options_.history);
  if (!store.ok()) {
    store_error_ = store.status().message();
    return store.status();
  }
  auto history = AdvisorHistory::Open(**store);
  if (!history.ok()) {
    store_error_ = history.status().message();
    return history.status();
  }
  store_ = std::move(*store);
  history_ = std::make_unique<AdvisorHistory>(std::move(*history));
  last_refresh_check_ms_ = options_.clock->NowMs();
  store_error_.clear();
  return Status::Ok();
}

void Service::RefreshIndexIfOthersWrote() {
  if (options_.history_refresh_ms < 0) return;
  const int64_t now = options_.clock->NowMs();
  if (now - last_refresh_check_ms_ < options_.history_refresh_ms) return;
  last_refresh_check_ms_ = now;
  if (!history_->RefreshIfOthersWrote().ok()) metrics_.CountStoreError();
}

std::optional<ApiError> Service::CheckToken(const std::string& authorization, bool mutating) const {
  if (!mutating && !options_.token_for_reads) return std::nullopt;
  if (options_.token.empty())
    return Unauthorized("this server has no --token-file: requests that need a token are refused");
  const std::string prefix = "Bearer ";
  if (authorization.rfind(prefix, 0) != 0) return Unauthorized("missing 'Authorization: Bearer <token>' header");
  if (!TokenEquals(authorization.substr(prefix.size()), options_.token)) return Unauthorized("wrong token");
  return std::nullopt;
}

Reply Service::RunOn(WorkChannel& channel, std::function<Reply()> work) {
  auto answer = std::make_shared<PendingAnswer<Reply>>();
  Admission admitted = channel.Submit([answer, work = std::move(work)] {
    if (answer->Wanted()) answer->Set(work());
  });
  if (admitted == Admission::kRateLimited) {
    metrics_.CountRefusal(channel.options().name, "rate_limited");
    return ErrorReply(RateLimited(channel.RetryAfterS()));
  }
  if (admitted == Admission::kQueueFull) {
    metrics_.CountRefusal(channel.options().name, "queue_full");
    return ErrorReply(QueueFull(1));
  }
  std::unique_ptr<Reply> reply = answer->WaitFor(options_.request_timeout_ms);
  if (!reply) return ErrorReply(RequestTimeout(options_.request_timeout_ms));
  return std::move(*reply);
}

Reply Service::Advise(const std::string& body) {
  auto parsed = ParseBody<AdviseRequest>(body, ParseAdviseRequest);
  if (auto* e = std::get_if<ApiError>(&parsed)) return ErrorReply(*e);
  AdviseJob job;
  job.request = std::move(std::get<AdviseRequest>(parsed));
  auto repo = roots_.Resolve(job.request.repo, "repo");
  if (!repo.ok()) return ErrorReply(FromStatus(repo.status(), "repo"));
  job.key = {*repo, job.request.rev, job.request.workdir, job.request.cmd};
  return RunOn(*submit_, [this, job = std::move(job)] { return AdviseWork(job); });
}

Reply Service::AdviseWork(const AdviseJob& job) {
  auto t0 = SteadyClock::now();
  std::optional<AdviceExtraction> extraction = cache_.Find(job.key);
  metrics_.CountAdviseCache(extraction.has_value());
  if (!extraction) {
    ExtractOptions eo;
    eo.workdir = job.request.workdir;
    auto x = ExtractAdvice(SnapshotSpec(job.key.repo, job.key.rev), job.key.cmd, AdviceBackend{}, eo);
    metrics_.ObserveExtraction(MsSince(t0) / 1000);
    if (!x.ok()) return ErrorReply(FromStatus(x.status(), "repo"));
    cache_.Store(job.key, *x);
    extraction = std::move(*x);
  }
  DurationEstimate estimate = EstimateAdvice(*extraction, [&](const WorkloadMetadata& md) {
    DurationEstimate est;
    if (Status opened = EnsureStore(); !opened.ok()) {
      metrics_.CountStoreError();
      est.fallback_reason = "history store not open: " + opened.message();
      return est;
    }
    EstimateOptions eo;
    eo.k = job.request.k;
    eo.min_score = static_cast<float>(job.request.min_score);
    std::lock_guard<std::mutex> lock(store_mu_);
    RefreshIndexIfOthersWrote();
    return history_->Estimate(md, job.request.as_of_s.value_or(NowS()), eo);
  });
  metrics_.CountEstimate(estimate.method != DurationEstimate::Method::kHistory);
  Json advice = AdviceJson(*extraction, estimate, MsSince(t0));
  const AdviseKey& k = job.key;
  jobs_.RecordAdvice({job.request.job_id, "advise:" + k.repo + "@" + k.rev + " " + k.workdir + " " + k.cmd},
                     Json{{"repo", k.repo}, {"rev", k.rev}, {"cmd", k.cmd}, {"workdir", k.workdir}}, advice,
                     options_.clock->NowMs());
  return JsonReply(advice);
}

Reply Service::Track(const std::string& body) {
  auto parsed = ParseBody<TrackRequest>(body, ParseTrackRequest);
  if (auto* e = std::get_if<ApiError>(&parsed)) return ErrorReply(*e);
  TrackRequest request = std::move(std::get<TrackRequest>(parsed));
  if (!request.log.text) {
    auto path = roots_.Resolve(request.log.path, "log_path");
    if (!path.ok()) return ErrorReply(FromStatus(path.status(), "log_path"));
    request.log.path = *path;
  }
  return RunOn(*run_, [this, request = std::move(request)]() -> Reply {
    std::optional<TempLog> temp;
    std::string path = request.log.path;
    if (request.log.text) {
      auto written = TempLog::Write(*request.log.text);
      if (!written.ok()) return ErrorReply(FromStatus(written.status()));
      temp.emplace(std::move(*written));
      path = temp->path();
    }
    TrackOptions o;
    o.number_lines = !request.offsets;
    o.scan.samples = request.samples;
    auto t0 = SteadyClock::now();
    auto r = TrackFile(path, o);
    if (!r.ok()) return ErrorReply(FromStatus(r.status(), "log_path"));
    Json j = TrackJson(*r, MsSince(t0));
    j["log"] = request.log.text ? "log_text" : request.log.path;
    jobs_.RecordProgress({request.job_id, request.log.text ? "" : "log:" + request.log.path}, j,
                         options_.clock->NowMs());
    return JsonReply(j);
  });
}

Reply Service::Diagnose(const std::string& body) {
  auto parsed = ParseBody<DiagnoseRequest>(body, ParseDiagnoseRequest);
  if (auto* e = std::get_if<ApiError>(&parsed)) return ErrorReply(*e);
  DiagnoseRequest request = std::move(std::get<DiagnoseRequest>(parsed));
  if (!request.log.text) {
    auto path = roots_.Resolve(request.log.path, "log_path");
    if (!path.ok()) return ErrorReply(FromStatus(path.status(), "log_path"));
    request.log.path = *path;
  }
  return RunOn(*exit_, [this, request = std::move(request)]() -> Reply {
    std::unique_ptr<ByteSource> source;
    if (request.log.text) {
      source = StringSource(*request.log.text);
    } else {
      auto file = OpenFileSource(request.log.path);
      if (!file.ok()) return ErrorReply(FromStatus(file.status(), "log_path"));
      source = std::move(*file);
    }
    LocateOptions o;
    o.context_lines = request.context;
    o.number_lines = !request.offsets;
    auto t0 = SteadyClock::now();
    auto r = DiagnoseLog(*source, o);
    if (!r.ok()) return ErrorReply(FromStatus(r.status(), "log_path"));
    std::string answered_by;
    r->diagnosis = ChooseDiagnosis(r->located.window, r->diagnosis, DiagnosisChoice{}, &answered_by);
    Json j = DiagnosisJson(*r, answered_by, source->size(), MsSince(t0));
    j["log"] = request.log.text ? "log_text" : request.log.path;
    j["recovery"] = ToJson(PlanRecovery(r->diagnosis, request.job));
    j["recovery"]["executed"] = false;  // advice only: the service never acts on a cluster
    jobs_.RecordFailure({request.job.job_id, request.log.text ? "" : "log:" + request.log.path}, j, r->located.window,
                        options_.clock->NowMs());
    return JsonReply(j);
  });
}

Reply Service::WriteHistory(const std::string& body) {
  auto parsed = ParseBody<HistoryWriteRequest>(body, ParseHistoryWriteRequest);
  if (auto* e = std::get_if<ApiError>(&parsed)) return ErrorReply(*e);
  HistoryWriteRequest request = std::move(std::get<HistoryWriteRequest>(parsed));
  std::string repo_spec;
  if (request.needs_extraction()) {
    auto repo = roots_.Resolve(request.repo, "repo");
    if (!repo.ok()) return ErrorReply(FromStatus(repo.status(), "repo"));
    repo_spec = SnapshotSpec(*repo, request.rev);
  }
  return RunOn(*exit_, [this, request = std::move(request), repo_spec]() -> Reply {
    auto written = WriteHistoryWork(request, repo_spec);
    if (!written.ok()) return ErrorReply(FromStatus(written.status(), "record"));
    return JsonReply(*written, 201);
  });
}

// Like `schedmate history add`: the metadata from the repository, the GPU
// count from it when the record has none, the snapshot's hash. Durable when
// this returns OK (the store's Put contract).
Result<Json> Service::WriteHistoryWork(const HistoryWriteRequest& request, const std::string& repo_spec) {
  HistoryRecord record = request.record;
  std::optional<WorkloadMetadata> md;
  if (request.needs_extraction()) {
    ASSIGN_OR_RETURN(auto snapshot, OpenSnapshot(repo_spec));
    ExtractOptions eo;
    eo.workdir = request.workdir;
    ASSIGN_OR_RETURN(md, ExtractMetadata(*snapshot, request.cmd, eo));
    if (record.num_gpus == 0) record.num_gpus = md->hardware.num_gpus.value_or(0);
    if (auto tree = FileTreeTool(*snapshot); tree.ok())
      if (auto hash = SnapshotHash(*snapshot, *tree); hash.ok()) record.snapshot_hash = *hash;
  }
  Status opened = EnsureStore();
  if (!opened.ok()) {
    metrics_.CountStoreError();
    return Unavailable("history store not open: " + opened.message());
  }
  std::lock_guard<std::mutex> lock(store_mu_);
  Status s = md ? history_->Record(record, *md) : history_->Record(record);
  if (!s.ok()) {
    metrics_.CountStoreError();
    return Unavailable("history store: " + s.message());
  }
  return Json{{"written", record.job_id}, {"store", store_->Describe()}};
}

Reply Service::ReadHistory(const std::map<std::string, std::string>& query) {
  std::string bad_field;
  auto limit = ParseQueryLimit(query, {"job_id", "limit"}, 50, &bad_field);
  if (!limit.ok()) return ErrorReply(InvalidRequest(bad_field, limit.status().message()));
  Status opened = EnsureStore();
  if (!opened.ok()) {
    metrics_.CountStoreError();
    return ErrorReply(FromStatus(Unavailable("history store not open: " + opened.message())));
  }
  std::lock_guard<std::mutex> lock(store_mu_);
  if (auto it = query.find("job_id"); it != query.end()) {
    auto r = store_->Get(it->second);
    if (!r.ok()) {
      metrics_.CountStoreError();
      return ErrorReply(FromStatus(Unavailable(r.status().message())));
    }
    if (!r->has_value()) return ErrorReply(FromStatus(NotFound(it->second + ": no such record"), "job_id"));
    return JsonReply(Json{{"record", RecordToJson(**r)}});
  }
  std::deque<Json> newest;
  Status s = store_->ForEach([&](const HistoryRecord& r) -> Status {
    newest.push_back(RecordToJson(r));
    if (static_cast<int64_t>(newest.size()) > *limit) newest.pop_front();
    return Status::Ok();
  });
  if (!s.ok()) {
    metrics_.CountStoreError();
    return ErrorReply(FromStatus(Unavailable(s.message())));
  }
  return JsonReply(Json{{"records", Json(std::vector<Json>(newest.begin(), newest.end()))}});
}

Reply Service::Health() const { return JsonReply(Json{{"status", "ok"}}); }

Reply Service::Ready() {
  if (EnsureStore().ok()) {
    std::lock_guard<std::mutex> lock(store_mu_);
    return JsonReply(Json{{"status", "ready"}, {"store", store_->Describe()}});
  }
  std::lock_guard<std::mutex> lock(store_mu_);
  return ErrorReply({503, "store_unavailable", "history store not open: " + store_error_, "", 1});
}

Reply Service::Metrics() const {
  std::string text = metrics_.Render([this] {
    std::vector<std::pair<std::string, std::pair<size_t, size_t>>> out;
    for (const WorkChannel* c : {submit_.get(), run_.get(), exit_.get()})
      out.push_back({c->options().name, {c->depth(), c->options().capacity}});
    return out;
  });
  return {200, std::move(text), "text/plain; version=0.0.4", 0};
}

}  // namespace schedmate
