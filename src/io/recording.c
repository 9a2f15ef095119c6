/* placeholder */
#include "cutune/cutune.h"

