// The key in front of a scanned value and the unit behind it, for the
// field scanner (field_scanner.h). Internal to src/tracker.
#ifndef SCHEDMATE_TRACKER_SCAN_KEY_UNIT_H_
#define SCHEDMATE_TRACKER_SCAN_KEY_UNIT_H_

#include <string_view>

namespace schedmate {

struct ScannedField;

namespace tracker_internal {

// A byte of a unit: a letter, '/' or '%'.
bool IsUnitChar(char c);

// A unit written apart from its value ("3.2 s", "12 samples/s").
bool IsKnownSpacedUnit(std::string_view w);

// The key in front of a value: the text since the previous token, cut at
// the last separator, with a trailing "(unit)" moved to `unit`.
void ExtractKey(std::string_view text, ScannedField* f);

}  // namespace tracker_internal
}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_SCAN_KEY_UNIT_H_
