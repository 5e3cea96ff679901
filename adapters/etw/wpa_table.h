// What the readers of WPA's table exports (wpa_precise.h, wpa_sampled.h) share: the header's
// columns found by name (wpa_csv.h), each row cut into its cells, rows that sum several events
// refused, every line in the file's fingerprint, and the resume lookup at the end, which needs
// that fingerprint, so issue details are held until it answers. Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_WPA_TABLE_H_
#define VRECON_ADAPTERS_ETW_WPA_TABLE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/etw/wpa_csv.h"
#include "src/core/reader.h"

namespace vrecon::etw::wpa {

// A table as its reader reads it. `columns[f]` is the column of the reader's field f.
struct TableSpec {
  const char* format;  // the summary's format, "wpa-precise-csv"
  const char* table;   // WPA's name of the table, "CPU Usage (Precise)"
  const char* event;   // what one row is, "context switch"
  const char* events;  // and several, "context switches"
  std::span<const ColumnSpec> columns;
  int count_field;  // the Count column: a row with a Count other than 1 sums several events
  int time_field;   // the time of the event: empty where WPA sums rows
};

class TableReader : public LineReader {
 protected:
  TableReader(ReaderOptions options, SampleSink* sink, const TableSpec& spec);

  // After the header: an error when a column the table needs is missing (MissingColumn).
  virtual Status CheckColumns() = 0;
  // A row of at least the cells the columns read, and not a sum of several events.
  virtual void OnRow() = 0;
  // Whether no row gave anything to store.
  virtual bool NothingRead() const = 0;
  // After the resume lookup: stores what the rows gave (nothing when quiet()).
  virtual Status Write() = 0;

  bool Has(int field) const { return column_[static_cast<size_t>(field)] >= 0; }
  // The field's cell in the current row; empty when the header has no such column.
  std::string_view Cell(int field) const;
  // The unit of the field's numbers: the header's, or the column's default.
  Unit UnitOf(int field) const { return unit_[static_cast<size_t>(field)]; }
  // Field `field` is read from `alt`'s column when the header has none of its own.
  void ReadFrom(int field, int alt);
  // The error for a missing column: it names the table and the header's columns.
  Status MissingColumn(std::string_view what) const;
  // Recorded with the file and line (line 0: the whole file); held until the resume lookup.
  void Issue(int64_t line, Severity severity, const char* code, std::string message);
  // The issue for a cell that is not a number as WPA writes numbers; `then` says what happens.
  void BadNumber(int field, std::string_view cell, const char* then);
  // The line being read.
  int64_t line() const { return summary_.lines; }
  // An earlier ingest stored this very file: nothing is stored or reported again.
  bool quiet() const { return quiet_; }

 private:
  Status OnLine(std::string_view line) final;
  Status EndLines() final;
  Status OnHeader(std::string_view line);
  void Row(std::string_view line);

  const TableSpec& spec_;
  bool header_done_ = false;
  std::vector<int> column_;  // index of each field's column, or -1
  std::vector<Unit> unit_;
  size_t needed_cells_ = 0;
  CsvCells cells_;
  int64_t header_line_ = 0;
  std::string header_;  // its first 300 bytes, for messages
  bool quiet_ = false;
  bool lookup_done_ = false;       // the resume lookup has answered
  std::vector<ImportIssue> held_;  // issue details until then
  std::string last_line_;
};

}  // namespace vrecon::etw::wpa

#endif  // VRECON_ADAPTERS_ETW_WPA_TABLE_H_
