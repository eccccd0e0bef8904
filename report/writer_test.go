package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/witness"
)

// The writers: text and JSON also write --each-property's results, the
// page and the witness do not; the witness is chosen by the file's suffix
// and the verdict (none for UNKNOWN, an error for a FALSE without a
// replayed run); text ends in the verdict, JSON is the Outcome.
func TestWriters(t *testing.T) {
	var buf bytes.Buffer
	for _, w := range []Writer{Text{W: &buf}, JSON{W: &buf}, HTML{}, Witness{}} {
		_, each := w.(EachWriter)
		if want := w == Writer(Text{W: &buf}) || w == Writer(JSON{W: &buf}); each != want {
			t.Errorf("%T: EachWriter %v, want %v", w, each, want)
		}
	}
	dir := t.TempDir()
	file := "../testdata/progs/locked_counter_safe.c"
	info := witness.Info{Specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )", Producer: "cegpv test", Model: program.ILP32}
	for _, tc := range []struct {
		name, verdict, want string
		err                 bool
	}{
		{"c.yml", "TRUE", "entry_type: invariant_set", false},
		{"c.yaml", "TRUE", "entry_type: invariant_set", false},
		{"c.graphml", "TRUE", "correctness_witness", false},
		{"u.graphml", "UNKNOWN", "", false},
		{"v.yml", "FALSE", "", true},
	} {
		path := filepath.Join(dir, tc.name)
		err := Witness{Path: path, Info: info}.Write(&Outcome{File: file, Verdict: tc.verdict})
		b, rerr := os.ReadFile(path)
		switch {
		case tc.err:
			if err == nil || rerr == nil {
				t.Errorf("%s %s: error %v, file read %v; want an error and no file", tc.name, tc.verdict, err, rerr)
			}
		case tc.want == "":
			if err != nil || rerr == nil {
				t.Errorf("%s %s: error %v, file read %v; want no file", tc.name, tc.verdict, err, rerr)
			}
		case err != nil || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), file):
			t.Errorf("%s %s: %v\n%s", tc.name, tc.verdict, err, b)
		}
	}
	o := &Outcome{File: file, Verdict: "UNKNOWN", Reason: "timeout", Mode: "plain", Backend: "builtin", DataModel: "LP64", Bounds: "unwind 3"}
	buf.Reset()
	Text{W: &buf}.Write(o)
	if !strings.HasSuffix(buf.String(), "\nUNKNOWN: timeout\n") || !strings.HasPrefix(buf.String(), "cegpv: "+file+" (mode plain, backend builtin, LP64, unwind 3)\n") {
		t.Errorf("text:\n%s", buf.String())
	}
	// a step that overflows says so, in both trace styles and the JSON
	ov := &Outcome{File: file, Verdict: "FALSE", Property: "main.overflow.1", Mode: "plain", Backend: "builtin", DataModel: "LP64", Bounds: "unwind 3", Program: &program.Program{},
		Trace: []Step{{Step: 1, Thread: 0, Line: 7, Statement: "y = x + 1", Assigned: map[string]string{"y": "-2147483648"}, Order: []string{"y"},
			Overflow: "arithmetic overflow on signed + in x + 1", Spawned: -1, Joined: -1}}}
	for _, style := range TraceStyles {
		buf.Reset()
		Text{W: &buf, Trace: style}.Write(ov)
		if !strings.Contains(buf.String(), "^ undefined behaviour: arithmetic overflow on signed + in x + 1\n") || !strings.HasSuffix(buf.String(), "FALSE(no-overflow) property main.overflow.1\n") {
			t.Errorf("text, %s trace:\n%s", style, buf.String())
		}
	}
	buf.Reset()
	JSON{W: &buf}.Write(ov)
	if !strings.Contains(buf.String(), `"overflow": "arithmetic overflow on signed + in x + 1"`) {
		t.Errorf("json:\n%s", buf.String())
	}
	buf.Reset()
	JSON{W: &buf}.Write(o)
	var back Outcome
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.File != file || back.Verdict != "UNKNOWN" || back.Reason != "timeout" || back.DataModel != "LP64" || !strings.HasPrefix(buf.String(), "{\n  \"file\": ") {
		t.Errorf("json: %v\n%s", err, buf.String())
	}
	buf.Reset()
	Text{W: &buf}.WriteEach(&Properties{File: file, Verdict: "UNKNOWN", Properties: []*Outcome{o}})
	if !strings.Contains(buf.String(), "** Results:\n[] UNKNOWN (timeout)\n") || !strings.HasSuffix(buf.String(), "\nUNKNOWN: timeout\n") {
		t.Errorf("text, each property:\n%s", buf.String())
	}
}
