#include "tests/faults/store_digest.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <tuple>
#include <vector>

#include "src/store/sample_reader.h"
#include "src/store/store.h"

namespace vrecon::testing {
namespace {

// FNV-1a, 64 bit.
void Mix(uint64_t* h, const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) *h = (*h ^ p[i]) * 1099511628211ULL;
}

sqlite3* OpenReadOnly(const std::string& db) {
  if (!std::filesystem::exists(db)) return nullptr;
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(h);
    return nullptr;
  }
  return h;
}

}  // namespace

std::map<std::string, std::string> StoreDigest(const std::string& db) {
  std::map<std::string, std::string> out;
  sqlite3* h = OpenReadOnly(db);
  if (h == nullptr) return out;
  const char* sql =
      "SELECT f.path, s.source, s.machine, s.object, s.instance, s.counter, t.n, t.starts, t.ends, v.present, v.vals "
      "FROM value_block v JOIN time_block t ON t.id = v.block_id JOIN series s ON s.id = v.series_id "
      "JOIN source_file f ON f.id = t.file_id "
      "ORDER BY f.path, s.source, s.machine, s.object, s.instance, s.counter, t.first_start_ns";
  sqlite3_stmt* st = nullptr;
  struct Acc {
    uint64_t hash = 1469598103934665603ULL;
    int64_t blocks = 0, samples = 0;
  };
  std::map<std::string, Acc> acc;
  if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK) {
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      Acc& a = acc[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))];
      for (int c = 1; c <= 10; ++c) {
        const void* p = sqlite3_column_blob(st, c);
        Mix(&a.hash, p, static_cast<size_t>(sqlite3_column_bytes(st, c)));
      }
      ++a.blocks;
      a.samples += sqlite3_column_int64(st, 9);
    }
    // A read that fails half way must not pass for a smaller store: the digest says so.
    if (rc != SQLITE_DONE) out["(read failed)"] = sqlite3_errmsg(h);
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  for (const auto& [path, a] : acc)
    out[path] = std::to_string(a.blocks) + " " + std::to_string(a.samples) + " " + std::to_string(a.hash);
  return out;
}

std::string SamplesDigest(const std::string& db, const std::string& source) {
  auto store = Store::OpenForReading(db);
  if (!store.ok()) return "(cannot read) " + store.status().message();
  SeriesFilter filter;
  filter.source = source;
  auto found = FindSeries(store->get(), filter);
  if (!found.ok()) return "(cannot read) " + found.status().message();
  std::vector<StoredSeries> series = std::move(*found);
  const auto key = [](const StoredSeries& s) {
    return std::tie(s.key.entity, s.key.machine, s.key.object, s.key.instance, s.key.counter, s.key.unit);
  };
  std::sort(series.begin(), series.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  uint64_t hash = 1469598103934665603ULL;
  int64_t samples = 0;
  for (const StoredSeries& s : series) {
    for (const std::string* field :
         {&s.key.entity, &s.key.machine, &s.key.object, &s.key.instance, &s.key.counter, &s.key.unit})
      Mix(&hash, field->c_str(), field->size() + 1);  // with its NUL: "ab","c" is not "a","bc"
    Status st = ForEachSample(store->get(), s.id, TimeRange{}, [&](TimeNs start, TimeNs end, double value) {
      Mix(&hash, &start, sizeof start);
      Mix(&hash, &end, sizeof end);
      Mix(&hash, &value, sizeof value);
      ++samples;
    });
    if (!st.ok()) return "(cannot read) " + st.message();
  }
  return std::to_string(series.size()) + " " + std::to_string(samples) + " " + std::to_string(hash);
}

std::string IntegrityCheck(const std::string& db) {
  if (!std::filesystem::exists(db)) return "ok";
  sqlite3* h = nullptr;
  std::string result = "cannot open";
  // Read-write: a WAL left by a killed writer is recovered on open, as the next vrecon run would.
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK) {
      result.clear();
      int rc = SQLITE_ROW;
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) result += reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
      // A check that stops half way (an unreadable page, a busy store) is not an "ok".
      if (rc != SQLITE_DONE) result += std::string(" (integrity_check failed: ") + sqlite3_errmsg(h) + ")";
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return result;
}

int SchemaVersion(const std::string& db) {
  sqlite3* h = OpenReadOnly(db);
  if (h == nullptr) return -1;
  int v = -1;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return v;
}

}  // namespace vrecon::testing
