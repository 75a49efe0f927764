// The LOG arguments of `track` and `diagnose`: one or more files, or "-" for
// standard input (`kubectl logs … | schedmate diagnose -`).
#ifndef SCHEDMATE_CLI_LOG_INPUTS_H_
#define SCHEDMATE_CLI_LOG_INPUTS_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct LogInput {
  std::string name;  // as the user gave it ("-" shows as "stdin")
  std::string path;  // a file to read: the argument, or the copy of standard input
};

// Standard input is copied to a temporary file (the readers seek from the
// end), up to `max_stdin_bytes`; the copy is removed with this object.
class LogInputs {
 public:
  static Result<LogInputs> Open(const std::vector<std::string>& args, size_t max_stdin_bytes = size_t{1} << 30);
  LogInputs(LogInputs&& other) noexcept;
  LogInputs& operator=(LogInputs&&) = delete;
  LogInputs(const LogInputs&) = delete;
  ~LogInputs();

  const std::vector<LogInput>& items() const { return items_; }

 private:
  LogInputs() = default;
  std::vector<LogInput> items_;
  std::string temp_;  // the stdin copy, removed on destruction
};

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_LOG_INPUTS_H_
