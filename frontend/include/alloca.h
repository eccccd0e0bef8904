#ifndef __CEGPV_ALLOCA_H
#define __CEGPV_ALLOCA_H
#include <stddef.h>
void *alloca(size_t);
#endif
