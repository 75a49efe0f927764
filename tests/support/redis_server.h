// A real redis-server started by a test on a free local port, stopped (or
// killed) by the test. scripts/install_deps.sh installs redis-server.
#ifndef SCHEDMATE_TESTS_SUPPORT_REDIS_SERVER_H_
#define SCHEDMATE_TESTS_SUPPORT_REDIS_SERVER_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

namespace schedmate {

class RedisServer {
 public:
  static std::string Binary() {
    for (const char* p : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
      if (access(p, X_OK) == 0) return p;
    return "";
  }

  // Starts on `port` (0: pick a free one). ok() says whether it answers.
  explicit RedisServer(int port = 0) : port_(port ? port : FreePort()) { Start(); }
  ~RedisServer() { Stop(SIGKILL); }

  bool ok() const { return pid_ > 0 && Reachable(); }
  int port() const { return port_; }

  // SIGSTOP: the server keeps its socket (the kernel still completes
  // connections) but answers nothing — a frozen or swapped-out server.
  void Freeze() {
    if (pid_ > 0) kill(pid_, SIGSTOP);
  }
  void Thaw() {
    if (pid_ > 0) kill(pid_, SIGCONT);
  }
  void Stop(int sig = SIGTERM) {
    Thaw();  // a stopped process would not act on SIGTERM
    if (pid_ <= 0) return;
    kill(pid_, sig);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  void Start() {
    std::string bin = Binary();
    if (bin.empty()) return;
    pid_ = fork();
    if (pid_ == 0) {
      int null = open("/dev/null", O_WRONLY);  // keep the test output readable
      dup2(null, 1);
      dup2(null, 2);
      std::string port = std::to_string(port_);
      execl(bin.c_str(), bin.c_str(), "--port", port.c_str(), "--bind", "127.0.0.1", "--save", "", "--appendonly",
            "no", "--daemonize", "no", "--loglevel", "warning", static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 500 && !Reachable(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

 private:
  static int FreePort() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    close(fd);
    return ntohs(a.sin_port);
  }
  bool Reachable() const {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port_));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    close(fd);
    return ok;
  }

  int port_;
  pid_t pid_ = -1;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TESTS_SUPPORT_REDIS_SERVER_H_
