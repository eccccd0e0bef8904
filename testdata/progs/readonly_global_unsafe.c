// expect: unsafe
// bounds: unwind=3
// A global written only through a pointer kept in another global: the
// store reaches it, so it is not read as its initial value.
#include <pthread.h>
#include <assert.h>
int n = 2;
int *p;
void *w(void *a) {
	*p = 3;
	return 0;
}
int main(void) {
	pthread_t t;
	p = &n;
	pthread_create(&t, 0, w, 0);
	pthread_join(t, 0);
	assert(n == 2);
	return 0;
}
