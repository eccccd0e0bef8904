// expect: unsafe
// bounds: unwind=3 threads=2
// Peterson's algorithm with the two writes of the entry protocol swapped:
// each thread gives the turn away *before* raising its flag. Then
//   p0: turn = 1;  p1: turn = 0;  p1: flag1 = 1;  p1 sees flag0 == 0 and
//   enters;  p0: flag0 = 1;  p0 sees turn == 0 and enters too,
// and both threads are in the critical section (reach_error).
#include <pthread.h>

extern void reach_error(void);

int flag0 = 0, flag1 = 0;
int turn = 0;
int in_cs = 0;

void *p0(void *arg) {
  turn = 1;
  flag0 = 1;
  while (flag1 == 1 && turn == 1) {
  }
  in_cs = in_cs + 1;
  if (in_cs != 1)
    reach_error();
  in_cs = in_cs - 1;
  flag0 = 0;
  return 0;
}

void *p1(void *arg) {
  turn = 0;
  flag1 = 1;
  while (flag0 == 1 && turn == 0) {
  }
  in_cs = in_cs + 1;
  if (in_cs != 1)
    reach_error();
  in_cs = in_cs - 1;
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
