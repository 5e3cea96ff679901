#include "src/store/keyed_query.h"

#include "src/store/array_literal.h"

namespace vrecon {

Status QueryByKeys(Database* db, const std::string& sql, std::initializer_list<KeyColumn> columns,
                   const std::function<Status(Statement*)>& take) {
  if (db->backend() == Backend::kPostgres) {
    std::string condition;
    for (const KeyColumn& c : columns)
      condition += std::string(condition.empty() ? "(" : " OR ") + std::string(c.column) + " = ANY(?::text[])";
    ASSIGN_OR_RETURN(Statement * q, db->Cached(sql + condition + ")"));
    int p = 0;
    for (const KeyColumn& c : columns) q->Bind(++p, TextArrayLiteral(*c.keys));
    Status s = take(q);
    q->Reset();
    return s;
  }
  for (const KeyColumn& c : columns) {
    ASSIGN_OR_RETURN(Statement q, db->Prepare(sql + std::string(c.column) + " = ?"));
    for (const std::string& key : *c.keys) {
      RETURN_IF_ERROR(take(&q.Bind(1, key)));
      q.Reset();
    }
  }
  return Status::Ok();
}

}  // namespace vrecon
