# The Debian package (scripts/package.sh: configure with -DVRECON_PACKAGE=ON
# -DCMAKE_INSTALL_PREFIX=/usr, build, `cpack -G DEB`). Only then are the system files installed:
# they have absolute destinations (/etc, /lib/systemd) that a plain `cmake --install --prefix`
# must not touch. VRECON_PACKAGE_MAINTAINER ("Name <mail>") and VRECON_PACKAGE_COMMIT come from
# the script.
include(GNUInstallDirs)
set(pkg ${PROJECT_SOURCE_DIR}/packaging)
set(gen ${PROJECT_BINARY_DIR}/packaging)
file(MAKE_DIRECTORY ${gen})

# Man pages from --help at build time (help2man), for vrecon and each subcommand.
add_custom_command(
  OUTPUT ${gen}/man/vrecon.1.gz
  COMMAND ${CMAKE_COMMAND} -DVRECON=$<TARGET_FILE:vrecon> -DOUT_DIR=${gen}/man -DVERSION=${PROJECT_VERSION}
          -P ${PROJECT_SOURCE_DIR}/cmake/man_pages.cmake
  DEPENDS vrecon ${PROJECT_SOURCE_DIR}/cmake/man_pages.cmake
  COMMENT "man pages (help2man)"
  VERBATIM)
add_custom_target(vrecon_man ALL DEPENDS ${gen}/man/vrecon.1.gz)
install(DIRECTORY ${gen}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1.gz")

# systemd units with the installed binary's path; Debian 12 keeps units under /lib.
foreach(unit vrecon-collect.service vrecon-collect-once.service vrecon-collect-once.timer)
  file(READ ${pkg}/systemd/${unit} text)
  string(REPLACE "/usr/local/bin/vrecon" "${CMAKE_INSTALL_FULL_BINDIR}/vrecon" text "${text}")
  string(REPLACE "file:///usr/share/doc/vrecon/fleet.md" "file:///usr/share/doc/vrecon/docs/fleet.md" text "${text}")
  file(WRITE ${gen}/${unit} "${text}")
  install(FILES ${gen}/${unit} DESTINATION /lib/systemd/system PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endforeach()
install(FILES ${pkg}/systemd/vrecon.sysusers.conf DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/sysusers.d RENAME vrecon.conf)
install(FILES ${pkg}/debian/tmpfiles.conf DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/tmpfiles.d RENAME vrecon.conf)
install(FILES ${pkg}/debian/vrecon.bash-completion DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME vrecon)
# No secrets in it (passwords go in owner-only files it names): readable like any conffile.
install(FILES ${pkg}/debian/fleet.toml DESTINATION /etc/vrecon PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(FILES ${pkg}/grafana/vrecon.json DESTINATION ${CMAKE_INSTALL_DATADIR}/vrecon/grafana)

# /usr/share/doc/vrecon: copyright, the Debian changelog, the README and docs.
set(doc ${CMAKE_INSTALL_DATADIR}/doc/vrecon)
string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(READ ${pkg}/debian/changelog changelog)
string(REPLACE "@VERSION@" "${PROJECT_VERSION}" changelog "${changelog}")
string(REPLACE "@DATE@" "${date}" changelog "${changelog}")
string(REPLACE "@COMMIT@" "${VRECON_PACKAGE_COMMIT}" changelog "${changelog}")
string(REPLACE "@MAINTAINER@" "${VRECON_PACKAGE_MAINTAINER}" changelog "${changelog}")
file(WRITE ${gen}/changelog.Debian "${changelog}")
execute_process(COMMAND gzip -9nf ${gen}/changelog.Debian)
install(FILES ${gen}/changelog.Debian.gz ${pkg}/debian/copyright DESTINATION ${doc})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${doc})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${doc}/docs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vrecon)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${VRECON_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "corrects per-process CPU of VMs with the hypervisor's figures")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Inside a virtual machine the guest's % Processor Time, for the system and
each process, can be far from the physical CPU the VM got. vrecon joins guest
counters (Perfmon logs, Linux /proc) with host data (vSphere, Hyper-V,
esxtop), weights each process by w = host / guest CPU, analyses Ready Time,
and reports, collects on a schedule and serves Prometheus metrics.")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/vrecon/vrecon")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# procps: the units reload the collector with `kill -HUP` (/bin/kill).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser, procps")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${pkg}/debian/postinst ${pkg}/debian/postrm ${gen}/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
file(WRITE ${gen}/conffiles "/etc/vrecon/fleet.toml\n")
include(CPack)
