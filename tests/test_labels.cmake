# ctest labels of every test, by its name (included by ctest after the discovered tests; the
# lanes are in docs/development.md, "Test lanes"). A test gets one lane: unit, e2e, faults,
# accuracy (package: InstallLayout and PlainConfigure, set in CMakeLists.txt); and a label for
# each server it needs: store-pg, vcsim, browser, prometheus. `ctest -L unit` is the fast lane;
# `-LE 'store-pg|vcsim'` runs what needs no test server.
#
# A new test in vrecon_unit_tests is `unit` unless it needs PostgreSQL; one in vrecon_tests is
# `e2e` unless named below. A test that starts a server not named here would be run by a lane
# that does not expect it: add its suite to the pattern of its server.
#
# ctest names of parameterised tests end in "  # GetParam() = ...", hence `( |$)` after a
# parameter.
set(vrecon_pg_param "/Postgres( |$)")
set(vrecon_pg_suites "^(BackendEquivalenceTest|SharedStoreTest|PgCrashTest|PgCompressionTest|PgPartitionMigrationTest|PostgresServerTest|PostgresPipelineTest)\\.|^VmNameMigrationTest\\.AVersion13|^VsphereMarksMigrationTest\\.AVersion14")
set(vrecon_faults "^(ConcurrencyTest|CrashFleetTest|CrashTest|FullDiskTest|IoFaultTest|Ops/FleetIoFaultTest|PgCrashTest|StoreCreationRaceTest)\\.")
set(vrecon_accuracy "^(AccuracyBatchTest|AccuracyCalmTest|AccuracyMixedTest|EsxtopTurboTest|EventAccuracyTest|SamplingBiasAccuracyTest|Scenarios/AccuracyTest|Scenarios/ClockEventTest|Scenarios/IntervalCoverageTest)\\.")
set(vrecon_vcsim "^(Backends/FleetVcsimTest|SharedStoreTest|VcenterIdentityTest|VcsimSmoke)\\.|^VsphereBackfillTest\\.(AFirstRound|TheServersIntervals|AServerKeepingNo)|^VsphereCollectTest\\.(AHostIsItsOwnCounters|AVmsCountersAskedInTwoBatches|CollectsEveryVm|CorrectionUsesVsphereUsage|ExpiredSession|SecondRoundAddsNoDuplicates|TlsIsVerified|WrongPassword)")
set(vrecon_browser "^(ReportBrowserTest|WebViewBrowserTest)\\.")
set(vrecon_prometheus "^PrometheusTest\\.")
# Not faults, but as long as they (tens of seconds under the sanitizers).
set(vrecon_slow_e2e "^(StreamLimitsTest|CapacityCommandTest|ReportBrowserTest)\\.")
# The longest of all in the Release run: about three minutes (the first), one and a half (the
# others).
set(vrecon_longest "^Ops/FleetIoFaultTest\\..*/\"write\"")
set(vrecon_longer "^(IoFaultTest\\.Every(FullDisk|WriteFault)|StoreCreationRaceTest\\.AFailingIngestNeverRemovesAProcfs)")

foreach(test IN LISTS vrecon_unit_tests_TESTS)
  if(test MATCHES "${vrecon_pg_param}" OR test MATCHES "${vrecon_pg_suites}")
    set_tests_properties("${test}" PROPERTIES LABELS "store-pg")
  else()
    set_tests_properties("${test}" PROPERTIES LABELS "unit")
  endif()
endforeach()

foreach(test IN LISTS vrecon_tests_TESTS)
  set(labels e2e)
  if(test MATCHES "${vrecon_faults}")
    set(labels faults)
  elseif(test MATCHES "${vrecon_accuracy}")
    set(labels accuracy)
  endif()
  if(test MATCHES "${vrecon_pg_param}" OR test MATCHES "${vrecon_pg_suites}")
    list(APPEND labels store-pg)
  endif()
  if(test MATCHES "${vrecon_vcsim}")
    list(APPEND labels vcsim)
  endif()
  if(test MATCHES "${vrecon_browser}")
    list(APPEND labels browser)
  endif()
  if(test MATCHES "${vrecon_prometheus}")
    list(APPEND labels prometheus)
  endif()
  set_tests_properties("${test}" PROPERTIES LABELS "${labels}")
  # ctest -j starts the costliest tests first, from the times of the last run; a clean tree (CI)
  # has none, and runs in list order, where the minute-long fault sweeps come near the end and
  # ran on alone after the rest. A cost brings them to the front there, the longest first: among
  # equal costs the three-minute sweep, last in the list, started after the others and ran on
  # alone for the last minute of the run.
  if(test MATCHES "${vrecon_longest}")
    set_tests_properties("${test}" PROPERTIES COST 300)
  elseif(test MATCHES "${vrecon_longer}")
    set_tests_properties("${test}" PROPERTIES COST 200)
  elseif(test MATCHES "${vrecon_faults}" OR test MATCHES "${vrecon_slow_e2e}")
    set_tests_properties("${test}" PROPERTIES COST 100)
  endif()
endforeach()
