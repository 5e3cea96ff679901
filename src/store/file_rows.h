// The rows of source_file and import_issue: one builder per table, for Store's own writes of one
// file and for WriteAhead, which holds a collector batch's rows and writes them many to a
// statement (src/store/row_batch.h).
#ifndef VRECON_SRC_STORE_FILE_ROWS_H_
#define VRECON_SRC_STORE_FILE_ROWS_H_

#include <cstdint>
#include <vector>

#include "src/store/row_batch.h"
#include "src/store/store.h"

namespace vrecon {

// New files' rows (the table gives their ids: FlushReturning(" RETURNING id, fingerprint")).
RowBatch FileInsert(Database* db);
std::vector<RowBatch::Value> FileInsertRow(const FileRecord& f);
// Rewrites files' rows by id: an upsert, since one UPDATE cannot take many rows' values without
// typing each parameter. The rows exist (their files were found or inserted first).
RowBatch FileUpdate(Database* db);
std::vector<RowBatch::Value> FileUpdateRow(const FileRecord& f);

RowBatch IssueInsert(Database* db);
std::vector<RowBatch::Value> IssueRow(int64_t file_id, const ImportIssue& i);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_FILE_ROWS_H_
