// A Sia job's performance knowledge as a history record keeps it, and back
// (issue 17): per GPU type × GPU count × batch, the samples per second.
//
// A record stores ConfigThroughput rows: gpu_type = the cluster type's name
// ("aws", "rtx", …), num_gpus = replicas, batch_size = samples per step over
// all replicas (replicas × per-GPU batch), throughput = batch_size / step
// time. Two things Sia's model reads are not in a row, and are rebuilt:
//  - the node count: only packed configurations (the fewest nodes of the
//    type that hold the replicas, the allocation options Sia offers) are
//    written, so the count is ceil(replicas / GPUs per node) on reading;
//  - the synchronisation time: Pollux's model fits compute and network
//    terms apart, and compute time does not depend on the replica count, so
//    a multi-GPU row's sync time is its step time minus the 1-GPU step time
//    of the same type at that per-GPU batch (linear between measured 1-GPU
//    batches, clamped to the nearest); without 1-GPU rows on that type, 0.
#ifndef SCHEDMATE_INTEGRATIONS_SIA_THROUGHPUTS_H_
#define SCHEDMATE_INTEGRATIONS_SIA_THROUGHPUTS_H_

#include <optional>
#include <vector>

#include "history/record.h"
#include "policies/sia/sia_cluster.h"
#include "policies/sia/sia_job.h"

namespace schedmate {

// Every packed configuration `job` knows, on every type of `cluster`.
std::vector<ConfigThroughput> ConfigThroughputsOf(const sia::SiaJob& job, const sia::SiaCluster& cluster);

// The rows of `rows` on types of `cluster` as Sia's observations per type;
// nullopt when no row names a type of `cluster` or none has a throughput.
std::optional<sia::PerfSeed> SeedFromThroughputs(const std::vector<ConfigThroughput>& rows,
                                                 const sia::SiaCluster& cluster, sia::GradStats grad);

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_SIA_THROUGHPUTS_H_
