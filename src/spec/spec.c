/* placeholder: spec loader (being written) */
#include "cutune/cutune.h"

