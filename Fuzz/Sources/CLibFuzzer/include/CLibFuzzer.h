#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's FuzzerInterface.h): runs the fuzzing loop with the
/// command-line arguments and calls `callback` with each input. Linked from libclang_rt.fuzzer
/// when the program is built with -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
