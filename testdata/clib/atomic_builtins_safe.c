// expect: safe
// bounds: unwind=2
// The __atomic builtins with __ATOMIC_SEQ_CST: two threads increment with
// __atomic_fetch_add and __atomic_add_fetch and lose no update; load,
// store, exchange, compare-exchange (strong, and weak in a retry loop),
// test-and-set and clear, and the generic forms through pointers, give
// the values GCC documents; fences have no effect in a sequentially
// consistent model.
#include <assert.h>
#include <pthread.h>
long long total;
int x;
_Bool flag;
void *worker(void *arg) {
  __atomic_fetch_add(&total, 1, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&total, 10, __ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(__atomic_load_n(&total, __ATOMIC_SEQ_CST) == 22);
  __atomic_store_n(&x, 5, __ATOMIC_SEQ_CST);
  assert(__atomic_exchange_n(&x, 7, __ATOMIC_SEQ_CST) == 5 && x == 7);
  int e = 3;
  assert(!__atomic_compare_exchange_n(&x, &e, 8, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  assert(e == 7 && x == 7);
  assert(__atomic_compare_exchange_n(&x, &e, 8, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && x == 8);
  e = 8;
  while (!__atomic_compare_exchange_n(&x, &e, 9, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    ;
  assert(x == 9);
  int v = 4, r = 0;
  __atomic_store(&x, &v, __ATOMIC_SEQ_CST);
  __atomic_load(&x, &r, __ATOMIC_SEQ_CST);
  assert(r == 4);
  v = 6;
  __atomic_exchange(&x, &v, &r, __ATOMIC_SEQ_CST);
  assert(r == 4 && x == 6);
  int want = 6, d = 1;
  assert(__atomic_compare_exchange(&x, &want, &d, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && x == 1);
  assert(__atomic_fetch_sub(&x, 1, __ATOMIC_SEQ_CST) == 1 && x == 0);
  assert(__atomic_or_fetch(&x, 12, __ATOMIC_SEQ_CST) == 12);
  assert(__atomic_fetch_nand(&x, 4, __ATOMIC_SEQ_CST) == 12 && x == ~4);
  assert(!__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
  assert(__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
  __atomic_clear(&flag, __ATOMIC_SEQ_CST);
  assert(!flag);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return 0;
}
