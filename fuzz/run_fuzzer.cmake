# Runs the fuzzer for SECONDS seconds with seed 1 over a fresh copy of CORPUS in SCRATCH; new
# inputs and any crash artifact stay in SCRATCH. Fails when the fuzzer reports anything.
#   cmake -DFUZZER=... -DCORPUS=... -DSCRATCH=... -DSECONDS=30 -P run_fuzzer.cmake
foreach(var FUZZER CORPUS SCRATCH SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzzer.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus)
file(GLOB inputs ${CORPUS}/*)
file(COPY ${inputs} DESTINATION ${SCRATCH}/corpus)
execute_process(
  COMMAND ${FUZZER} -seed=1 -max_total_time=${SECONDS} -timeout=60 -max_len=512
          -print_final_stats=1 -artifact_prefix=${SCRATCH}/ ${SCRATCH}/corpus
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer failed (exit ${rc}); the input that failed is in ${SCRATCH}")
endif()
