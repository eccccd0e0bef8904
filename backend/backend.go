// Package backend defines the contract between cegpv and the model checkers
// it drives: a Backend checks a program under Bounds and returns a Result.
//
// Invariants every implementation keeps:
//   - An Unsafe result carries a Run of the program it was given: every
//     executed label in order, the thread that ran it, the nondeterministic
//     values drawn and the stores made (see program.Run).
//   - Safe means no violation exists within the bounds (with unwinding
//     assertions, no run reaches a loop or recursion bound either);
//     Result.Proof says whether the bounds cover every behaviour.
//   - A violated property is a result, not an error. Errors are
//     infrastructure failures and carry a Kind; a reported violation whose
//     counterexample cannot be followed is an error wrapping
//     ErrUnfollowable (kind BadOutput), with an Unknown result.
//   - Cancelling ctx stops the check and everything it started (child
//     processes are killed as a group) and removes its temporary files.
package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"cegpv.dev/cegpv/program"
)

// Backend is a bounded model checker.
type Backend interface {
	Name() string
	// Capabilities declare what the backend can do; callers read them
	// instead of asserting types (a wrapper keeps its inner backend's).
	Capabilities() Capabilities
	Check(ctx context.Context, p *program.Program, b Bounds) (Result, error)
}

// Capabilities are what a backend declares about itself.
type Capabilities struct {
	// Incremental: the backend implements Incremental (Open).
	Incremental bool
	// External: each check is a process of an external checker (ESBMC,
	// CBMC) with its own fixed cost, on one core.
	External bool
	// Unfollowable: a reported violation may come with a trace that
	// cannot be followed (an error wrapping ErrUnfollowable).
	Unfollowable bool
	// Rounds: the backend honours Bounds.Rounds (lazy sequentialisation).
	Rounds bool
	// Deepens: the backend deepens towards Bounds.Unwind from
	// Bounds.DeepenFrom, stopping at the first unwinding with a violation.
	Deepens bool
}

// OpenOf returns be as an Incremental backend when it declares it.
func OpenOf(be Backend) (Incremental, bool) {
	if !be.Capabilities().Incremental {
		return nil, false
	}
	inc, ok := be.(Incremental)
	return inc, ok
}

// Wrap returns a backend with be's name and capabilities (and be's Open
// when it is incremental) whose Check is check: the one way a wrapper
// keeps what the backend it wraps declares.
func Wrap(be Backend, check func(ctx context.Context, p *program.Program, b Bounds) (Result, error)) Backend {
	return wrapped{be, check}
}

type wrapped struct {
	inner Backend
	check func(ctx context.Context, p *program.Program, b Bounds) (Result, error)
}

func (w wrapped) Name() string               { return w.inner.Name() }
func (w wrapped) Capabilities() Capabilities { return w.inner.Capabilities() }
func (w wrapped) Check(ctx context.Context, p *program.Program, b Bounds) (Result, error) {
	return w.check(ctx, p, b)
}

// Open is the inner backend's (callers ask OpenOf first).
func (w wrapped) Open(ctx context.Context, p *program.Program, b Bounds) (Instance, error) {
	inc, ok := OpenOf(w.inner)
	if !ok {
		return nil, fmt.Errorf("backend %s is not incremental", w.inner.Name())
	}
	return inc.Open(ctx, p, b)
}

// Bounds limit the behaviours a check explores.
type Bounds struct {
	Unwind int // loop iterations and recursion depth per loop/call site
	// UnwindSet gives loops and recursive functions bounds of their own
	// (--unwindset, as CBMC's): each entry's Bound replaces Unwind for
	// the loop or function whose program.Unwinding.Key is its Key. The
	// engines that count iterations themselves (the built-in encoding,
	// the explicit-state search, the interpreter through Run.UnwindSet)
	// honour it; an external checker, whose loop numbers may differ from
	// ours, gets MaxUnwind for every loop (a larger bound for each: its
	// TRUE holds for these bounds too).
	UnwindSet []LoopBound
	// UnwindingAssertions: a run that reaches a loop or recursion bound
	// violates that loop's or function's unwinding property
	// (program.Unwindings), as CBMC's unwinding assertions: an Unsafe
	// result then may be such a run (Run.Violated the property, Run.Unwind
	// the bound), and a Safe one says that no run reaches these bounds (a
	// proof, Result.Proof, unless a thread bound cut a run). UnwindingOnly,
	// when set, limits the properties checked to the one with that key
	// (program.Unwinding.Key): the other bounds cut runs as without
	// unwinding assertions.
	UnwindingAssertions bool
	UnwindingOnly       string
	Threads             int           // thread instances created by one Spawn inside a loop; 0 = Unwind
	Contexts            int           // optional context-switch bound; 0 = none
	Rounds              int           // round-robin rounds over the thread instances (package lazyseq); 0 = none
	Timeout             time.Duration // 0 = none
	MemoryMB            int           // 0 = none
	// MaxThreads bounds the threads of one run, main and all spawn
	// sites together (0: DefaultMaxThreads); see MaxThreadsOrDefault.
	MaxThreads int
	// ThreadCap is the MaxThreads a backend cut a run at: it states it
	// in Result.Bounds (a verdict then names it, "at most N threads in a
	// run"); one that cut none leaves it 0.
	ThreadCap int
	// DeepenFrom: no violation lies within the unwindings below it (a
	// check found none), so a backend that deepens towards Unwind may
	// start there (0: from 1). Not part of the bounds a verdict states.
	DeepenFrom int
}

// LoopBound is the bound of one loop or recursive function (an entry of
// Bounds.UnwindSet).
type LoopBound struct {
	// ID names it as the user does (CBMC's loop ids): "main.0" for the
	// loop of the unwinding property main.unwind.0, "f" for the recursive
	// calls f makes (property f.recursion).
	ID string
	// Key is its program.Unwinding.Key in the program checked (a back
	// edge's label, or the recursion property's id), which translations
	// keep; "" until resolved (ResolveUnwindSet).
	Key   string
	Bound int
}

// UnwindOf returns the bound of the loop or recursive function with that
// key (program.Unwinding.Key): its UnwindSet entry's, else Unwind.
func (b Bounds) UnwindOf(key string) int {
	for _, l := range b.UnwindSet {
		if l.Key == key {
			return l.Bound
		}
	}
	return b.Unwind
}

// Uniform returns b with one bound for every loop, the largest
// (MaxUnwind), and no UnwindSet: what an external checker is given. ESBMC
// and CBMC number loops in the C file cegpv prints for them, in their own
// way (ESBMC counts every loop of the program, CBMC per function after
// its own passes), so their --unwindset ids need not be ours
// (program.Unwindings); a larger bound for every loop is sound instead:
// their TRUE holds within b too (and is stated for the larger bounds,
// Result.Bounds), and a run they report at a bound is followed and
// replayed at the larger bound.
func Uniform(b Bounds) Bounds {
	b.Unwind, b.UnwindSet = b.MaxUnwind(), nil
	return b
}

// UnwindOfOr1 is UnwindOf, at least 1 (an unset Unwind is 1).
func (b Bounds) UnwindOfOr1(key string) int { return max(1, b.UnwindOf(key)) }

// MaxUnwind is the largest bound of any loop: Unwind or an UnwindSet
// entry's (what an external checker gets as --unwind).
func (b Bounds) MaxUnwind() int {
	m := b.Unwind
	for _, l := range b.UnwindSet {
		m = max(m, l.Bound)
	}
	return m
}

// SetMap returns UnwindSet as a map from key to bound (program.Run's and
// the interpreter's form), nil when it is empty.
func (b Bounds) SetMap() map[string]int {
	if len(b.UnwindSet) == 0 {
		return nil
	}
	m := make(map[string]int, len(b.UnwindSet))
	for _, l := range b.UnwindSet {
		m[l.Key] = l.Bound
	}
	return m
}

// WithUnwind returns b with Unwind k and every UnwindSet bound at most k:
// the bounds of a shallow step of a deepening towards b.
func (b Bounds) WithUnwind(k int) Bounds {
	b.Unwind = k
	var set []LoopBound
	for _, l := range b.UnwindSet {
		if l.Bound < k {
			set = append(set, l)
		}
	}
	b.UnwindSet = set
	return b
}

// Scaled returns b with Unwind and every UnwindSet bound multiplied by f
// (the search beyond the bounds).
func (b Bounds) Scaled(f int) Bounds {
	b.Unwind = max(1, b.Unwind) * f
	set := make([]LoopBound, len(b.UnwindSet))
	for i, l := range b.UnwindSet {
		l.Bound *= f
		set[i] = l
	}
	b.UnwindSet = set
	return b
}

// WithLoopBound returns b with the loop or function l bound at l.Bound
// (its entry replaced, or added), the entries sorted by ID.
func (b Bounds) WithLoopBound(l LoopBound) Bounds {
	set := []LoopBound{l}
	for _, o := range b.UnwindSet {
		if o.Key != l.Key {
			set = append(set, o)
		}
	}
	slices.SortFunc(set, func(x, y LoopBound) int { return strings.Compare(x.ID, y.ID) })
	b.UnwindSet = set
	return b
}

// UnwindSetString writes an unwind set as CBMC's --unwindset takes it:
// "main.0:12,f:3".
func UnwindSetString(set []LoopBound) string {
	var parts []string
	for _, l := range set {
		parts = append(parts, fmt.Sprintf("%s:%d", l.ID, l.Bound))
	}
	return strings.Join(parts, ",")
}

// ParseUnwindSet parses CBMC's --unwindset value, "L:k,...": L a loop id
// ("main.0", or the unwinding property's id "main.unwind.0") or a
// function's name for its recursive calls ("f", or "f.recursion"), k at
// least 1. The keys are resolved against a program later
// (ResolveUnwindSet).
func ParseUnwindSet(s string) ([]LoopBound, error) {
	var out []LoopBound
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, k, ok := strings.Cut(part, ":")
		n, err := strconv.Atoi(k)
		switch {
		case !ok || id == "":
			return nil, fmt.Errorf("%q: want LOOP:BOUND, as main.0:12 (the loop of property main.unwind.0) or f:3 (the recursive calls of f)", part)
		case err != nil || n < 1:
			return nil, fmt.Errorf("%q: the bound %q is not a number of at least 1", part, k)
		}
		id = NormalLoopID(id)
		if seen[id] {
			return nil, fmt.Errorf("%q: loop %s has two bounds", part, id)
		}
		seen[id] = true
		out = append(out, LoopBound{ID: id, Bound: n})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: no LOOP:BOUND", s)
	}
	return out, nil
}

// NormalLoopID returns the loop id of an unwinding property's id
// ("main.unwind.0" → "main.0", "f.recursion" → "f"), other ids as they are.
func NormalLoopID(id string) string {
	if !program.IsUnwinding(id) {
		return id
	}
	if f, ok := strings.CutSuffix(id, ".recursion"); ok {
		return f
	}
	f, k, _ := strings.Cut(id, ".unwind.")
	return f + "." + k
}

// LoopIDOf is the loop id (LoopBound.ID) of an unwinding property.
func LoopIDOf(u program.Unwinding) string { return NormalLoopID(u.ID) }

// ResolveUnwindSet sets the Key of every UnwindSet entry of b from p's
// unwinding properties (program.Unwindings); an id that names none of
// them is an error that lists those p has.
func ResolveUnwindSet(p *program.Program, b Bounds) (Bounds, error) {
	if len(b.UnwindSet) == 0 {
		return b, nil
	}
	us := program.Unwindings(p)
	set := make([]LoopBound, len(b.UnwindSet))
	for i, l := range b.UnwindSet {
		if l.Key == "" {
			id := NormalLoopID(l.ID)
			for _, u := range us {
				if LoopIDOf(u) == id {
					l.ID, l.Key = id, u.Key()
				}
			}
			if l.Key == "" {
				var ids []string
				for _, u := range us {
					ids = append(ids, LoopIDOf(u))
				}
				if ids == nil {
					ids = []string{"none"}
				}
				return b, fmt.Errorf("--unwindset: no loop or recursive function %q in %s (its loops: %s)", l.ID, p.File, strings.Join(ids, ", "))
			}
		}
		set[i] = l
	}
	b.UnwindSet = set
	return b, nil
}

// DefaultMaxThreads is the bound on the threads of one run when
// Bounds.MaxThreads is 0.
const DefaultMaxThreads = 64

// MaxThreadsOrDefault returns the bound on the threads of one run (main
// included) that the engines which count threads (the built-in encoding,
// the explicit-state search) cut runs at.
func (b Bounds) MaxThreadsOrDefault() int {
	if b.MaxThreads > 0 {
		return b.MaxThreads
	}
	return DefaultMaxThreads
}

// String describes the bounds the way verdicts state them.
func (b Bounds) String() string {
	s := fmt.Sprintf("unwind %d", b.Unwind)
	if len(b.UnwindSet) > 0 {
		s += ", unwindset " + UnwindSetString(b.UnwindSet)
	}
	if b.Threads > 0 {
		s += fmt.Sprintf(", threads %d", b.Threads)
	}
	if b.Contexts > 0 {
		s += fmt.Sprintf(", contexts %d", b.Contexts)
	}
	if b.ThreadCap > 0 {
		s += fmt.Sprintf(", at most %d threads in a run", b.ThreadCap)
	}
	if b.Rounds > 0 {
		s += fmt.Sprintf(" and %d rounds", b.Rounds)
	}
	return s
}

// Verdict is the answer of a check.
type Verdict int

const (
	Unknown Verdict = iota
	Safe
	Unsafe
)

func (v Verdict) String() string {
	return [...]string{"UNKNOWN", "SAFE", "UNSAFE"}[v]
}

// SVCOMP returns the verdict in SV-COMP words: TRUE, FALSE or UNKNOWN.
func (v Verdict) SVCOMP() string {
	return [...]string{"UNKNOWN", "TRUE", "FALSE"}[v]
}

// Result is the outcome of a check.
type Result struct {
	Verdict Verdict
	Reason  string // why Unknown; Unsafe: how the run goes past Bounds, if it does; else empty
	Proof   bool   // Safe, unwinding assertions were checked and hold, and no thread bound cut a run: a proof, not only bounded
	// Complete (Safe): no run was cut by a bound, so the answer holds
	// for every bound (a backend that cannot tell leaves it false)
	Complete bool
	Run      *program.Run // Unsafe: the counterexample
	Bounds   Bounds       // the bounds the verdict holds for
	Stats    Stats
	Log      string // raw backend output, for --dump and debugging
	// Input is the program as the backend handed it to its checker (an
	// external checker's C file, whose line numbers its trace names), for
	// --dump; "" when it is the program itself.
	Input string
}

// Stats are the numbers a check reports.
type Stats struct {
	Vars       int           // SMT variables (or the backend's equivalent)
	Clauses    int           // SMT assertions (or clauses)
	FormulaB   int           // formula size in bytes as sent to the solver
	Events     int           // shared-memory events in the encoding
	States     int           // states visited by an explicit-state search (0 if none ran)
	SolverTime time.Duration // time spent in the solver
	EncodeTime time.Duration
	Total      time.Duration
	// Checker is an external checker's own account of its work, in its
	// words (ESBMC: its schedule reduction line), "" for the others.
	Checker string
}

// Error kinds, re-exported from program for convenience.
type (
	Error   = program.Error
	ErrKind = program.ErrKind
)

const (
	Unsupported = program.Unsupported
	Crash       = program.Crash
	Timeout     = program.Timeout
	BadOutput   = program.BadOutput
	Internal    = program.Internal
)

// Errorf returns a *program.Error of the given kind.
func Errorf(kind ErrKind, format string, args ...any) error {
	return program.Errorf(kind, format, args...)
}

// KindOf returns the kind of err (see program.KindOf).
func KindOf(err error) ErrKind { return program.KindOf(err) }

// ErrNoBackend is returned when no backend is configured.
var ErrNoBackend = errors.New("no backend")

// ErrUnfollowable is in the error of a backend whose checker reports a
// violation with a counterexample that does not lead to it on the program
// (CBMC 5.4 prints no step of a thread other than main): the result is
// Unknown, never Unsafe nor Safe. A backend does nothing more about it;
// cegpv.Check, the one verdict path, decides whether another engine looks
// for the violation (the explicit-state search, within the same bounds).
var ErrUnfollowable = errors.New("the trace does not lead to the violation")

// Incremental is implemented by backends that keep an encoded program alive
// in their solver, so that the CEGPV loop can force and exclude orders of
// steps with constraints over clocks instead of re-encoding instrumented
// programs (design.md §1 "Refinement", §6). The controller uses it when the
// backend offers it and falls back to the code-to-code translations
// (packages reconstruct and refine) otherwise.
type Incremental interface {
	Backend
	Open(ctx context.Context, p *program.Program, b Bounds) (Instance, error)
}

// Instance is a program encoded once and checked many times.
//
// A key names one executed instance of an instruction in the unrolled
// program (thread instance, call context, loop iteration, label). Keys are
// canonical: two programs with the same labels and control flow (a program
// and its abstraction) use the same key for the same instance, so keys of
// a run of the abstraction can be used on the original program. A key the
// instance does not have (a path the program cannot take) makes every
// constraint mentioning it unsatisfiable.
//
// For a set of visible labels and a key sequence seq = v1..vn whose last
// element vn is an assertion, F(seq) holds of a run (of the encoded
// program, within the bounds) when v1..vn are executed in this order, the
// assertion vn fails, and no other step at a visible label comes before vn
// (other steps may fall anywhere). It is the conjunction of the atoms of
// Flat(seq) below.
//
// Atoms are predicates of runs over step instances named by keys; a run
// ends at its first violated assertion, so "executed" means executed in
// that prefix (an implementation that solves for whole executions must
// not let steps after the violation count: P and A may differ there). A
// Blocker is a conjunction of atoms. A Blocker over the keys of the visible
// steps of an abstraction A means the same thing in A and in the original P
// (a run of P and its image in A execute the same instances at visible
// labels, in the same order, with the same assertion outcomes), so a
// Blocker that no run of P satisfies can be excluded from A without losing
// any run that is the image of a run of P (design.md §5 rule 3).
type Instance interface {
	// Check looks for a violation in the runs not excluded so far. For an
	// Unsafe result it also returns the key of every step of Result.Run
	// ("" for a step without one).
	Check(ctx context.Context) (Result, []string, error)
	// CheckForced looks for a violation in a run satisfying F(seq), without
	// changing the instance for later checks. When there is none, it may
	// look up to relax more times for a violation in runs that satisfy
	// fewer of F(seq)'s atoms (the run of an Unsafe answer is a real
	// violation of the program either way). A Safe answer comes with
	// Blockers implied by F(seq) that no run of the program satisfies
	// (within the bounds): F(seq) itself, or generalisations of it (subsets
	// of its atoms, from unsatisfiable cores). A backend that represents
	// each violation by some runs of its class (a reduction) may answer for
	// those runs only: a Blocker then holds of no representative.
	CheckForced(ctx context.Context, visible map[program.Label]bool, seq []string, relax int) (Result, []Blocker, error)
	// Exclude removes, for all later checks, the runs satisfying b.
	Exclude(b Blocker) error
	Close() error
}

// AtomKind says what an Atom states about a run.
type AtomKind int

const (
	// Exec: the step instance A is executed.
	Exec AtomKind = iota
	// Before: A and B are executed and A comes before B.
	Before
	// Fails: the assertion instance A is executed and its condition is false.
	Fails
	// NotBefore: if B is executed, A comes before B (B is not before A).
	NotBefore
)

// An Atom is a predicate of runs over step instances named by keys (see
// Instance).
type Atom struct {
	Kind AtomKind
	A, B string
}

func (a Atom) String() string {
	switch a.Kind {
	case Exec:
		return "exec(" + a.A + ")"
	case Before:
		return a.A + " < " + a.B
	case Fails:
		return "fails(" + a.A + ")"
	case NotBefore:
		return "exec(" + a.B + ") => " + a.A + " < " + a.B
	}
	return "?"
}

// A Blocker is a conjunction of atoms.
type Blocker []Atom

func (b Blocker) String() string {
	var s []string
	for _, a := range b {
		s = append(s, a.String())
	}
	return strings.Join(s, " && ")
}
