// Writes one input's rows into the store as blocks: one time_block per kBlockRows rows (their
// start and end times) and one value_block per series per time block. Storing a block of
// values per series instead of a row per sample is what makes ingest fast (docs/storage.md).
#ifndef VRECON_SRC_STORE_BLOCK_WRITER_H_
#define VRECON_SRC_STORE_BLOCK_WRITER_H_

#include <vector>

#include "src/core/sample_sink.h"
#include "src/store/store.h"

namespace vrecon {

class BlockWriter : public SampleSink {
 public:
  static constexpr int kBlockRows = 256;

  explicit BlockWriter(Store* store) : store_(store) {}

  // Must be set before the first row arrives (the file row is created once the input's
  // fingerprint is known).
  void set_file_id(int64_t id) { file_id_ = id; }

  Status DeclareColumns(const std::vector<SeriesKey>& columns) override;
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override;
  void AddIssue(ImportIssue issue) override { issues_.push_back(std::move(issue)); }

  // Writes the last partial block and the issues. Call inside the file's transaction.
  Status Finish();
  const std::vector<ImportIssue>& issues() const { return issues_; }

 private:
  Status FlushBlock();

  Store* store_;
  int64_t file_id_ = 0;
  std::vector<int64_t> series_ids_;
  std::vector<TimeNs> starts_, ends_;
  std::vector<double> values_;  // column-major: values_[col * kBlockRows + row]
  int rows_ = 0;
  std::vector<ImportIssue> issues_;
  Statement insert_time_, insert_values_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_BLOCK_WRITER_H_
