#include "src/store/postgres/pg_partitions.h"

#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

namespace vrecon {
namespace {

using std::chrono::sys_days;
using std::chrono::year_month;

// vrecon's advisory locks are (1987011213, N): 1 for making a partition (pg_schema.cc has 0).
constexpr const char* kPartitionLock = "SELECT pg_advisory_lock(1987011213, 1)";
constexpr const char* kPartitionUnlock = "SELECT pg_advisory_unlock(1987011213, 1)";

// The first instant of `ym` in ns, or nullopt when an int64 of ns cannot hold it.
std::optional<TimeNs> MonthStart(year_month ym) {
  const int64_t day = sys_days(ym / 1).time_since_epoch().count();
  constexpr int64_t kLastDay = std::numeric_limits<TimeNs>::max() / kNsPerDay;  // 2262-04-11
  if (day < -kLastDay || day > kLastDay) return std::nullopt;
  return day * kNsPerDay;
}

SampleMonth Month(year_month ym) {
  SampleMonth m;
  m.year = static_cast<int>(ym.year());
  m.month = static_cast<int>(static_cast<unsigned>(ym.month()));
  const std::optional<TimeNs> from = MonthStart(ym);
  const std::optional<TimeNs> to = MonthStart(ym + std::chrono::months(1));
  m.from_sql = from ? std::to_string(*from) : "MINVALUE";
  m.to_sql = to ? std::to_string(*to) : "MAXVALUE";
  m.to = to.value_or(std::numeric_limits<TimeNs>::max());
  char name[32];
  std::snprintf(name, sizeof name, "value_block_%04d%02d", m.year, m.month);
  m.name = name;
  return m;
}

// DDL takes no bound parameters: the statements below are built from a partition's numbers and
// its name, which are vrecon's own (SampleMonth), never text from a user or a file.
std::string AttachSql(const SampleMonth& m) {
  return "ALTER TABLE value_block ATTACH PARTITION " + m.name + " FOR VALUES FROM (" + m.from_sql + ") TO (" +
         m.to_sql + ")";
}

Status CreatePartition(Database* db, const SampleMonth& m) {
  // LIKE copies the columns, their storage (PLAIN) and NOT NULLs; ATTACH adds the indexes.
  // Attaching takes a weaker lock on value_block than CREATE TABLE ... PARTITION OF: writers
  // inserting meanwhile go on.
  RETURN_IF_ERROR(db->Exec("CREATE TABLE " + m.name + " (LIKE value_block INCLUDING DEFAULTS INCLUDING STORAGE)"));
  return db->Exec(AttachSql(m));
}

StatusOr<bool> Attached(Database* db, const SampleMonth& m) {
  ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT EXISTS(SELECT 1 FROM pg_inherits WHERE inhrelid = "
                                             "to_regclass(?) AND inhparent = to_regclass('value_block'))"));
  q->Bind(1, std::string_view(m.name));
  ASSIGN_OR_RETURN(bool row, q->Step());
  const bool attached = row && q->ColumnText(0) == "t";
  q->Reset();
  return attached;
}

// In one transaction, so that a connection lost between the two steps leaves no table that is
// not a partition (its name would pass for the month's partition and every insert would fail).
// A table of the month's name that is not attached (left by an earlier version) is attached.
Status MakePartition(PgDatabase* side, const SampleMonth& m) {
  ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(side));
  ASSIGN_OR_RETURN(bool attached, Attached(side, m));
  if (attached) return tx.Commit();
  ASSIGN_OR_RETURN(bool exists, HasRelation(side, m.name));
  if (exists) {
    RETURN_IF_ERROR(side->Exec(AttachSql(m)));
  } else {
    RETURN_IF_ERROR(CreatePartition(side, m));
  }
  return tx.Commit();
}

}  // namespace

SampleMonth SampleMonthOf(TimeNs block_end) {
  // The day without FloorTo, whose day x ns overflows for the first day a TimeNs holds.
  const int64_t days = block_end / kNsPerDay - (block_end % kNsPerDay < 0 ? 1 : 0);
  const sys_days day{std::chrono::days(days)};
  const std::chrono::year_month_day ymd(day);
  return Month(ymd.year() / ymd.month());
}

Status EnsureSamplePartition(PgDatabase* db, const SampleMonth& m) {
  // Looked for on the writer's own connection: the month's partition is there but once a month,
  // and the sidecar is a second connection (for a password, a second SCRAM exchange, about 60 M
  // instructions of the client's), made only when a partition has to be made.
  ASSIGN_OR_RETURN(bool attached, Attached(db, m));
  if (attached) return Status::Ok();
  ASSIGN_OR_RETURN(PgDatabase * side, db->Sidecar());
  RETURN_IF_ERROR(side->Exec(kPartitionLock));
  // Another writer may have made it between the look and the lock: MakePartition looks again.
  Status made = MakePartition(side, m);
  Status unlocked = side->Exec(kPartitionUnlock);
  if (!made.ok()) return made;
  return unlocked;
}

StatusOr<std::vector<SampleMonth>> SamplePartitions(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                                            "WHERE i.inhparent = to_regclass('value_block') ORDER BY c.relname"));
  std::vector<SampleMonth> months;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    const std::string name = q.ColumnText(0);
    int y = 0, mo = 0;
    if (std::sscanf(name.c_str(), "value_block_%4d%2d", &y, &mo) != 2 || mo < 1 || mo > 12)
      return Status::Internal("partition " + name + " of value_block is not one vrecon made (value_block_YYYYMM)");
    months.push_back(Month(std::chrono::year(y) / std::chrono::month(static_cast<unsigned>(mo))));
  }
  return months;
}

Status PartitionValueBlocks(Database* db) {
  RETURN_IF_ERROR(db->Exec(R"sql(
ALTER TABLE value_block RENAME TO value_block_v9;
ALTER INDEX value_block_by_series RENAME TO value_block_v9_by_series;
ALTER INDEX value_block_by_block RENAME TO value_block_v9_by_block;
CREATE TABLE value_block(
  series_id bigint NOT NULL,
  block_id bigint NOT NULL,
  present bigint NOT NULL,
  vals bytea NOT NULL,
  block_end_ns bigint NOT NULL
) PARTITION BY RANGE (block_end_ns);
ALTER TABLE value_block ALTER COLUMN vals SET STORAGE PLAIN;
CREATE UNIQUE INDEX value_block_by_series ON value_block(series_id, block_id, block_end_ns);
CREATE INDEX value_block_by_block ON value_block(block_id);
)sql"));
  ASSIGN_OR_RETURN(Statement ends, db->Prepare("SELECT DISTINCT last_end_ns FROM time_block"));
  std::map<std::string, SampleMonth> months;
  while (true) {
    ASSIGN_OR_RETURN(bool row, ends.Step());
    if (!row) break;
    SampleMonth m = SampleMonthOf(ends.ColumnInt(0));
    months.emplace(m.name, std::move(m));
  }
  for (const auto& [name, m] : months) RETURN_IF_ERROR(CreatePartition(db, m));
  return db->Exec(R"sql(
INSERT INTO value_block(series_id, block_id, present, vals, block_end_ns)
  SELECT v.series_id, v.block_id, v.present, v.vals, t.last_end_ns
  FROM value_block_v9 v JOIN time_block t ON t.id = v.block_id;
DROP TABLE value_block_v9;
)sql");
}

}  // namespace vrecon
