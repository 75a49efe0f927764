// Reads what a job's log gained since the agent last looked: the complete
// lines between `offset` and the last newline, never a partial line, so the
// returned offset can be stored and a later process continues exactly there
// (LogFollower holds a partial line in memory, which a restart would lose).
#ifndef SCHEDMATE_AGENT_LOG_READER_H_
#define SCHEDMATE_AGENT_LOG_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/status.h"

namespace schedmate {

struct NewLines {
  std::vector<std::string> lines;  // cleaned (tracker/line_cleaner.h)
  int64_t next_offset = 0;         // just after the last complete line read
  int64_t bytes_read = 0;
  bool restarted = false;          // the file shrank below `offset`: read from 0
};

// At most `max_bytes` are read per call; a line longer than that is cut. A
// missing file is no new lines (the job has not written yet). Read through `env`.
Result<NewLines> ReadNewLines(const std::string& path, int64_t offset, int64_t max_bytes = 8 << 20,
                              Env& env = Env::Default());

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_LOG_READER_H_
