package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
	"github.com/hashicorp/go-hclog"
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
	p, err := load(ctx, file, &vf.commonFlags, log)
	if err != nil {
		o := &outcome{File: file, Verdict: "UNKNOWN", Reason: err.Error(), err: err, Mode: vf.mode, Backend: vf.backend, Bounds: vf.bounds().String()}
		rep.Properties = []*outcome{o}
		return writeEach(stdout, vf, rep, exitCodeFor(err))
	}
	opts, err := vf.checkOptions(log)
	if err != nil {
		o := &outcome{File: file, Verdict: "UNKNOWN", Reason: err.Error(), err: err, Mode: vf.mode, Backend: vf.backend, Bounds: vf.bounds().String()}
		rep.Properties = []*outcome{o}
		return writeEach(stdout, vf, rep, exitCodeFor(err))
	}
	all := cegpv.CheckEach(ctx, p, opts, jobs)
	for _, r := range all.Reports {
		o := &outcome{File: file, Mode: vf.mode, Backend: vf.backend, prog: p}
		o.fill(r)
		o.Stats.TotalSec = r.Elapsed.Seconds()
		rep.Properties = append(rep.Properties, o)
	}
	rep.Verdict = all.Verdict.SVCOMP()
	code := exitUnknown
	switch all.Verdict {
	case backend.Unsafe:
		code = exitUnsafe
	case backend.Safe:
		code = exitSafe
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
	writeResults(w, rep)
	fmt.Fprintf(w, "%s\n", rep.Verdict)
	return code
}

// writeResults is CBMC's ** Results: list: one line per property, with
// its line, what it checks and SUCCESS, FAILURE or UNKNOWN (with the
// reason), then how many failed.
func writeResults(w io.Writer, rep *propertyReport) {
	detail := map[string]program.PropertyDetail{}
	if len(rep.Properties) > 0 && rep.Properties[0].prog != nil {
		for _, d := range program.PropertyDetails(rep.Properties[0].prog) {
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
