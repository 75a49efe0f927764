// One progress answer as JSON — what `schedmate track --json` prints for a
// log and the service's POST /v1/track returns (callers add "log").
#ifndef SCHEDMATE_TRACKER_TRACK_JSON_H_
#define SCHEDMATE_TRACKER_TRACK_JSON_H_

#include "core/json.h"
#include "tracker/tracker.h"

namespace schedmate {

// The report's fields plus "lines_used_are_offsets" and "scan" (lines,
// bytes read of the file's bytes, lines stage 1 kept, `ms`).
Json TrackJson(const TrackResult& result, double ms);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_TRACK_JSON_H_
