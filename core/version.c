/* version.c - see version.h. */
#include "version.h"

const char *rj_version(void) { return "renju 0.1.0"; }
