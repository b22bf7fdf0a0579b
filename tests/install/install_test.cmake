# Installs the build into a temporary prefix, then builds tests/install/consumer against it twice
# (find_package(dse), and pkg-config when available), runs both and checks that they print the
# size of the front `dse explore` writes. Run by ctest as `cmake -D... -P install_test.cmake`;
# the inputs are BINARY_DIR, SOURCE_DIR, WORK_DIR, CXX, GENERATOR, LIBDIR, VERSION and PKG_CONFIG
# (empty without pkg-config).
cmake_minimum_required(VERSION 3.25)

set(prefix ${WORK_DIR}/prefix)
set(hw ${SOURCE_DIR}/hw_configs/sim-1g-1mb-60gbps.yaml)
set(workload ${SOURCE_DIR}/workloads/ffn-2048x768x3072x768.yaml) # a fused chain: 4 points
file(REMOVE_RECURSE ${WORK_DIR})

# Runs a command; on failure removes WORK_DIR and fails with its output. The output is in `out`.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  if(NOT code EQUAL 0)
    file(REMOVE_RECURSE ${WORK_DIR})
    message(FATAL_ERROR "${what} failed (${code}):\n${ARGN}\n${stdout}\n${stderr}")
  endif()
  set(out "${stdout}" PARENT_SCOPE)
endfunction()

function(fail message)
  file(REMOVE_RECURSE ${WORK_DIR})
  message(FATAL_ERROR "${message}")
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix})
foreach(file bin/dse include/dse/search/explore.hpp include/dse/support/error.hpp)
  if(NOT EXISTS ${prefix}/${file})
    fail("${file} was not installed")
  endif()
endforeach()
if(EXISTS ${prefix}/include/dse/cli)
  fail("the command-line front end's headers were installed")
endif()

# What the installed binary finds: the number of rows of its front CSV.
run_step("dse explore" ${prefix}/bin/dse explore --hw ${hw} --workload ${workload})
string(REGEX MATCHALL "\n" newlines "${out}")
list(LENGTH newlines rows)
math(EXPR points "${rows} - 1")
if(points LESS 1)
  fail("dse explore found no front point:\n${out}")
endif()
set(expected "front points: ${points}\n")

run_step("version" ${prefix}/bin/dse --version)
if(NOT out STREQUAL "dse ${VERSION}\n")
  fail("dse --version printed '${out}', expected 'dse ${VERSION}'")
endif()

# find_package(dse) and dse::dse.
set(consumer ${SOURCE_DIR}/tests/install/consumer)
run_step("consumer configure" ${CMAKE_COMMAND} -S ${consumer} -B ${WORK_DIR}/build
         -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX}
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run_step("consumer build" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("consumer run" ${WORK_DIR}/build/consumer ${hw} ${workload})
if(NOT out STREQUAL expected)
  fail("the consumer printed '${out}', expected '${expected}'")
endif()

# pkg-config --cflags --libs dse.
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  run_step("pkg-config" ${PKG_CONFIG} --cflags --libs dse)
  separate_arguments(flags UNIX_COMMAND "${out}")
  run_step("pkg-config consumer build" ${CXX} -std=c++20 ${consumer}/main.cpp ${flags}
           -o ${WORK_DIR}/consumer-pc)
  run_step("pkg-config consumer run" ${WORK_DIR}/consumer-pc ${hw} ${workload})
  if(NOT out STREQUAL expected)
    fail("the pkg-config consumer printed '${out}', expected '${expected}'")
  endif()
  message(STATUS "find_package and pkg-config consumers: ${out}")
else()
  message(STATUS "find_package consumer: ${out} (no pkg-config)")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
