/* placeholder: GP (being written) */
#include "cutune/cutune.h"

