// The service over HTTP (cpp-httplib): routes, the bearer token, the body
// size limit, JSON errors for everything httplib itself refuses, and the
// per-endpoint request metrics. The logic behind each route is Service's.
// Thread safety: Start, Stop and port() may be called from any thread.
#ifndef SCHEDMATE_SERVICE_HTTP_SERVER_H_
#define SCHEDMATE_SERVICE_HTTP_SERVER_H_

#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "core/status.h"
#include "service/service.h"

namespace httplib {
class Server;
}

namespace schedmate {

struct HttpOptions {
  std::string bind = "127.0.0.1";
  int port = 0;  // 0: the system picks one (port() says which)
  // Connections served at once: cpp-httplib gives each keep-alive connection a
  // thread until it closes or idles past keep_alive_s; more connections wait.
  int http_threads = 256;
  int keep_alive_s = 2;
  int io_timeout_s = 5;  // reading a request / writing a reply
};

// The OpenAPI document (api/openapi.yaml, compiled in).
std::string_view OpenApiYaml();
// The dashboard served at GET / (src/service/dashboard/, compiled in).
std::string_view DashboardHtml();
std::string_view DashboardJs();

class HttpServer {
 public:
  // `service` must outlive this.
  HttpServer(Service& service, HttpOptions options);
  ~HttpServer();  // stops serving

  // Binds (and listens); returns the bound port.
  Result<int> Bind();
  // REQUIRES: Bind succeeded. Serves on this thread until Stop().
  Status Serve();
  // Bind, then Serve on a background thread; returns the bound port.
  Result<int> Start();
  void Stop();
  int port() const { return port_; }

 private:
  void Routes();

  Service& service_;
  const HttpOptions options_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_HTTP_SERVER_H_
