// expect: unsafe
// usleep returns 0 (no signal interrupts it): the assertion fails in
// every run.
#include <assert.h>
#include <unistd.h>
int main(void) {
  assert(usleep(1) != 0);
  return 0;
}
