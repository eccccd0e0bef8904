package builtin

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

// runKeys computes the instance key of every step of a concrete run, from
// the run alone, following the key format of incremental.go: threads by
// their spawn, frames by their call, loop iterations by the back edges
// taken in the frame. It is an independent implementation of the format.
func runKeys(p *program.Program, run *program.Run) ([]string, error) {
	type frm struct {
		fn    *program.Func
		key   string
		loops map[int][2]int
	}
	stacks := map[int][]*frm{0: {{fn: p.Func("main"), key: "main", loops: map[int][2]int{}}}}
	nthreads := 0
	keys := make([]string, len(run.Steps))
	next := func(i int) int { // the next step of the same thread
		for j := i + 1; j < len(run.Steps); j++ {
			if run.Steps[j].Thread == run.Steps[i].Thread {
				return j
			}
		}
		return -1
	}
	for i, st := range run.Steps {
		stk := stacks[st.Thread]
		if len(stk) == 0 {
			return nil, fmt.Errorf("step %d: thread %d has no frame", i, st.Thread)
		}
		fr := stk[len(stk)-1]
		pc := fr.fn.Index(st.Label)
		if pc < 0 {
			return nil, fmt.Errorf("step %d: %s not in %s", i, st.Label, fr.fn.Name)
		}
		for k, l := range fr.loops { // k: a back edge, l[1] its loop's head
			if pc < l[1] || pc > k {
				delete(fr.loops, k)
			}
		}
		var its []string
		for k, l := range fr.loops {
			if l[0] > 0 {
				its = append(its, string(fr.fn.Body[k].Label)+"="+strconv.Itoa(l[0]))
			}
		}
		sort.Strings(its)
		key := fr.key + ":" + string(st.Label)
		if len(its) > 0 {
			key += "[" + strings.Join(its, ",") + "]"
		}
		keys[i] = key
		in := fr.fn.Body[pc]
		j := next(i)
		switch in.Op {
		case program.OpSpawn:
			nthreads++
			var callee string
			if f, ok := in.Func.(*program.FuncRef); ok {
				callee = f.Name
			}
			fn := p.Func(callee)
			if fn == nil {
				return nil, fmt.Errorf("spawn of %s", callee)
			}
			stacks[nthreads] = []*frm{{fn: fn, key: key + ">" + fn.Name, loops: map[int][2]int{}}}
		case program.OpCall:
			if j < 0 {
				break
			}
			nl := run.Steps[j].Label
			if fr.fn.Index(nl) == pc+1 {
				break // an empty callee (never in the front end's output)
			}
			name := string(nl)[:strings.LastIndexByte(string(nl), '.')]
			fn := p.Func(name)
			if fn == nil {
				return nil, fmt.Errorf("call into %s", name)
			}
			stacks[st.Thread] = append(stk, &frm{fn: fn, key: key + "/" + fn.Name, loops: map[int][2]int{}})
		case program.OpReturn:
			stacks[st.Thread] = stk[:len(stk)-1]
		case program.OpGoto:
			if j < 0 {
				break
			}
			t := fr.fn.Index(run.Steps[j].Label)
			if t >= 0 && t <= pc {
				n := fr.loops[pc][0]
				fr.loops[pc] = [2]int{n + 1, t}
			}
		}
		if in.Op != program.OpReturn && in.Op != program.OpCall && pc == len(fr.fn.Body)-1 {
			// falling off the end: implicit return
			stacks[st.Thread] = stk[:len(stk)-1]
		}
	}
	return keys, nil
}

func visibleSeq(run *program.Run, keys []string, visible map[program.Label]bool) []string {
	var seq []string
	for i, s := range run.Steps {
		if visible[s.Label] {
			seq = append(seq, keys[i])
		}
	}
	return seq
}

func lowerProg(t *testing.T, pr testenv.Prog) *program.Program {
	t.Helper()
	p, err := frontend.Lower(pr.Path, pr.Src, frontend.Options{Model: pr.Model})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func incProgs(t *testing.T) []testenv.Prog {
	ps, err := testenv.Progs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Skip("no testdata/progs")
	}
	return ps
}

func abstraction(t *testing.T, p *program.Program) *program.Program {
	t.Helper()
	g := depgraph.Build(p)
	a, _, err := slice.Abstract(p, g, depgraph.Choose(g, depgraph.Paper{}, ""))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func encKeys(t *testing.T, p *program.Program, b backend.Bounds, collapse bool) map[string]program.Label {
	t.Helper()
	red := reductions(0)
	if collapse {
		red = redCollapse // the reduction instances apply to the original program
	}
	e, _, err := encodeProgram(context.Background(), p, b, true, true, red)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	out := map[string]program.Label{}
	for k, r := range e.inst.byKey {
		out[k] = r.in.Label
	}
	return out
}

// Keys of P and of its abstraction A coincide: every instance of P has its
// key in A at the same label (A over-approximates P), and the keys of
// concrete runs of P, computed independently from the run, exist in both
// encodings at the step's label.
func TestInstanceKeysPandA(t *testing.T) {
	for _, pr := range incProgs(t) {
		t.Run(pr.Name, func(t *testing.T) {
			p := lowerProg(t, pr)
			a := abstraction(t, p)
			b := backend.Bounds{Unwind: pr.Unwind}
			kp, ka := encKeys(t, p, b, true), encKeys(t, a, b, true)
			if kp2 := encKeys(t, p, b, false); len(kp2) != len(kp) {
				t.Errorf("collapsing changes the instances: %d vs %d keys", len(kp), len(kp2))
			}
			for k, l := range kp {
				if la, ok := ka[k]; !ok || la != l {
					t.Errorf("key %s (%s) of P missing in A (%q)", k, l, la)
				}
			}
			checked := 0
			for seed := int64(0); seed < 40; seed++ {
				out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, Unwind: max(1, pr.Unwind-1), ContextSwitchProb: 0.3})
				if err != nil || out.Run == nil {
					continue
				}
				keys, err := runKeys(p, out.Run)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				for i, k := range keys {
					l := out.Run.Steps[i].Label
					if kp[k] != l {
						t.Errorf("seed %d step %d: key %s (%s) not in P's encoding", seed, i, k, l)
					}
					if ka[k] != l {
						t.Errorf("seed %d step %d: key %s (%s) not in A's encoding", seed, i, k, l)
					}
				}
				checked++
			}
			if checked == 0 {
				t.Logf("no simulated run")
			}
		})
	}
}

func openInst(t *testing.T, p *program.Program, b backend.Bounds) *instance {
	t.Helper()
	needZ3(t)
	bi, err := New(Options{}).(backend.Incremental).Open(context.Background(), p, b)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { bi.Close() })
	return bi.(*instance)
}

func openUnreduced(t *testing.T, p *program.Program, b backend.Bounds) *instance {
	t.Helper()
	needZ3(t)
	s, applied, err := newSession(context.Background(), p, b, Options{}, true, 0)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return &instance{ctx: context.Background(), p: p, bounds: b, s: s, applied: applied}
}

func replays(t *testing.T, p *program.Program, r backend.Result) {
	t.Helper()
	out, err := interp.Replay(p, r.Run)
	if err != nil || out.Status != interp.Violated {
		t.Fatalf("run does not replay to a violation: %v", err)
	}
}

// CheckForced is complete for the runs of the program (a violating run
// satisfies F of its own visible sequence), rejects sequences the program
// cannot follow, and every Unsafe replays. Runs come from simulation and
// from Check; the keys of Check's run must match the independent ones.
func TestCheckForced(t *testing.T) {
	ctx := context.Background()
	for _, pr := range incProgs(t) {
		if pr.Expect != "unsafe" {
			continue
		}
		t.Run(pr.Name, func(t *testing.T) {
			p := lowerProg(t, pr)
			a := abstraction(t, p)
			b := backend.Bounds{Unwind: pr.Unwind}
			ip := openInst(t, p, b)
			// Forcing an arbitrary run's sequence needs every interleaving:
			// the uncollapsed encodings (a collapsed lock region is a
			// reduction, complete for violations but not for sequences).
			fp, fa := openUnreduced(t, p, b), openUnreduced(t, a, b)
			visible := program.SharedVisible(a)
			var runs []*program.Run
			r, keys, err := ip.Check(ctx)
			if err != nil || r.Verdict != backend.Unsafe {
				t.Fatalf("check: %v %v", r.Verdict, err)
			}
			replays(t, p, r)
			own, err := runKeys(p, r.Run)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(own, " ") != strings.Join(keys, " ") {
				t.Fatalf("keys of Check's run\n%v\nindependent\n%v", keys, own)
			}
			runs = append(runs, r.Run)
			for seed := int64(0); seed < 200 && len(runs) < 4; seed++ {
				out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, Unwind: max(1, pr.Unwind-1), ContextSwitchProb: 0.3})
				if err == nil && out.Status == interp.Violated {
					runs = append(runs, out.Run)
				}
			}
			for i, run := range runs {
				keys, err := runKeys(p, run)
				if err != nil {
					t.Fatal(err)
				}
				seq := visibleSeq(run, keys, visible)
				for name, in := range map[string]*instance{"P": fp, "A": fa} {
					q := in.p
					r, _, err := in.CheckForced(ctx, visible, seq, 0)
					if name == "A" && err != nil && strings.Contains(err.Error(), "does not replay") {
						// the encoding's semantics of A differ from the interpreter's
						// (e.g. use after free); the run is refused, never reported
						t.Logf("run %d in A: %v", i, err)
						continue
					}
					if err != nil || r.Verdict != backend.Unsafe {
						t.Fatalf("run %d: forcing its own sequence in %s: %v %v\n%v", i, name, r.Verdict, err, seq)
					}
					replays(t, q, r)
				}
				// an order the program cannot take: two steps of one
				// frame swapped
				for j := 0; j+2 < len(seq); j++ {
					if frameOf(seq[j]) != frameOf(seq[j+1]) {
						continue
					}
					bad := slices.Clone(seq)
					bad[j], bad[j+1] = bad[j+1], bad[j]
					r, blks, err := ip.CheckForced(ctx, visible, bad, 0)
					if err != nil || r.Verdict != backend.Safe || len(blks) != 1 {
						t.Errorf("run %d: forcing an impossible order: %v %v %v", i, r.Verdict, blks, err)
					} else {
						checkBlocker(t, ip, visible, bad, blks[0])
					}
					break
				}
				// a key P does not have
				r, blks, err := ip.CheckForced(ctx, visible, append(seq[:len(seq)-1:len(seq)-1], "main:nowhere", seq[len(seq)-1]), 2)
				if err != nil || r.Verdict != backend.Safe {
					t.Errorf("run %d: forcing a missing key: %v %v", i, r.Verdict, err)
				}
				if len(blks) != 1 || blks[0].String() != "exec(main:nowhere)" {
					t.Errorf("run %d: blocker for a missing key: %v", i, blks)
				}
			}
			// CheckForced leaves the instance unchanged
			if r, _, err := ip.Check(ctx); err != nil || r.Verdict != backend.Unsafe {
				t.Fatalf("check after forced checks: %v %v", r.Verdict, err)
			}
		})
	}
}

const oneSeq = `
int x = 0;
void *t(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(x == 0);
  return 0;
}
`

const manySeq = `
int x = 0, y = 0;
void *t(void *a) { x = 1; y = 1; return 0; }
void *u(void *a) { y = 2; x = 2; return 0; }
int main(void) {
  pthread_t h, k;
  pthread_create(&h, 0, t, 0);
  pthread_create(&k, 0, u, 0);
  assert(x + y < 2);
  return 0;
}
`

// Exclude removes exactly the runs with the excluded visible sequence: a
// program with one violating sequence becomes safe, and on one with many
// every new counterexample has a new sequence.
func TestExclude(t *testing.T) {
	ctx := context.Background()
	p := lower(t, "one", oneSeq)
	in := openInst(t, p, backend.Bounds{Unwind: 2})
	visible := program.SharedVisible(p)
	r, keys, err := in.Check(ctx)
	if err != nil || r.Verdict != backend.Unsafe {
		t.Fatalf("check: %v %v", r.Verdict, err)
	}
	seq := visibleSeq(r.Run, keys, visible)
	if err := in.Exclude(flatOf(t, in, visible, seq)); err != nil {
		t.Fatal(err)
	}
	if r, _, err := in.Check(ctx); err != nil || r.Verdict != backend.Safe {
		t.Fatalf("after excluding the only sequence: %v %v", r.Verdict, err)
	}
	if r, blk, err := in.CheckForced(ctx, visible, seq, 0); err != nil || r.Verdict != backend.Safe || len(blk) == 0 {
		t.Fatalf("forcing an excluded sequence: %v %v %v", r.Verdict, blk, err)
	}

	p = lower(t, "many", manySeq)
	in = openInst(t, p, backend.Bounds{Unwind: 2})
	visible = program.SharedVisible(p)
	seen := map[string]bool{}
	for i := 0; ; i++ {
		if i > 200 {
			t.Fatal("too many sequences")
		}
		r, keys, err := in.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict == backend.Safe {
			t.Logf("%d violating sequences", i)
			if i < 2 {
				t.Errorf("only %d violating sequences", i)
			}
			break
		}
		replays(t, p, r)
		seq := visibleSeq(r.Run, keys, visible)
		k := strings.Join(seq, " ")
		if seen[k] {
			t.Fatalf("sequence returned again after its exclusion: %s", k)
		}
		seen[k] = true
		if err := in.Exclude(flatOf(t, in, visible, seq)); err != nil {
			t.Fatal(err)
		}
	}
}

// A cancelled context stops a check and leaves the instance unusable.
func TestInstanceCancel(t *testing.T) {
	p := lower(t, "one", oneSeq)
	in := openInst(t, p, backend.Bounds{Unwind: 2})
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	if _, _, err := in.Check(ctx); err == nil {
		t.Fatal("no error after cancellation")
	}
}

func frameOf(key string) string {
	if i := strings.LastIndexByte(key, ':'); i >= 0 {
		return key[:i]
	}
	return key
}

func flatOf(t *testing.T, in *instance, visible map[program.Label]bool, seq []string) backend.Blocker {
	t.Helper()
	b, err := in.flat(visible, seq)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkBlocker checks a Safe answer's blocker: non-empty, made of atoms of
// F(seq), and satisfied by no run of the program (forcing it is Safe).
func checkBlocker(t *testing.T, in *instance, visible map[program.Label]bool, seq []string, blk backend.Blocker) {
	t.Helper()
	if len(blk) == 0 {
		t.Errorf("empty blocker for %v", seq)
		return
	}
	atoms := map[backend.Atom]bool{}
	for _, a := range flatOf(t, in, visible, seq) {
		atoms[a] = true
	}
	for _, a := range blk {
		if !atoms[a] {
			t.Errorf("blocker atom %v is not an atom of F(seq)", a)
		}
	}
	var ts []*term
	for _, a := range blk {
		ts = append(ts, in.atomTerm(a))
	}
	sv := in.s.solver
	sv.Push()
	defer sv.Pop()
	sv.Assert(and(ts...).s)
	if r, err := sv.CheckSat(); err != nil || r != smt.Unsat {
		t.Errorf("blocker %v is satisfiable in the program: %v %v", blk, r, err)
	}
}

// TestInstanceReductions checks the reductions of an instance (see the
// comment at the top of incremental.go): Check runs on the reduced
// encoding, CheckForced finds its own run's sequence there, and the first
// Exclude drops every reduction.
func TestInstanceReductions(t *testing.T) {
	ctx := context.Background()
	for name, want := range map[string]reductions{"spin_ticket_unsafe": redSpin, "symmetric_roles_unsafe": redSym} {
		t.Run(name, func(t *testing.T) {
			_, b, p, err := progFile(t, "../../testdata/progs/"+name+".c")
			if err != nil {
				t.Fatal(err)
			}
			in := openInst(t, p, b)
			if in.applied&want == 0 {
				t.Fatalf("reductions %b, want %b among them", in.applied, want)
			}
			r, keys, err := in.Check(ctx)
			if err != nil || r.Verdict != backend.Unsafe {
				t.Fatalf("check: %v %v", r.Verdict, err)
			}
			visible := program.SharedVisible(p)
			seq := visibleSeq(r.Run, keys, visible)
			r, _, err = in.CheckForced(ctx, visible, seq, 0)
			if err != nil || r.Verdict != backend.Unsafe {
				t.Fatalf("forcing the run's own sequence: %v %v", r.Verdict, err)
			}
			replays(t, p, r)
			if err := in.Exclude(backend.Blocker{{Kind: backend.Exec, A: "main:nowhere"}}); err != nil {
				t.Fatal(err)
			}
			if in.applied != 0 {
				t.Errorf("reductions %b after Exclude, want none", in.applied)
			}
		})
	}
}

// TestBlockersKeepRealRuns runs the refinement loop of the controller on
// the abstraction of each unsafe program and checks, independently of the
// encoding, that no blocker holds of a real violating run of the program
// (its real runs: the counterexample of a plain check and violations found
// by random simulation). A blocker that held of one would exclude the
// image of a real bug from the abstraction. queue_false.cil.c of the
// SV-COMP set (when ../shared is present) is the case that found the
// mistake of reading atoms off the whole model instead of the run, which
// ends at its first violation.
func TestBlockersKeepRealRuns(t *testing.T) {
	ctx := context.Background()
	type task struct {
		name string
		p    *program.Program
		b    backend.Bounds
	}
	var tasks []task
	for _, pr := range incProgs(t) {
		if pr.Expect == "unsafe" {
			tasks = append(tasks, task{pr.Name, lowerProg(t, pr), backend.Bounds{Unwind: pr.Unwind}})
		}
	}
	const queue = "../../../shared/bench/sv-comp15/pthread/queue_false-unreach-call.cil.c"
	if p, err := lowerTimeout(queue, program.ILP32, 20*time.Second); err == nil {
		tasks = append(tasks, task{"queue_false.cil.c", p, backend.Bounds{Unwind: 5}})
	} else {
		t.Logf("without %s: %v", queue, err)
	}
	for _, tk := range tasks {
		t.Run(tk.name, func(t *testing.T) {
			p := tk.p
			a := abstraction(t, p)
			visible := program.SharedVisible(a)
			var real [][]string // visible-free keys of real violating runs
			if r := check(t, p, tk.b); r.Verdict == backend.Unsafe {
				keys, err := runKeys(p, r.Run)
				if err != nil {
					t.Fatal(err)
				}
				real = append(real, keys)
			}
			for seed := int64(0); seed < 100 && len(real) < 5; seed++ {
				out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, Unwind: max(1, tk.b.Unwind-1), ContextSwitchProb: 0.3})
				if err == nil && out.Status == interp.Violated {
					keys, err := runKeys(p, out.Run)
					if err != nil {
						t.Fatal(err)
					}
					real = append(real, keys)
				}
			}
			ia, ip := openInst(t, a, tk.b), openInst(t, p, tk.b)
			for it := 0; it < 6; it++ {
				r, keys, err := ia.Check(ctx)
				if err != nil || r.Verdict != backend.Unsafe {
					if len(real) > 0 && r.Verdict == backend.Safe {
						t.Fatalf("iteration %d: the abstraction became SAFE while the program has violations", it)
					}
					return
				}
				seq := visibleSeq(r.Run, keys, visible)
				s, blks, err := ip.CheckForced(ctx, visible, seq, 8)
				if err != nil || s.Verdict != backend.Safe {
					return // a real counterexample (or undecided): the loop ends
				}
				for _, blk := range blks {
					for i, run := range real {
						if blockerHolds(blk, run) {
							t.Errorf("iteration %d: blocker %v holds of real violating run %d", it, blk, i)
						}
					}
					if err := ia.Exclude(blk); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// blockerHolds evaluates a blocker on a run given by the keys of its steps
// (the run ends at its violated assertion, its last step).
func blockerHolds(b backend.Blocker, run []string) bool {
	at := map[string]int{}
	for i, k := range run {
		if _, ok := at[k]; !ok {
			at[k] = i
		}
	}
	in := func(k string) bool { _, ok := at[k]; return ok }
	for _, a := range b {
		var ok bool
		switch a.Kind {
		case backend.Exec:
			ok = in(a.A)
		case backend.Before:
			ok = in(a.A) && in(a.B) && at[a.A] < at[a.B]
		case backend.Fails:
			ok = len(run) > 0 && run[len(run)-1] == a.A
		case backend.NotBefore:
			ok = !in(a.B) || (in(a.A) && at[a.A] < at[a.B])
		}
		if !ok {
			return false
		}
	}
	return true
}
