// The worker pool of a vSphere round: workers ask the server, each with its own client, while the
// calling thread stores each answer as it comes (the store has one writer per source). The queue
// of answers is bounded (2 per worker), so answers do not pile up in memory when storing is
// slower than asking.
#ifndef VRECON_SRC_COLLECT_QUERY_POOL_H_
#define VRECON_SRC_COLLECT_QUERY_POOL_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "adapters/vsphere/vsphere_client.h"

namespace vrecon {

using QueryAnswer = StatusOr<std::vector<vsphere::EntityMetrics>>;

struct PoolRun {
  size_t asked = 0;      // batches handed to a worker (the rest were not: stopped)
  bool stopped = false;  // `stop` was set before every batch was asked
};

// Asks batches 0..count-1 in order with `ask(worker, i)` on `workers` threads and calls
// `store(i, answer)` on this thread for each, in the order answers arrive. When `store` returns
// false (the store failed), no further batch is asked; answers already asked still arrive.
PoolRun RunQueryPool(size_t count, int workers, const std::function<QueryAnswer(int worker, size_t i)>& ask,
                     const std::function<bool(size_t i, QueryAnswer answer)>& store, const std::atomic<bool>* stop);

}  // namespace vrecon

#endif  // VRECON_SRC_COLLECT_QUERY_POOL_H_
