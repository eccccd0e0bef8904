package cegpv_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/program"
)

// pthreadProgs matches the testdata programs of the pthread API beyond
// threads, plain mutexes and condition variables (frontend/pthread*.go).
var pthreadProgs = regexp.MustCompile(`^(barrier|once|spin|detach|exit_|self|rwlock|trylock|recursive|errorcheck|timed|cond_errorcheck|tsd)`)

// svPrelude replaces <assert.h> in the preprocessed programs: glibc's
// assert expands to a statement expression; SV-COMP's tasks define
// reach_error and __VERIFIER_assert as below.
const svPrelude = `extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "x.c", 3, __extension__ __PRETTY_FUNCTION__); }
void __VERIFIER_assert(int expression) { if (!expression) { ERROR: {reach_error();abort();} } return; }
#define assert __VERIFIER_assert
`

// The pthread programs, preprocessed by gcc with glibc's own headers (as
// SV-COMP's .i files are: unions with __size arrays, the initialisers
// expanded into braces), for i386 and x86-64, get the verdict their
// header states: the front end recognises glibc's types by typedef name.
func TestPthreadPreprocessed(t *testing.T) {
	needZ3(t)
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	var ps []testenv.Prog
	for _, pr := range progs(t) {
		if pthreadProgs.MatchString(pr.Name) {
			ps = append(ps, pr)
		}
	}
	if len(ps) < 20 {
		t.Fatalf("only %d pthread programs in testdata/progs", len(ps))
	}
	dir := t.TempDir()
	be := builtin.New(builtin.Options{})
	for _, model := range []program.DataModel{program.ILP32, program.LP64} {
		flag := "-m32"
		if model == program.LP64 {
			flag = "-m64"
		}
		for _, pr := range ps {
			t.Run(string(model)+"/"+pr.Name, func(t *testing.T) {
				src := strings.Replace(string(pr.Src), "#include <assert.h>\n", svPrelude, 1)
				c := filepath.Join(dir, string(model)+"_"+pr.Name)
				if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command("gcc", "-E", "-P", flag, c).Output()
				if err != nil {
					t.Skipf("gcc -E %s (the %s libc headers?): %v", flag, model, err)
				}
				p, err := frontend.Lower(strings.TrimSuffix(pr.Name, ".c")+".i", out, frontend.Options{Model: model})
				if err != nil {
					t.Fatal(err)
				}
				if err := program.Check(p); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				res, err := be.Check(ctx, p, backend.Bounds{Unwind: pr.Unwind, Threads: pr.Threads})
				if err != nil {
					t.Fatal(err)
				}
				want := backend.Safe
				if pr.Expect == "unsafe" {
					want = backend.Unsafe
				}
				if res.Verdict != want {
					t.Fatalf("%v (%s), want %v", res.Verdict, res.Reason, want)
				}
			})
		}
	}
}

// The model's limits of thread-specific data are never values: a run
// that needs more keys than the model has, or more values at once than it
// has slots, ends in an invalid access (UNKNOWN), not in a TRUE or a
// FALSE. (gcc: both programs run to their end, no assertion fails.)
func TestPthreadTSDLimits(t *testing.T) {
	needZ3(t)
	for name, src := range map[string]string{
		"keys": `#include <pthread.h>
#include <assert.h>
pthread_key_t k[5];
int a;
int main(void) {
  for (int i = 0; i < 5; i++) pthread_key_create(&k[i], 0);
  pthread_setspecific(k[4], &a);
  assert(pthread_getspecific(k[4]) == &a);
  return 0;
}`,
		"slots": `#include <pthread.h>
#include <assert.h>
pthread_key_t key;
int a;
void *t(void *arg) { pthread_setspecific(key, &a); assert(pthread_getspecific(key) == &a); return 0; }
int main(void) {
  pthread_t h[5];
  pthread_key_create(&key, 0);
  for (int i = 0; i < 5; i++) pthread_create(&h[i], 0, t, 0);
  for (int i = 0; i < 5; i++) pthread_join(h[i], 0);
  return 0;
}`,
	} {
		t.Run(name, func(t *testing.T) {
			p := lower(t, name+".c", []byte(src))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := builtin.New(builtin.Options{}).Check(ctx, p, backend.Bounds{Unwind: 6})
			if res.Verdict != backend.Unknown || err == nil && !strings.Contains(res.Reason, "out of bounds") {
				t.Fatalf("%v (%s, %v), want UNKNOWN: an access outside the model's arrays", res.Verdict, res.Reason, err)
			}
		})
	}
}
