// Turns a raw log line into what a human sees on a terminal: ANSI escape
// sequences removed, a trailing CR dropped, and for carriage-return
// refreshes (tqdm, rich, Keras) only the last non-empty segment kept.
#ifndef SCHEDMATE_TRACKER_LINE_CLEANER_H_
#define SCHEDMATE_TRACKER_LINE_CLEANER_H_

#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

// A raw line that is not text (LooksLikeText) cleans to "": what a binary
// file or random bytes hold is no one's progress.
std::string CleanLogLine(std::string_view raw);

// False for binary bytes rather than text: more than one byte in eight is a
// control byte that terminals do not interpret (NUL, SOH, DEL…; BEL, BS,
// TAB, VT, FF, CR and ESC are a terminal's) or lies outside well-formed
// UTF-8. Random bytes and compiled files fail; a log with an odd Latin-1
// byte in a path passes.
bool LooksLikeText(std::string_view raw);

// The segments of a CR-refreshed line, each cleaned, oldest first (a tqdm
// line carries its whole history: "10/100 ...\r20/100 ...\r30/100 ...").
void SplitRefreshes(std::string_view raw, std::vector<std::string>* out);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_LINE_CLEANER_H_
