// Training examples for the field tagger (field_tagger.h), read off labelled
// logs by distant supervision: a log's truth names the values of its last
// training record, so the record that prints them is found, each of its
// fields gets the role whose truth it equals (a time may equal the truth
// per step, as a rate, per logging interval or as a growing clock), and the
// earlier records of the same layout get the same roles by position.
#ifndef SCHEDMATE_TRACKER_TAGGER_TRAINING_H_
#define SCHEDMATE_TRACKER_TAGGER_TRAINING_H_

#include <vector>

#include "tracker/evaluation.h"
#include "tracker/field_tagger.h"

namespace schedmate {

struct LabelStats {
  int logs = 0, logs_used = 0;  // logs seen / with a truth record found
  int fields = 0;               // examples made
  int ambiguous = 0;            // fields left out: two fields equal one truth
  int by_role[kNumFieldRoles] = {};
};

// The examples of one labelled log (none when no record prints its truth).
// Records before the truth record weigh `earlier_weight`.
std::vector<FieldTagger::Example> LabelledFields(const TrackerCase& c, LabelStats* stats,
                                                 double earlier_weight = 0.5, int earlier_records = 6);

// The roles distant supervision gives the fields of `line` (kOther when
// none; -1 when ambiguous), given the truth and the previous record of the
// same layout.
std::vector<int> TruthRoles(const ScannedLine& line, const ScannedLine* previous, const ProgressTruth& truth);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_TAGGER_TRAINING_H_
