package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/validate"
	"cegpv.dev/cegpv/witness"
)

func init() {
	commands = append(commands,
		command{"validate", "validate --witness W [flags] FILE.c: follow a violation witness (GraphML or YAML 2.0) as a guide; FALSE(unreach-call) when it leads to a violation", runValidate})
}

// runValidate is cegpv validate: the flags of verify (engines, bounds,
// --propertyfile, --32/--64, --timeout), --witness naming the witness to
// check; the data model is the witness's (its architecture or data_model)
// unless a flag names one. The last line is FALSE(unreach-call) when the witness is
// confirmed (exit 10), UNKNOWN otherwise (exit 5).
func runValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("validate", stderr)
	var vf verifyFlags
	vf.register(fs)
	file, code := oneFile(fs, args, stderr)
	if code >= 0 {
		return code
	}
	if err := vf.validate(); err != nil {
		fmt.Fprintf(stderr, "cegpv validate: %v\n", err)
		return exitUsage
	}
	if vf.witness == "" {
		fmt.Fprintln(stderr, "cegpv validate: want --witness FILE (the violation witness to check)")
		return exitUsage
	}
	unknown := func(format string, args ...any) int {
		fmt.Fprintf(stdout, "cegpv validate: %s with witness %s\n\nUNKNOWN: %s\n", file, vf.witness, fmt.Sprintf(format, args...))
		return exitUnknown
	}
	data, err := os.ReadFile(vf.witness)
	if err != nil {
		return unknown("%v", err)
	}
	g, err := witness.Read(data)
	if err != nil {
		return unknown("witness %s: %v", vf.witness, err)
	}
	modelSet := false
	fs.Visit(func(f *flag.Flag) { modelSet = modelSet || f.Name == "data-model" || f.Name == "32" || f.Name == "64" })
	if !modelSet && g.Model != "" {
		vf.model = string(g.Model) // the witness's, unless a flag names one
	}
	if vf.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, vf.timeout)
		defer cancel()
	}
	log := vf.logger(stderr)
	src, err := os.ReadFile(file)
	if err != nil {
		return unknown("%v", err)
	}
	p, err := vf.load(ctx, file, log)
	if err != nil {
		return unknown("%v", err)
	}
	opts, err := vf.checkOptions(log)
	if err != nil {
		return unknown("%v", err)
	}
	start := time.Now()
	res := validate.Witness(ctx, p, src, g, opts)
	fmt.Fprintf(stdout, "cegpv validate: %s with witness %s (%s, %s)\n", file, vf.witness, g.Format, g.Producer)
	for _, w := range res.Followed {
		fmt.Fprintf(stdout, "  followed: %s\n", w)
	}
	for _, w := range res.Ignored {
		fmt.Fprintf(stdout, "  not followed: %s\n", w)
	}
	if !res.Confirmed {
		fmt.Fprintf(stdout, "time %.2fs\n\nUNKNOWN: witness not confirmed: %s\n", time.Since(start).Seconds(), res.Reason)
		return exitUnknown
	}
	report.WriteTrace(stdout, &report.Outcome{File: file, Program: p, Trace: report.Steps(p, res.Run)}, vf.trace)
	fmt.Fprintf(stdout, "time %.2fs\n\nWITNESS CONFIRMED\nFALSE(unreach-call) property %s\n", time.Since(start).Seconds(), res.Property)
	return exitUnsafe
}
