package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/witness"
)

// Writer writes the outcome of one check in one format: the text report
// (Text), JSON (JSON), the counterexample page (HTML), an SV-COMP witness
// (Witness). `cegpv verify` selects its writers by flags and hands each
// the same Outcome.
type Writer interface {
	Write(o *Outcome) error
}

// EachWriter is a Writer that also writes the results of
// --each-property. Text and JSON are; a witness and the page are of one
// check.
type EachWriter interface {
	Writer
	WriteEach(r *Properties) error
}

// Trace styles of the text output (Text.Trace, --trace).
const (
	TraceSource = "source" // one row per source line executed, values of program variables
	TraceSteps  = "steps"  // one row per step of the program model, temporaries included
)

// TraceStyles are the trace styles, TraceSource first.
var TraceStyles = []string{TraceSource, TraceSteps}

// Text is the text report of `cegpv verify`: the counterexample in Trace
// style, the CEGPV summary, the statistics, and the verdict in SV-COMP's
// words as the last line (BenchExec's tool-info modules read it).
type Text struct {
	W     io.Writer
	Trace string // TraceSource unless TraceSteps
}

// JSON is `verify --json`: the Outcome (or Properties) as one indented
// JSON object.
type JSON struct {
	W io.Writer
}

// HTML writes the counterexample page (WriteCex) to the file Path.
type HTML struct {
	Path string
}

// Witness writes an SV-COMP witness to the file Path: a violation witness
// built from the replayed run of a FALSE, a correctness witness for a
// TRUE; GraphML 1.0, or YAML 2.0 when Path ends in .yml or .yaml. An
// UNKNOWN writes none. Info's ProgramFile is the Outcome's file.
type Witness struct {
	Path string
	Info witness.Info // Specification, Producer, Model
}

func (t Text) Write(o *Outcome) error {
	w := t.W
	fmt.Fprintf(w, "cegpv: %s (mode %s, backend %s, %s, %s)\n", o.File, o.Mode, o.Backend, o.DataModel, o.Bounds)
	if len(o.Trace) > 0 {
		WriteTrace(w, o, t.Trace)
	}
	if c := o.CEGPV; c != nil {
		// the kept temporaries of lowered expressions are counted, not named
		temps := Temps(o.Program)
		var named []string
		for _, k := range c.Kept {
			if !temps.Has(k) {
				named = append(named, k)
			}
		}
		kept := strings.Join(named, ", ")
		if n := len(c.Kept) - len(named); n > 0 {
			kept += fmt.Sprintf(" and %d temporar%s", n, map[bool]string{true: "y", false: "ies"}[n == 1])
		}
		fmt.Fprintf(w, "\ncegpv: %d abstraction level(s), %d iteration(s), %d spurious counterexample(s), %d backend check(s); last level kept %d variable(s): %s\n",
			c.Levels, len(c.Iterations), c.Spurious(), c.Checks, len(c.Kept), kept)
	}
	s := o.Stats
	if o.Program == nil {
		// the input was not read or not lowered: nothing ran to count
	} else if s.States > 0 && s.Events == 0 {
		fmt.Fprintf(w, "stats: explicit-state search, %d states, search %.2fs, total %.2fs\n", s.States, s.SolverSec, s.TotalSec)
	} else if s.Events == 0 && s.SMTAsserts == 0 && o.Backend != "" && o.Backend != "builtin" {
		// an external checker: its own words, and how long it ran
		fmt.Fprintf(w, "stats: %s ran %.2fs, total %.2fs", o.Backend, s.SolverSec, s.TotalSec)
		if s.Checker != "" {
			fmt.Fprintf(w, "; %s: %s", o.Backend, s.Checker)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "stats: %d events, %d SMT assertions, %d bytes of formula, encode %.2fs, solver %.2fs, total %.2fs\n",
			s.Events, s.SMTAsserts, s.FormulaBytes, s.EncodeSec, s.SolverSec, s.TotalSec)
	}
	if o.DecidedBy != "" {
		by := o.DecidedBy
		if o.Backend != "" {
			by = strings.Replace(by, "the backend", "the backend ("+o.Backend+")", 1) // which engine
		}
		fmt.Fprintf(w, "decided by %s\n", by)
	}
	// the verdict comes last: SV-COMP's word is the last line (BenchExec
	// tool-info modules read it)
	switch o.Verdict {
	case "TRUE":
		kind := "bounded: no violation within " + o.Bounds
		if o.Proof {
			kind = "proof: " + o.ProofBy
			if o.ProofBy == "" {
				kind = "proof: unwinding assertions hold for " + o.Bounds
			}
		}
		if o.SearchedBeyond != "" {
			fmt.Fprintf(w, "(%s)\n", o.SearchedBeyond)
		}
		if o.Program != nil && len(o.Program.Bodiless) > 0 {
			fmt.Fprintf(w, "(assuming, as CBMC, that %s, without a body, return%s an arbitrary value and change%s no variable)\n",
				strings.Join(o.Program.Bodiless, ", "), plural(len(o.Program.Bodiless) == 1, "s", ""), plural(len(o.Program.Bodiless) == 1, "s", ""))
		}
		if o.Program != nil && len(program.PropertyDetails(o.Program)) == 0 {
			fmt.Fprintf(w, "(the program has no assertion: nothing can fail)\n")
		}
		fmt.Fprintf(w, "\nVERIFICATION SUCCESSFUL\nTRUE (%s)\n", kind)
	case "FALSE":
		if o.FoundWithin != "" {
			fmt.Fprintf(w, "(found within %s)\n", o.FoundWithin)
		}
		if o.FoundBeyond != "" {
			fmt.Fprintf(w, "(found beyond %s: %s)\n", o.Bounds, o.FoundBeyond)
		}
		if program.IsUnwinding(o.Property) {
			reached := o.Bounds
			if o.Reached != "" {
				reached = o.Reached + " (" + o.Bounds + ")"
			}
			fmt.Fprintf(w, "(%s: a run reaches %s)\n", o.Description, reached)
		}
		fmt.Fprintf(w, "\nVERIFICATION FAILED\n%s property %s\n", VerdictWords(o.Verdict, o.Property), o.Property)
	default:
		fmt.Fprintf(w, "\nUNKNOWN: %s\n", o.Reason)
	}
	return nil
}

// WriteEach writes each property's report, then CBMC's ** Results: list
// and the overall verdict as the last line.
func (t Text) WriteEach(rep *Properties) error {
	for _, o := range rep.Properties {
		fmt.Fprintf(t.W, "\n== property %s\n", o.Property)
		t.Write(o)
	}
	writeResults(t.W, rep)
	fmt.Fprintf(t.W, "%s\n", EachVerdictLine(rep))
	return nil
}

// EachVerdictLine is the last line of --each-property's text, in
// SV-COMP's words as verify's: FALSE(unreach-call) property ID for the
// first violated assertion (FALSE(unwinding-assertion) when only
// unwinding properties fail), TRUE (proof: ...) or TRUE (bounded: ...),
// UNKNOWN: with the first undecided property's reason.
func EachVerdictLine(rep *Properties) string {
	n := len(rep.Properties)
	switch rep.Verdict {
	case "FALSE":
		var first *Outcome
		for _, o := range rep.Properties {
			if o.Verdict == "FALSE" && (first == nil || program.IsUnwinding(first.Property) && !program.IsUnwinding(o.Property)) {
				first = o
			}
		}
		if first != nil {
			return "\nVERIFICATION FAILED\n" + VerdictWords("FALSE", first.Property) + " property " + first.Property
		}
	case "TRUE":
		proof, bounds := true, ""
		for _, o := range rep.Properties {
			proof = proof && o.Proof
			bounds = o.Bounds
		}
		if proof {
			return fmt.Sprintf("\nVERIFICATION SUCCESSFUL\nTRUE (proof: each of the %d properties)", n)
		}
		return fmt.Sprintf("\nVERIFICATION SUCCESSFUL\nTRUE (bounded: no violation of the %d properties within %s)", n, bounds)
	}
	for _, o := range rep.Properties {
		if o.Verdict != "TRUE" && o.Verdict != "FALSE" {
			if o.Property == "" {
				return "\nUNKNOWN: " + o.Reason
			}
			return "\nUNKNOWN: " + o.Property + ": " + o.Reason
		}
	}
	return "\nUNKNOWN: no property decided"
}

// writeResults is CBMC's ** Results: list: one line per property, with
// its line, what it checks and SUCCESS, FAILURE or UNKNOWN (with the
// reason), then how many failed.
func writeResults(w io.Writer, rep *Properties) {
	detail := map[string]program.PropertyDetail{}
	if len(rep.Properties) > 0 && rep.Properties[0].Program != nil {
		p := rep.Properties[0].Program
		for _, d := range append(program.PropertyDetails(p), program.UnwindingDetails(p)...) {
			detail[d.ID] = d
		}
	}
	fmt.Fprintf(w, "\n** Results:\n")
	failed := 0
	for _, o := range rep.Properties {
		status := "UNKNOWN (" + o.Reason + ")"
		switch o.Verdict {
		case "TRUE":
			status = "SUCCESS"
		case "FALSE":
			status = "FAILURE"
			failed++
		}
		d, ok := detail[o.Property]
		if !ok {
			fmt.Fprintf(w, "[%s] %s\n", o.Property, status)
			continue
		}
		fmt.Fprintf(w, "[%s] line %d %s: %s\n", o.Property, d.Pos.Line, d.Text, status)
	}
	fmt.Fprintf(w, "\n** %d of %d failed\n", failed, len(rep.Properties))
}

func (j JSON) Write(o *Outcome) error { return j.encode(o) }

func (j JSON) WriteEach(r *Properties) error { return j.encode(r) }

func (j JSON) encode(v any) error {
	enc := json.NewEncoder(j.W)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (h HTML) Write(o *Outcome) error {
	c := &Cex{File: o.File, Verdict: o.Verdict, Property: o.Property, Reason: o.Reason, Bounds: o.Bounds,
		Mode: o.Mode, Backend: o.Backend, DataModel: o.DataModel, Program: o.Program, Steps: o.Trace, Initial: o.Initial}
	if o.FoundWithin != "" {
		c.Notes = append(c.Notes, "found within "+o.FoundWithin)
	}
	if o.FoundBeyond != "" {
		c.Notes = append(c.Notes, "found beyond "+o.Bounds+": "+o.FoundBeyond)
	}
	if o.SearchedBeyond != "" {
		c.Notes = append(c.Notes, o.SearchedBeyond)
	}
	if cs := o.CEGPV; cs != nil {
		c.Loop = &LoopSummary{Levels: cs.Levels, Iterations: len(cs.Iterations), Spurious: cs.Spurious(), Checks: cs.Checks, Kept: cs.Kept}
	}
	var buf bytes.Buffer
	if err := WriteCex(&buf, c); err != nil {
		return err
	}
	return os.WriteFile(h.Path, buf.Bytes(), 0o644)
}

// YAML reports whether Path names a YAML (format 2.0) witness.
func (w Witness) YAML() bool {
	return strings.HasSuffix(w.Path, ".yml") || strings.HasSuffix(w.Path, ".yaml")
}

func (w Witness) Write(o *Outcome) error {
	info := w.Info
	info.ProgramFile = o.File
	if o.Verdict == "FALSE" && Falsified(o.Property) == NoOverflow {
		info.Specification = noOverflowSpec
	}
	var out []byte
	var err error
	switch o.Verdict {
	case "FALSE":
		if o.Run == nil || o.Program == nil {
			return fmt.Errorf("no replayed run to write")
		}
		if program.IsUnwinding(o.Property) {
			return fmt.Errorf("no violation witness: the violated property %s is an unwinding assertion, which the witness formats' specifications (unreach-call) do not express", o.Property)
		}
		if w.YAML() {
			out, err = witness.ViolationYAML(info, o.Program, o.Run)
		} else {
			out, err = witness.Violation(info, o.Program, o.Run)
		}
	case "TRUE":
		if w.YAML() {
			out, err = witness.CorrectnessYAML(info)
		} else {
			out, err = witness.Correctness(info)
		}
	default:
		return nil
	}
	if err != nil {
		return err
	}
	return os.WriteFile(w.Path, out, 0o644)
}

// SV-COMP's names of the properties a FALSE can falsify, and the
// specification of no-overflow.
const (
	UnreachCall    = "unreach-call"
	NoOverflow     = "no-overflow"
	noOverflowSpec = "CHECK( init(main()), LTL(G ! overflow) )"
)

// Falsified is SV-COMP's name of the property a violation of prop
// falsifies: no-overflow for a signed-overflow check
// (--signed-overflow-check), unreach-call for an assertion.
func Falsified(prop string) string {
	if program.PropKind(prop) == program.OverflowKind {
		return NoOverflow
	}
	return UnreachCall
}

// WriteTrace prints the counterexample of o in the given style
// (TraceSource unless TraceSteps): the initial values of the globals it
// touches, then one row per source line or step, each with the values it
// stored and returned and, below it, the values it read and where they
// were stored.
func WriteTrace(w io.Writer, o *Outcome, style string) {
	names := ThreadNames(o.Program, o.Trace)
	if len(o.Initial) > 0 {
		var vals []string
		for _, s := range o.Initial {
			vals = append(vals, s.Loc+"="+s.Val)
		}
		fmt.Fprintf(w, "\nInitial values: %s\n", strings.Join(vals, " "))
	}
	if o.TraceError != "" {
		fmt.Fprintf(w, "\n(the reads are not shown: %s)\n", o.TraceError)
	}
	if style == TraceSteps {
		writeStepTrace(w, o, names)
		return
	}
	writeSourceTrace(w, o, names)
}

// writeStepTrace prints the counterexample as a listing in execution order,
// one line per step of the program model (temporaries of lowered
// expressions included), without the steps that do nothing visible; every
// read is shown.
func writeStepTrace(w io.Writer, o *Outcome, names map[int]string) {
	fmt.Fprintf(w, "\nCounterexample (%d steps):\n", len(o.Trace))
	fmt.Fprintf(w, "  %5s  %-14s %-6s %-12s %-44s %s\n", "step", "thread", "line", "function", "statement", "values")
	for _, ts := range o.Trace {
		if ts.Hidden {
			continue
		}
		var vals []string
		for k, v := range ts.Assigned {
			vals = append(vals, k+"="+v)
		}
		sort.Strings(vals)
		if ts.Returned != "" {
			vals = append(vals, "returns "+ts.Returned)
		}
		fmt.Fprintf(w, "  %5d  %-14s %-6d %-12s %-44s %s\n", ts.Step, names[ts.Thread], ts.Line, ts.Function, clip(ts.Statement, 44), strings.Join(vals, " "))
		writeReads(w, o.Trace, names, ts.Reads)
		writeOverflows(w, ts.Overflow)
	}
}

// writeReads prints, below a row of a trace, the values its steps read
// and where each was stored.
func writeReads(w io.Writer, steps []Step, names map[int]string, reads []ReadValue) {
	if len(reads) == 0 {
		return
	}
	var rs []string
	for _, r := range reads {
		rs = append(rs, r.Loc+"="+r.Val+" ("+StoredBy(r, steps, names)+")")
	}
	fmt.Fprintf(w, "  %5s  reads %s\n", "", strings.Join(rs, ", "))
}

// StoredBy says where the value of r was stored: "initial value", or
// "step 9, 2:worker line 13".
func StoredBy(r ReadValue, steps []Step, names map[int]string) string {
	if r.Initial || r.Stored < 1 || r.Stored > len(steps) {
		return "initial value"
	}
	st := steps[r.Stored-1]
	return fmt.Sprintf("stored at step %d by %s line %d", r.Stored, names[st.Thread], st.Line)
}

// writeOverflows prints, below a row of a trace, the signed overflows of
// its steps.
func writeOverflows(w io.Writer, msgs ...string) {
	for _, m := range msgs {
		if m != "" {
			fmt.Fprintf(w, "  %5s  ^ undefined behaviour: %s\n", "", m)
		}
	}
}

// writeSourceTrace prints the counterexample as CBMC users read it
// (SourceLines: one row per source line a thread executes, the values
// stored in program variables, the shared values read). The step number
// is that of the row's first step in the model's trace (--trace steps
// and the JSON output list every step).
func writeSourceTrace(w io.Writer, o *Outcome, names map[int]string) {
	rows := SourceLines(o.Program, o.Trace)
	fmt.Fprintf(w, "\nCounterexample (%d source lines executed, %d steps of the program model; --trace steps lists every step):\n", len(rows), len(o.Trace))
	fmt.Fprintf(w, "  %5s  %-14s %-6s %-12s %-50s %s\n", "step", "thread", "line", "function", "source", "values")
	for _, r := range rows {
		line := fmt.Sprint(r.Line)
		if r.File != "" && r.File != o.File {
			line = filepath.Base(r.File) + ":" + line
		}
		vals := r.Stores("=")
		for _, v := range r.Returned {
			vals = append(vals, "returns "+v)
		}
		fmt.Fprintf(w, "  %5d  %-14s %-6s %-12s %-50s %s\n", r.First, names[r.Thread], line, r.Function, clip(r.Text, 50), strings.Join(vals, " "))
		writeReads(w, o.Trace, names, r.Reads)
		writeOverflows(w, r.Overflows...)
	}
}

// clip shortens s to at most n bytes, marking the cut with "...".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func plural(one bool, a, b string) string {
	if one {
		return a
	}
	return b
}
