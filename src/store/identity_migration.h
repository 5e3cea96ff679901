// Schema migration 6's data step (src/store/schema.cc): VM identities for what earlier versions
// stored by name only.
#ifndef VRECON_SRC_STORE_IDENTITY_MIGRATION_H_
#define VRECON_SRC_STORE_IDENTITY_MIGRATION_H_

#include <string>
#include <string_view>

#include "src/store/database.h"

namespace vrecon {

// The entity of the vSphere VM a file holds, from the fingerprint the API collector gives it
// ("vsphere|<vCenter URL>|<moid>" -> "<URL host>/<moid>"); "" for any other file (PowerCLI
// exports do not say which vCenter they came from).
std::string EntityOfVsphereFile(std::string_view fingerprint);

// Sets series.entity of every vSphere series from the files its blocks came from. A series that
// holds blocks of several VMs (two vCenters' VMs of one name, merged by earlier versions) is
// split: one series per VM, each with its own blocks. Also sets vsphere_vm.entity.
Status AssignVsphereEntities(Database* db);

// PRAGMA foreign_key_check: an error naming the first table with a dangling reference.
Status CheckForeignKeys(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_IDENTITY_MIGRATION_H_
