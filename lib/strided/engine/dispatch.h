// Kernels chosen at run time by CPU capability, as ATen's DispatchStub
// (aten/src/ATen/native/DispatchStub.h/.cpp): the element-wise, copy, fill and reduction loops are
// compiled once per capability (cpu_kernels_*.cpp), and the first op to run picks the best table
// the CPU can run.
//
// The rule is ATen's: capabilities are ordered DEFAULT < AVX2 < AVX512; AVX2 needs the CPU's avx2
// and fma flags, AVX512 its avx512f, avx512vl, avx512bw and avx512dq (ATen asks cpuinfo, here
// __builtin_cpu_supports). The environment variable STRIDED_CPU_CAPABILITY (ATEN_CPU_CAPABILITY's
// counterpart) set to default, avx2 or avx512 picks a lower one. Where ATen trusts a value above
// what the CPU supports (and dies of an illegal instruction) and ignores an unknown one with a
// warning, this library refuses both with an Error at the first op: a forced capability is asked
// for to measure that capability, and a run that silently measured another would report a name it
// did not run.
//
// Internal to the engine and to the tools that report what ran (the chapters' provenance, the
// bench); not part of the library's public face (strided.h).
#pragma once

namespace strided {

enum class CpuCapability { Default, AVX2, AVX512 };

// "default", "avx2", "avx512": the spelling STRIDED_CPU_CAPABILITY takes.
const char* to_string(CpuCapability c);

// The best capability this CPU supports.
CpuCapability max_cpu_capability();

// The capability whose kernels run: chosen at the first call (the variable, else the best the CPU
// supports), an Error when the variable asks for one the CPU lacks or names none.
CpuCapability cpu_capability();
const char* cpu_capability_name();

// Runs c's kernels from now on, for tests that compare the capabilities' results; an Error when
// the CPU lacks c. Not for use while another thread runs ops.
void set_cpu_capability(CpuCapability c);

struct CpuKernels;
// The table of the capability that runs (cpu_kernels.h).
const CpuKernels& cpu_kernels();

}  // namespace strided
