// A long-running process between two bursts of work (a collector between rounds): memory it
// freed goes back to the system. glibc keeps freed memory inside its arenas, and a round's
// transient peak (SOAP answers, a source's page cache) left the collector's resident size at its
// highest so far (docs/reliability.md, "Soak").
#ifndef VRECON_SRC_CORE_FREE_MEMORY_H_
#define VRECON_SRC_CORE_FREE_MEMORY_H_

namespace vrecon {

// glibc's malloc_trim(0): whole free pages of every arena are given back; elsewhere nothing.
void ReturnFreedMemory();

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_FREE_MEMORY_H_
