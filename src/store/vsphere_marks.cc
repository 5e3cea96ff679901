#include "src/store/vsphere_marks.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <vector>

namespace vrecon {
namespace {

// (moid, interval_s) -> counter -> mark.
using VmMarks = std::map<std::pair<std::string, int>, std::map<std::string, TimeNs>>;

VmMarks ByVm(const std::map<MarkKey, TimeNs>& marks) {
  VmMarks out;
  for (const auto& [key, t] : marks) {
    const auto& [moid, counter, interval] = key;
    out[{moid, interval}][counter] = t;
  }
  return out;
}

TimeNs Newest(const std::map<std::string, TimeNs>& counters) {
  TimeNs newest = std::numeric_limits<TimeNs>::min();
  for (const auto& [counter, t] : counters) newest = std::max(newest, t);
  return newest;
}

// Upserts the rows of `vms` into vsphere_vm_mark, up to 32 to a statement (a batch's VMs in a
// statement or two on either backend, with at most six statement texts).
Status WriteRows(Database* db, const std::string& vcenter, const VmMarks& vms) {
  constexpr size_t kMostRows = 32;
  auto it = vms.begin();
  size_t left = vms.size();
  while (left > 0) {
    size_t rows = kMostRows;
    while (rows > left) rows /= 2;
    std::string sql = "INSERT INTO vsphere_vm_mark(vcenter, moid, interval_s, last_end_ns, counters) VALUES(?,?,?,?,?)";
    for (size_t r = 1; r < rows; ++r) sql += ",(?,?,?,?,?)";
    sql +=
        " ON CONFLICT(vcenter, moid, interval_s) DO UPDATE SET last_end_ns = excluded.last_end_ns, counters = "
        "excluded.counters WHERE excluded.last_end_ns >= vsphere_vm_mark.last_end_ns";
    ASSIGN_OR_RETURN(Statement * q, db->Cached(sql));
    for (size_t r = 0; r < rows; ++r, ++it) {
      const int p = static_cast<int>(r * 5);
      const auto& [moid, interval] = it->first;
      const TimeNs newest = Newest(it->second);
      q->Bind(p + 1, vcenter).Bind(p + 2, moid).Bind(p + 3, static_cast<int64_t>(interval)).Bind(p + 4, newest);
      q->Bind(p + 5, EncodeVmMarks(it->second, newest));
    }
    RETURN_IF_ERROR(q->Run());
    left -= rows;
  }
  return Status::Ok();
}

}  // namespace

std::string EncodeVmMarks(const std::map<std::string, TimeNs>& counters, TimeNs last_end) {
  std::string out;
  for (const auto& [counter, t] : counters) {
    if (!out.empty()) out += '\n';
    out += std::to_string(last_end - t);
    out += ' ';
    out += counter;
  }
  return out;
}

std::optional<std::map<std::string, TimeNs>> DecodeVmMarks(std::string_view text, TimeNs last_end) {
  std::map<std::string, TimeNs> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const size_t space = line.find(' ');
    TimeNs behind = 0;
    if (space == std::string_view::npos || space + 1 == line.size()) return std::nullopt;
    auto r = std::from_chars(line.data(), line.data() + space, behind);
    TimeNs mark = 0;
    if (r.ec != std::errc() || r.ptr != line.data() + space || behind < 0 ||
        __builtin_sub_overflow(last_end, behind, &mark))
      return std::nullopt;
    out[std::string(line.substr(space + 1))] = mark;
  }
  return out;
}

StatusOr<std::map<MarkKey, TimeNs>> VsphereMarks(Store* store, const std::string& vcenter) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT moid, interval_s, last_end_ns, counters FROM vsphere_vm_mark "
                                            "WHERE vcenter = ?"));
  q.Bind(1, vcenter);
  std::map<MarkKey, TimeNs> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    const std::string moid = q.ColumnText(0);
    const auto counters = DecodeVmMarks(q.ColumnText(3), q.ColumnInt(2));
    if (!counters) {
      return Status::ParseError("database " + db->path() + ": the high-water marks of " + moid + " on " + vcenter +
                                " are damaged");
    }
    for (const auto& [counter, t] : *counters) out[{moid, counter, static_cast<int>(q.ColumnInt(1))}] = t;
  }
  return out;
}

Status SetVsphereMarks(Store* store, const std::string& vcenter, const std::map<MarkKey, TimeNs>& marks) {
  return WriteRows(store->db(), vcenter, ByVm(marks));
}

StatusOr<std::optional<TimeNs>> NewestVsphereMark(Store* store, const std::string& vcenter) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare("SELECT max(last_end_ns) FROM vsphere_vm_mark WHERE vcenter = ?"));
  q.Bind(1, vcenter);
  ASSIGN_OR_RETURN(bool row, q.Step());
  if (!row || q.ColumnIsNull(0)) return std::optional<TimeNs>();
  return std::optional<TimeNs>(q.ColumnInt(0));
}

Status PackVsphereMarks(Database* db) {
  ASSIGN_OR_RETURN(Statement q,
                   db->Prepare("SELECT vcenter, moid, counter, interval_s, last_end_ns FROM vsphere_mark"));
  std::map<std::string, VmMarks> by_vcenter;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    TimeNs& t = by_vcenter[q.ColumnText(0)][{q.ColumnText(1), static_cast<int>(q.ColumnInt(3))}][q.ColumnText(2)];
    t = q.ColumnInt(4);
  }
  q.Reset();
  for (const auto& [vcenter, vms] : by_vcenter) RETURN_IF_ERROR(WriteRows(db, vcenter, vms));
  return db->Exec("DROP TABLE vsphere_mark");
}

}  // namespace vrecon
