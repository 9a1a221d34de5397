// The declaration is all this module holds; the definition comes from libFuzzer.
#include "CLibFuzzer.h"
