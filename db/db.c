/* db.c - see db.h. */
#include "db.h"
