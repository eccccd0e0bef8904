#ifndef __CEGPV_ERRNO_H
#define __CEGPV_ERRNO_H
/* Linux's error numbers (those the pthread functions return). errno
   itself is not declared: it is thread-local, which the model has only
   for __thread variables. */
#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EAGAIN 11
#define ENOMEM 12
#define EBUSY 16
#define EINVAL 22
#define EDEADLK 35
#define ENOTSUP 95
#define ETIMEDOUT 110
#endif
