// Writes one input's rows into the store as blocks: one time_block per kBlockRows rows (their
// start and end times) and one value_block per series per time block. Storing a block of
// values per series instead of a row per sample is what makes ingest fast (docs/storage.md).
#ifndef VRECON_SRC_STORE_BLOCK_WRITER_H_
#define VRECON_SRC_STORE_BLOCK_WRITER_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/core/sample_sink.h"
#include "src/store/store.h"
#include "src/store/value_rows.h"
#include "src/store/write_ahead.h"

namespace vrecon {

class BlockWriter : public SampleSink {
 public:
  static constexpr int kBlockRows = 256;
  // Value blocks of up to this many time blocks are held and then written series by series.
  // value_block is keyed (series_id, block_id), so writing each time block as it completes
  // touches one b-tree leaf per series per block; with ~1,000 series that working set is larger
  // than the page cache and SQLite spills and re-reads the same pages over and over. Writing a
  // batch of blocks per series touches each leaf once per batch. The batch is capped by memory
  // (kBatchBytes), so a wide file gets a shorter batch and memory stays bounded.
  static constexpr int kMaxBatchBlocks = 8;
  static constexpr size_t kBatchBytes = 16u << 20;

  explicit BlockWriter(Store* store) : store_(store) {}

  // Must be set before the first row arrives (the file row is created once the input's
  // fingerprint is known).
  void set_file_id(int64_t id) { file_id_ = id; }
  // Series ids and block ids shared with the transaction's other files (src/store/write_ahead.h).
  void set_ahead(WriteAhead* ahead) { ahead_ = ahead; }
  // A series' name in the writers' lookups: source, machine, entity, object, instance, counter.
  static std::string SeriesName(const SeriesKey& k);

  // May be called again mid-input: the rows of the previous column set are flushed as their
  // own (partial) block first, and later rows belong to the new set.
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override;
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override;
  void AddIssue(ImportIssue issue) override { issues_.push_back(std::move(issue)); }
  void AddClockEvent(ClockRecord event) override { clock_events_.push_back(std::move(event)); }

  // Writes the last partial block and the issues. Call inside the file's transaction.
  Status Finish();
  const std::vector<ImportIssue>& issues() const { return issues_; }

 private:
  StatusOr<int64_t> FindOrAddSeries(const SeriesKey& k);
  // The ids of the columns' series the store already has, by SeriesName.
  StatusOr<std::map<std::string, int64_t>> KnownSeries(const std::vector<SeriesKey>& columns);
  // Where value_block rows go: the transaction's WriteAhead, whose owner flushes them with the
  // other files' (a collector's batch of VMs), or this writer's own, flushed by FlushValues.
  ValueRows* value_rows();
  // PostgreSQL: the month partition of value_block for a block ending at `end` exists.
  Status EnsurePartition(TimeNs end);
  Status FlushBlock();   // closes the current time block (writes its time_block row)
  Status FlushValues();  // writes the value blocks of all closed time blocks

  Store* store_;
  WriteAhead* ahead_ = nullptr;
  int64_t file_id_ = 0;
  std::vector<int64_t> series_ids_;
  std::vector<TimeNs> starts_, ends_;
  // Per held block b, column-major: values_[(b * columns + col) * kBlockRows + row].
  std::vector<double> values_;
  int rows_ = 0;                    // rows in the current (open) block
  int batch_blocks_ = 1;            // blocks held before their values are written
  std::vector<int64_t> block_ids_;  // closed blocks whose values are not written yet
  std::vector<int> block_rows_;     // their row counts
  std::vector<TimeNs> block_ends_;  // their last end (PostgreSQL's partition key)
  std::vector<ImportIssue> issues_;
  std::vector<ClockRecord> clock_events_;
  std::optional<ValueRows> own_rows_;  // without a WriteAhead
  bool partitioned_ = false;           // PostgreSQL: value_block is partitioned by block_end_ns
  bool prepared_ = false;
  // Cached by the connection (Database::Cached): a writer is used by one thread at a time.
  Statement *find_series_ = nullptr, *add_series_ = nullptr, *insert_time_ = nullptr;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_BLOCK_WRITER_H_
