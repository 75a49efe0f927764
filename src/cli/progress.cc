#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace schedmate {

bool ConsoleProgress::Wanted(const std::string& mode) {
  if (mode == "on") return true;
  if (mode == "off") return false;
  return isatty(STDERR_FILENO) != 0;
}

void ConsoleProgress::Update(const std::string& label, const SimProgress& p) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (label != label_) {
    if (drawn_) std::fputc('\n', stderr);
    label_ = label;
    start_ = now;
    drawn_ = false;
  } else if (p.jobs_done < p.jobs_total && now - last_ < std::chrono::milliseconds(200)) {
    return;
  }
  last_ = now;
  double pct = p.jobs_total ? 100.0 * p.jobs_done / p.jobs_total : 100.0;
  double wall = std::chrono::duration<double>(now - start_).count();
  // ETA from the pace so far (jobs finish unevenly: an estimate, shown once 1 % is done).
  std::string eta = pct >= 1 && pct < 100 ? " ETA " + std::to_string(static_cast<long long>(wall * (100 - pct) / pct)) + " s"
                                           : "";
  std::fprintf(stderr, "\r[%s] %5.1f%%  %lld/%lld jobs  sim day %.1f  %.1f s%s   ",
               label.c_str(), pct, static_cast<long long>(p.jobs_done),
               static_cast<long long>(p.jobs_total), p.now_s / 86400.0, wall, eta.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ConsoleProgress::Finish() {
  if (enabled_ && drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

}  // namespace schedmate
