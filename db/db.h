/*
 * db.h - LMDB storage of proven results keyed by the canonical position.
 * (Filled in by the database work; see issue "Results database in LMDB".)
 */
#ifndef RJ_DB_H
#define RJ_DB_H

#include "types.h"

typedef struct Db Db;

#endif /* RJ_DB_H */
