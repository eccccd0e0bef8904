// Package validate checks a violation witness against a program (cegpv
// validate): it follows the witness as a guide, not as a full schedule.
//
// The witness's target waypoint names the violation: the assertions (or
// calls of __VERIFIER_error/reach_error) at its line, in its function when
// the witness names one. Its assumption waypoints over a program variable
// and an integer constant ("x == 5", ESBMC's GraphML "x = 5;") become
// assumptions of the program at their line: before the line's first
// instruction for YAML waypoints (the constraint holds when the line is
// reached), after its last one for GraphML edges (it holds after the
// edge's statement). Every other waypoint (branchings, function entries
// and returns, thread ids, constraints of another form) is listed as not
// followed. The guided program is then checked by cegpv.Check for the
// target's property within the bounds; a violation found is mapped back
// (the added assumptions dropped from the run) and replayed on the
// original program, so a confirmed witness is always a real run.
//
// Invariants: Confirmed only with a Run of the original program that
// interp.Replay confirmed and that violates a property at the target
// line; anything else (another program's hash, a line outside the file, a
// target with no line or no property, no violation found, a timeout) is
// not confirmed, with the reason.
package validate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/witness"
)

// Result is the answer of Witness.
type Result struct {
	Confirmed bool
	Property  string       // the violated property (Confirmed)
	Run       *program.Run // a replayed run of the original program (Confirmed)
	Reason    string       // why not confirmed
	// Followed and Ignored describe the waypoints: applied as
	// assumptions or targets, and not followed (with why).
	Followed, Ignored []string
}

// Witness validates the violation witness g for p, whose source text is
// src (for the program hash), with the engines and bounds of opts.
func Witness(ctx context.Context, p *program.Program, src []byte, g *witness.Guide, opts cegpv.CheckOptions) Result {
	var res Result
	if g.ProgramHash != "" {
		sum := sha256.Sum256(src)
		if h := hex.EncodeToString(sum[:]); h != g.ProgramHash {
			res.Reason = fmt.Sprintf("the witness is for another program (program hash %s, this file's %s)", g.ProgramHash, h)
			return res
		}
	}
	if len(g.Waypoints) == 0 {
		res.Reason = "the witness has no waypoints (no path to a violation)"
		return res
	}
	// a witness naming lines the file does not have is for another
	// version of the program, or broken: nothing it says can be followed
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	for _, w := range g.Waypoints {
		if w.Line < 0 || w.Line > lines {
			res.Reason = fmt.Sprintf("the witness names line %d (%s waypoint), outside the program's %d lines", w.Line, w.Kind, lines)
			return res
		}
	}
	target := g.Waypoints[len(g.Waypoints)-1]
	if target.Line == 0 {
		res.Reason = "the witness's target names no line"
		return res
	}
	props := targetProps(p, target)
	if len(props) == 0 {
		res.Reason = fmt.Sprintf("no property at the witness's target, line %d", target.Line)
		return res
	}
	q := program.Clone(p)
	added := map[program.Label]bool{}
	varying := varyingAssumptions(g.Waypoints)
	for _, w := range g.Waypoints[:len(g.Waypoints)-1] {
		what := fmt.Sprintf("%s at line %d", w.Kind, w.Line)
		if w.Constraint != "" {
			what += fmt.Sprintf(" (%s)", w.Constraint)
		}
		if w.Kind != "assumption" || w.Avoid {
			if w.Kind != "edge" {
				res.Ignored = append(res.Ignored, what+": not followed")
			}
			continue
		}
		if m := constraintRE.FindStringSubmatch(w.Constraint); m != nil && varying[fmt.Sprintf("%d:%s", w.Line, m[1])] {
			res.Ignored = append(res.Ignored, what+": the witness gives "+m[1]+" other values at this line too (one per execution), and an assumption would hold at every one")
			continue
		}
		if err := assume(q, w, added); err != nil {
			res.Ignored = append(res.Ignored, what+": "+err.Error())
			continue
		}
		res.Followed = append(res.Followed, what)
	}
	res.Followed = append(res.Followed, fmt.Sprintf("target at line %d (%s)", target.Line, strings.Join(props, ", ")))
	reasons := []string{}
	for _, prop := range props {
		o := opts
		o.Property = prop
		rep := cegpv.Check(ctx, q, o)
		if rep.Verdict != backend.Unsafe {
			r := rep.Reason
			if rep.Verdict == backend.Safe {
				r = "no violation within " + rep.Bounds.String() + " along the witness"
			}
			reasons = append(reasons, prop+": "+r)
			continue
		}
		// the run of the guided program without its added assumptions
		// is a run of the original program
		run := &program.Run{Violated: rep.Run.Violated}
		for _, s := range rep.Run.Steps {
			if !added[s.Label] {
				run.Steps = append(run.Steps, s)
			}
		}
		out, err := interp.Replay(p, run)
		if err != nil || out.Status != interp.Violated {
			reasons = append(reasons, fmt.Sprintf("%s: the run found does not replay on the program: %v", prop, err))
			continue
		}
		res.Confirmed, res.Property, res.Run = true, out.Prop, out.Run
		return res
	}
	res.Reason = strings.Join(reasons, "; ")
	return res
}

// varyingAssumptions returns the line:variable pairs that the
// assumption waypoints of ws give different values: the line runs more
// than once along the witness (a loop, a function called twice), so no
// single assumption there follows it.
func varyingAssumptions(ws []witness.Waypoint) map[string]bool {
	vals := map[string]string{}
	out := map[string]bool{}
	for _, w := range ws {
		m := constraintRE.FindStringSubmatch(w.Constraint)
		if w.Kind != "assumption" || m == nil {
			continue
		}
		k := fmt.Sprintf("%d:%s", w.Line, m[1])
		if v, ok := vals[k]; ok && v != m[2] {
			out[k] = true
		}
		vals[k] = m[2]
	}
	return out
}

// targetProps returns the properties at the target waypoint's line (in
// its function when it names one).
func targetProps(p *program.Program, w witness.Waypoint) []string {
	var out []string
	for _, f := range p.Funcs {
		if w.Function != "" && f.Name != w.Function {
			continue
		}
		for _, in := range f.Body {
			if in.Op == program.OpAssert && in.Pos.Line == w.Line {
				out = append(out, in.Prop)
			}
		}
	}
	return out
}

// constraintRE matches the assumptions Witness follows: a variable and an
// integer constant ("x == 5", "x = -3;", "x == 7U;").
var constraintRE = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*==?\s*(-?[0-9]+)[uUlL]*\s*;?\s*$`)

// assume adds Assume(x == c) for the waypoint w to q, at its line, and
// records the new label in added.
func assume(q *program.Program, w witness.Waypoint, added map[program.Label]bool) error {
	m := constraintRE.FindStringSubmatch(w.Constraint)
	if m == nil {
		return fmt.Errorf("not of the form variable == constant")
	}
	c, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return fmt.Errorf("constant out of range")
	}
	var fn *program.Func
	at := -1
	for _, f := range q.Funcs {
		if w.Function != "" && f.Name != w.Function {
			continue
		}
		for i, in := range f.Body {
			if in.Pos.Line != w.Line || in.Op == program.OpSkip {
				continue
			}
			if fn != nil && fn != f {
				return fmt.Errorf("line %d is in two functions", w.Line)
			}
			fn = f
			if at < 0 || w.After {
				at = i
			}
		}
	}
	if fn == nil {
		return fmt.Errorf("no statement at line %d", w.Line)
	}
	var ref *program.Ref
	if v := fn.Var(m[1]); v != nil {
		ref = &program.Ref{Name: v.Name, T: v.Type, Local: true}
	} else if v := q.Global(m[1]); v != nil {
		ref = &program.Ref{Name: v.Name, T: v.Type}
	} else {
		return fmt.Errorf("no variable %s in %s", m[1], fn.Name)
	}
	if ref.T.Kind != program.Int {
		return fmt.Errorf("%s is not an integer", m[1])
	}
	if w.After {
		at++
	}
	l := program.Fresh(q, string(fn.Body[min(at, len(fn.Body)-1)].Label)+".witness", nil)
	in := &program.Instr{Label: l, Op: program.OpAssume, Pos: program.Pos{File: fn.Body[min(at, len(fn.Body)-1)].Pos.File, Line: w.Line},
		Rhs: &program.Binary{Op: program.Eq, X: ref, Y: program.IntConst(ref.T, c), T: program.IntT}, Msg: "witness: " + w.Constraint}
	fn.Body = append(fn.Body[:at], append([]*program.Instr{in}, fn.Body[at:]...)...)
	added[l] = true
	return nil
}
