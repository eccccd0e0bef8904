// expect: unsafe
// bounds: unwind=2
// The built-in encoding reads the pointer cells of globals with the
// targets the program writes into them (found over several passes): p
// starts at a, a thread redirects it to b (and q, through p), and main's
// store through p or q then reaches b.
#include <pthread.h>
#include <assert.h>
int a, b;
int *p = &a;
int *q;
void *redirect(void *x) {
	p = &b;
	q = p;
	return 0;
}
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, redirect, 0);
	*p = 1;
	if (q)
		*q = 2;
	pthread_join(t, 0);
	assert(b != 1);
	return 0;
}
