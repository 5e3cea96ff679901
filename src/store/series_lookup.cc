// FindSeries and SeriesNamed (declared in src/store/sample_reader.h): the series table read back.
#include <algorithm>
#include <set>
#include <tuple>

#include "src/core/text_util.h"
#include "src/store/keyed_query.h"
#include "src/store/sample_reader.h"

namespace vrecon {
namespace {

constexpr const char* kSeriesColumns =
    "SELECT id, source, machine, object, instance, counter, unit, original, entity "
    "FROM series";

// A row of kSeriesColumns; `source` gets the source as stored.
StoredSeries ReadSeriesRow(const Statement& q, std::string* source) {
  StoredSeries s;
  s.id = q.ColumnInt(0);
  *source = q.ColumnText(1);
  ParseSourceKind(*source, &s.key.source);
  s.key.machine = q.ColumnText(2);
  s.key.object = q.ColumnText(3);
  s.key.instance = q.ColumnText(4);
  s.key.counter = q.ColumnText(5);
  s.key.unit = q.ColumnText(6);
  s.key.original = q.ColumnText(7);
  s.key.entity = q.ColumnText(8);
  return s;
}

// Appends the rows of `q` (kSeriesColumns) whose id is not in `seen`.
Status TakeRows(Statement* q, std::set<int64_t>* seen, std::vector<StoredSeries>* out) {
  std::string source;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    StoredSeries s = ReadSeriesRow(*q, &source);
    if (seen->insert(s.id).second) out->push_back(std::move(s));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<StoredSeries>> FindSeries(Store* store, const SeriesFilter& f) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare(std::string(kSeriesColumns) +
                                                     " ORDER BY machine, object, instance, counter, source, entity"));
  std::vector<StoredSeries> out;
  auto match = [](const std::optional<std::string>& pat, const std::string& v) { return !pat || GlobMatch(*pat, v); };
  std::string source;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    StoredSeries s = ReadSeriesRow(q, &source);
    if (match(f.source, source) && match(f.machine, s.key.machine) && match(f.object, s.key.object) &&
        match(f.instance, s.key.instance) && match(f.counter, s.key.counter))
      out.push_back(std::move(s));
  }
  return out;
}

StatusOr<std::vector<StoredSeries>> SeriesNamed(Store* store, const std::vector<std::string>& vm_names,
                                                const std::vector<std::string>& entities) {
  std::vector<StoredSeries> out;
  std::set<int64_t> seen;
  RETURN_IF_ERROR(QueryByKeys(store->db(), std::string(kSeriesColumns) + " WHERE ",
                              {{"vm_name", &vm_names}, {"entity", &entities}},
                              [&](Statement* q) { return TakeRows(q, &seen, &out); }));
  // FindSeries' order (the "C" collation's byte order is std::string's).
  auto order = [](const StoredSeries& s) {
    const SeriesKey& k = s.key;
    return std::make_tuple(std::cref(k.machine), std::cref(k.object), std::cref(k.instance), std::cref(k.counter),
                           SourceKindName(k.source), std::cref(k.entity));
  };
  std::sort(out.begin(), out.end(), [&](const StoredSeries& a, const StoredSeries& b) { return order(a) < order(b); });
  return out;
}

}  // namespace vrecon
