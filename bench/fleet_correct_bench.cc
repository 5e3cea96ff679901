// Fleet correction benchmark (issue 4, "Performance"): writes a store of N VMs x H hours (guest
// 15 s: per-CPU and _Total processor series and P processes; host 20 s vSphere cpu.usage)
// straight through BlockWriter, then times, on the calling thread,
//   scan:    one SQLite pass over every value_block joined to its time_block, decoding the
//            blobs exactly as src/store/sample_reader.cc does;
//   correct: ForEachVmCorrection over every VM, one VM in memory at a time (as StoreCorrections);
//   round:   StoreCorrections from M minutes before the data's end, as a fleet round recomputes
//            after storing its new samples (with generate --file-minutes 5, the store holds a
//            file per VM per 5 minutes, as rounds write them: the round's cost against history).
// CPU seconds (getrusage) are printed; bench/fleet_correct_bench.sh pins it to one core.
//
//   vrecon_bench_fleet generate --db F [--vms 1000] [--hours 24] [--processes 50] [--vcpus 2] [--noise]
//                               [--file-minutes M [--from-minutes F] [--to-minutes T]]
//   vrecon_bench_fleet scan --db F
//   vrecon_bench_fleet correct --db F [--no-align] [--digest]
//   vrecon_bench_fleet round --db F --hours H [--minutes 10] [--to-minutes T] [--capacity] [--every S]
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/text_util.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_job.h"
#include "src/engine/correction_job.h"
#include "src/engine/stored_corrections.h"
#include "src/store/block_writer.h"
#include "src/store/sample_reader.h"
#include "src/store/store.h"

namespace vrecon {
namespace {

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

struct Options {
  std::string mode, db;
  int vms = 1000, hours = 24, processes = 50, vcpus = 2;
  int file_minutes = 0;  // generate: a file per VM and side every M minutes (0: one for the whole span)
  int minutes = 10;      // round: recompute from this long before the data's end
  // generate --file-minutes: write the slices of [from, to) minutes after the start only (to: the
  // end of --hours when 0), to add rounds to a store; round: the data's end (0: --hours).
  int from_minutes = 0, to_minutes = 0;
  bool capacity = false;  // round --capacity: then the capacity day digests' update, timed apart
  int every_s = 0;        // round --every S: only the VMs whose turn it is in a collector of that interval
  bool align = true;      // correct --no-align: without the clock alignment
  // generate --noise: guest and host loads are independent noise (the alignment's worst case:
  // nothing correlates, every range runs the full search); by default both follow one load
  // curve, host = 1.15 x guest, the guest clock 5-40 s ahead, as in real pairs.
  bool noise = false;
  // correct --digest: a hash of every result's bits (figures, names, flags), to check that a
  // speed change left the results exactly as they were. Off in timed runs: it costs time.
  bool digest = false;
};

// FNV-1a (src/core/text_util.h) over the bytes of everything a window result holds.
struct Digest {
  uint64_t h = Fnv1a64("");
  void Bytes(const void* p, size_t n) { h = Fnv1a64(std::string_view(static_cast<const char*>(p), n), h); }
  void Str(const std::string& s) { Bytes(s.data(), s.size() + 1); }
  void Num(double v) { Bytes(&v, sizeof v); }
  void Opt(const std::optional<double>& v) { v ? Num(*v) : Str("-"); }
  void Add(const models::WindowResult& w) {
    Str(w.vm), Str(w.guest_machine), Bytes(&w.start, sizeof w.start), Bytes(&w.end, sizeof w.end);
    Num(w.vcpus.value_or(-1));
    for (const auto* v : {&w.guest_util_pct, &w.host_util_pct, &w.w, &w.steal_pct, &w.ready_pct_per_vcpu, &w.costop_pct,
                          &w.clock_offset_s})
      Opt(*v);
    Num(w.guest_coverage), Num(w.host_coverage), Num(static_cast<double>(w.host));
    for (const auto& p : w.processes) Str(p.name), Opt(p.guest_pct), Opt(p.corrected_pct), Opt(p.ci_lo), Opt(p.ci_hi);
    for (const auto& f : w.flags) Str(f.code), Str(std::string(SeverityName(f.severity))), Str(f.message);
  }
};

constexpr TimeNs kStart = 1793500200LL * kNsPerSec;  // 2026-11-01T03:10:00Z, a multiple of 300 s

// A cheap deterministic stream of loads in [0, 1).
struct Lcg {
  uint64_t s;
  double Next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / 9007199254740992.0;
  }
};

Status WriteFile(Store* store, const std::string& fingerprint, const std::vector<SeriesKey>& columns, TimeNs start,
                 int rows, TimeNs step, Lcg* rng,
                 const std::function<void(double, TimeNs, std::vector<double>*)>& fill) {
  FileRecord rec;
  rec.fingerprint = fingerprint;
  rec.path = fingerprint;
  rec.format = "bench";
  rec.consumed_line_hash.assign(1, '0');  // (a literal here trips GCC 12's -Wrestrict false positive)
  RETURN_IF_ERROR(store->SaveFile(&rec));
  BlockWriter writer(store);
  writer.set_file_id(rec.id);
  RETURN_IF_ERROR(writer.DeclareColumns(columns));
  std::vector<double> row(columns.size());
  for (int r = 0; r < rows; ++r) {
    fill(rng->Next(), start + r * step + step / 2, &row);
    RETURN_IF_ERROR(writer.AddRow(start + r * step, start + (r + 1) * step, row));
  }
  RETURN_IF_ERROR(writer.Finish());
  rec.rows = rows;
  return store->SaveFile(&rec);
}

// generate --file-minutes M: the store a fleet round after round leaves, a file per VM and side
// every M minutes written slice after slice (so block ids grow with time across VMs, as rounds
// write them). The same loads as Generate, drawn from a generator per VM.
Status GenerateRounds(const Options& o) {
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(o.db));
  struct Vm {
    std::string name;
    std::vector<SeriesKey> guest, host;
    double phase, phase2;
    TimeNs guest_ahead;
    Lcg rng;
  };
  std::vector<Vm> vms(o.vms);
  for (int v = 0; v < o.vms; ++v) {
    Vm& vm = vms[v];
    char name[16];
    std::snprintf(name, sizeof name, "VM%04d", v);
    vm.name = name;
    vm.rng = Lcg{42u + static_cast<uint64_t>(v)};
    for (int c = 0; c <= o.vcpus; ++c)
      vm.guest.push_back(SeriesKey{SourceKind::kGuest, name, "Processor", c == o.vcpus ? "_Total" : std::to_string(c),
                                   "% Processor Time", "percent", "", ""});
    for (int p = 0; p < o.processes; ++p)
      vm.guest.push_back(SeriesKey{SourceKind::kGuest, name, "Process", "proc" + std::to_string(p), "% Processor Time",
                                   "percent", "", ""});
    vm.host = {SeriesKey{SourceKind::kVsphere, name, "cpu", "", "cpu.usage.average", "percent", "", ""}};
    vm.phase = 6.283 * vm.rng.Next();
    vm.phase2 = 6.283 * vm.rng.Next();
    vm.guest_ahead = static_cast<TimeNs>((5 + 35 * vm.rng.Next()) * kNsPerSec);
  }
  const int vcpus = o.vcpus, processes = o.processes;
  const TimeNs slice = static_cast<TimeNs>(o.file_minutes) * 60 * kNsPerSec;
  const TimeNs end = kStart + (o.to_minutes > 0 ? o.to_minutes * 60 : o.hours * 3600) * kNsPerSec;
  for (TimeNs from = kStart + o.from_minutes * 60 * kNsPerSec; from < end; from += slice) {
    ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
    const std::string at = std::to_string((from - kStart) / kNsPerSec);
    for (Vm& vm : vms) {
      auto load = [&vm](TimeNs t) {
        const double s = static_cast<double>(t) / kNsPerSec;
        return 50 + 20 * std::sin(6.283 * s / 3600 + vm.phase) + 10 * std::sin(6.283 * s / 600 + vm.phase2);
      };
      RETURN_IF_ERROR(WriteFile(store.get(), "guest-" + vm.name + "-" + at, vm.guest, from, o.file_minutes * 4,
                                15 * kNsPerSec, &vm.rng, [&](double u, TimeNs t, std::vector<double>* row) {
                                  const double busy = load(t - vm.guest_ahead) + 4 * (u - 0.5);
                                  for (int c = 0; c <= vcpus; ++c) (*row)[c] = busy;
                                  for (int p = 0; p < processes; ++p)
                                    (*row)[vcpus + 1 + p] =
                                        busy * vcpus * (p + 1) / (processes * (processes + 1) / 2.0);
                                }));
      RETURN_IF_ERROR(WriteFile(
          store.get(), "host-" + vm.name + "-" + at, vm.host, from, o.file_minutes * 3, 20 * kNsPerSec, &vm.rng,
          [&](double u, TimeNs t, std::vector<double>* row) { (*row)[0] = 1.15 * load(t) + 2 * (u - 0.5); }));
    }
    RETURN_IF_ERROR(tx.Commit());
  }
  return Status::Ok();
}

Status Generate(const Options& o) {
  if (o.file_minutes > 0) return GenerateRounds(o);
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(o.db));
  const TimeNs start = kStart;
  Lcg rng{42};
  for (int v = 0; v < o.vms; ++v) {
    char name[16];
    std::snprintf(name, sizeof name, "VM%04d", v);
    std::vector<SeriesKey> guest;
    auto key = [&](const std::string& object, const std::string& instance) {
      guest.push_back(SeriesKey{SourceKind::kGuest, name, object, instance, "% Processor Time", "percent", "", ""});
    };
    for (int c = 0; c < o.vcpus; ++c) key("Processor", std::to_string(c));
    key("Processor", "_Total");
    for (int p = 0; p < o.processes; ++p) key("Process", "proc" + std::to_string(p));
    const std::vector<SeriesKey> host = {
        SeriesKey{SourceKind::kVsphere, name, "cpu", "", "cpu.usage.average", "percent", "", ""}};
    ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
    const int vcpus = o.vcpus, processes = o.processes;
    const bool noise = o.noise;
    const double phase = 6.283 * rng.Next(), phase2 = 6.283 * rng.Next();
    const TimeNs guest_ahead = static_cast<TimeNs>((5 + 35 * rng.Next()) * kNsPerSec);
    // The true load at true time t: an hourly and a 10-minute wave, 20-80%.
    auto load = [=](TimeNs t) {
      const double s = static_cast<double>(t) / kNsPerSec;
      return 50 + 20 * std::sin(6.283 * s / 3600 + phase) + 10 * std::sin(6.283 * s / 600 + phase2);
    };
    RETURN_IF_ERROR(WriteFile(store.get(), std::string("guest-") + name, guest, start, o.hours * 240, 15 * kNsPerSec,
                              &rng, [&](double u, TimeNs t, std::vector<double>* row) {
                                const double busy = noise ? 20 + 60 * u : load(t - guest_ahead) + 4 * (u - 0.5);
                                for (int c = 0; c <= vcpus; ++c) (*row)[c] = busy;
                                for (int p = 0; p < processes; ++p)
                                  (*row)[vcpus + 1 + p] = busy * vcpus * (p + 1) / (processes * (processes + 1) / 2.0);
                              }));
    RETURN_IF_ERROR(WriteFile(store.get(), std::string("host-") + name, host, start, o.hours * 180, 20 * kNsPerSec,
                              &rng, [&](double u, TimeNs t, std::vector<double>* row) {
                                (*row)[0] = noise ? 15 + 45 * u : 1.15 * load(t) + 2 * (u - 0.5);
                              }));
    RETURN_IF_ERROR(tx.Commit());
  }
  return Status::Ok();
}

// The reader's query without its per-series filter, and its decoding.
Status Scan(Store* store) {
  int64_t samples = 0;
  double sum = 0;
  TimeNs span = 0;
  RETURN_IF_ERROR(ForEachRawSampleBlock(
      store, [&](int64_t n, std::string_view starts, std::string_view ends, std::string_view vals) {
        if (starts.size() != static_cast<size_t>(n) * 8 || ends.size() != starts.size() ||
            (!vals.empty() && vals.size() != starts.size()))
          return Status::ParseError("a sample block is damaged");
        for (int64_t i = 0; i < n; ++i) {
          TimeNs s, e;
          double v = kMissing;
          std::memcpy(&s, starts.data() + i * 8, 8);
          std::memcpy(&e, ends.data() + i * 8, 8);
          if (!vals.empty()) std::memcpy(&v, vals.data() + i * 8, 8);
          if (!IsMissing(v)) sum += v;
          span += e - s;
          ++samples;
        }
        return Status::Ok();
      }));
  std::printf("scan: samples=%lld checksum=%.6g span_s=%lld\n", static_cast<long long>(samples), sum,
              static_cast<long long>(span / kNsPerSec));
  return Status::Ok();
}

// What a fleet round recomputes once its new samples are stored: the windows from `minutes`
// before the data's end (generate's span, --hours), and the Ready-Time summaries.
// With --capacity, then every VM's capacity day digests, as the round's own update does (a fold
// of the new samples into each VM's open bins); its CPU seconds are printed apart.
Status Round(const Options& o) {
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(o.db));
  CorrectionRequest req;
  const TimeNs end = kStart + (o.to_minutes > 0 ? o.to_minutes * 60 : o.hours * 3600) * kNsPerSec;
  req.from = end - o.minutes * 60 * kNsPerSec;
  const double t0 = CpuSeconds();
  // As a fleet round does: the VMs' view read once for both.
  ASSIGN_OR_RETURN(req.view, ReadVmView(store.get(), std::nullopt, {}));
  ASSIGN_OR_RETURN(const int64_t windows, StoreCorrections(store.get(), req));
  const double t1 = CpuSeconds();
  // Every VM (a collector's first round), or with --every those a collector's round updates.
  std::optional<std::set<std::string>> due;
  if (o.every_s > 0) {
    std::set<std::string> keys;
    for (const VmEntry& e : req.view->dir.entries()) keys.insert(e.key);
    const TimeNs now = NowNs();
    due = CapacityDigestsDue(keys, now, now - o.every_s * kNsPerSec);
  }
  if (o.capacity) RETURN_IF_ERROR(RefreshCapacityDigests(store.get(), due, req.view));
  std::printf("round: windows=%lld corrections_cpu_s=%.3f capacity_cpu_s=%.3f capacity_vms=%s\n",
              static_cast<long long>(windows), t1 - t0, o.capacity ? CpuSeconds() - t1 : 0.0,
              due ? std::to_string(due->size()).c_str() : "all");
  return Status::Ok();
}

int Main(int argc, char** argv) {
  Options o;
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: %s generate|scan|correct|round --db F [--vms N] [--hours H] [--processes P] [--vcpus K] "
        "[--noise] [--file-minutes M] [--from-minutes F] [--to-minutes T] [--no-align] [--digest] [--minutes M] "
        "[--capacity] [--every S]\n",
        argv[0]);
    return 2;
  }
  o.mode = argv[1];
  for (int i = 2; i < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--noise") {
      o.noise = true;
      --i;
      continue;
    }
    if (a == "--digest") {
      o.digest = true;
      --i;
      continue;
    }
    if (a == "--capacity") {
      o.capacity = true;
      --i;
      continue;
    }
    if (a == "--no-align") {
      o.align = false;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--db") o.db = argv[i + 1];
    else if (a == "--vms") o.vms = std::atoi(argv[i + 1]);
    else if (a == "--hours") o.hours = std::atoi(argv[i + 1]);
    else if (a == "--processes") o.processes = std::atoi(argv[i + 1]);
    else if (a == "--vcpus") o.vcpus = std::atoi(argv[i + 1]);
    else if (a == "--file-minutes") o.file_minutes = std::atoi(argv[i + 1]);
    else if (a == "--minutes") o.minutes = std::atoi(argv[i + 1]);
    else if (a == "--every") o.every_s = std::atoi(argv[i + 1]);
    else if (a == "--from-minutes") o.from_minutes = std::atoi(argv[i + 1]);
    else if (a == "--to-minutes") o.to_minutes = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (o.db.empty() || o.vms < 1 || o.hours < 1 || o.vcpus < 1 || o.processes < 0 || o.file_minutes < 0 ||
      (o.file_minutes > 0 && 60 % o.file_minutes != 0)) {
    std::fprintf(stderr, "--db is required; --vms, --hours and --vcpus must be positive; --file-minutes divides 60\n");
    return 2;
  }
  const double t0 = CpuSeconds();
  Status s = Status::Ok();
  if (o.mode == "generate") {
    s = Generate(o);
  } else if (o.mode == "round") {
    s = Round(o);
  } else if (o.mode == "scan" || o.mode == "correct") {
    auto store = Store::Open(o.db);
    if (!store.ok()) {
      std::fprintf(stderr, "%s\n", store.status().message().c_str());
      return 1;
    }
    if (o.mode == "scan") {
      s = Scan(store->get());
    } else {
      CorrectionRequest req;
      req.align = o.align;
      // One VM at a time, as StoreCorrections and the fleet round use it: results are counted
      // and dropped, so memory is one VM's whatever the fleet's size.
      size_t windows = 0, processes = 0;
      Digest digest;
      s = ForEachVmCorrection(store->get(), req, [&](std::vector<models::WindowResult>&& r) {
        windows += r.size();
        for (const auto& w : r) {
          processes += w.processes.size();
          if (o.digest) digest.Add(w);
        }
        return Status::Ok();
      });
      if (s.ok()) std::printf("correct: windows=%zu process_rows=%zu\n", windows, processes);
      if (s.ok() && o.digest) std::printf("correct: digest=%016llx\n", static_cast<unsigned long long>(digest.h));
    }
  } else {
    std::fprintf(stderr, "unknown mode %s\n", o.mode.c_str());
    return 2;
  }
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  std::printf("%s: cpu_seconds=%.3f\n", o.mode.c_str(), CpuSeconds() - t0);
  return 0;
}

}  // namespace
}  // namespace vrecon

int main(int argc, char** argv) { return vrecon::Main(argc, argv); }
