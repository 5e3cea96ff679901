// esxtop batch captures (`esxtop -b`): Perfmon CSV whose objects are Group Cpu, Physical Cpu,
// Vcpu, ... and whose every column is host-side. Seeded and dictionary-driven with esxtop
// headers. Properties: the chunking property, and one file is one source: when any column is
// an esxtop (or Hyper-V) object every column carries that source.
#include <cstddef>
#include <cstdint>
#include <set>

#include "fuzz/chunking_property.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/perfmon_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<vrecon::SeriesKey> columns;
  vrecon::fuzz::CheckChunking(
      data, size, [&](const auto& chunks, uint32_t seed) { return vrecon::fuzz::ReadPerfmon(chunks, seed, &columns); });
  std::set<vrecon::SourceKind> kinds;
  for (const vrecon::SeriesKey& k : columns) kinds.insert(k.source);
  const bool host_file = kinds.count(vrecon::SourceKind::kEsxtop) || kinds.count(vrecon::SourceKind::kHyperV);
  FUZZ_CHECK(!host_file || kinds.size() == 1, "an esxtop or Hyper-V log is host-side in every column");
  return 0;
}
