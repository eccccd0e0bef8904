package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/validate"
	"cegpv.dev/cegpv/witness"
)

func newValidateCmd(c *cli) *cobra.Command {
	var vf verifyFlags
	cmd := command("validate --witness W [flags] FILE.c", "check",
		"check a violation witness (GraphML or YAML 2.0): FALSE(unreach-call) when it leads to a violation",
		`Follows the violation witness W (GraphML or YAML 2.0, an input) on FILE.c as a
guide: its target names the property, its assumption waypoints become
assumptions at their lines, and the built-in engines look for the violation.
The last line is FALSE(unreach-call) property ID (exit 10) with a run replayed
on the program, or UNKNOWN: witness not confirmed: reason (exit 5). The flags
of verify choose the engines and bounds; the data model is the witness's
unless --32, --64 or --data-model names one.`)
	fs := cmd.Flags()
	vf.register(fs)
	fs.Lookup("witness").Usage = "the violation witness to check (GraphML or YAML 2.0): an input, required"
	grouped(fs, groupInput, "witness")
	for _, n := range []string{"html", "json", "each-property", "jobs", "show-properties", "version"} {
		fs.MarkHidden(n)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		code, err := runValidate(c, &vf, args)
		c.code = code
		return err
	}
	return cmd
}

// runValidate is cegpv validate: the flags of verify (engines, bounds,
// --propertyfile, --32/--64, --timeout), --witness naming the witness to
// check; the data model is the witness's (its architecture or data_model)
// unless a flag names one. The last line is FALSE(unreach-call) when the witness is
// confirmed (exit 10), UNKNOWN otherwise (exit 5).
func runValidate(c *cli, vf *verifyFlags, args []string) (int, error) {
	ctx, stdout, stderr := c.ctx, c.stdout, c.stderr
	file, err := oneFile(args, "FILE.c")
	if err != nil {
		return exitUsage, err
	}
	if err := vf.validate(); err != nil {
		return exitUsage, usageError{err}
	}
	if vf.witness == "" {
		return exitUsage, usagef("want --witness FILE (the violation witness to check)")
	}
	unknown := func(format string, args ...any) int {
		fmt.Fprintf(stdout, "cegpv validate: %s with witness %s\n\nUNKNOWN: %s\n", file, vf.witness, fmt.Sprintf(format, args...))
		return exitUnknown
	}
	data, err := os.ReadFile(vf.witness)
	if err != nil {
		return unknown("%v", err), nil
	}
	g, err := witness.Read(data)
	if err != nil {
		return unknown("witness %s: %v", vf.witness, err), nil
	}
	if !vf.modelSet() && g.Model != "" {
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
		return unknown("%v", err), nil
	}
	p, err := vf.load(ctx, file, log)
	if err != nil {
		return unknown("%v", err), nil
	}
	if err := vf.checkProgram(p); err != nil {
		return exitUsage, usageError{err}
	}
	opts, err := vf.checkOptions(log)
	if err != nil {
		return unknown("%v", err), nil
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
		return exitUnknown, nil
	}
	o := &report.Outcome{File: file, Program: p}
	o.SetTrace(p, res.Run)
	report.WriteTrace(stdout, o, vf.trace)
	fmt.Fprintf(stdout, "time %.2fs\n\nWITNESS CONFIRMED\nFALSE(unreach-call) property %s\n", time.Since(start).Seconds(), res.Property)
	return exitUnsafe, nil
}
