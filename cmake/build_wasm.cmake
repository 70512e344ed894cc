# cmake -DSOURCE_DIR=<checkout> -P cmake/build_wasm.cmake
# Configures the wasm preset when its build folder has none yet, then builds it: the site's
# strided-explore.js (tools/explore/wasm_main.cpp). Run by the site's build (docs/CMakeLists.txt)
# on every build of the book, where it recompiles only what changed.
if(NOT EXISTS ${SOURCE_DIR}/build/wasm/CMakeCache.txt)
  execute_process(COMMAND ${CMAKE_COMMAND} --preset wasm WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --preset wasm failed:\n${out}")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build --preset wasm WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --build --preset wasm failed:\n${out}")
endif()
