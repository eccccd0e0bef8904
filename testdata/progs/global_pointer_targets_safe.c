// expect: safe
// bounds: unwind=2
// As global_pointer_targets_unsafe.c, but the redirection happens after
// main's store (the join orders them), so b stays 0; the mutexes are
// reached through global pointers to heap blocks, as CIL writes
// pthread_mutex_init(data1Lock, 0).
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
int a, b;
int *p = &a;
int *q;
pthread_mutex_t *lk;
void *redirect(void *x) {
	pthread_mutex_lock(lk);
	q = &b;
	p = q;
	pthread_mutex_unlock(lk);
	return 0;
}
int main(void) {
	pthread_t t;
	lk = malloc(sizeof(pthread_mutex_t));
	pthread_mutex_init(lk, 0);
	*p = 1;
	pthread_create(&t, 0, redirect, 0);
	pthread_join(t, 0);
	pthread_mutex_lock(lk);
	*p = 2;
	pthread_mutex_unlock(lk);
	assert(a == 1 && b == 2);
	return 0;
}
