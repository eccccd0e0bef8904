package main

import (
	"bytes"
	"os"

	"cegpv.dev/cegpv/report"
)

// writeHTML writes o as the counterexample page (report.WriteCex) to file.
func writeHTML(file string, o *outcome) error {
	c := &report.Cex{File: o.File, Verdict: o.Verdict, Property: o.Property, Reason: o.Reason, Bounds: o.Bounds,
		Mode: o.Mode, Backend: o.Backend, Program: o.prog, Steps: o.Trace}
	if o.FoundWithin != "" {
		c.Notes = append(c.Notes, "found within "+o.FoundWithin)
	}
	if o.FoundBeyond != "" {
		c.Notes = append(c.Notes, "found beyond "+o.Bounds+": "+o.FoundBeyond)
	}
	if o.Beyond != "" {
		c.Notes = append(c.Notes, o.Beyond)
	}
	if cs := o.CEGPV; cs != nil {
		c.Loop = &report.LoopSummary{Levels: cs.Levels, Iterations: len(cs.Iterations), Spurious: spurious(cs), Checks: cs.Checks, Kept: cs.Kept}
	}
	var buf bytes.Buffer
	if err := report.WriteCex(&buf, c); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}
