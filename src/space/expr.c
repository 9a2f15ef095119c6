/* placeholder: expression language (being written) */
#include "cutune/cutune.h"

