/* placeholder: spaces (being written) */
#include "cutune/cutune.h"

