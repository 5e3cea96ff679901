// A new SQLite store built at a private path beside its target and published there in one step.
// Until Publish() nobody else can open it, so a run that fails first removes only its own private
// files: it never publishes an empty store and never removes one another run may have opened
// (docs/reliability.md, "Creating a store").
#ifndef VRECON_SRC_STORE_STAGED_STORE_H_
#define VRECON_SRC_STORE_STAGED_STORE_H_

#include <memory>
#include <string>

#include "src/store/store.h"

namespace vrecon {

class StagedStore {
 public:
  // Creates the private store for `path` (which should not exist yet). Errors name `path`.
  static StatusOr<StagedStore> Begin(const std::string& path);
  StagedStore(StagedStore&&) noexcept;
  StagedStore& operator=(StagedStore&&) = delete;
  StagedStore(const StagedStore&) = delete;
  StagedStore& operator=(const StagedStore&) = delete;
  ~StagedStore();  // removes the private files

  Store* store() { return store_.get(); }
  const std::string& target() const { return target_; }

  // Closes the private store, links it into place at the target and opens the store there. When
  // another run published a store at the target first, that one is opened and *ours is false:
  // what was written into this one is not in it (the caller writes it again).
  StatusOr<std::unique_ptr<Store>> Publish(bool* ours);

 private:
  StagedStore(std::string target, std::string tmp, std::unique_ptr<Store> store);
  std::string target_, tmp_;
  std::unique_ptr<Store> store_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_STAGED_STORE_H_
