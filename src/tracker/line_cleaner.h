// Turns a raw log line into what a human sees on a terminal: ANSI escape
// sequences removed, a trailing CR dropped, and for carriage-return
// refreshes (tqdm, rich, Keras) only the last non-empty segment kept.
#ifndef SCHEDMATE_TRACKER_LINE_CLEANER_H_
#define SCHEDMATE_TRACKER_LINE_CLEANER_H_

#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

std::string CleanLogLine(std::string_view raw);

// The segments of a CR-refreshed line, each cleaned, oldest first (a tqdm
// line carries its whole history: "10/100 ...\r20/100 ...\r30/100 ...").
void SplitRefreshes(std::string_view raw, std::vector<std::string>* out);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_LINE_CLEANER_H_
