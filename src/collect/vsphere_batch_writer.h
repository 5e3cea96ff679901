// Stores one QueryPerf answer (a batch) in one transaction: samples as blocks under one file
// record per VM or host, import issues, and the high-water marks, which move only with the commit.
#ifndef VRECON_SRC_COLLECT_VSPHERE_BATCH_WRITER_H_
#define VRECON_SRC_COLLECT_VSPHERE_BATCH_WRITER_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adapters/vsphere/vsphere_client.h"
#include "adapters/vsphere/vsphere_units.h"
#include "src/collect/vsphere_collect.h"
#include "src/store/store.h"
#include "src/store/vsphere_tables.h"
#include "src/store/write_ahead.h"

namespace vrecon {

class VsphereBatchWriter {
 public:
  // `vcenter` is the URL (files, marks, messages); `vcenter_id` names the server in each series'
  // entity (src/core/vsphere_entity.h).
  // `counters`: the VMs' and the hosts' by id; `hosts`: the hosts asked for their own counters,
  // stored as source vsphere-host.
  VsphereBatchWriter(Store* store, std::string vcenter, std::string vcenter_id,
                     const std::map<int, vsphere::CounterInfo>& counters,
                     const std::map<std::string, vsphere::VmInfo>& vms,
                     const std::map<std::string, vsphere::HostInfo>& hosts, std::map<MarkKey, TimeNs>* marks)
      : store_(store),
        vcenter_(std::move(vcenter)),
        vcenter_id_(std::move(vcenter_id)),
        counters_(counters),
        vms_(vms),
        hosts_(hosts),
        marks_(marks) {}

  // Samples at or before a (VM, counter, interval) mark are skipped: servers repeat the sample
  // at startTime. Adds to result's samples, issues and first/last new sample ends.
  Status Write(const std::vector<vsphere::EntityMetrics>& metrics, const std::vector<vsphere::QuerySpec>& asked,
               VsphereCollectResult* result);

 private:
  // One VM's answer as series: a column per counter and instance the server answered for.
  struct Columns {
    std::string vm_name;  // or the host's
    bool host = false;
    std::vector<SeriesKey> keys;
    std::vector<const vsphere::MetricSeries*> series;
    std::vector<vsphere::RawUnit> units;
  };
  Columns ColumnsOf(const vsphere::EntityMetrics& em) const;
  std::map<MarkKey, TimeNs> WithTheirOtherMarks(const std::map<MarkKey, TimeNs>& moved) const;
  std::string Fingerprint(const vsphere::EntityMetrics& em) const;
  // The batch's file rows, one per VM or host, and which of them each of `metrics` counts into.
  struct BatchFiles {
    std::vector<FileRecord> rows;
    std::vector<size_t> row_of;  // by index of `metrics`
  };
  // The rows stored, and new ones added.
  StatusOr<BatchFiles> FileRows(const std::vector<vsphere::EntityMetrics>& metrics,
                                const std::vector<std::string>& fingerprints, const std::vector<Columns>& columns);
  // `file`: the VM's file row (counts and times updated here); `ahead`: the batch's series and
  // block ids and held rows.
  Status WriteEntity(const vsphere::EntityMetrics& em, const Columns& cols, FileRecord* file, WriteAhead* ahead,
                     std::map<MarkKey, TimeNs>* moved, int64_t* samples, std::vector<ImportIssue>* issues);

  Store* store_;
  std::string vcenter_, vcenter_id_;
  const std::map<int, vsphere::CounterInfo>& counters_;
  const std::map<std::string, vsphere::VmInfo>& vms_;
  const std::map<std::string, vsphere::HostInfo>& hosts_;
  std::map<MarkKey, TimeNs>* marks_;
  std::optional<TimeNs> first_, last_;  // sample ends written by the batch in progress
  std::set<std::string> vm_keys_;       // VMs the batch in progress wrote samples of
};

}  // namespace vrecon

#endif  // VRECON_SRC_COLLECT_VSPHERE_BATCH_WRITER_H_
