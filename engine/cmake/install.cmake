# install.cmake - what cmake --install puts under the prefix, for a game built outside this
# tree:
#   lib/libstrata.a                             the engine
#   include/strata/<folder>/*.h, version.h      its headers, as <strata/core/arena.h>
#   lib/cmake/strata/                           find_package(strata CONFIG REQUIRED): strata::engine
#   lib/pkgconfig/strata.pc                     pkg-config --cflags --libs strata
#   bin/strata-host                             the host that runs a game library (hot reload)
#   share/doc/strata/LICENSE                    the zlib licence
# The tools (arenaplot) install themselves from tools/.
include(CMakePackageConfigHelpers)
set(STRATA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/strata)

install(TARGETS engine EXPORT strataTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata
        FILES_MATCHING PATTERN "*.h" PATTERN "cmake" EXCLUDE PATTERN "web" EXCLUDE)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/generated/strata/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata)
install(EXPORT strataTargets NAMESPACE strata:: DESTINATION ${STRATA_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/strataConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/strataConfig.cmake INSTALL_DESTINATION ${STRATA_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/strataConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/strataConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/strataConfigVersion.cmake
        DESTINATION ${STRATA_CMAKE_DIR})
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/strata.pc.in ${CMAKE_CURRENT_BINARY_DIR}/strata.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/strata.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET engine_host)
  set_target_properties(engine_host PROPERTIES INSTALL_RPATH "")
  install(TARGETS engine_host RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/../LICENSE)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/../LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
