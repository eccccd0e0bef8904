#ifndef __CEGPV_SYS_TYPES_H
#define __CEGPV_SYS_TYPES_H
#include <stddef.h>
typedef long ssize_t;
typedef long long loff_t;
typedef long off_t;
#endif
