// A one-line progress display on stderr for long replays, redrawn at most
// every 200 ms, and only when stderr is a terminal (or when forced).
#ifndef SCHEDMATE_CLI_PROGRESS_H_
#define SCHEDMATE_CLI_PROGRESS_H_

#include <chrono>
#include <string>

#include "sim/engine.h"

namespace schedmate {

class ConsoleProgress {
 public:
  explicit ConsoleProgress(bool enabled) : enabled_(enabled) {}
  ~ConsoleProgress() { Finish(); }
  // Mode "auto" = enabled when stderr is a terminal; "on"; "off".
  static bool Wanted(const std::string& mode);

  void Update(const std::string& label, const SimProgress& p);
  void Finish();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::string label_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_PROGRESS_H_
