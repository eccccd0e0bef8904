package builtin

import (
	"context"
	"os"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/lowertest"
)

// TestWriteOnlyConditionalStores: a store through a symbolic index writes
// every cell of the array conditionally; a block that never reads the
// array costs no read event of it (centry's placeholder), so the encoding
// of a thread that fills an array grows with its writes only.
func TestWriteOnlyConditionalStores(t *testing.T) {
	p := lower(t, "wo", `
int a[8];
void *put(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i < 8);
  a[i] = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int i = __VERIFIER_nondet_int();
  pthread_create(&t, 0, put, 0);
  __VERIFIER_assume(i >= 0 && i < 8);
  a[i] = 2;
  pthread_join(t, 0);
  assert(a[0] != 3);
  return 0;
}`)
	e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 2}, true, false, redAll)
	if err != nil {
		t.Fatal(err)
	}
	reads, writes := 0, 0
	for _, ev := range e.events {
		if e.objs[ev.cell.obj].name != "a" {
			continue
		}
		if ev.write {
			writes++
		} else {
			reads++
		}
	}
	// two threads write each of the 8 cells conditionally; main reads a[0]
	if writes != 16 || reads != 1 {
		t.Errorf("events of a: %d writes, %d reads; want 16 writes and 1 read", writes, reads)
	}
	if res := check(t, p, backend.Bounds{Unwind: 2}); res.Verdict != backend.Safe {
		t.Errorf("verdict %v (%s), want Safe", res.Verdict, res.Reason)
	}
}

// TestGuardedReadNotCached: a read needed under a narrower guard than its
// block's (one target of a pointer with two, the right operand of &&) is
// the block's one read of the cell, under the block's guard (blockStart),
// so the later read of x in the same atomic section sees the same value.
// When the read event had the access's guard, the value cached for the
// rest of the block was unconstrained where p points to y, and the
// assertion c == y failed on a run that does not replay.
func TestGuardedReadNotCached(t *testing.T) {
	// testdata/progs/guarded_read_safe.c (also run by every engine's
	// testdata test)
	src, err := os.ReadFile("../../testdata/progs/guarded_read_safe.c")
	if err != nil {
		t.Fatal(err)
	}
	p := lowertest.C(t, "guarded_read_safe.c", string(src))
	if res := check(t, p, backend.Bounds{Unwind: 2}); res.Verdict != backend.Safe {
		t.Errorf("verdict %v (%s), want Safe", res.Verdict, res.Reason)
	}
	// one read of x and one of y in main's atomic section, however many
	// paths and operands need them
	e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 2}, true, false, redAll)
	if err != nil {
		t.Fatal(err)
	}
	atomics := 0
	for _, b := range e.threads[0].blocks {
		if b.kind != "atomic" {
			continue
		}
		atomics++
		n := map[string]int{}
		for _, ev := range b.reads {
			n[e.objs[ev.cell.obj].name]++
		}
		if n["x"] != 1 || n["y"] != 1 {
			t.Errorf("reads of main's atomic section: %v, want x and y once each", n)
		}
	}
	if atomics != 1 {
		t.Errorf("main has %d atomic blocks, want 1", atomics)
	}
}
