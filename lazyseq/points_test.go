package lazyseq

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
)

// TestAloneBefore: main's instructions that run before any thread exists
// get no context-switch point (aloneBefore), those a run reaches after a
// Spawn keep theirs, including the ones before the Spawn in a loop (its
// back edge leads there) and after a call of a function that spawns.
func TestAloneBefore(t *testing.T) {
	const head = `#include <pthread.h>
#include <assert.h>
int g, a[3];
void init(void) { a[0] = 1; a[1] = 2; }
void *w(void *x) { g = a[0]; return 0; }
void start(pthread_t *t) { pthread_create(t, 0, w, 0); }
`
	cases := []struct {
		name, main string
		before     int // switch points before line 20 (the Spawn's), first one included
	}{
		// the first point of main, nothing more before the Spawn
		{"straight", "g = 3; init(); pthread_create(&t, 0, w, 0);", 1},
		// a call of a function that spawns: its own points stay (the
		// one before its Spawn, on line 6)
		{"call", "g = 3; init(); start(&t);", 2},
		// the loop's body is reached again after its Spawn
		{"loop", "for (i = 0; i < 2; i++) { g = i; pthread_create(&t, 0, w, 0); }", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// main's body starts on line 8 and the Spawn is on line 20
			src := head + "int main(void) {\n  pthread_t t; int i;\n" + c.main + "\n\n\n\n\n\n\n\n\n\n\n" +
				"  if (g == 7) pthread_create(&t, 0, w, 0);\n  g = 4;\n  assert(g != 5);\n  return 0;\n}\n"
			p, err := frontend.Lower("alone.c", []byte(src), frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			q, _, err := Sequentialize(p, Options{Rounds: 2, Threads: 2, Unwind: 3})
			if err != nil {
				t.Fatal(err)
			}
			before, after := 0, 0
			for _, in := range q.Func("__ls_thread_0").Body {
				if in.Msg != "context switch" {
					continue
				}
				if in.Pos.Line < 20 {
					before++
				} else {
					after++
				}
			}
			if before != c.before || after < 3 {
				t.Errorf("%d switch points before the last Spawn, %d from it on; want %d and at least 3", before, after, c.before)
			}
		})
	}
}

// TestAloneLoop: in a loop that spawns, the read of g at the top of the
// second iteration needs the switch point before it (after the first
// Spawn in the run, before it in the text): the worker's write lands
// there, in two rounds. Truth: a run where main reads g after the first
// worker wrote it exists (gcc, any scheduler that runs the worker
// first).
func TestAloneLoop(t *testing.T) {
	src := `#include <pthread.h>
#include <assert.h>
int g;
void *w(void *x) { g = 1; return 0; }
int main(void) {
  pthread_t t; int i, seen = 0;
  for (i = 0; i < 2; i++) {
    if (g == 1) seen = 1;
    pthread_create(&t, 0, w, 0);
  }
  assert(!seen);
  return 0;
}
`
	p, err := frontend.Lower("loop.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := Backend{Inner: builtin.New(builtin.Options{}), Rounds: 2}.Check(ctx, p, backend.Bounds{Unwind: 3, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != backend.Unsafe {
		t.Fatalf("%v (%s), want UNSAFE", res.Verdict, res.Reason)
	}
	if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
		t.Fatalf("replay: %v %v", out, err)
	}
}

// TestClosedSections: the points inside a closed atomic section (see
// closedSections) are left out and its count updates are Skips, while a
// section with a branch keeps the count that disables its points at run
// time, also around a closed section nested in it. Each worker leaves x
// odd for a moment; main must never see it (safe), and does in two rounds
// when the section is not atomic (unsafe). Truth: the sections make the
// odd value invisible to main (program.doc: no other thread runs inside a
// section); without them, a switch after x = x + 1 shows it.
func TestClosedSections(t *testing.T) {
	const head = `#include <pthread.h>
#include <assert.h>
int x, y;
void *w(void *a) {
  %s
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  assert(x == 0);
  pthread_join(t, 0);
  return 0;
}
`
	const b, e = "__VERIFIER_atomic_begin();", "__VERIFIER_atomic_end();"
	cases := []struct {
		name, body string
		want       backend.Verdict
		closed     bool // the worker's only point on line 5 is the one before the section
	}{
		{"closed", b + " x = x + 1; y = y + 1; x = x - 1; " + e, backend.Safe, true},
		{"branch", b + " x = x + 1; if (y == 0) y = 2; x = x - 1; " + e, backend.Safe, false},
		{"nested", b + " if (y == 0) y = 3; " + b + " x = x + 1; " + e + " y = y + 1; x = x - 1; " + e, backend.Safe, false},
		{"none", "x = x + 1; y = y + 1; x = x - 1;", backend.Unsafe, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := frontend.Lower("sections.c", []byte(fmt.Sprintf(head, c.body)), frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			q, _, err := Sequentialize(p, Options{Rounds: 3, Threads: 1, Unwind: 2})
			if err != nil {
				t.Fatal(err)
			}
			on5 := 0
			for _, in := range q.Func("__ls_thread_1").Body {
				if in.Msg == "context switch" && in.Pos.Line == 5 {
					on5++
				}
			}
			if c.closed && on5 != 1 || !c.closed && on5 < 2 {
				t.Errorf("%d switch points on line 5 (closed section: %v)", on5, c.closed)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := Backend{Inner: builtin.New(builtin.Options{}), Rounds: 3}.Check(ctx, p, backend.Bounds{Unwind: 2, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.want {
				t.Fatalf("%v (%s), want %v", res.Verdict, res.Reason, c.want)
			}
			if res.Verdict == backend.Unsafe {
				if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
					t.Fatalf("replay: %v %v", out, err)
				}
			}
		})
	}
}
