#ifndef __CEGPV_PTHREAD_H
#define __CEGPV_PTHREAD_H
#include <stddef.h>
#include <time.h>
/* cegpv's own pthread.h: the front end recognises these types by their
   typedef names (as it does glibc's in preprocessed files); their
   representation below is only for the C type checker. */
typedef unsigned long pthread_t;
/* pthread_mutex_t and pthread_cond_t have glibc's size and alignment
   (i386: 24 and 48 bytes, 4-aligned; x86-64: 40 and 48, 8-aligned), so
   that sizeof, offsetof and pointer arithmetic over structures holding
   them are gcc's; the model keeps one lock word at offset 0 (glibc's
   __lock) and nothing of the other bytes. __kind is where glibc keeps
   the mutex's kind (its static initialisers of recursive and
   error-checking mutexes set it). */
#ifdef __x86_64__
typedef struct __cegpv_pthread_mutex { int __cegpv_m; int __cegpv_p[3]; int __kind; int __cegpv_q; long __cegpv_rest[2]; } pthread_mutex_t;
typedef struct __cegpv_pthread_cond { int __cegpv_c; int __cegpv_p; long long __cegpv_rest[5]; } pthread_cond_t;
#else
typedef struct __cegpv_pthread_mutex { int __cegpv_m; int __cegpv_p[2]; int __kind; int __cegpv_rest[2]; } pthread_mutex_t;
typedef struct __cegpv_pthread_cond { int __cegpv_c; int __cegpv_rest[11]; } pthread_cond_t;
#endif
/* The objects the front end models as int cells have glibc's size and
   alignment too. */
#ifdef __x86_64__
typedef struct __cegpv_pthread_attr { int __cegpv_detachstate; int __cegpv_p; long __cegpv_rest[6]; } pthread_attr_t;
typedef struct __cegpv_pthread_barrier { unsigned __cegpv_b[3]; unsigned __cegpv_p; long __cegpv_rest[2]; } pthread_barrier_t;
typedef struct __cegpv_pthread_rwlock { int __cegpv_r[2]; long __cegpv_rest[6]; } pthread_rwlock_t;
typedef struct __cegpv_pthread_rwlockattr { long __cegpv_a; } pthread_rwlockattr_t;
#else
typedef struct __cegpv_pthread_attr { int __cegpv_detachstate; int __cegpv_rest[8]; } pthread_attr_t;
typedef struct __cegpv_pthread_barrier { unsigned __cegpv_b[3]; unsigned __cegpv_rest[2]; } pthread_barrier_t;
typedef struct __cegpv_pthread_rwlock { int __cegpv_r[2]; int __cegpv_rest[6]; } pthread_rwlock_t;
typedef struct __cegpv_pthread_rwlockattr { int __cegpv_a[2]; } pthread_rwlockattr_t;
#endif
typedef struct __cegpv_pthread_mutexattr { int __cegpv_a; } pthread_mutexattr_t;
typedef struct __cegpv_pthread_condattr { int __cegpv_a; } pthread_condattr_t;
typedef struct __cegpv_pthread_barrierattr { int __cegpv_a; } pthread_barrierattr_t;
typedef volatile int pthread_spinlock_t;
typedef int pthread_once_t;
typedef unsigned int pthread_key_t;
#define PTHREAD_MUTEX_INITIALIZER { 0 }
#define PTHREAD_COND_INITIALIZER { 0 }
#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_RECURSIVE 1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT 0
#define PTHREAD_MUTEX_TIMED_NP 0
#define PTHREAD_MUTEX_RECURSIVE_NP 1
#define PTHREAD_MUTEX_ERRORCHECK_NP 2
#define PTHREAD_MUTEX_ADAPTIVE_NP 3
#define PTHREAD_MUTEX_STALLED 0
#define PTHREAD_MUTEX_ROBUST 1
#define PTHREAD_PRIO_NONE 0
#define PTHREAD_PRIO_INHERIT 1
#define PTHREAD_PRIO_PROTECT 2
#define PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP { 0, { 0 }, 1 }
#define PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP { 0, { 0 }, 2 }
#define PTHREAD_ONCE_INIT 0
#define PTHREAD_RWLOCK_INITIALIZER { { 0 } }
#define PTHREAD_RWLOCK_PREFER_READER_NP 0
#define PTHREAD_RWLOCK_PREFER_WRITER_NP 1
#define PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP 2
#define PTHREAD_RWLOCK_DEFAULT_NP 0
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1
#define PTHREAD_PROCESS_PRIVATE 0
#define PTHREAD_PROCESS_SHARED 1
#define PTHREAD_SCOPE_SYSTEM 0
#define PTHREAD_SCOPE_PROCESS 1
#define PTHREAD_INHERIT_SCHED 0
#define PTHREAD_EXPLICIT_SCHED 1
int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int pthread_detach(pthread_t);
pthread_t pthread_self(void);
int pthread_equal(pthread_t, pthread_t);
void pthread_exit(void *) __attribute__((__noreturn__));
int pthread_yield(void);
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_mutex_trylock(pthread_mutex_t *);
int pthread_mutex_timedlock(pthread_mutex_t *, const struct timespec *);
int pthread_mutexattr_settype(pthread_mutexattr_t *, int);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *, int *);
int pthread_mutexattr_setpshared(pthread_mutexattr_t *, int);
int pthread_mutexattr_setprotocol(pthread_mutexattr_t *, int);
int pthread_mutexattr_setrobust(pthread_mutexattr_t *, int);
int pthread_mutexattr_init(pthread_mutexattr_t *);
int pthread_mutexattr_destroy(pthread_mutexattr_t *);
int pthread_cond_init(pthread_cond_t *, const pthread_condattr_t *);
int pthread_cond_destroy(pthread_cond_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_timedwait(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_broadcast(pthread_cond_t *);
int pthread_condattr_init(pthread_condattr_t *);
int pthread_condattr_destroy(pthread_condattr_t *);
int pthread_condattr_setpshared(pthread_condattr_t *, int);
int pthread_attr_init(pthread_attr_t *);
int pthread_attr_destroy(pthread_attr_t *);
int pthread_attr_setdetachstate(pthread_attr_t *, int);
int pthread_attr_getdetachstate(const pthread_attr_t *, int *);
int pthread_attr_setstacksize(pthread_attr_t *, size_t);
int pthread_attr_setscope(pthread_attr_t *, int);
int pthread_attr_setinheritsched(pthread_attr_t *, int);
int pthread_attr_setguardsize(pthread_attr_t *, size_t);
int pthread_attr_getstacksize(const pthread_attr_t *, size_t *);
int pthread_attr_getguardsize(const pthread_attr_t *, size_t *);
int pthread_attr_getscope(const pthread_attr_t *, int *);
int pthread_attr_getinheritsched(const pthread_attr_t *, int *);
int pthread_barrier_init(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned);
int pthread_barrier_wait(pthread_barrier_t *);
int pthread_barrier_destroy(pthread_barrier_t *);
int pthread_barrierattr_init(pthread_barrierattr_t *);
int pthread_barrierattr_destroy(pthread_barrierattr_t *);
int pthread_spin_init(pthread_spinlock_t *, int);
int pthread_spin_destroy(pthread_spinlock_t *);
int pthread_spin_lock(pthread_spinlock_t *);
int pthread_spin_trylock(pthread_spinlock_t *);
int pthread_spin_unlock(pthread_spinlock_t *);
int pthread_once(pthread_once_t *, void (*)(void));
int pthread_key_create(pthread_key_t *, void (*)(void *));
int pthread_key_delete(pthread_key_t);
int pthread_setspecific(pthread_key_t, const void *);
void *pthread_getspecific(pthread_key_t);
#define PTHREAD_KEYS_MAX 1024
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
int pthread_rwlock_init(pthread_rwlock_t *, const pthread_rwlockattr_t *);
int pthread_rwlock_destroy(pthread_rwlock_t *);
int pthread_rwlock_rdlock(pthread_rwlock_t *);
int pthread_rwlock_wrlock(pthread_rwlock_t *);
int pthread_rwlock_tryrdlock(pthread_rwlock_t *);
int pthread_rwlock_trywrlock(pthread_rwlock_t *);
int pthread_rwlock_timedrdlock(pthread_rwlock_t *, const struct timespec *);
int pthread_rwlock_timedwrlock(pthread_rwlock_t *, const struct timespec *);
int pthread_rwlock_unlock(pthread_rwlock_t *);
int pthread_rwlockattr_init(pthread_rwlockattr_t *);
int pthread_rwlockattr_destroy(pthread_rwlockattr_t *);
int pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *, int);
int pthread_cancel(pthread_t);
#endif
