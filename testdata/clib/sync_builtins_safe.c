// expect: safe
// The __sync builtins are atomic read-modify-writes: two threads that add
// with __sync_fetch_and_add and __sync_add_and_fetch lose no update, a
// try-lock of __sync_lock_test_and_set/__sync_lock_release and a
// compare-and-swap protect their sections; the results are the old and
// the new values as GCC documents them.
#include <assert.h>
#include <pthread.h>
int n, c, inside;
int lock;
unsigned char flags = 0xf0;
void *worker(void *arg) {
  __sync_fetch_and_add(&n, 1);
  __sync_add_and_fetch(&n, 2);
  if (!__sync_lock_test_and_set(&lock, 1)) { /* a try-lock */
    inside++;
    assert(inside == 1);
    inside--;
    __sync_lock_release(&lock);
  }
  __sync_synchronize();
  __sync_bool_compare_and_swap(&c, 0, 1) || __sync_bool_compare_and_swap(&c, 1, 2);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(n == 6);
  assert(c == 2);
  assert(__sync_fetch_and_sub(&n, 1) == 6 && n == 5);
  assert(__sync_or_and_fetch(&flags, 0x0f) == 0xff);
  assert(__sync_fetch_and_and(&flags, 0x3c) == 0xff && flags == 0x3c);
  assert(__sync_xor_and_fetch(&flags, 0xff) == 0xc3);
  assert(__sync_nand_and_fetch(&flags, 0x0f) == 0xfc);
  assert(__sync_val_compare_and_swap(&n, 4, 9) == 5 && n == 5);
  assert(__sync_val_compare_and_swap(&n, 5, 9) == 5 && n == 9);
  return 0;
}
