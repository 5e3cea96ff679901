// The store `vrecon capacity` is timed on (issue 40's target: 10,000 VMs on 400 hosts with 365
// days of digests in 5 s on one core, peak RSS 256 MB): `vrecon_bench_capacity_store DB [VMS]
// [HOSTS] [DAYS]` writes a SQLite store whose esxtop series name VMS VMs on HOSTS hosts (a few
// samples each, 2025-10-01) and gives every VM and host DAYS days of capacity digests from
// 2025-11-01, as a collector that kept them current would have left them: daily p95s that grow,
// with a weekly profile, noise, a month-end peak and, in every fifth, a level step; the digests'
// blobs are those of real 288-bin days. bench/capacity_bench.sh times the command on it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "src/core/time_util.h"
#include "src/engine/capacity_day_codec.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_job.h"
#include "src/ingest/ingest_file.h"
#include "src/store/capacity_tables.h"

namespace {

using vrecon::Status;
using vrecon::TimeNs;
constexpr int kVmsPerFile = 25;
constexpr int kPcpus = 32;

int Fail(const Status& s) {
  std::fprintf(stderr, "vrecon_bench_capacity_store: %s\n", s.message().c_str());
  return 1;
}

// Two 5-minute rows of host `h`'s esxtop capture: its VMs' run and ready, its PCPUs' load.
std::string HostLog(int h, int vms) {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (int k = 0; k < vms; ++k)
    for (const char* c : {"% Run", "% Ready"})
      s += ",\"\\\\esx" + std::to_string(h) + "\\Group Cpu(" + std::to_string(100 + k) + ":vm" + std::to_string(h) +
           "-" + std::to_string(k) + ")\\" + c + "\"";
  s += ",\"\\\\esx" + std::to_string(h) + "\\Physical Cpu(_Total)\\% Util Time\"";
  for (int p = 0; p < kPcpus; ++p)
    s += ",\"\\\\esx" + std::to_string(h) + "\\Physical Cpu(" + std::to_string(p) + ")\\% Util Time\"";
  s += "\n";
  for (const char* t : {"10/01/2025 00:05:00.000", "10/01/2025 00:10:00.000"}) {
    s += std::string("\"") + t + "\"";
    for (int c = 0; c < 2 * vms + 1 + kPcpus; ++c) s += ",\"50\"";
    s += "\n";
  }
  return s;
}

// Blobs of 288-bin days (the size a stored day has), as a collector that has read every block
// left them.
std::vector<std::string> DayBlobs(std::mt19937* rng) {
  std::lognormal_distribution<double> load(0, 0.4);
  std::vector<std::string> out;
  for (int i = 0; i < 16; ++i) {
    std::vector<vrecon::models::DemandBin> bins;
    bins.reserve(288);
    for (int b = 0; b < 288; ++b) bins.push_back({b * vrecon::models::kDemandBinNs, load(*rng)});
    vrecon::models::DemandDay d = vrecon::models::DigestDays(bins, {}).at(0);
    d.block_seen = int64_t{1} << 50;
    out.push_back(vrecon::EncodeDemandDay(d));
  }
  return out;
}

double DailyP95(int entity, int t, int days, double scale, std::mt19937* rng) {
  static constexpr double kWeekly[7] = {-1.5, 0.5, 0.5, 1.0, 0.5, 0.5, -1.5};
  std::normal_distribution<double> noise(0, 0.4);
  const int64_t day = vrecon::DaysFromCivil(2025, 11, 1) + t;
  const vrecon::CivilTime c = vrecon::CivilFromNs(day * vrecon::kNsPerDay);
  double v = 8 + 0.01 * (entity % 7) * t + kWeekly[vrecon::models::WeekdayOf(day)] + noise(*rng);
  if (entity % 5 == 0 && t > days * 2 / 3) v += 4;
  if (c.day == vrecon::DaysInMonth(c.year, c.month)) v *= 1.8;
  return std::max(0.0, v * scale);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: vrecon_bench_capacity_store DB [VMS] [HOSTS] [DAYS]\n");
    return 2;
  }
  const std::string db = argv[1];
  const int vms = argc > 2 ? std::atoi(argv[2]) : 10'000, hosts = argc > 3 ? std::atoi(argv[3]) : 400;
  const int days = argc > 4 ? std::atoi(argv[4]) : 365;
  const auto t0 = std::chrono::steady_clock::now();
  auto store = vrecon::Store::Open(db);
  if (!store.ok()) return Fail(store.status());
  const std::string log = db + ".host.csv";
  for (int h = 0; h < hosts; ++h) {
    std::ofstream(log) << HostLog(h, std::min(kVmsPerFile, vms / hosts));
    if (auto r = vrecon::IngestFile(store->get(), log, {}); !r.ok()) return Fail(r.status());
  }
  std::remove(log.c_str());
  // The entities and how their demand is counted, as `vrecon capacity` names them.
  if (Status s = vrecon::RefreshCapacityDigests(store->get()); !s.ok()) return Fail(s);
  auto entities = vrecon::CapacityEntities(store->get());
  if (!entities.ok()) return Fail(entities.status());
  std::mt19937 rng(40);
  const std::vector<std::string> blobs = DayBlobs(&rng);
  const TimeNs first = vrecon::DaysFromCivil(2025, 11, 1) * vrecon::kNsPerDay;
  auto tx = (*store)->BeginTransaction();
  if (!tx.ok()) return Fail(tx.status());
  for (size_t e = 0; e < entities->size(); ++e) {
    const bool host = (*entities)[e].entity.find('/') == std::string::npos;
    std::vector<vrecon::StoredCapacityDay> rows;
    for (int t = 0; t < days; ++t) {
      vrecon::StoredCapacityDay r;
      r.day = first + t * vrecon::kNsPerDay;
      r.counter = (*entities)[e].counter;
      r.bins = 288;
      r.p95_cores = DailyP95(static_cast<int>(e), t, days, host ? 2.0 : 0.1, &rng);
      r.sum_cores = *r.p95_cores * 0.7 * 288;
      r.max_cores = *r.p95_cores * 1.2;
      r.end = r.day + vrecon::kNsPerDay;
      r.state = blobs[(e + static_cast<size_t>(t)) % blobs.size()];
      rows.push_back(std::move(r));
    }
    if (Status s = vrecon::ReplaceCapacityDays(store->get(), (*entities)[e].entity, (*entities)[e].source, first, rows);
        !s.ok())
      return Fail(s);
  }
  if (Status s = tx->Commit(); !s.ok()) return Fail(s);
  std::printf("%s: %zu entities x %d days of digests, written in %.1f s\n", db.c_str(), entities->size(), days,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}
