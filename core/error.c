/* error.c - see error.h. */
#include "error.h"

#include <string.h>

const char *rj_strerror(int err)
{
    switch (err) {
    case RJ_OK:
        return "success";
    case RJ_EBADPOS:
        return "bad position";
    case RJ_EBADARG:
        return "bad argument";
    case RJ_ENOTFOUND:
        return "not found";
    case RJ_EDB:
        return "database error";
    case RJ_EIO:
        return "I/O error";
    case RJ_ENOMEM:
        return "out of memory";
    case RJ_EINTERNAL:
        return "internal error";
    case RJ_EINTR:
        return "interrupted";
    case RJ_ENODB:
        return "database missing";
    case RJ_ESCHEMA:
        return "unsupported database schema version";
    case RJ_EBADDATA:
        return "malformed data";
    case RJ_ECONFLICT:
        return "contradictory results";
    default:
        return err > 0 ? strerror(err) : "unknown error";
    }
}
