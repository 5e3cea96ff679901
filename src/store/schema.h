// The store's schema, versioned with PRAGMA user_version and migrated forward on open.
// docs/storage.md describes every table.
#ifndef VRECON_SRC_STORE_SCHEMA_H_
#define VRECON_SRC_STORE_SCHEMA_H_

#include "src/store/database.h"

namespace vrecon {

inline constexpr int kSchemaVersion = 19;

// Applies every migration above the database's user_version, each in its own transaction.
// Refuses a database written by a newer vrecon.
// A database with tables but schema version 0 belongs to another program: an error naming some of
// its tables. Reads only; the first thing done with a file before anything is changed in it.
Status RefuseForeignDatabase(Database* db);

Status MigrateSchema(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_SCHEMA_H_
