# The test chapter.source_lengths: no source file of a chapter (chapters/NN_name.cpp and the section
# files of chapters/NN_name/) is over 700 lines, so that a chapter reads as teaching code; a longer
# one moves its plumbing into the book runtime (chapters/book/) or its sections into files of their
# own. Run as: cmake -D CHAPTERS=<chapters folder> -P source_lengths.cmake
set(limit 700)
# The chapters still over the limit, each with the length it may not exceed: an entry goes once its
# file is cut to the limit.
set(still_long)

file(GLOB sources RELATIVE ${CHAPTERS} ${CHAPTERS}/[0-9][0-9]_*.cpp ${CHAPTERS}/[0-9][0-9]_*/*.cpp
     ${CHAPTERS}/[0-9][0-9]_*/*.h)
set(failed "")
set(checked 0)
foreach(src IN LISTS sources)
  file(READ ${CHAPTERS}/${src} text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines lines)
  math(EXPR checked "${checked} + 1")
  set(allowed ${limit})
  set(listed FALSE)
  foreach(entry IN LISTS still_long)
    string(REPLACE ":" ";" entry ${entry})
    list(GET entry 0 name)
    if(name STREQUAL src)
      list(GET entry 1 allowed)
      set(listed TRUE)
    endif()
  endforeach()
  if(lines GREATER allowed)
    list(APPEND failed "chapters/${src}: ${lines} lines, over ${allowed}: move its plumbing into chapters/book/ or a section into chapters/<chapter>/")
  elseif(listed AND lines LESS_EQUAL limit)
    list(APPEND failed "chapters/${src}: ${lines} lines, within ${limit}: remove its entry from still_long in chapters/source_lengths.cmake")
  endif()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no chapter source found under ${CHAPTERS}")
endif()
if(failed)
  list(JOIN failed "\n" failed)
  message(FATAL_ERROR "${failed}")
endif()
message(STATUS "${checked} chapter source files, none over its limit (${limit} lines)")
