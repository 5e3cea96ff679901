// The store's schema on PostgreSQL: the same tables as SQLite's (src/store/schema.cc, same
// version numbers), in PostgreSQL's types, with the version in table vrecon_schema.
#ifndef VRECON_SRC_STORE_POSTGRES_PG_SCHEMA_H_
#define VRECON_SRC_STORE_POSTGRES_PG_SCHEMA_H_

#include "src/store/postgres/pg_database.h"
#include "src/store/schema.h"

namespace vrecon {

// Creates or migrates the schema under an advisory lock, so collectors starting at once migrate
// it once. Refuses a database holding other tables without vrecon's, and one written by a newer
// vrecon.
// `create` false: a database without vrecon's schema is NotFound (a command that only reads).
// `up_to` is for tests that build an older store to migrate.
Status MigratePgSchema(PgDatabase* db, bool create, int up_to = kSchemaVersion);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_POSTGRES_PG_SCHEMA_H_
