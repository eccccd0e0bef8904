// expect: safe
// bounds: unwind=4
// Thread counts in globals that are never written (as twostage's
// iTThreads, whose address only sscanf takes): the built-in encoding reads
// them as their initial values, so the loops spawn exactly that many
// threads. Each worker adds one under the lock.
#include <pthread.h>
#include <assert.h>
int nworkers = 3;
int *limit = &nworkers;
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *a) {
	pthread_mutex_lock(&m);
	total = total + 1;
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void) {
	pthread_t t[3];
	for (int i = 0; i < *limit; i++)
		pthread_create(&t[i], 0, worker, 0);
	for (int i = 0; i < nworkers; i++)
		pthread_join(t[i], 0);
	assert(total == 3);
	return 0;
}
