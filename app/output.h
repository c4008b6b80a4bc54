/* The output folder of `drape run` lives in the library now (src/io/output.h). */
#include "io/output.h"
