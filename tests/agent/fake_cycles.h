// A scripted CycleApi: each read returns the next snapshot of a list (the last one again when
// the list runs out), or an error where one is scripted.
#ifndef VRECON_TESTS_AGENT_FAKE_CYCLES_H_
#define VRECON_TESTS_AGENT_FAKE_CYCLES_H_

#include <set>
#include <vector>

#include "agent/cycle_api.h"

namespace vrecon::agent::testing {

class FakeCycles : public CycleApi {
 public:
  std::vector<CycleSnapshot> snapshots;
  std::set<int> fail_reads;  // 1 = the first read
  SystemIdentity identity{26100, kArchAmd64};
  int reads = 0;

  StatusOr<CycleSnapshot> Read() override {
    ++reads;
    if (fail_reads.contains(reads)) return Status::Unavailable("NtQuerySystemInformation failed (scripted)");
    const size_t i = std::min(static_cast<size_t>(reads - 1), snapshots.size() - 1);
    return snapshots.at(i);
  }
  SystemIdentity Identity() override { return identity; }
};

}  // namespace vrecon::agent::testing

#endif  // VRECON_TESTS_AGENT_FAKE_CYCLES_H_
