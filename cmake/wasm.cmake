# The wasm preset's build (CMakePresets.json, Debian's emscripten): the strided library and the
# explorer's core, from the very targets and source lists of the native build, linked with
# tools/explore/wasm_main.cpp into strided-explore.js, one self-contained script (the WebAssembly
# inside it) that the site's pages load from file:// too.

# Exceptions as WebAssembly's own: the library reports every error by throwing. Every object and
# the link must agree on the model.
add_compile_options(-fwasm-exceptions)
# What emscripten's libc++ lacks of C++20 and the sources use (std::bit_cast).
add_compile_options(-include ${CMAKE_CURRENT_LIST_DIR}/wasm_compat.h)
add_link_options(-fwasm-exceptions)

# emscripten's link step runs node scripts that need Debian's node modules (acorn), which node
# finds only through NODE_PATH.
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)

# Header-only packages of the host (Debian's nlohmann-json3-dev, doctest-dev), seen through a folder
# of their own: adding /usr/include itself would put glibc's headers before emscripten's libc.
set(strided_host_headers ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${strided_host_headers})
foreach(dir nlohmann doctest)
  if(NOT EXISTS ${strided_host_headers}/${dir})
    file(CREATE_LINK /usr/include/${dir} ${strided_host_headers}/${dir} SYMBOLIC)
  endif()
endforeach()
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${strided_host_headers})
add_library(doctest::doctest INTERFACE IMPORTED)
set_target_properties(doctest::doctest PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${strided_host_headers})

# The unit tests stay targets, outside the default build and unregistered, so that the
# directories' own CMakeLists.txt (which name them) configure unchanged; the native build runs them.
function(strided_add_tests program)
  cmake_parse_arguments(T "" "PREFIX;LABEL" "SOURCES;LIBS" ${ARGN})
  add_executable(${program} EXCLUDE_FROM_ALL ${T_SOURCES})
  target_link_libraries(${program} PRIVATE ${T_LIBS} doctest::doctest)
endfunction()

message(STATUS "stridebook: wasm build with emscripten ${EMSCRIPTEN_VERSION} "
               "(${CMAKE_CXX_COMPILER}), build type ${CMAKE_BUILD_TYPE}")
add_subdirectory(lib)
add_subdirectory(tools/explore)
