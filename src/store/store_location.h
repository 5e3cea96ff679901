// What a --db value (or the fleet file's `db`) names: a SQLite file path, or a PostgreSQL
// database as a postgresql:// or postgres:// URI.
#ifndef VRECON_SRC_STORE_STORE_LOCATION_H_
#define VRECON_SRC_STORE_STORE_LOCATION_H_

#include <string>
#include <string_view>

#include "src/core/status.h"

namespace vrecon {

bool IsPostgresUri(std::string_view db);

// A SQLite store path at which no file exists yet: a command that may read nothing stages it
// (src/store/staged_store.h) rather than creating it.
bool IsNewStoreFile(const std::string& db);

// A URI libpq can read and that carries no password: a password in argv is visible to every user
// of the machine (ps), and one in a fleet file is copied with it. The error says where the
// password belongs, and never repeats it.
Status CheckPostgresUri(const std::string& uri);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_STORE_LOCATION_H_
