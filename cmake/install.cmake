# Install rules: the `dse` binary, the engine's public headers and static libraries, a CMake
# package (find_package(dse) -> dse::dse) and a pkg-config file (dse.pc). The engine is every
# module but cli: the command-line front end (and its optional MPI link) stays out of the library.
include(CMakePackageConfigHelpers)

# Link order: each library before the ones it uses.
set(dse_engine_modules graph codegen search model config ir support)
set(dse_engine_libraries)
foreach(module IN LISTS dse_engine_modules)
  list(APPEND dse_engine_libraries dse_${module})
endforeach()

# dse::dse, the one target a consumer links.
add_library(dse_engine INTERFACE)
set_target_properties(dse_engine PROPERTIES EXPORT_NAME dse)
target_link_libraries(dse_engine INTERFACE ${dse_engine_libraries})
if(DSE_SANITIZE)
  # The libraries are instrumented: whatever links them needs the sanitizer runtimes.
  target_link_options(dse_engine INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()
add_library(dse::dse ALIAS dse_engine)

install(TARGETS dse RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${dse_engine_libraries} dse_engine
        EXPORT dseTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}) # include dirs: see dse_module
foreach(module IN LISTS dse_engine_modules)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dse/${module}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dse)
endforeach()

set(dse_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/dse)
install(EXPORT dseTargets NAMESPACE dse:: DESTINATION ${dse_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dseConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/dseConfig.cmake
                              INSTALL_DESTINATION ${dse_cmake_dir})
# 0.x releases: a minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dseConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dseConfig.cmake ${PROJECT_BINARY_DIR}/dseConfigVersion.cmake
        DESTINATION ${dse_cmake_dir})

# pkg-config: the prefix is found from the .pc file's own place, so that
# `cmake --install --prefix` anywhere gives a working file.
file(RELATIVE_PATH dse_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
set(dse_pc_libs)
foreach(library IN LISTS dse_engine_libraries)
  string(APPEND dse_pc_libs " -l${library}")
endforeach()
if(DSE_SANITIZE)
  string(APPEND dse_pc_libs " -fsanitize=address,undefined")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/dse.pc.in ${PROJECT_BINARY_DIR}/dse.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/dse.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
