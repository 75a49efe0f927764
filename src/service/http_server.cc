#include "service/http_server.h"

#include <chrono>
#include <functional>
#include <map>

#include <httplib.h>

namespace schedmate {
namespace {

using SteadyClock = std::chrono::steady_clock;

void Send(const Reply& reply, httplib::Response& res) {
  res.status = reply.status;
  if (reply.retry_after_s > 0) res.set_header("Retry-After", std::to_string(reply.retry_after_s));
  for (const auto& [name, value] : reply.headers) res.set_header(name, value);
  res.set_content(reply.body, reply.content_type.c_str());
}

std::map<std::string, std::string> Query(const httplib::Request& req) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : req.params) out[key] = value;
  return out;
}

// What httplib answers on its own (no route, body over the limit, bad
// request line), as a JSON error with a stable code.
ApiError ProtocolError(int status, size_t max_body_bytes) {
  switch (status) {
    case 404:
      return {404, "not_found", "no such endpoint (or not with this method)", "", 0};
    case 413:
      return PayloadTooLarge(max_body_bytes);
    default:
      return {status, "bad_http_request", "the HTTP request could not be read", "", 0};
  }
}

// The metrics label of a path: a known endpoint's name, else "other" (a
// label per path a client invents would grow without bound).
std::string EndpointOf(const std::string& path) {
  static const std::map<std::string, std::string> kNames = {{"/v1/advise", "advise"},     {"/v1/track", "track"},
                                                            {"/v1/diagnose", "diagnose"}, {"/v1/history", "history"},
                                                            {"/v1/jobs", "jobs"},         {"/v1/audit", "audit"},
                                                            {"/v1/jobs/events", "jobs_events"}};
  auto it = kNames.find(path);
  return it == kNames.end() ? "other" : it->second;
}

// The dashboard's page and script. The policy lets them load nothing but
// this server's own script and JSON — no other origin, no inline script, no
// plugins, no framing — so text from logs and repositories can never run.
Reply DashboardAsset(std::string_view body, const char* content_type) {
  Reply reply{200, std::string(body), content_type, 0, {}};
  reply.headers = {{"Content-Security-Policy",
                    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; "
                    "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
                   {"X-Content-Type-Options", "nosniff"},
                   {"Referrer-Policy", "no-referrer"},
                   {"Cache-Control", "no-cache"}};
  return reply;
}

}  // namespace

HttpServer::HttpServer(Service& service, HttpOptions options)
    : service_(service), options_(std::move(options)), server_(std::make_unique<httplib::Server>()) {
  const int threads = options_.http_threads;
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server_->set_keep_alive_max_count(100000);
  server_->set_keep_alive_timeout(options_.keep_alive_s);
  server_->set_tcp_nodelay(true);  // else small replies wait on delayed ACKs (~40 ms each)
  server_->set_read_timeout(options_.io_timeout_s, 0);
  server_->set_write_timeout(options_.io_timeout_s, 0);
  // httplib stops reading a body past this and answers 413 (the error handler makes it JSON).
  server_->set_payload_max_length(service_.options().max_body_bytes);
  Routes();
}

HttpServer::~HttpServer() {
  Stop();
  if (thread_.joinable()) thread_.join();
}

void HttpServer::Routes() {
  const size_t max_body = service_.options().max_body_bytes;
  // One wrapper per route: the token check, the reply, the request metrics.
  auto route = [this](std::string endpoint, bool mutating, bool needs_token_check,
                      std::function<Reply(const httplib::Request&)> handle) {
    return [this, endpoint, mutating, needs_token_check, handle](const httplib::Request& req, httplib::Response& res) {
      auto t0 = SteadyClock::now();
      Reply reply;
      std::optional<ApiError> refused;
      if (needs_token_check) refused = service_.CheckToken(req.get_header_value("Authorization"), mutating);
      reply = refused ? ErrorReply(*refused) : handle(req);
      Send(reply, res);
      service_.metrics().CountRequest(endpoint, reply.status,
                                      std::chrono::duration<double>(SteadyClock::now() - t0).count());
    };
  };
  // A declared body over the limit is refused before it is read.
  server_->set_pre_routing_handler([this, max_body](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_header("Content-Length")) return httplib::Server::HandlerResponse::Unhandled;
    auto declared = std::strtoull(req.get_header_value("Content-Length").c_str(), nullptr, 10);
    if (declared <= max_body) return httplib::Server::HandlerResponse::Unhandled;
    Send(ErrorReply(PayloadTooLarge(max_body)), res);
    service_.metrics().CountRequest(EndpointOf(req.path), 413, 0);
    return httplib::Server::HandlerResponse::Handled;
  });
  httplib::Server::HandlerWithResponse protocol_error = [max_body](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // a route's own JSON error
    Send(ErrorReply(ProtocolError(res.status, max_body)), res);
    return httplib::Server::HandlerResponse::Handled;
  };
  server_->set_error_handler(protocol_error);
  Service& s = service_;
  server_->Post("/v1/advise", route("advise", false, true, [&s](const auto& req) { return s.Advise(req.body); }));
  server_->Post("/v1/track", route("track", false, true, [&s](const auto& req) { return s.Track(req.body); }));
  server_->Post("/v1/diagnose", route("diagnose", false, true, [&s](const auto& req) { return s.Diagnose(req.body); }));
  server_->Post("/v1/history",
                route("history_write", true, true, [&s](const auto& req) { return s.WriteHistory(req.body); }));
  server_->Get("/v1/history",
               route("history_read", false, true, [&s](const auto& req) { return s.ReadHistory(Query(req)); }));
  server_->Get("/v1/jobs", route("jobs", false, true, [&s](const auto& req) { return s.Jobs(Query(req)); }));
  server_->Post("/v1/jobs/events",
                route("jobs_events", true, true, [&s](const auto& req) { return s.RecordJobEvents(req.body); }));
  server_->Get("/v1/audit", route("audit", false, true, [&s](const auto& req) { return s.Audit(Query(req)); }));
  auto page = [](const auto&) { return DashboardAsset(DashboardHtml(), "text/html; charset=utf-8"); };
  server_->Get("/", route("dashboard", false, false, page));
  server_->Get("/dashboard", route("dashboard", false, false, page));
  server_->Get("/dashboard.js", route("dashboard", false, false, [](const auto&) {
                 return DashboardAsset(DashboardJs(), "text/javascript; charset=utf-8");
               }));
  server_->Get("/healthz", route("healthz", false, false, [&s](const auto&) { return s.Health(); }));
  server_->Get("/readyz", route("readyz", false, false, [&s](const auto&) { return s.Ready(); }));
  server_->Get("/metrics", route("metrics", false, false, [&s](const auto&) { return s.Metrics(); }));
  server_->Get("/openapi.yaml", route("openapi", false, false, [](const auto&) {
                 return Reply{200, std::string(OpenApiYaml()), "application/yaml", 0, {}};
               }));
}

Result<int> HttpServer::Bind() {
  int port = options_.port == 0 ? server_->bind_to_any_port(options_.bind)
                                : (server_->bind_to_port(options_.bind, options_.port) ? options_.port : -1);
  if (port <= 0)
    return Unavailable("cannot listen on " + options_.bind + ":" + std::to_string(options_.port) +
                       " (address in use, or not an address of this machine)");
  port_ = port;
  return port;
}

Result<int> HttpServer::Start() {
  ASSIGN_OR_RETURN(int port, Bind());
  // The socket listens from Bind on: a client may connect before the thread runs.
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return port;
}

Status HttpServer::Serve() {
  if (!server_->listen_after_bind()) return Unavailable("the server stopped listening");
  return Status::Ok();
}

void HttpServer::Stop() { server_->stop(); }

}  // namespace schedmate
