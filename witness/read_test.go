package witness

import (
	"os"
	"path/filepath"
	"testing"

	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/program"
)

// Read parses ESBMC 8.4's violation witnesses in ../shared/fixtures, both
// formats, into a guide ending in the target with the data model they state
// (ILP32), and rejects its correctness
// witnesses.
func TestReadESBMCFixtures(t *testing.T) {
	dir := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(testenv.FindSVCOMP15()))), "fixtures", "esbmc-8.4.0")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("../shared/fixtures absent: %v", err)
	}
	for _, c := range []struct {
		dir, file string
		line      int
		ok        bool
	}{
		{"lazy01_false-unreach-call", "witness.graphml", 29, true},
		{"lazy01_false-unreach-call", "witness.yml", 29, true},
		{"stack_false-unreach-call", "witness.yml", 0, true},
		{"stateful01_true-unreach-call", "witness.graphml", 0, false},
		{"stateful01_true-unreach-call", "witness.yml", 0, false},
	} {
		data, err := os.ReadFile(filepath.Join(dir, c.dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		g, err := Read(data)
		if !c.ok {
			if err == nil {
				t.Errorf("%s/%s: read as a violation witness", c.dir, c.file)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s/%s: %v", c.dir, c.file, err)
			continue
		}
		last := g.Waypoints[len(g.Waypoints)-1]
		if last.Kind != "target" || (c.line > 0 && last.Line != c.line) || g.Producer != "ESBMC 8.4.0" || len(g.ProgramHash) != 64 || g.Model != program.ILP32 {
			t.Errorf("%s/%s: %+v", c.dir, c.file, g)
		}
	}
}

// FuzzRead: no input makes Read panic, and a guide it returns ends in a
// target.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`<graphml><graph><data key="witness-type">violation_witness</data><node id="A"><data key="entry">true</data></node><node id="B"><data key="violation">true</data></node><edge source="A" target="B"><data key="startline">3</data></edge></graph></graphml>`))
	f.Add([]byte("- entry_type: violation_sequence\n  content:\n    - segment:\n        - waypoint:\n            type: target\n            action: follow\n            location: {file_name: a.c, line: 4}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Read(data)
		if err == nil && (len(g.Waypoints) == 0 || g.Waypoints[len(g.Waypoints)-1].Kind != "target") {
			t.Fatalf("a guide without a target: %+v", g)
		}
	})
}

// Read's errors name the problem in the witness's terms, not Go's types.
func TestReadErrors(t *testing.T) {
	for in, want := range map[string]string{
		"garbage":                            "YAML: not a witness of format 2.0 (a list of entries): line 1: cannot unmarshal !!str `garbage`",
		"- entry_type: invariant_set\n":      "YAML: no violation_sequence entry (format 2.0)",
		"<graphml><graph></graph></graphml>": "GraphML: no violation node",
		"   ":                                "empty witness",
	} {
		_, err := Read([]byte(in))
		if err == nil || err.Error() != want {
			t.Errorf("Read(%q) = %v, want %q", in, err, want)
		}
	}
}
