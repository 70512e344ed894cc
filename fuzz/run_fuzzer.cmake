# Runs the fuzzer for SECONDS seconds with seed 1 over a fresh copy of CORPUS in SCRATCH; new
# inputs and any crash artifact stay in SCRATCH. Fails when the fuzzer reports anything.
#   cmake -DFUZZER=... -DCORPUS=... -DSCRATCH=... -DSECONDS=30 [-DMAX_LEN=512] [-DTIMEOUT=60]
#         [-DRSS_LIMIT_MB=2048] [-DDICT=file] -P run_fuzzer.cmake
# TIMEOUT is each input's time limit in seconds, RSS_LIMIT_MB its memory limit (and the largest
# single allocation, as libFuzzer's -malloc_limit_mb defaults to it): past either, the input is
# reported as a failure.
foreach(var FUZZER CORPUS SCRATCH SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzzer.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED MAX_LEN)
  set(MAX_LEN 512)
endif()
if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 60)
endif()
if(NOT DEFINED RSS_LIMIT_MB)
  set(RSS_LIMIT_MB 2048)
endif()
set(dict_option)
if(DEFINED DICT)
  set(dict_option -dict=${DICT})
endif()
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus)
file(GLOB inputs ${CORPUS}/*)
file(COPY ${inputs} DESTINATION ${SCRATCH}/corpus)
execute_process(
  COMMAND ${FUZZER} -seed=1 -max_total_time=${SECONDS} -timeout=${TIMEOUT} -max_len=${MAX_LEN}
          -rss_limit_mb=${RSS_LIMIT_MB} ${dict_option} -print_final_stats=1
          -artifact_prefix=${SCRATCH}/ ${SCRATCH}/corpus
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer failed (exit ${rc}); the input that failed is in ${SCRATCH}")
endif()
