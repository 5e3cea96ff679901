// One read snapshot of the store for a run of queries: collectors may write meanwhile, and the
// queries take no lock round trip each.
#ifndef VRECON_SRC_STORE_READ_SNAPSHOT_H_
#define VRECON_SRC_STORE_READ_SNAPSHOT_H_

#include "src/store/store.h"

namespace vrecon {

// Opens a read transaction for its lifetime; none when the connection already has a transaction
// open (the caller's then gives the snapshot). Reads only: ending it loses nothing.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(Store* store);
  ~ReadSnapshot();
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  Store* store_;
  bool open_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_READ_SNAPSHOT_H_
