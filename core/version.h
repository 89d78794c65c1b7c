/* version.h - the solver version recorded with every stored result. */
#ifndef RJ_VERSION_H
#define RJ_VERSION_H

/* Version string of this build, e.g. "renju 0.1.0". */
const char *rj_version(void);

#endif /* RJ_VERSION_H */
