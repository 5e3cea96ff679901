// Ingest benchmark: reads one Perfmon CSV into a fresh store in a temporary directory through the
// library (Store::Open + IngestFile, exactly what `vrecon ingest` does) and reports bytes,
// seconds, MB/s and the process's peak RSS. Run by bench/run_ingest_bench.sh; not a test.
//
//   vrecon_bench_ingest FILE [--repeat N] [--keep-db]
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "src/ingest/ingest_file.h"
#include "src/store/store.h"

namespace {

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

long PeakRssKb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;  // kilobytes on Linux
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--repeat N] [--keep-db]\n", argv[0]);
    return 2;
  }
  const std::string file = argv[1];
  int repeat = 1;
  bool keep = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--keep-db") == 0) {
      keep = true;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  const uintmax_t bytes = fs::file_size(file, ec);
  if (ec) {
    std::fprintf(stderr, "cannot stat %s: %s\n", file.c_str(), ec.message().c_str());
    return 1;
  }
  std::string tmpl = (fs::temp_directory_path() / "vrecon-bench-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  const fs::path dir(tmpl);

  double best = 0, best_cpu = 0;
  int64_t rows = 0;
  uintmax_t db_bytes = 0;
  for (int r = 0; r < repeat; ++r) {
    const fs::path db = dir / ("bench-" + std::to_string(r) + ".db");
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = CpuSeconds();
    auto store = vrecon::Store::Open(db.string());
    if (!store.ok()) {
      std::fprintf(stderr, "open: %s\n", store.status().message().c_str());
      return 1;
    }
    auto res = vrecon::IngestFile(store->get(), file, vrecon::IngestOptions{});
    if (!res.ok()) {
      std::fprintf(stderr, "ingest: %s\n", res.status().message().c_str());
      return 1;
    }
    store->reset();  // closing checkpoints the WAL: part of the cost
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = CpuSeconds() - c0;
    rows = res->summary.rows;
    db_bytes = fs::file_size(db, ec);
    if (best == 0 || secs < best) best = secs;
    if (best_cpu == 0 || cpu < best_cpu) best_cpu = cpu;
    std::printf("run %d: %.3f s wall, %.3f s cpu, %.1f MB/s\n", r + 1, secs, cpu, bytes / 1e6 / secs);
    if (!keep) fs::remove(db, ec);
  }
  if (!keep) fs::remove_all(dir, ec);
  std::printf("lib bytes=%ju rows=%lld seconds=%.3f mb_per_s=%.2f cpu_seconds=%.3f peak_rss_kb=%ld db_bytes=%ju%s\n",
              bytes, static_cast<long long>(rows), best, bytes / 1e6 / best, best_cpu, PeakRssKb(), db_bytes,
              keep ? (" db_dir=" + dir.string()).c_str() : "");
  return 0;
}
