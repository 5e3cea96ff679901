// Store::Open for a postgresql:// URI (src/store/store_location.h).
#include "src/store/postgres/pg_database.h"
#include "src/store/postgres/pg_schema.h"
#include "src/store/store.h"
#include "src/store/store_location.h"

namespace vrecon {

StatusOr<std::unique_ptr<Store>> Store::OpenPostgres(const std::string& uri, bool* created, bool create) {
  if (created) *created = false;
  RETURN_IF_ERROR(CheckPostgresUri(uri));
  ASSIGN_OR_RETURN(std::unique_ptr<PgDatabase> db, PgDatabase::Connect(uri));
  RETURN_IF_ERROR(MigratePgSchema(db.get(), create));
  return std::unique_ptr<Store>(new Store(std::move(db)));
}

}  // namespace vrecon
