// A statement of the PostgreSQL connection (pg_database.h). Step runs it on the first call and
// walks the rows of its result; the result is held whole, so other statements may run on the
// connection while one is mid-result, as with SQLite.
#ifndef VRECON_SRC_STORE_POSTGRES_PG_STATEMENT_H_
#define VRECON_SRC_STORE_POSTGRES_PG_STATEMENT_H_

#include <string>
#include <vector>

#include "src/store/database.h"

struct pg_result;

namespace vrecon {

class PgDatabase;

class PgStatement final : public StatementImpl {
 public:
  // `name` empty: sent with its text each time; else prepared on the server under that name.
  PgStatement(PgDatabase* db, std::string sql, int params, std::string name);
  ~PgStatement() override;
  PgStatement(const PgStatement&) = delete;
  PgStatement& operator=(const PgStatement&) = delete;

  void Bind(int i, int64_t v) override;
  void Bind(int i, double v) override;
  void BindText(int i, std::string_view t) override;
  void BindBlob(int i, const void* data, size_t size) override;
  void BindNull(int i) override;
  StatusOr<bool> Step() override;
  void Reset() override;
  int64_t ColumnInt(int i) const override;
  double ColumnDouble(int i) const override;
  bool ColumnIsNull(int i) const override;
  std::string ColumnText(int i) const override;
  std::string_view ColumnBlob(int i) const override;

 private:
  size_t Slot(int i);  // the 0-based slot of parameter i (checked)
  Status Execute();
  Status PrepareOnServer();
  const char* Cell(int i) const;

  PgDatabase* db_;
  std::string sql_, name_;
  bool prepared_ = false;
  bool write_only_ = false;             // INSERT, UPDATE or DELETE with no result columns: may be pipelined
  bool ran_ = false;                    // Step has run it since the last Reset
  std::vector<std::string> text_;       // text parameters' values
  std::vector<const char*> values_;     // per parameter: its bytes, nullptr for NULL
  std::vector<int> lengths_, formats_;  // binary (1) for blobs, else text (0)
  Status bind_status_;
  // 1 (binary) for a prepared statement whose columns pg_binary.h reads, else 0 (text).
  int result_format_ = 0;
  pg_result* result_ = nullptr;
  int row_ = -1, rows_ = 0;
  mutable std::vector<std::string> blobs_;  // decoded bytea cells of the current row
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_POSTGRES_PG_STATEMENT_H_
