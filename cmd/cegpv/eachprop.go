package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/sync/errgroup"

	"cegpv.dev/cegpv/program"
)

// propertyReport is the result of --each-property.
type propertyReport struct {
	File       string     `json:"file"`
	Verdict    string     `json:"verdict"` // FALSE if any property fails, TRUE if all hold, else UNKNOWN
	Properties []*outcome `json:"properties"`
}

// verifyEach checks every property of the file separately, up to jobs at a
// time. Only infrastructure failures (a backend crash, an internal error)
// cancel the remaining checks; a violated property is a result.
func verifyEach(ctx context.Context, file string, vf *verifyFlags, jobs int, log hclog.Logger, stdout io.Writer) int {
	rep := &propertyReport{File: file, Verdict: "UNKNOWN"}
	p, err := load(file, &vf.commonFlags, log)
	if err != nil {
		o := &outcome{File: file, Verdict: "UNKNOWN", Reason: err.Error(), err: err, Mode: vf.mode, Backend: vf.backend, Bounds: vf.bounds().String()}
		rep.Properties = []*outcome{o}
		return writeEach(stdout, vf, rep, exitCodeFor(err))
	}
	props := program.Properties(p)
	rep.Properties = make([]*outcome, len(props))
	g, gctx := errgroup.WithContext(ctx)
	if jobs < 1 {
		jobs = 1
	}
	g.SetLimit(jobs)
	for i, id := range props {
		g.Go(func() error {
			one := *vf
			one.property = id
			o := verify(gctx, file, &one, log.With("property", id))
			rep.Properties[i] = o
			if k := program.KindOf(o.err); k == program.Crash || k == program.Internal {
				return fmt.Errorf("%s: %w", id, o.err)
			}
			return nil
		})
	}
	groupErr := g.Wait()
	all, anyFalse := true, false
	for i, o := range rep.Properties {
		if o == nil { // not started: cancelled by another property's failure
			o = &outcome{File: file, Property: props[i], Verdict: "UNKNOWN", Reason: fmt.Sprintf("not checked: %v", groupErr)}
			rep.Properties[i] = o
		}
		if o.Property == "" {
			o.Property = props[i]
		}
		anyFalse = anyFalse || o.Verdict == "FALSE"
		all = all && o.Verdict == "TRUE"
	}
	code := exitUnknown
	switch {
	case anyFalse:
		rep.Verdict, code = "FALSE", exitUnsafe
	case all:
		rep.Verdict, code = "TRUE", exitSafe
	}
	return writeEach(stdout, vf, rep, code)
}

func writeEach(w io.Writer, vf *verifyFlags, rep *propertyReport, code int) int {
	if vf.jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
		return code
	}
	for _, o := range rep.Properties {
		fmt.Fprintf(w, "\n== property %s\n", o.Property)
		writeText(w, o, vf.trace)
	}
	fmt.Fprintf(w, "\nSummary for %s:\n", rep.File)
	for _, o := range rep.Properties {
		line := o.Verdict
		if o.Verdict == "UNKNOWN" {
			line += ": " + o.Reason
		}
		fmt.Fprintf(w, "  %-32s %s\n", o.Property, line)
	}
	fmt.Fprintf(w, "%s\n", rep.Verdict)
	return code
}
