// Optional values in and out of statements: a missing value is SQL NULL (never 0, never NaN).
#ifndef VRECON_SRC_STORE_OPTIONAL_COLUMNS_H_
#define VRECON_SRC_STORE_OPTIONAL_COLUMNS_H_

#include <cmath>
#include <cstdint>
#include <optional>

#include "src/store/database.h"
#include "src/store/row_batch.h"

namespace vrecon {

// A double that is missing or not finite binds NULL.
inline void BindOpt(Statement* s, int i, const std::optional<double>& v) {
  if (v && std::isfinite(*v)) s->Bind(i, *v);
  else s->BindNull(i);
}
inline void BindOpt(Statement* s, int i, const std::optional<int>& v) {
  if (v) s->Bind(i, static_cast<int64_t>(*v));
  else s->BindNull(i);
}
inline void BindOpt(Statement* s, int i, const std::optional<int64_t>& v) {
  if (v) s->Bind(i, *v);
  else s->BindNull(i);
}

// The same for a row a RowBatch holds: NULL for a missing (or not finite) value.
inline RowBatch::Value OptValue(const std::optional<double>& v) {
  if (v && std::isfinite(*v)) return RowBatch::Value(*v);
  return RowBatch::Value();
}
inline RowBatch::Value OptValue(const std::optional<int>& v) {
  if (v) return RowBatch::Value(static_cast<int64_t>(*v));
  return RowBatch::Value();
}
inline RowBatch::Value OptValue(const std::optional<int64_t>& v) {
  if (v) return RowBatch::Value(*v);
  return RowBatch::Value();
}

inline std::optional<double> OptDouble(const Statement& s, int i) {
  if (s.ColumnIsNull(i)) return std::nullopt;
  return s.ColumnDouble(i);
}
inline std::optional<int> OptInt(const Statement& s, int i) {
  if (s.ColumnIsNull(i)) return std::nullopt;
  return static_cast<int>(s.ColumnInt(i));
}
inline std::optional<int64_t> OptInt64(const Statement& s, int i) {
  if (s.ColumnIsNull(i)) return std::nullopt;
  return s.ColumnInt(i);
}

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_OPTIONAL_COLUMNS_H_
