package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"cegpv.dev/cegpv/report"
)

// Trace styles of the text output (--trace).
const (
	traceSource = "source" // one row per source line executed, values of program variables
	traceSteps  = "steps"  // one row per step of the program model, temporaries included
)

var traceStyles = []string{traceSource, traceSteps}

// writeTrace prints the counterexample in the given style (traceSource
// unless traceSteps).
func writeTrace(w io.Writer, o *outcome, style string) {
	names := report.ThreadNames(o.prog, o.Trace)
	if style == traceSteps {
		writeStepTrace(w, o, names)
		return
	}
	writeSourceTrace(w, o, names)
}

// writeStepTrace prints the counterexample as a listing in execution order,
// one line per step of the program model (temporaries of lowered
// expressions included), without the steps that do nothing visible.
func writeStepTrace(w io.Writer, o *outcome, names map[int]string) {
	fmt.Fprintf(w, "\nCounterexample (%d steps):\n", len(o.Trace))
	fmt.Fprintf(w, "  %5s  %-14s %-6s %-44s %s\n", "step", "thread", "line", "statement", "values")
	for _, ts := range o.Trace {
		if ts.Hidden {
			continue
		}
		var vals []string
		for k, v := range ts.Assigned {
			vals = append(vals, k+"="+v)
		}
		sort.Strings(vals)
		fmt.Fprintf(w, "  %5d  %-14s %-6d %-44s %s\n", ts.Step, names[ts.Thread], ts.Line, clip(ts.Statement, 44), strings.Join(vals, " "))
	}
}

// writeSourceTrace prints the counterexample as CBMC users read it
// (report.SourceLines: one row per source line a thread executes, the
// values stored in program variables). The step number is that of the
// row's first step in the model's trace (--trace steps and the JSON
// output list every step).
func writeSourceTrace(w io.Writer, o *outcome, names map[int]string) {
	rows := report.SourceLines(o.prog, o.Trace)
	fmt.Fprintf(w, "\nCounterexample (%d source lines executed, %d steps of the program model; --trace steps lists every step):\n", len(rows), len(o.Trace))
	fmt.Fprintf(w, "  %5s  %-14s %-6s %-50s %s\n", "step", "thread", "line", "source", "values")
	for _, r := range rows {
		line := fmt.Sprint(r.Line)
		if r.File != "" && r.File != o.File {
			line = filepath.Base(r.File) + ":" + line
		}
		var vals []string
		for _, s := range r.Vals {
			vals = append(vals, s.Loc+"="+s.Val)
		}
		fmt.Fprintf(w, "  %5d  %-14s %-6s %-50s %s\n", r.First, names[r.Thread], line, clip(r.Text, 50), strings.Join(vals, " "))
	}
}

// clip shortens s to at most n bytes, marking the cut with "...".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
