#include "src/store/store_location.h"

#include <filesystem>

#include <libpq-fe.h>

namespace vrecon {

bool IsPostgresUri(std::string_view db) { return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0; }

bool IsNewStoreFile(const std::string& db) {
  std::error_code ec;
  return !IsPostgresUri(db) && db != ":memory:" && !std::filesystem::exists(db, ec);
}

Status CheckPostgresUri(const std::string& uri) {
  char* err = nullptr;
  PQconninfoOption* opts = PQconninfoParse(uri.c_str(), &err);
  if (!opts) {
    // libpq's message quotes nothing of the URI but says what it could not read.
    std::string why = err ? err : "out of memory";
    PQfreemem(err);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    return Status::InvalidArgument("cannot read the PostgreSQL URI: " + why);
  }
  bool has_password = false;
  for (PQconninfoOption* o = opts; o->keyword; ++o) {
    if (std::string_view(o->keyword) == "password" && o->val && *o->val) has_password = true;
  }
  PQconninfoFree(opts);
  if (has_password) {
    return Status::InvalidArgument(
        "the PostgreSQL URI carries a password, which vrecon refuses (a command line is visible to every user of the "
        "machine, and a file is copied with its secrets): remove it from the URI and give it in PGPASSWORD, in "
        "~/.pgpass, or in the owner-only file PGPASSFILE names");
  }
  return Status::Ok();
}

}  // namespace vrecon
