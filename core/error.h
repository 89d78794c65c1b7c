/*
 * error.h - error codes shared by every library layer (LMDB style).
 *
 * 0 is success; positive values are errno values; the project's own codes
 * live in a reserved negative band.  Library code returns these and never
 * prints or exits; the CLI maps them to exit codes (docs/cli.md).
 */
#ifndef RJ_ERROR_H
#define RJ_ERROR_H

enum {
    RJ_OK = 0,
    RJ_EBADPOS = -30900,   /* malformed or illegal position text */
    RJ_EBADARG = -30901,   /* bad argument / usage */
    RJ_ENOTFOUND = -30902, /* ordinary "not found" (e.g. DB lookup) */
    RJ_EDB = -30903,       /* database error (corrupt, foreign, schema) */
    RJ_EIO = -30904,       /* I/O error */
    RJ_ENOMEM = -30905,    /* out of memory */
    RJ_EINTERNAL = -30906, /* internal error: a bug */
    RJ_EINTR = -30907,     /* interrupted (stop flag) */
    RJ_ENODB = -30908,     /* database missing */
    RJ_ESCHEMA = -30909,   /* database schema version not supported */
    RJ_EBADDATA = -30910,  /* malformed data file / record */
    RJ_ECONFLICT = -30911  /* contradictory results (proven vs disproven) */
};

/* Static description of an error code; never NULL. */
const char *rj_strerror(int err);

#endif /* RJ_ERROR_H */
