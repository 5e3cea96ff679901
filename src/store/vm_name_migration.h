// Schema migration 14's data step (src/store/schema.cc, src/store/postgres/pg_schema.cc): the
// name keys of what earlier versions stored.
#ifndef VRECON_SRC_STORE_VM_NAME_MIGRATION_H_
#define VRECON_SRC_STORE_VM_NAME_MIGRATION_H_

#include "src/store/database.h"

namespace vrecon {

// Sets series.vm_name (models::SeriesVmName) and vsphere_vm.name_key and host_key
// (models::NormalizeVmName of the name and guest.hostName) of every stored row; new rows get
// them from their writers.
Status FillVmNameKeys(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_VM_NAME_MIGRATION_H_
