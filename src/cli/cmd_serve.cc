// `schedmate serve`: the Advisor, Tracker and Failure Handler over HTTP
// (src/service, docs/service.md). This file only reads flags, wires the
// service to its server, and stops it on SIGINT/SIGTERM.
#include <sys/stat.h>

#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "cli/history_open.h"
#include "core/file_io.h"
#include "core/token_file.h"
#include "service/http_server.h"
#include "service/service.h"

namespace schedmate {
namespace {

struct ServeArgs {
  ServiceOptions service;
  HttpOptions http;
  std::string token_file;
  std::vector<std::string> channels;  // "submit:workers=4,queue=512,rate=2000,burst=400"
};

Status SetChannelField(ChannelOptions* c, const std::string& key, const std::string& value, const std::string& spec) {
  char* end = nullptr;
  double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || v < 1)
    return InvalidArgument("--channel " + spec + ": " + key + " must be a number >= 1");
  if (key == "workers" && v <= 64)
    c->workers = static_cast<int>(v);
  else if (key == "queue")
    c->capacity = static_cast<size_t>(v);
  else if (key == "rate")
    c->rate_per_s = v;
  else if (key == "burst")
    c->burst = v;
  else
    return InvalidArgument("--channel " + spec + ": unknown setting '" + key + "' (workers<=64, queue, rate, burst)");
  return Status::Ok();
}

Status ApplyChannel(ServiceOptions* o, const std::string& spec) {
  std::map<std::string, ChannelOptions*> by_name = {{"submit", &o->submit}, {"run", &o->run}, {"exit", &o->exit}};
  size_t colon = spec.find(':');
  auto it = by_name.find(spec.substr(0, colon));
  if (colon == std::string::npos || it == by_name.end())
    return InvalidArgument("--channel " + spec + ": expected submit|run|exit:key=value,…");
  std::stringstream settings(spec.substr(colon + 1));
  for (std::string kv; std::getline(settings, kv, ',');) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) return InvalidArgument("--channel " + spec + ": '" + kv + "' is not key=value");
    RETURN_IF_ERROR(SetChannelField(it->second, kv.substr(0, eq), kv.substr(eq + 1), spec));
  }
  return Status::Ok();
}

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

// SIGINT/SIGTERM are taken by a thread (sigwait), which stops the server:
// httplib's stop is not safe inside a signal handler.
// REQUIRES: the signals are blocked in every thread (see Serve).
void StopOnSignal(HttpServer* server) {
  std::thread([set = StopSignals(), server] {
    int sig = 0;
    sigwait(&set, &sig);
    server->Stop();
  }).detach();
}

void Serve(ServeArgs a) {
  if (!a.token_file.empty()) {
    auto token = ReadTokenFile(a.token_file, "--token-file");
    if (!token.ok()) CommandFailed(token.status());
    a.service.token = *token;
  }
  for (const auto& spec : a.channels)
    if (Status s = ApplyChannel(&a.service, spec); !s.ok()) CommandFailed(s);
  const sigset_t stop = StopSignals();  // blocked before any thread starts, so every thread inherits it
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  auto service = Service::Create(a.service);
  if (!service.ok()) CommandFailed(service.status());
  HttpServer server(**service, a.http);
  auto port = server.Bind();
  if (!port.ok()) CommandFailed(port.status());
  StopOnSignal(&server);
  std::printf("schedmate serve: listening on http://%s:%d (history %s; %zu allowed roots; writes %s)\n",
              a.http.bind.c_str(), *port, a.service.history.c_str(), a.service.allow_roots.size(),
              a.service.token.empty() ? "disabled (no --token-file)" : "need the bearer token");
  std::fflush(stdout);
  if (Status s = server.Serve(); !s.ok()) CommandFailed(s);
}

}  // namespace

void AddServeCommand(CLI::App& app) {
  auto a = std::make_shared<ServeArgs>();
  a->service.history = kDefaultHistory;
  a->http.port = 8470;
  CLI::App* cmd =
      app.add_subcommand("serve",
                         "The Advisor, Tracker and Failure Handler as an HTTP service (docs/service.md):\n"
                         "POST /v1/advise, /v1/track, /v1/diagnose; GET/POST /v1/history; GET /v1/jobs, /v1/audit;\n"
                         "/metrics, /healthz, /readyz, /openapi.yaml; the dashboard at GET /. Advice only: it never\n"
                         "acts on a cluster.");
  cmd->add_option("--bind", a->http.bind, "Address to listen on (another than 127.0.0.1 exposes the service)")
      ->capture_default_str();
  cmd->add_option("--port", a->http.port, "Port; 0 picks a free one (printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--history", a->service.history, "History: a SQLite file or redis://host:port[/prefix]")
      ->capture_default_str();
  cmd->add_option("--ledger", a->service.ledger,
                  "SQLite guard ledger whose audit trail GET /v1/audit and the dashboard show (default: the "
                  "history file when it is SQLite; none with Redis)");
  cmd->add_option("--history-refresh-ms", a->service.history_refresh_ms,
                  "How often at most to look for records other agents or replicas wrote to a shared history "
                  "(their count changed: the index is rebuilt); 0 on every estimate, -1 never")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{-1}, int64_t{86400000}));
  cmd->add_option("--recent-jobs", a->service.recent_jobs,
                  "Jobs the dashboard remembers (GET /v1/jobs; the least recently answered go first)")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{100000}));
  cmd->add_option("--allow-root", a->service.allow_roots,
                  "Directory whose repositories and logs requests may name (repeatable; none: no paths)");
  cmd->add_option("--token-file", a->token_file,
                  "File (mode 600) whose first line is the bearer token POST /v1/history needs; without it, "
                  "writes are refused")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--token-for-reads", a->service.token_for_reads,
                "Require the token on advise, track, diagnose and history reads too");
  cmd->add_option("--max-body-bytes", a->service.max_body_bytes, "Largest request body (413 above)")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30));
  cmd->add_option("--request-timeout-ms", a->service.request_timeout_ms,
                  "Longest wait for a channel's answer (504 after)")
      ->capture_default_str()
      ->check(CLI::Range(10, 600000));
  cmd->add_option("--http-threads", a->http.http_threads, "Connections served at once")
      ->capture_default_str()
      ->check(CLI::Range(2, 4096));
  cmd->add_option("--channel", a->channels,
                  "A channel's workers, queue capacity and token bucket, e.g. "
                  "submit:workers=2,queue=512,rate=2000,burst=400 (channels: submit, run, exit; repeatable)");
  cmd->callback([a] { Serve(*a); });
}

}  // namespace schedmate
