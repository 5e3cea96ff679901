// Rows whose columns hold one of some keys, on either backend: PostgreSQL gets one statement (each
// column `= ANY(?::text[])`, OR-ed: no round trip per key), SQLite a statement per column run once
// per key (a lookup there costs no round trip, and the column's index serves it).
#ifndef VRECON_SRC_STORE_KEYED_QUERY_H_
#define VRECON_SRC_STORE_KEYED_QUERY_H_

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "src/store/database.h"

namespace vrecon {

struct KeyColumn {
  std::string_view column;
  const std::vector<std::string>* keys;
};

// Runs `sql` with the condition appended (so it ends "... WHERE " or "... WHERE x AND ") and hands
// each run statement to `take` to step through; resets it after. On SQLite a row may come once per
// column that holds one of its keys: callers that mind keep a set.
Status QueryByKeys(Database* db, const std::string& sql, std::initializer_list<KeyColumn> columns,
                   const std::function<Status(Statement*)>& take);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_KEYED_QUERY_H_
