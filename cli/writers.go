package cli

import (
	"fmt"
	"io"

	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/svcomp"
	"cegpv.dev/cegpv/witness"
)

// unreachCall is the property file text of SV-COMP 2015's unreach-call,
// the specification of a witness when no --propertyfile was given.
const unreachCall = "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n"

// output is a writer of verify's result with the flag that selected it,
// which its errors name ("" for the report on standard output).
type output struct {
	flag string
	w    report.Writer
}

// outputs selects the writers of verify's result by the flags: the report
// on standard output (report.JSON with --json, report.Text otherwise), the
// counterexample page (--html: report.HTML) and the SV-COMP witness
// (--witness: report.Witness, for the property checked, prop, or
// unreach-call).
func (vf *verifyFlags) outputs(stdout io.Writer, prop *svcomp.Property) []output {
	var outs []output
	if vf.jsonOut {
		outs = append(outs, output{"", report.JSON{W: stdout}})
	} else {
		outs = append(outs, output{"", report.Text{W: stdout, Trace: vf.trace}})
	}
	if vf.html != "" {
		outs = append(outs, output{"--html", report.HTML{Path: vf.html}})
	}
	if vf.witness != "" {
		model, _ := vf.dataModel() // checked by validate
		info := witness.Info{Specification: unreachCall, Producer: "cegpv " + svcomp.Version(), Model: model}
		if prop != nil {
			info.Specification = prop.Text
		}
		outs = append(outs, output{"--witness", report.Witness{Path: vf.witness, Info: info}})
	}
	return outs
}

// writeOutputs writes o with every writer; a file that cannot be written
// is an error on stderr naming its flag, and does not change the verdict.
func writeOutputs(outs []output, o *report.Outcome, stderr io.Writer) {
	for _, out := range outs {
		if err := out.w.Write(o); err != nil && out.flag != "" {
			fmt.Fprintf(stderr, "cegpv verify: %s: %v\n", out.flag, err)
		}
	}
}
