# Installs the build into a scratch prefix and checks that PREFIX/bin/vrecon runs.
# cmake -DBUILD_DIR=... -DPREFIX=... -P install_check.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE rc
                OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND "${PREFIX}/bin/vrecon" --version RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "vrecon")
  message(FATAL_ERROR "${PREFIX}/bin/vrecon --version failed (${rc}): ${out}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
