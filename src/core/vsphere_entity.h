// How vrecon names a vCenter and a VM it knows, so that two vCenters' VMs of one name stay two
// VMs. A VM's entity is "<vCenter id>/<moid>": the managed object id ("vm-123") survives vMotion
// and renames; the vCenter id is the server's about.instanceUuid, or the URL's host where the
// server gives none (and for data stored before vrecon read it). In core: the collector writes
// it into SeriesKey::entity and the store's migration recovers it from file fingerprints.
#ifndef VRECON_SRC_CORE_VSPHERE_ENTITY_H_
#define VRECON_SRC_CORE_VSPHERE_ENTITY_H_

#include <string>
#include <string_view>

#include "src/core/text_util.h"

namespace vrecon {

// The instanceUuid when non-empty (case folded), else UrlHost(url).
inline std::string VcenterId(std::string_view instance_uuid, std::string_view url) {
  instance_uuid = Trim(instance_uuid);
  return instance_uuid.empty() ? UrlHost(url) : FoldCase(instance_uuid);
}

inline std::string VsphereEntity(std::string_view vcenter_id, std::string_view moid) {
  return std::string(vcenter_id) + "/" + std::string(moid);
}

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_VSPHERE_ENTITY_H_
