#ifndef __CEGPV_PTHREAD_H
#define __CEGPV_PTHREAD_H
#include <stddef.h>
/* cegpv's own pthread.h: the front end recognises these types by name and
   tag; their representation below is only for the C type checker. */
typedef unsigned long pthread_t;
/* pthread_mutex_t and pthread_cond_t have glibc's size and alignment
   (i386: 24 and 48 bytes, 4-aligned; x86-64: 40 and 48, 8-aligned), so
   that sizeof, offsetof and pointer arithmetic over structures holding
   them are gcc's; the model keeps one lock word at offset 0 (glibc's
   __lock) and nothing of the other bytes. */
#ifdef __x86_64__
typedef struct __cegpv_pthread_mutex { int __cegpv_m; int __cegpv_p; long __cegpv_rest[4]; } pthread_mutex_t;
typedef struct __cegpv_pthread_cond { int __cegpv_c; int __cegpv_p; long long __cegpv_rest[5]; } pthread_cond_t;
#else
typedef struct __cegpv_pthread_mutex { int __cegpv_m; int __cegpv_rest[5]; } pthread_mutex_t;
typedef struct __cegpv_pthread_cond { int __cegpv_c; int __cegpv_rest[11]; } pthread_cond_t;
#endif
typedef struct __cegpv_pthread_attr { int __cegpv_a; } pthread_attr_t;
typedef struct __cegpv_pthread_mutexattr { int __cegpv_a; } pthread_mutexattr_t;
typedef struct __cegpv_pthread_condattr { int __cegpv_a; } pthread_condattr_t;
/* Declared so that a program using them gets an error that names the
   construct (the front end rejects every use): not modelled. */
typedef struct __cegpv_pthread_rwlock { int __cegpv_unsupported; } pthread_rwlock_t;
typedef struct __cegpv_pthread_rwlockattr { int __cegpv_unsupported; } pthread_rwlockattr_t;
typedef struct __cegpv_pthread_spinlock { int __cegpv_unsupported; } pthread_spinlock_t;
typedef struct __cegpv_pthread_barrier { int __cegpv_unsupported; } pthread_barrier_t;
typedef struct __cegpv_pthread_barrierattr { int __cegpv_unsupported; } pthread_barrierattr_t;
typedef struct __cegpv_pthread_once { int __cegpv_unsupported; } pthread_once_t;
typedef struct __cegpv_pthread_key { int __cegpv_unsupported; } pthread_key_t;
#define PTHREAD_MUTEX_INITIALIZER { 0 }
#define PTHREAD_COND_INITIALIZER { 0 }
int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void pthread_exit(void *) __attribute__((__noreturn__));
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_cond_init(pthread_cond_t *, const pthread_condattr_t *);
int pthread_cond_destroy(pthread_cond_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_broadcast(pthread_cond_t *);
int pthread_attr_init(pthread_attr_t *);
int pthread_attr_destroy(pthread_attr_t *);
#endif
