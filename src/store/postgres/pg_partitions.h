// PostgreSQL keeps value_block, the store's largest table by far, in one partition per UTC month
// of its blocks' last sample (block_end_ns), so that `vrecon prune` drops a month at once
// instead of deleting its rows. Partitions are named value_block_YYYYMM and made when the first
// block of their month is written (docs/storage.md "PostgreSQL").
#ifndef VRECON_SRC_STORE_POSTGRES_PG_PARTITIONS_H_
#define VRECON_SRC_STORE_POSTGRES_PG_PARTITIONS_H_

#include <string>
#include <vector>

#include "src/core/time_util.h"
#include "src/store/postgres/pg_database.h"

namespace vrecon {

struct SampleMonth {
  int year = 0, month = 0;  // UTC
  // The partition's bounds as SQL: a time in ns, or MINVALUE/MAXVALUE at the ends of what an
  // int64 of ns can hold (1677-09, 2262-04).
  std::string from_sql, to_sql;
  TimeNs to = 0;     // exclusive end; the largest TimeNs for the last month
  std::string name;  // value_block_YYYYMM
};

// The month a block ending at `block_end` belongs to.
SampleMonth SampleMonthOf(TimeNs block_end);

// Makes the month's partition on `db` unless it exists. On a writer's connection this would wait
// for that writer's own transaction (a new partition takes a lock on value_block that writers
// hold until they commit), so writers call it through their sidecar connection: there it
// commits at once, under an advisory lock that makes two writers create a month once.
Status EnsureSamplePartition(PgDatabase* db, const SampleMonth& m);

// The partitions there are, oldest first.
StatusOr<std::vector<SampleMonth>> SamplePartitions(Database* db);

// Migration 10: value_block becomes partitioned by month; its rows move into the partitions.
Status PartitionValueBlocks(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_POSTGRES_PG_PARTITIONS_H_
