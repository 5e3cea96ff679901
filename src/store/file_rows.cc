#include "src/store/file_rows.h"

#include "src/store/optional_columns.h"

namespace vrecon {
namespace {

constexpr const char* kFileColumns =
    "fingerprint, path, format, encoding, kinds, machines, time_zone, bias_minutes, consumed_lines, "
    "consumed_line_hash, rows, issues, first_end_ns, last_end_ns, ingested_at";
constexpr int kColumnCount = 15;

}  // namespace

RowBatch FileInsert(Database* db) {
  return RowBatch(db, std::string("INSERT INTO source_file(") + kFileColumns + ") VALUES", "", kColumnCount);
}

std::vector<RowBatch::Value> FileInsertRow(const FileRecord& f) {
  std::vector<RowBatch::Value> row;
  row.reserve(kColumnCount + 1);
  row.emplace_back(f.fingerprint);
  row.emplace_back(f.path);
  row.emplace_back(f.format);
  row.emplace_back(f.encoding);
  row.emplace_back(f.kinds);
  row.emplace_back(f.machines);
  row.emplace_back(f.time_zone);
  row.emplace_back(static_cast<int64_t>(f.bias_minutes));
  row.emplace_back(f.consumed_lines);
  row.emplace_back(f.consumed_line_hash);
  row.emplace_back(f.rows);
  row.emplace_back(f.issues);
  row.push_back(OptValue(f.first_end));
  row.push_back(OptValue(f.last_end));
  row.emplace_back(NowIso());
  return row;
}

RowBatch FileUpdate(Database* db) {
  return RowBatch(db, std::string("INSERT INTO source_file(id, ") + kFileColumns + ") VALUES",
                  " ON CONFLICT(id) DO UPDATE SET fingerprint = excluded.fingerprint, path = excluded.path, "
                  "format = excluded.format, encoding = excluded.encoding, kinds = excluded.kinds, "
                  "machines = excluded.machines, time_zone = excluded.time_zone, "
                  "bias_minutes = excluded.bias_minutes, consumed_lines = excluded.consumed_lines, "
                  "consumed_line_hash = excluded.consumed_line_hash, rows = excluded.rows, "
                  "issues = excluded.issues, first_end_ns = excluded.first_end_ns, "
                  "last_end_ns = excluded.last_end_ns, ingested_at = excluded.ingested_at",
                  kColumnCount + 1);
}

std::vector<RowBatch::Value> FileUpdateRow(const FileRecord& f) {
  std::vector<RowBatch::Value> row;
  row.reserve(kColumnCount + 1);
  row.emplace_back(f.id);
  for (RowBatch::Value& v : FileInsertRow(f)) row.emplace_back(std::move(v));
  return row;
}

RowBatch IssueInsert(Database* db) {
  return RowBatch(db, "INSERT INTO import_issue(file_id, file, line, severity, code, message) VALUES", "", 6);
}

std::vector<RowBatch::Value> IssueRow(int64_t file_id, const ImportIssue& i) {
  std::vector<RowBatch::Value> row;
  row.reserve(6);
  row.emplace_back(file_id);
  row.emplace_back(i.file);
  row.emplace_back(i.line);
  row.emplace_back(std::string(SeverityName(i.severity)));
  row.emplace_back(i.code);
  row.emplace_back(i.message);
  return row;
}

}  // namespace vrecon
