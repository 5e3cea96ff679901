// Host-side and guest logs with weeks of 5-minute rows, for the capacity tests (tests/e2e/
// capacity_test.cc) and the report's Capacity section in the browser (tests/report/): demand with
// a known future.
#ifndef VRECON_TESTS_SUPPORT_CAPACITY_LOGS_H_
#define VRECON_TESTS_SUPPORT_CAPACITY_LOGS_H_

#include <string>

namespace vrecon::testing {

// The logs' days of 5-minute rows (EsxtopLog, Web02HostLog, GrowingGuestLog), from 2026-10-01.
constexpr int kCapacityLogDays = 35;

// 5-minute esxtop rows from 2026-10-01 UTC: WEB02 runs 60% + 2% a day of one vCPU plus 5% ready
// (demand 0.65 + 0.02 x day cores), with a little swing within each day; DB02 a flat 50%; APP03
// 250% of its 2 vCPUs' worth, with 10% co-stop (5% a vCPU). The host's 4 PCPUs are 40% busy.
std::string EsxtopLog();
// 22 days of a Hyper-V host's log: APP01's two virtual processors at 30% and 50% run time (0.8
// cores of demand, no ready on Hyper-V), 5-minute rows from 2026-10-14.
std::string HyperVLog();
// The guests' Processor(n) instances give the VMs' vCPUs: WEB02 2, DB02 4, APP03 2.
std::string CapacityGuests();
// EsxtopLog's WEB02 with `% Used` (the counter the correction divides by) equal to its run.
std::string Web02HostLog();
// WEB02's guest as it logs itself beside Web02HostLog, 5-minute rows: its two CPUs' mean load is
// half the host's run (so w is 1), `app` grows a core a hundred days and `svc` is flat.
std::string GrowingGuestLog();

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_CAPACITY_LOGS_H_
