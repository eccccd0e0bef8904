package cli

import (
	"bytes"
	"github.com/spf13/pflag"
	"reflect"
	"testing"

	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/svcomp"
	"cegpv.dev/cegpv/witness"
)

// Each writer of verify's result is selected by its flag: text on
// standard output by default, JSON with --json (instead of text), the page
// with --html, the witness with --witness (for the property file's
// property, in the data model of --32/--64), each naming its flag in
// errors.
func TestOutputsByFlag(t *testing.T) {
	var stdout bytes.Buffer
	prop := &svcomp.Property{Name: "unreach-call", Text: "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"}
	for _, tc := range []struct {
		args  []string
		prop  *svcomp.Property
		flags []string
		want  []report.Writer
	}{
		{nil, nil, []string{""}, []report.Writer{report.Text{W: &stdout, Trace: report.TraceSource}}},
		{[]string{"--trace", "steps"}, nil, []string{""}, []report.Writer{report.Text{W: &stdout, Trace: report.TraceSteps}}},
		{[]string{"--json"}, nil, []string{""}, []report.Writer{report.JSON{W: &stdout}}},
		{[]string{"--html", "p.html"}, nil, []string{"", "--html"}, []report.Writer{report.Text{W: &stdout, Trace: report.TraceSource}, report.HTML{Path: "p.html"}}},
		{[]string{"--json", "--witness", "w.yml", "--64"}, prop, []string{"", "--witness"}, []report.Writer{report.JSON{W: &stdout},
			report.Witness{Path: "w.yml", Info: witnessInfo(prop.Text, program.LP64)}}},
		{[]string{"--witness", "w.graphml", "--html", "p.html", "--32"}, nil, []string{"", "--html", "--witness"}, []report.Writer{
			report.Text{W: &stdout, Trace: report.TraceSource}, report.HTML{Path: "p.html"}, report.Witness{Path: "w.graphml", Info: witnessInfo(unreachCall, program.ILP32)}}},
	} {
		fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
		var vf verifyFlags
		vf.register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		outs := vf.outputs(&stdout, tc.prop)
		var flags []string
		var ws []report.Writer
		for _, o := range outs {
			flags, ws = append(flags, o.flag), append(ws, o.w)
		}
		if !reflect.DeepEqual(flags, tc.flags) || !reflect.DeepEqual(ws, tc.want) {
			t.Errorf("%v: writers %v %#v, want %v %#v", tc.args, flags, ws, tc.flags, tc.want)
		}
	}
}

func witnessInfo(spec string, model program.DataModel) witness.Info {
	return witness.Info{Specification: spec, Producer: "cegpv " + svcomp.Version(), Model: model}
}
