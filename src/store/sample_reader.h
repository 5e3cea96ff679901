// Reads series and their samples back out of the store.
#ifndef VRECON_SRC_STORE_SAMPLE_READER_H_
#define VRECON_SRC_STORE_SAMPLE_READER_H_

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/core/sample.h"
#include "src/store/store.h"

namespace vrecon {

struct StoredSeries {
  int64_t id = 0;
  SeriesKey key;
};

// Each field, when set, is a case-insensitive glob ('*', '?') on the stored English name.
struct SeriesFilter {
  std::optional<std::string> source, machine, object, instance, counter;
};

StatusOr<std::vector<StoredSeries>> FindSeries(Store* store, const SeriesFilter& filter);

// The series stored under any of these VM names (models::SeriesVmName) or vSphere entities, in
// FindSeries' order: what decides a few VMs' identities (src/engine/vm_view.h).
StatusOr<std::vector<StoredSeries>> SeriesNamed(Store* store, const std::vector<std::string>& vm_names,
                                                const std::vector<std::string>& entities);

struct TimeRange {
  TimeNs from = std::numeric_limits<TimeNs>::min();
  TimeNs to = std::numeric_limits<TimeNs>::max();
};

// Calls `visit(start, end, value)` for each stored sample of the series whose interval
// overlaps `range` (an instantaneous first sample counts when it lies inside), in time order
// within each file. value is kMissing for a missing value.
Status ForEachSample(Store* store, int64_t series_id, const TimeRange& range,
                     const std::function<void(TimeNs start, TimeNs end, double value)>& visit);

// Every stored block of samples as it is stored: its row count and its starts, ends and values
// blobs (values empty when all are missing), in no set order. For measuring the floor under
// BlockReader's cost (bench/fleet_correct_bench.cc scan); readers use BlockReader.
Status ForEachRawSampleBlock(Store* store,
                             const std::function<Status(int64_t n, std::string_view starts, std::string_view ends,
                                                        std::string_view values)>& visit);

// A run of consecutive samples of one series (one stored block, or the part of it inside the
// range). values is empty when every value of the run is missing; else kMissing marks a missing one.
struct SampleBlock {
  std::span<const TimeNs> starts, ends;
  std::span<const double> values;
  // The time block's id when starts and ends are the whole block (the same for every series of
  // its file, until Forget()); -1 for a part of one cut to the range.
  int64_t time_block = -1;
  bool complete = false;  // no value is missing (the store counted them)
};

// Reads series block by block, with the samples and order of ForEachSample. The series of one
// input file share its time blocks; the reader keeps them decoded by block id, so the 50 process
// series of a guest log decode its times once, and SQLite neither copies the time blobs per
// series nor sorts rows holding blobs. Forget() drops the kept blocks (call it between VMs).
class BlockReader {
 public:
  explicit BlockReader(Store* store) : db_(store->db()) {}
  Status ForEach(int64_t series_id, const TimeRange& range, const std::function<void(const SampleBlock&)>& visit);
  // ForEach of each series in `series_ids` (each once), series after series. On PostgreSQL in
  // two queries whatever the count (the blocks in range, then the times not yet decoded): a
  // fleet round reads a few series of every VM, and a query per series was most of its reads.
  // The rows in range are buffered: for short ranges (a round's, a day's).
  Status ForEachOf(const std::vector<int64_t>& series_ids, const TimeRange& range,
                   const std::function<void(int64_t series_id, const SampleBlock&)>& visit);
  // Earliest start and latest end stored for any of the series (nullopt when none has data),
  // counting only the blocks whose last sample ends at or after `from`: a fleet round recomputes
  // its last hour, and looking at every block of the history made its cost grow with the days
  // kept. It also notes each series' blocks (those) and their times: ForEach then streams a noted
  // series whose blocks all overlap the range and are in time order (no time_block join, no
  // buffering of the series), until Forget(). Call both in one read transaction. (A range
  // starting before `from` is read by query, as for a series Span() has not seen.)
  StatusOr<std::optional<TimeRange>> Span(const std::vector<int64_t>& series_ids,
                                          TimeNs from = std::numeric_limits<TimeNs>::min());
  // The times the series have samples in, after Span() over the same series: their sample
  // intervals' union with every gap longer than `max_gap` kept open, in time order. A series whose
  // block lasts no longer than max_gap is taken whole from the block's row, without its times.
  StatusOr<std::vector<TimeRange>> Occupied(const std::vector<int64_t>& series_ids, TimeNs max_gap);
  // Between VMs. While a Prefetch() is kept, the blocks it read stay.
  void Forget() {
    series_blocks_.clear();
    if (prefetching_) return;
    times_.clear();
    meta_.clear();
  }
  // PostgreSQL: reads the blocks ending at or after `from` of every series in `series_ids` (the
  // next few VMs' of a run) in two queries, and keeps them until EndPrefetch(): Span() from
  // `from` or later and reads of those series from `from` or later then send no query. A fleet
  // round reads a few series of each VM it stored, and a query or two each was most of its time.
  // When the blocks hold more than kPrefetchValues values nothing is kept and reads go as
  // before. On SQLite, whose queries cost no round trip, it does nothing.
  Status Prefetch(const std::vector<int64_t>& series_ids, TimeNs from);
  // After Prefetch(): also lists (without their values) the blocks of these prefetched series that
  // end between `from` and the prefetch's start, in one query, so that Span() from `from` needs
  // none (the correction looks a day further back for a VM whose range starts in a gap).
  Status PrefetchEarlier(const std::vector<int64_t>& series_ids, TimeNs from);
  void EndPrefetch();
  static constexpr size_t kPrefetchValues = size_t{1} << 21;  // 16 MiB of doubles
  // Tests: a smaller limit than kPrefetchValues, and whether a prefetch is being answered from.
  void set_prefetch_values(size_t n) { prefetch_values_ = n; }
  bool prefetching() const { return prefetching_; }

 private:
  struct Times {
    std::vector<TimeNs> starts, ends;
    // The range last tested and the first sample outside it (n: none): the file's series share
    // the block, so the test runs once per block and range, not once per series.
    TimeRange tested{1, 0};
    size_t first_out = 0;
  };
  struct Entry {  // one value block of the series, in the reader's buffer
    int64_t file_id, first_start, block_id, n;
    size_t offset;  // into values_, or npos when the block has no value
    bool complete;  // every value present
    int64_t series_id = 0;
  };
  struct BlockMeta {  // a time block's row, without its times
    int64_t file_id, n, first_start, last_end;
  };
  StatusOr<Times*> TimesOf(int64_t block_id, int64_t n);  // nullptr when damaged
  // The least time block id among blocks whose last sample ends at or after `t` (nullopt: none).
  // Ids grow as blocks are written, so every block with a sample ending at or after t has an id
  // at least this: a series' blocks are listed from it through the (series, block) index, and
  // its older blocks are never read. Kept per t for the reader's life (one run).
  StatusOr<std::optional<int64_t>> FirstBlockEndingFrom(TimeNs t);
  // PostgreSQL: the rows (meta_) and times (times_) of these time blocks, in one query.
  Status FetchBlocks(std::vector<int64_t> ids);
  // Appends the current row of `q` (file_id, first_start, block id, n, vals, present) to entries_
  // and its values to values_; false when the row is damaged.
  bool TakeEntry(const Statement& q, int64_t series_id);
  // Visits entries_ series by series, each in (file, first start) order.
  Status VisitEntries(const TimeRange& range, const std::function<void(int64_t, const SampleBlock&)>& visit);
  bool Streamable(int64_t series_id, const TimeRange& range) const;
  StatusOr<std::optional<TimeRange>> SpanBatched(const std::vector<int64_t>& series_ids, TimeNs from,
                                                 int64_t first_block);
  Status Stream(int64_t series_id, const TimeRange& range, const std::function<void(const SampleBlock&)>& visit);
  // One block's samples in the range: the whole block, or its part in the range.
  Status VisitBlock(int64_t series_id, int64_t block_id, int64_t n, const double* values, bool complete,
                    const TimeRange& range, const std::function<void(const SampleBlock&)>& visit);
  Status Damaged(int64_t series_id) const;

  Database* db_;
  std::unordered_map<int64_t, Times> times_;
  std::vector<Entry> entries_;
  std::vector<double> values_;
  std::vector<TimeNs> part_starts_, part_ends_;
  std::vector<double> part_values_;
  std::unordered_map<int64_t, BlockMeta> meta_;                      // by time block id (Span)
  std::unordered_map<int64_t, std::vector<int64_t>> series_blocks_;  // block ids by series (Span)
  std::vector<double> row_values_;                                   // one streamed row's values
  std::unordered_map<TimeNs, std::optional<int64_t>> first_block_;   // FirstBlockEndingFrom's
  TimeNs span_from_ = 0;  // the last Span()'s `from`: the series it noted lack the blocks before

  // Prefetch()'s blocks of each series, in block id order; values in prefetched_values_.
  struct Prefetched {
    int64_t block_id;
    size_t offset;     // into prefetched_values_, or npos when the block has no value
    int64_t n_values;  // as stored (checked against the time block's row count); -1: not kept
    int64_t present;
  };
  // Its values are kept from prefetched_from_ on.
  bool IsPrefetched(int64_t series_id, TimeNs from) const {
    return prefetching_ && from >= prefetched_from_ && prefetched_.contains(series_id);
  }
  // Span() of all of them from `from` can be answered from what was read ahead.
  bool AllPrefetched(const std::vector<int64_t>& series_ids, TimeNs from) const;
  Status VisitPrefetched(int64_t series_id, const TimeRange& range,
                         const std::function<void(int64_t, const SampleBlock&)>& visit);
  StatusOr<std::optional<TimeRange>> SpanPrefetched(const std::vector<int64_t>& series_ids, TimeNs from);
  bool prefetching_ = false;
  size_t prefetch_values_ = kPrefetchValues;
  TimeNs prefetched_from_ = 0;
  std::unordered_map<int64_t, std::vector<Prefetched>> prefetched_;
  std::unordered_map<int64_t, TimeNs> listed_from_;  // PrefetchEarlier's, where earlier than prefetched_from_
  std::vector<double> prefetched_values_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_SAMPLE_READER_H_
