/* Internal definitions shared by every part of drape that fills or checks the public *_def structs. */
#ifndef DRAPE_CORE_H
#define DRAPE_CORE_H

/* Stamped into every def by drape_default_*_def() and checked where the def is used, so a def
 * declared on the stack and filled by hand (garbage in the fields never set) is caught cheaply.
 * The bytes spell "drap". */
#define DRAPE_COOKIE 0x64726170

#endif
