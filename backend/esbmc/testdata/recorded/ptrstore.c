// A store through a pointer into a global array, and calls whose results
// are stored after the callee's own calls (the shapes of
// pthread/stack_false's push): ESBMC 8.4 shows the store once per element
// of the array and a result's store only after the callee's last step.
// expect: unsafe — t1's second push stores nondet % 4 into arr[1], 3 when
// the value drawn is 3 (gcc -pthread -m32 and -m64 with a rand() nondet:
// the assertion fails in about a quarter of the runs).
#include <pthread.h>
#include <assert.h>
extern unsigned __VERIFIER_nondet_uint(void);
unsigned arr[4];
int top;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int get_top(void) { return top; }
void inc_top(void) { top = top + 1; }
int push(unsigned *stack, unsigned x) {
  if (get_top() == 4) return -1;
  stack[get_top()] = x;
  inc_top();
  return 0;
}
void *t1(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    int r = push(arr, __VERIFIER_nondet_uint() % 4);
    assert(r == 0);
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  pthread_join(a, 0);
  assert(arr[1] != 3);
  return 0;
}
