package validate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/witness"
)

func opts() cegpv.CheckOptions {
	return cegpv.CheckOptions{Options: loop.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 5, Timeout: 60 * time.Second}}}
}

func check(t *testing.T, file string, src []byte, w []byte) Result {
	t.Helper()
	p, err := frontend.Lower(file, src, frontend.Options{Model: program.ILP32}) // the fixtures' witnesses are ILP32
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	g, err := witness.Read(w)
	if err != nil {
		t.Fatalf("%s: witness: %v", file, err)
	}
	return Witness(context.Background(), p, src, g, opts())
}

// ESBMC 8.4's violation witnesses (../shared/fixtures), GraphML and YAML,
// are confirmed: a replayed run of the program violating the target's
// property. (27_Boop is left out: its violation depends on an external
// function cegpv does not model, and verify says UNKNOWN there too.)
func TestESBMCWitnesses(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed (make deps installs it)")
	}
	manifest := testenv.FindSVCOMP15()
	if manifest == "" {
		t.Skip("../shared absent")
	}
	shared := filepath.Dir(filepath.Dir(filepath.Dir(manifest)))
	fix := filepath.Join(shared, "fixtures", "esbmc-8.4.0")
	for _, c := range []struct{ dir, src string }{
		{"lazy01_false-unreach-call", "bench/sv-comp15/pthread/lazy01_false-unreach-call.c"},
		{"stateful01_false-unreach-call", "bench/sv-comp15/pthread/stateful01_false-unreach-call.c"},
		{"stack_false-unreach-call", "bench/sv-comp15/pthread/stack_false-unreach-call.c"},
		{"fib_bench_false-unreach-call", "bench/sv-comp15/pthread/fib_bench_false-unreach-call.c"},
		{"28_buggy_simple_loop1_vf_false-unreach-call", "bench/sv-comp15/pthread-ext/28_buggy_simple_loop1_vf_false-unreach-call.c"},
		{"40_barrier_vf_false-unreach-call", "bench/sv-comp15/pthread-ext/40_barrier_vf_false-unreach-call.c"},
		{"mix034_pso.opt_false-unreach-call", "bench/sv-comp15/pthread-wmm/mix034_pso.opt_false-unreach-call.c"},
		{"own-race", "fixtures/esbmc-8.4.0/own-race/own-race.c"},
		{"own-atomic-nondet", "fixtures/esbmc-8.4.0/own-atomic-nondet/own-atomic-nondet.c"},
	} {
		src, err := os.ReadFile(filepath.Join(shared, c.src))
		if err != nil {
			t.Skipf("../shared/fixtures absent: %v", err)
		}
		for _, f := range []string{"witness.graphml", "witness.yml"} {
			w, err := os.ReadFile(filepath.Join(fix, c.dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if r := check(t, c.src, src, w); !r.Confirmed || r.Run == nil {
				t.Errorf("%s/%s: not confirmed: %s", c.dir, f, r.Reason)
			}
		}
	}
}

const racy = `#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) {
  int k = __VERIFIER_nondet_int();
  pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (k == 7) assert(c == 2);
  return 0;
}
`

// cegpv's own witnesses of a violation are confirmed; a witness whose
// assumption contradicts the violation, one for another program and one
// whose target holds no property are not (UNKNOWN, never FALSE).
func TestOwnAndBadWitnesses(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed (make deps installs it)")
	}
	file := filepath.Join(t.TempDir(), "racy.c")
	if err := os.WriteFile(file, []byte(racy), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Lower(file, []byte(racy), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := cegpv.Check(context.Background(), p, opts())
	if rep.Verdict != backend.Unsafe {
		t.Fatalf("racy.c: %v %s", rep.Verdict, rep.Reason)
	}
	info := witness.Info{ProgramFile: file, Specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )", Producer: "cegpv test", Model: program.ILP32}
	gm, err := witness.Violation(info, p, rep.Run)
	if err != nil {
		t.Fatal(err)
	}
	ym, err := witness.ViolationYAML(info, p, rep.Run)
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string][]byte{"graphml": gm, "yaml": ym} {
		if r := check(t, file, []byte(racy), w); !r.Confirmed {
			t.Errorf("own %s witness not confirmed: %s", name, r.Reason)
		}
	}
	// k == 7 is the only way to the assertion: a witness saying k == 3
	// leads nowhere
	bad := strings.Replace(string(ym), "k == 7", "k == 3", 1)
	if bad == string(ym) {
		t.Fatalf("the YAML witness states no k == 7:\n%s", ym)
	}
	if r := check(t, file, []byte(racy), []byte(bad)); r.Confirmed {
		t.Errorf("a witness assuming k == 3 was confirmed")
	}
	if r := check(t, "other.c", []byte(racy+"\n"), gm); r.Confirmed || !strings.Contains(r.Reason, "another program") {
		t.Errorf("a witness for another program: confirmed %v (%s)", r.Confirmed, r.Reason)
	}
	noTarget := strings.Replace(string(ym), "line: 10", "line: 4", -1)
	if r := check(t, file, []byte(racy), []byte(noTarget)); r.Confirmed || !strings.Contains(r.Reason, "no property") {
		t.Errorf("a target without a property: confirmed %v (%s)", r.Confirmed, r.Reason)
	}
	outside := strings.Replace(string(ym), "line: 10", "line: 99", -1)
	if r := check(t, file, []byte(racy), []byte(outside)); r.Confirmed || !strings.Contains(r.Reason, "line 99") || !strings.Contains(r.Reason, "outside") {
		t.Errorf("a witness naming line 99 of a 12-line file: confirmed %v (%s)", r.Confirmed, r.Reason)
	}
	// the same witness, its hash made the safe program's: every waypoint
	// lies on the same lines, but no run reaches the violation
	if racySafe == racy || strings.Count(racySafe, "atomic_") != 4 {
		t.Fatalf("racySafe is not racy made atomic:\n%s", racySafe)
	}
	sum := sha256.Sum256([]byte(racySafe))
	own := sha256.Sum256([]byte(racy))
	forSafe := strings.Replace(string(ym), hex.EncodeToString(own[:]), hex.EncodeToString(sum[:]), -1)
	if forSafe == string(ym) {
		t.Fatalf("the YAML witness holds no program hash:\n%s", ym)
	}
	if r := check(t, file, []byte(racySafe), []byte(forSafe)); r.Confirmed || !strings.Contains(r.Reason, "no violation") {
		t.Errorf("a witness for a safe program: confirmed %v (%s)", r.Confirmed, r.Reason)
	}
}

// racySafe is racy with the read-modify-write atomic, line for line: c is
// 2 after the joins, so the assertion holds (by construction).
var racySafe = strings.NewReplacer(
	"extern int __VERIFIER_nondet_int(void);", "extern int __VERIFIER_nondet_int(void); void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);",
	"{ int t = c; c = t + 1; return 0; }", "{ __VERIFIER_atomic_begin(); int t = c; c = t + 1; __VERIFIER_atomic_end(); return 0; }",
).Replace(racy)
