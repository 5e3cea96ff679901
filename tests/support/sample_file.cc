#include "tests/support/sample_file.h"

#include <gtest/gtest.h>

#include "src/store/block_writer.h"

namespace vrecon::testing {

void WriteSampleFile(Store* store, const std::string& name, const std::vector<SeriesKey>& columns, TimeNs from,
                     TimeNs to, TimeNs step, double level) {
  FileRecord rec;
  rec.fingerprint = name;
  rec.path = name;
  rec.format = "test";
  rec.consumed_line_hash.assign(1, '0');
  ASSERT_TRUE(store->SaveFile(&rec).ok());
  BlockWriter writer(store);
  writer.set_file_id(rec.id);
  ASSERT_TRUE(writer.DeclareColumns(columns).ok());
  int rows = 0;
  for (TimeNs t = from; t < to; t += step, ++rows) {
    std::vector<double> row(columns.size());
    for (size_t c = 0; c < row.size(); ++c) row[c] = level * (1 + 0.1 * static_cast<double>(c)) + (rows % 7);
    ASSERT_TRUE(writer.AddRow(t, t + step, row).ok());
  }
  ASSERT_TRUE(writer.Finish().ok());
  rec.rows = rows;
  ASSERT_TRUE(store->SaveFile(&rec).ok());
}

}  // namespace vrecon::testing
