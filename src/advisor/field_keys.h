// Which schema field a configuration key or argument name feeds, read from
// the words of the key rather than from a list of exact spellings:
// `per_device_train_batch_size`, `batch-size`, `TRAIN.BATCH_SIZE`,
// `train_dataloader.batch_size`, `data.params.batch_size` are all a batch
// size; `eval_batch_size`, `warmup_steps`, `min_lr`, `save_every_epochs` are
// not the run's. Each match carries a specificity so that, of several keys
// for one field, the run's primary one wins (a per-device batch over a
// global one; `max_steps` over `steps`).
#ifndef SCHEDMATE_ADVISOR_FIELD_KEYS_H_
#define SCHEDMATE_ADVISOR_FIELD_KEYS_H_

#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

// Internal fields: the schema's, plus the pieces they are assembled from.
//   model_name dataset steps epochs batch_size learning_rate
//   precision (a named precision) fp16 bf16 amp (flags) devices num_nodes
//   d_model num_layers seq_len num_workers
struct KeyField {
  std::string field;     // "" when the key feeds no field
  int specificity = 0;   // higher wins among keys of one field
};

KeyField ClassifyKey(std::string_view key);

// Lower-case words of a key: "TRAIN.BATCH_SIZE" → train, batch, size;
// "perDeviceBatch" → per, device, batch.
std::vector<std::string> KeyWords(std::string_view key);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_FIELD_KEYS_H_
