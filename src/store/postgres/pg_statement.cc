#include "src/store/postgres/pg_statement.h"

#include <libpq-fe.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "src/core/check.h"
#include "src/core/text_util.h"
#include "src/store/postgres/pg_binary.h"
#include "src/store/postgres/pg_database.h"

namespace vrecon {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// INSERT, UPDATE or DELETE (whatever the case); a WITH or a SELECT may read.
bool IsWrite(std::string_view sql) {
  const std::string_view s = Trim(sql);
  for (std::string_view verb : {"INSERT", "UPDATE", "DELETE"})
    if (s.size() >= verb.size() && EqualsFolded(s.substr(0, verb.size()), verb)) return true;
  return false;
}

}  // namespace

PgStatement::PgStatement(PgDatabase* db, std::string sql, int params, std::string name)
    : db_(db),
      sql_(std::move(sql)),
      name_(std::move(name)),
      text_(params),
      values_(params, nullptr),
      lengths_(params, 0),
      formats_(params, 0) {}

PgStatement::~PgStatement() { PQclear(result_); }

size_t PgStatement::Slot(int i) {
  VRECON_CHECK_MSG(i >= 1 && static_cast<size_t>(i) <= values_.size(),
                   "binding parameter " + std::to_string(i) + " of a statement with " + std::to_string(values_.size()) +
                       ": " + sql_);
  return static_cast<size_t>(i - 1);
}

void PgStatement::Bind(int i, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  BindText(i, std::string_view(buf, r.ptr - buf));
}

// Shortest digits that read back as the same double; PostgreSQL's float8 input is exact.
void PgStatement::Bind(int i, double v) {
  if (std::isnan(v)) return BindText(i, "NaN");
  if (std::isinf(v)) return BindText(i, v > 0 ? "Infinity" : "-Infinity");
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  BindText(i, std::string_view(buf, r.ptr - buf));
}

void PgStatement::BindText(int i, std::string_view t) {
  const size_t s = Slot(i);
  if (t.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    if (bind_status_.ok())
      bind_status_ =
          Status::IOError("database " + db_->path() + ": value too large for parameter " + std::to_string(i));
    return;
  }
  text_[s].assign(t.data(), t.size());
  values_[s] = text_[s].c_str();
  lengths_[s] = static_cast<int>(t.size());
  formats_[s] = 0;
}

void PgStatement::BindBlob(int i, const void* data, size_t size) {
  const size_t s = Slot(i);
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) {
    if (bind_status_.ok())
      bind_status_ =
          Status::IOError("database " + db_->path() + ": value too large for parameter " + std::to_string(i));
    return;
  }
  values_[s] = size ? static_cast<const char*>(data) : "";
  lengths_[s] = static_cast<int>(size);
  formats_[s] = 1;
}

void PgStatement::BindNull(int i) {
  const size_t s = Slot(i);
  values_[s] = nullptr;
  lengths_[s] = 0;
  formats_[s] = 0;
}

Status PgStatement::Execute() {
  const int n = static_cast<int>(values_.size());
  if (!name_.empty() && !prepared_) {
    RETURN_IF_ERROR(db_->Drain());
    RETURN_IF_ERROR(PrepareOnServer());
  }
  if (write_only_ && db_->InTransaction()) {
    rows_ = 0;
    return db_->SendPipelined(name_.c_str(), n, values_.data(), lengths_.data(), formats_.data());
  }
  RETURN_IF_ERROR(db_->Drain());
  result_ = name_.empty() ? PQexecParams(db_->conn(), sql_.c_str(), n, nullptr, values_.data(), lengths_.data(),
                                         formats_.data(), 0)
                          : PQexecPrepared(db_->conn(), name_.c_str(), n, values_.data(), lengths_.data(),
                                           formats_.data(), result_format_);
  const ExecStatusType st = PQresultStatus(result_);
  if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
    rows_ = PQntuples(result_);
    blobs_.resize(PQnfields(result_));  // never again until the next result: views stay valid
    return Status::Ok();
  }
  Status s = db_->Error(result_ ? PQresultErrorMessage(result_) : PQerrorMessage(db_->conn()),
                        result_ ? PQresultErrorField(result_, PG_DIAG_SQLSTATE) : nullptr);
  PQclear(result_);
  result_ = nullptr;
  return s;
}

// Prepared once; its result columns' types decide the format results come in.
Status PgStatement::PrepareOnServer() {
  PGresult* p = PQprepare(db_->conn(), name_.c_str(), sql_.c_str(), static_cast<int>(values_.size()), nullptr);
  Status s = PQresultStatus(p) == PGRES_COMMAND_OK
                 ? Status::Ok()
                 : db_->Error(PQresultErrorMessage(p), PQresultErrorField(p, PG_DIAG_SQLSTATE));
  PQclear(p);
  RETURN_IF_ERROR(s);
  PGresult* d = PQdescribePrepared(db_->conn(), name_.c_str());
  write_only_ = PQresultStatus(d) == PGRES_COMMAND_OK && PQnfields(d) == 0 && IsWrite(sql_);
  if (PQresultStatus(d) == PGRES_COMMAND_OK && PQnfields(d) > 0) {
    result_format_ = 1;
    for (int i = 0; i < PQnfields(d); ++i)
      if (!pg::BinaryReadable(PQftype(d, i))) result_format_ = 0;
  }
  PQclear(d);
  prepared_ = true;
  return Status::Ok();
}

StatusOr<bool> PgStatement::Step() {
  if (!bind_status_.ok()) return bind_status_;
  if (!ran_) {
    RETURN_IF_ERROR(Execute());
    ran_ = true;
    row_ = -1;
  }
  for (auto& b : blobs_) b.clear();
  if (row_ + 1 >= rows_) {
    row_ = rows_;
    return false;
  }
  ++row_;
  return true;
}

void PgStatement::Reset() {
  PQclear(result_);
  result_ = nullptr;
  ran_ = false;
  row_ = -1;
  rows_ = 0;
  std::fill(values_.begin(), values_.end(), nullptr);
  std::fill(formats_.begin(), formats_.end(), 0);
  bind_status_ = Status::Ok();
}

const char* PgStatement::Cell(int i) const {
  VRECON_DCHECK(result_ && row_ >= 0 && row_ < rows_);
  return PQgetvalue(result_, row_, i);
}

int64_t PgStatement::ColumnInt(int i) const {
  if (ColumnIsNull(i)) return 0;
  const char* c = Cell(i);
  if (result_format_ == 1) return pg::BinaryInt(PQftype(result_, i), c, PQgetlength(result_, row_, i));
  const char* end = c + PQgetlength(result_, row_, i);
  int64_t v = 0;
  if (std::from_chars(c, end, v).ec == std::errc()) return v;
  if (*c == 't') return 1;  // a boolean
  return 0;
}

double PgStatement::ColumnDouble(int i) const {
  if (ColumnIsNull(i)) return 0;
  if (result_format_ == 1) return pg::BinaryDouble(PQftype(result_, i), Cell(i), PQgetlength(result_, row_, i));
  return std::strtod(Cell(i), nullptr);  // also reads NaN, Infinity and -Infinity
}

bool PgStatement::ColumnIsNull(int i) const { return PQgetisnull(result_, row_, i) == 1; }

std::string PgStatement::ColumnText(int i) const {
  if (ColumnIsNull(i)) return {};
  if (result_format_ == 1) return pg::BinaryText(PQftype(result_, i), Cell(i), PQgetlength(result_, row_, i));
  return std::string(Cell(i), PQgetlength(result_, row_, i));
}

// bytea in binary form is its bytes; in text form "\x" and two hex digits per byte (bytea_output
// = hex, set on connect). Any other column's bytes are its text (binary: its wire bytes).
std::string_view PgStatement::ColumnBlob(int i) const {
  if (ColumnIsNull(i)) return {};
  if (result_format_ == 1 || PQftype(result_, i) != pg::kBytea)
    return std::string_view(Cell(i), PQgetlength(result_, row_, i));
  std::string& out = blobs_[i];
  const char* c = Cell(i);
  const int len = PQgetlength(result_, row_, i);
  if (len < 2 || c[0] != '\\' || c[1] != 'x') return {};
  out.resize((len - 2) / 2);
  for (size_t k = 0; k < out.size(); ++k) {
    const int hi = HexDigit(c[2 + 2 * k]), lo = HexDigit(c[3 + 2 * k]);
    out[k] = static_cast<char>((hi << 4) | lo);
  }
  return out;
}

}  // namespace vrecon
