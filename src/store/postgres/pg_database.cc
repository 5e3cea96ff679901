#include "src/store/postgres/pg_database.h"

#include <libpq-fe.h>

#include "src/store/postgres/pg_statement.h"

namespace vrecon {
namespace {

// libpq's messages end with a newline and may run on over several lines (DETAIL, HINT): the
// user gets the first, which says what failed.
std::string FirstLine(const char* message) {
  std::string m = message ? message : "";
  const size_t nl = m.find('\n');
  if (nl != std::string::npos) m.resize(nl);
  while (!m.empty() && (m.back() == ' ' || m.back() == '\r')) m.pop_back();
  return m.empty() ? "unknown error" : m;
}

void IgnoreNotice(void*, const char*) {}

}  // namespace

Status CheckServerVersion(const std::string& uri, int version) {
  if (version >= PgDatabase::kMinServerVersion) return Status::Ok();
  return Status::NotSupported(uri + " is PostgreSQL " + std::to_string(version / 10000) + "." +
                              std::to_string(version % 10000) + ": vrecon needs PostgreSQL " +
                              std::to_string(PgDatabase::kMinServerVersion / 10000) + " or newer");
}

StatusOr<bool> HasRelation(Database* db, std::string_view name) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT to_regclass(?) IS NOT NULL"));
  q.Bind(1, name);
  ASSIGN_OR_RETURN(bool row, q.Step());
  return row && q.ColumnText(0) == "t";
}

std::string DollarParameters(std::string_view sql, int* params) {
  std::string out;
  out.reserve(sql.size() + 16);
  int highest = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {  // quoted text or identifier; a doubled quote stays inside
      const size_t close = sql.find(c, i + 1);
      const size_t end = close == std::string_view::npos ? sql.size() : close + 1;
      out.append(sql.substr(i, end - i));
      i = end - 1;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      const size_t nl = sql.find('\n', i);
      const size_t end = nl == std::string_view::npos ? sql.size() : nl;
      out.append(sql.substr(i, end - i));
      i = end - 1;
    } else if (c == '?') {
      size_t j = i + 1;
      int n = 0;
      while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
      if (j == i + 1) n = highest + 1;  // a bare ? numbers one past the highest so far (SQLite)
      highest = std::max(highest, n);
      out += '$';
      out += std::to_string(n);
      i = j - 1;
    } else {
      out += c;
    }
  }
  *params = highest;
  return out;
}

StatusOr<std::unique_ptr<PgDatabase>> PgDatabase::Connect(const std::string& uri) {
  // The URI's own settings win over those before it (expand_dbname); those after it are
  // vrecon's and fixed.
  const char* keys[] = {"connect_timeout", "fallback_application_name", "dbname", nullptr};
  const char* values[] = {"10", "vrecon", uri.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keys, values, 1);
  if (!conn) return Status::IOError("cannot connect to " + uri + ": out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = "cannot connect to " + uri + ": " + FirstLine(PQerrorMessage(conn));
    PQfinish(conn);
    return Status::IOError(msg);
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  std::unique_ptr<PgDatabase> db(new PgDatabase(conn, uri));
  RETURN_IF_ERROR(CheckServerVersion(uri, PQserverVersion(conn)));
  // Times are stored as integers and text as given: no setting of the server changes a value,
  // but these fix how values come back.
  RETURN_IF_ERROR(db->Exec("SET client_encoding = 'UTF8'; SET bytea_output = 'hex'; SET extra_float_digits = 1"));
  return db;
}

PgDatabase::~PgDatabase() {
  DropCached();
  PQfinish(conn_);
}

StatusOr<PgDatabase*> PgDatabase::Sidecar() {
  if (!sidecar_) {
    ASSIGN_OR_RETURN(sidecar_, Connect(uri_));
    RETURN_IF_ERROR(sidecar_->Exec("SET lock_timeout = '60s'"));
  }
  return sidecar_.get();
}

std::string PgDatabase::label() const { return PQdb(conn_); }

bool PgDatabase::InTransaction() const { return PQtransactionStatus(conn_) != PQTRANS_IDLE; }

int PgDatabase::server_version() const { return PQserverVersion(conn_); }

Status PgDatabase::Error(const std::string& what, const char* sqlstate) {
  last_sqlstate_ = sqlstate ? sqlstate : "";
  std::string m = FirstLine(what.c_str());
  // libpq puts "ERROR:  " before the server's message; the user knows it is one.
  if (m.rfind("ERROR:  ", 0) == 0) m.erase(0, 8);
  if (PQstatus(conn_) == CONNECTION_BAD) return Status::Unavailable("database " + uri_ + ": connection lost: " + m);
  return Status::IOError("database " + uri_ + ": " + m);
}

std::string PgDatabase::NextStatementName() { return "vrecon_" + std::to_string(++statements_); }

Status PgDatabase::SendPipelined(const char* name, int n, const char* const* values, const int* lengths,
                                 const int* formats) {
  if (PQpipelineStatus(conn_) == PQ_PIPELINE_OFF && PQenterPipelineMode(conn_) != 1)
    return Error(PQerrorMessage(conn_), nullptr);
  ++pipelined_;
  if (PQsendQueryPrepared(conn_, name, n, values, lengths, formats, 0) != 1) {
    Status sent = Error(PQerrorMessage(conn_), nullptr);
    Drain().IgnoreError();
    return sent;
  }
  return pipelined_ >= kMaxPipelined ? Drain() : Status::Ok();
}

Status PgDatabase::Drain() {
  if (PQpipelineStatus(conn_) == PQ_PIPELINE_OFF) return Status::Ok();
  pipelined_ = 0;
  Status first = Status::Ok();
  if (PQpipelineSync(conn_) != 1) {
    first = Error(PQerrorMessage(conn_), nullptr);
  } else {
    // Each write's answer, a NULL after each, then the sync's own.
    while (true) {
      PGresult* r = PQgetResult(conn_);
      if (r == nullptr) {
        if (PQstatus(conn_) == CONNECTION_BAD) {
          if (first.ok()) first = Error(PQerrorMessage(conn_), nullptr);
          break;
        }
        continue;
      }
      const ExecStatusType st = PQresultStatus(r);
      if (st == PGRES_FATAL_ERROR && first.ok())
        first = Error(PQresultErrorMessage(r), PQresultErrorField(r, PG_DIAG_SQLSTATE));
      PQclear(r);
      if (st == PGRES_PIPELINE_SYNC) break;
    }
  }
  if (PQexitPipelineMode(conn_) != 1 && first.ok()) first = Error(PQerrorMessage(conn_), nullptr);
  return first;
}

Status PgDatabase::Exec(std::string_view sql) {
  // A ROLLBACK must go out even when a pipelined write failed: that failure is why.
  Status pending = Drain();
  if (!pending.ok() && sql != "ROLLBACK") return pending;
  PGresult* r = PQexec(conn_, std::string(sql).c_str());
  const ExecStatusType st = PQresultStatus(r);
  Status s = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK
                 ? Status::Ok()
                 : Error(r ? PQresultErrorMessage(r) : PQerrorMessage(conn_),
                         r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr);
  PQclear(r);
  return s;
}

StatusOr<Statement> PgDatabase::Prepare(std::string_view sql) {
  int params = 0;
  std::string text = DollarParameters(sql, &params);
  return Statement(std::make_unique<PgStatement>(this, std::move(text), params, std::string()));
}

StatusOr<Statement> PgDatabase::PrepareKept(std::string_view sql) {
  int params = 0;
  std::string text = DollarParameters(sql, &params);
  return Statement(std::make_unique<PgStatement>(this, std::move(text), params, NextStatementName()));
}

}  // namespace vrecon
