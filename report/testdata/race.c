// expect: unsafe
// Two workers increment a shared counter without a lock; main joins both
// and asserts that no increment was lost. A lost update is a real run.
#include <pthread.h>
#include <assert.h>

int counter;

void *worker(void *arg) {
	int tmp = counter;          /* read the shared counter */
	counter = tmp + 1;          /* write it back: another thread may have written in between */
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 2);
	return 0;
}
