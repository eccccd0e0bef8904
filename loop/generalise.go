package loop

// Generalisation of a spurious counterexample before it is excluded (the
// monitor strategy, code to code).
//
// The monitor strategy excludes, for each spurious counterexample, the
// abstract runs whose projection onto the visible set V (the shared
// visible labels of the abstraction A) is its sequence s: one sequence per
// iteration, so the trie monitor grows and a backend that explores
// interleavings (ESBMC) pays for every one. Generalisation looks for a
// small label set W ⊆ labels(s) such that forcing only the order of the
// W-steps, P_W = reconstruct.OrderOnlySeq(P, W, s|W), still has no
// violation, and excludes the pattern (W, s|W) with refine.ExcludePatterns:
// every abstract run that violates the assertion where its W-projection is
// s|W, whatever its other steps do. A smaller W removes more runs.
//
// # Soundness
//
// Write s|W for the projection of s onto W (s ends at the failed assertion
// a, and W always contains a, so s|W ends at a), and "within the bounds"
// for the runs that respect the unwinding, recursion and thread bounds of
// the check (conventions.md, Bounds), which the explicit search, the
// built-in encoding and the external checkers bound alike.
//
//  1. A candidate W is accepted only on a NoViolation answer of the
//     explicit-state search (explicit.Check, exhaustive within the bounds)
//     on P_W that cut no run at the search's own cap on threads
//     (Bounds.ThreadCap, which the backend checking A' does not have).
//     Any other answer — a violation, a search that gave up (its time or
//     state budget, a draw without a finite domain, an execution error) —
//     rejects W. (A violation is a run of P_W, so of P: it is mapped back,
//     replayed on P and, when it is a confirmed FALSE, the answer.)
//  2. Lemma 2 (reconstruct.OrderOnlySeq): every run of P whose W-projection
//     is a prefix of s|W is, with the monitor's steps inserted, a run of
//     P_W with the same steps of P; within the bounds when it is, since the
//     monitor's code has no loops and no calls. So by 1, no run of P within
//     the bounds whose W-projection up to a violation is s|W violates an
//     assertion. This holds for every instance of a in the run (loops: s|W
//     records how many times each W-label ran before the failing one) and
//     for every placement of the steps outside W.
//  3. Lemma 1 (slicing): every run ρ of P maps to a run ρ_A of A with the
//     same control flow, the same steps at visible labels (so the same
//     V- and W-projections), the same violation, and within the bounds iff
//     ρ is. Lemma 3 (refine.ExcludePatterns): ρ_A with the monitors'
//     steps inserted right before each step (Map.Lift) is a run of A'
//     that violates the same assertion unless some excluded pattern
//     (W', s') has ρ_A's W'-projection up to the violation equal to s'.
//     Each excluded pattern was accepted by 1, so by 2 no violating ρ
//     within the bounds has that projection: every violation of P within
//     the bounds is still a violation of A'. A' SAFE within the bounds is
//     therefore P SAFE within the bounds.
//  4. A proof: A' only weakens assertions (never an assume cut), so its
//     runs are those of A; a check of A' that cut no run (Complete) means A
//     cut none, so P cuts none (3), and P_W's runs are runs of P (2), so
//     the search's answer in 1 covered every run of P_W and the argument in
//     3 holds for every run of P. The proof status of a SAFE answer is the
//     abstract check's, as without generalisation.
//
// The cases the argument needs and the construction therefore keeps: W
// always contains the failed assertion a (a pattern ends at its
// assertion: the exclusion weakens that assertion, and only at the
// instance where the W-projection is complete); the searches run under
// the same bounds as the check; a run cut by a bound is neither a
// violation of P_W nor of A' within the bounds, so nothing it could do
// beyond them is excluded that the check would have seen. W ⊆ labels(s):
// labels of V that s does not execute are left free in P_W, which proves
// more than V does (P_V forbids them), so even W = labels(s) needs its own
// search; when none of the candidates is proven, W is V itself (today's
// exclusion, proven by the reconstruction that found s spurious).
//
// # The search for W (ddmin)
//
// Delta debugging (ddmin) over the labels of s other than a: forcing fewer
// labels allows more runs of P (P_W' has the runs of P_W for W' ⊆ W), so
// a W that fails makes every subset fail and ddmin's 1-minimal answer is a
// good one. The first candidate is labels(s) itself; when it fails, W = V.
// The budgets are GeneraliseAttempts searches and GeneraliseShare of the
// time left (at most GeneraliseMax), each search at most AttemptShare of
// that: when one runs out, the smallest W proven so far is used.
//
// # The limit case W = ∅
//
// With nothing forced, P_∅ is P: once per run of the loop at its bounds
// (not in the deepening's shallow runs, and not where cegpv.Check already
// races the same search on P beside the loop: programs with loops, and
// loop-free ones too beside an external backend, Options.Search.LoopFree),
// at the first spurious counterexample, the search runs on P itself for
// LimitShare of the time left (at most LimitMax). NoViolation is the
// verdict: SAFE within the bounds (a proof when the search cut no run and
// unwinding assertions were asked for, as every explicit answer, see
// explicit.Check and cegpv.Check's judge); a violation is a run of P, replayed on P
// (confirm) before it is FALSE (one that draws an opaque value, or does
// not replay, changes nothing: the loop goes on); a search that gives up
// changes nothing.
//
// Options.NoGeneralise turns all this off, as does a run without the
// explicit search (Options.Search nil, `--explicit=false`).

import (
	"context"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/reconstruct"
)

// The generalisation's budgets (cegpv's table of engines, engines.go,
// lists them with the portfolio's).
const (
	// GeneraliseAttempts bounds the explicit searches of one
	// generalisation (the first candidate, labels(s), included).
	GeneraliseAttempts = 16
	// GeneraliseShare is the share of the time left that one
	// generalisation may use, GeneraliseMax its time at most (and when
	// the run has no deadline).
	GeneraliseShare = 0.2
	GeneraliseMax   = 20 * time.Second
	// AttemptShare is the share of the generalisation's budget one search
	// may use: a candidate whose search runs out of time is rejected and
	// leaves time for the others.
	AttemptShare = 0.25
	// LimitShare is the share of the time left that the search on the
	// program itself (the limit case W = ∅, once per run) may use,
	// LimitMax its time at most.
	LimitShare = 0.25
	LimitMax   = 30 * time.Second
)

// Generalisation records the generalisation of one spurious
// counterexample (Iteration.Generalisation).
type Generalisation struct {
	// Visible is |V|, the abstraction's visible labels; Labels the
	// distinct labels of the spurious sequence; Pattern |W|, the labels
	// of the excluded pattern (Visible when no smaller set was proven).
	Visible int `json:"visible_labels"`
	Labels  int `json:"seq_labels"`
	Pattern int `json:"pattern_labels"`
	// Attempts counts the explicit searches of candidates, Time the
	// generalisation's time (the limit case's included).
	Attempts int           `json:"attempts"`
	Time     time.Duration `json:"time_ns"`
	// Stopped says which budget ended the search before W was 1-minimal:
	// "attempts" or "time"; "" when ddmin finished.
	Stopped string `json:"stopped,omitempty"`
	// Limit is the answer of the search on the program itself when it ran
	// in this iteration: "safe", "violation" or "undecided".
	Limit     string        `json:"limit,omitempty"`
	LimitTime time.Duration `json:"limit_time_ns,omitempty"`
}

// generalise looks for a small label set W for the spurious counterexample
// c of the monitor strategy over the visible set vis and sets c.w (nil: V
// itself). done is true when the search found the run's verdict on the way
// (the limit case, or a confirmed violation of a candidate), which res
// then holds.
func (v *verifier) generalise(ctx context.Context, c *cex, vis map[program.Label]bool) (res Result, done bool, err error) {
	if v.opts.NoGeneralise || v.opts.Search == nil || len(c.seq) == 0 {
		return Result{}, false, nil
	}
	if v.explorable == nil {
		ok := explicit.Explorable(v.work) == nil
		v.explorable = &ok
	}
	if !*v.explorable {
		return Result{}, false, nil
	}
	start := time.Now()
	g := &Generalisation{Visible: len(vis), Pattern: len(vis)}
	defer func() {
		g.Time = time.Since(start)
		if n := len(v.iters); n > 0 {
			v.iters[n-1].Generalisation = g
		}
		v.log.Debug("generalisation", "level", v.level, "visible", g.Visible, "labels", g.Labels, "pattern", g.Pattern, "attempts", g.Attempts, "stopped", g.Stopped, "limit", g.Limit, "time", g.Time)
	}()
	// the candidates: a, the failed assertion, and the other labels of s
	a := c.seq[len(c.seq)-1]
	var items []program.Label
	seen := map[program.Label]bool{a: true}
	for _, l := range c.seq {
		if !seen[l] {
			seen[l] = true
			items = append(items, l)
		}
	}
	g.Labels = len(items) + 1
	eo := *v.opts.Search
	eo.LoopFree, eo.Delay, eo.Share = true, 0, 1
	eo.Logger = v.log.Named("generalise")

	// the limit case W = ∅: the search on the program itself
	if !v.limitTried && !v.shallow && !v.opts.hooks.noLimit && !explicit.AppliesWith(v.work, *v.opts.Search) {
		v.limitTried = true
		lt := time.Now()
		lctx, cancel := budget.WithShare(ctx, "the search on the program itself", LimitShare, LimitMax)
		lo := eo
		lo.Max = LimitMax
		r, ok := explicit.Check(lctx, v.work, v.opts.Bounds, lo)
		cancel()
		g.LimitTime = time.Since(lt)
		g.Limit = "undecided"
		switch {
		case ok && r.Verdict == backend.Safe:
			g.Limit = "safe"
			return Result{Result: backend.Result{Verdict: backend.Safe, Proof: r.Proof, Complete: r.Complete, Bounds: r.Bounds, Stats: r.Stats}, BySearch: true}, true, nil
		case ok && r.Verdict == backend.Unsafe:
			// a FALSE only when the run replays on P and draws no
			// opaque value; otherwise the loop goes on
			res, err := v.confirm(r.Run, r)
			if err == nil && res.Verdict == backend.Unsafe {
				g.Limit = "violation"
				res.BySearch = true
				return res, true, nil
			}
			v.log.Warn("the search's violation of the program is not a FALSE", "error", err, "reason", res.Reason)
		}
	}

	limit := budget.Share(ctx, GeneraliseShare, GeneraliseMax)
	gctx, cancel := budget.WithLimit(ctx, "the generalisation", limit)
	defer cancel()
	eo.Max = time.Duration(float64(limit) * AttemptShare)
	var found *Result // a confirmed violation of a candidate
	var failed error  // a sanity check that failed
	tried := map[string]bool{}
	prove := func(keep []int) bool {
		w := map[program.Label]bool{a: true}
		for _, i := range keep {
			w[items[i]] = true
		}
		k := program.LabelSetKey(w)
		if ok, dup := tried[k]; dup {
			return ok
		}
		g.Attempts++
		ok := v.prove(gctx, w, c.seq, eo, &found, &failed)
		tried[k] = ok
		return ok
	}
	more := func() bool {
		switch {
		case found != nil || failed != nil:
			return false
		case g.Attempts >= GeneraliseAttempts:
			g.Stopped = "attempts"
			return false
		case gctx.Err() != nil:
			g.Stopped = "time"
			return false
		}
		return true
	}
	all := make([]int, len(items))
	for i := range all {
		all[i] = i
	}
	if !prove(all) {
		// even labels(s) is not proven: V itself
		if failed != nil {
			return Result{}, false, failed
		}
		if found != nil {
			return *found, true, nil
		}
		if gctx.Err() != nil {
			g.Stopped = "time"
		}
		return Result{}, false, nil
	}
	keep, _ := ddmin(len(items), prove, more)
	if failed != nil {
		return Result{}, false, failed
	}
	if found != nil {
		return *found, true, nil
	}
	c.w = map[program.Label]bool{a: true}
	for _, i := range keep {
		c.w[items[i]] = true
	}
	g.Pattern = len(c.w)
	return Result{}, false, nil
}

// prove runs the explicit search on P forced to follow the projection of
// seq onto w and reports whether it proved that no run does and violates
// an assertion (see the soundness argument above). A violation it finds
// is mapped back to P and replayed; a confirmed FALSE is stored in found.
// A sanity check that fails is stored in failed.
func (v *verifier) prove(ctx context.Context, w map[program.Label]bool, seq []program.Label, eo explicit.Options, found **Result, failed *error) bool {
	if v.opts.hooks.acceptUnproven {
		return true
	}
	sw := project(seq, w)
	p1, m1, err := reconstruct.OrderOnlySeq(v.work, w, sw)
	if err != nil {
		v.log.Debug("generalisation candidate not built", "error", err)
		return false
	}
	if err := v.sane("generalise", p1); err != nil {
		*failed = err
		return false
	}
	r, ok := explicit.Check(ctx, p1, v.opts.Bounds, eo)
	switch {
	case !ok:
		return false
	case r.Verdict == backend.Unsafe:
		// a run of P_W is a run of P: a real violation near the spurious one
		res, err := v.confirm(m1.Run(r.Run), r)
		if err == nil && res.Verdict == backend.Unsafe {
			*found = &res
		} else {
			v.log.Debug("violation of a generalisation candidate not confirmed", "error", err, "reason", res.Reason)
		}
		return false
	}
	return r.Verdict == backend.Safe && r.Bounds.ThreadCap == 0
}

// project returns the labels of seq in w, in order.
func project(seq []program.Label, w map[program.Label]bool) []program.Label {
	var out []program.Label
	for _, l := range seq {
		if w[l] {
			out = append(out, l)
		}
	}
	return out
}

// ddmin is Zeller and Hildebrandt's minimising delta debugging over the
// items 0..n-1, for a test ok that holds of the whole set (it is not
// asked): it splits the current set into gran chunks and goes on with the
// first complement of a chunk, else the first chunk, that ok holds of;
// otherwise it doubles gran, until the chunks are single items; a set of
// one item is also tried empty. Complements come first (the original
// tries the chunks first; the answer is the same kind): here a test of a
// larger set forces more of the program's order and is the cheaper search,
// and the likelier to hold, which matters when a budget ends the search. The answer (in increasing order) is a set
// ok held of, or the whole set; it is 1-minimal (removing any one item
// makes ok fail) when minimal is true. Before each test it asks more,
// which ends the search (minimal false) with the smallest set found so far
// when a budget runs out. ok may be asked about the same set twice
// (callers that pay for a test remember its answer).
func ddmin(n int, ok func([]int) bool, more func() bool) (c []int, minimal bool) {
	c = make([]int, n)
	for i := range c {
		c[i] = i
	}
	gran := 2
	for len(c) >= 2 {
		chunks := split(c, gran)
		reduced := false
		if gran > 2 { // with two chunks, each is the other's complement
			for i := range chunks {
				if !more() {
					return c, false
				}
				if comp := without(c, chunks[i]); ok(comp) {
					c, gran, reduced = comp, max(gran-1, 2), true
					break
				}
			}
		}
		for i := 0; i < len(chunks) && !reduced; i++ {
			if !more() {
				return c, false
			}
			if ok(chunks[i]) {
				c, gran, reduced = chunks[i], 2, true
			}
		}
		if !reduced {
			if gran >= len(c) {
				return c, true
			}
			gran = min(2*gran, len(c))
		}
	}
	if len(c) == 1 {
		if !more() {
			return c, false
		}
		if ok(nil) {
			return nil, true
		}
	}
	return c, true
}

// split cuts c into k chunks of nearly equal size, in order.
func split(c []int, k int) [][]int {
	var out [][]int
	start := 0
	for i := 0; i < k; i++ {
		end := start + (len(c)-start)/(k-i)
		if end > start {
			out = append(out, c[start:end:end])
		}
		start = end
	}
	return out
}

// without returns the items of c not in d (both increasing).
func without(c, d []int) []int {
	out := make([]int, 0, len(c)-len(d))
	j := 0
	for _, x := range c {
		for j < len(d) && d[j] < x {
			j++
		}
		if j < len(d) && d[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}
