// A file of samples written straight into a store, as a collector's round stores one.
#ifndef VRECON_TESTS_SUPPORT_SAMPLE_FILE_H_
#define VRECON_TESTS_SUPPORT_SAMPLE_FILE_H_

#include <string>
#include <vector>

#include "src/core/sample.h"
#include "src/store/store.h"

namespace vrecon::testing {

// A sample of each of `columns` every `step` from `from` to `to`, in a file named `name`; column c's
// value is level * (1 + 0.1 c) plus the row number mod 7. Fails the test (ASSERT) on an error.
void WriteSampleFile(Store* store, const std::string& name, const std::vector<SeriesKey>& columns, TimeNs from,
                     TimeNs to, TimeNs step, double level);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_SAMPLE_FILE_H_
