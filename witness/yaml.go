package witness

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"cegpv.dev/cegpv/program"
)

type yLocation struct {
	FileName string `yaml:"file_name"`
	Line     int    `yaml:"line"`
	Column   int    `yaml:"column,omitempty"`
	Function string `yaml:"function,omitempty"`
}

type yConstraint struct {
	Value  string `yaml:"value"`
	Format string `yaml:"format,omitempty"`
}

type yWaypoint struct {
	Type       string       `yaml:"type"`
	Action     string       `yaml:"action"`
	Constraint *yConstraint `yaml:"constraint,omitempty"`
	Location   yLocation    `yaml:"location"`
}

type ySegment struct {
	Segment []struct {
		Waypoint yWaypoint `yaml:"waypoint"`
	} `yaml:"segment"`
}

// formula returns the LTL formula of a property file's (single) CHECK line, as the YAML
// format's task.specification wants it.
func formula(spec string) string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(spec), "\n", 2)[0])
	i := strings.Index(line, "LTL(")
	if i < 0 {
		return line
	}
	f := strings.TrimSpace(line[i+len("LTL("):])
	f = strings.TrimSpace(strings.TrimSuffix(f, ")")) // CHECK's parenthesis
	return strings.TrimSpace(strings.TrimSuffix(f, ")"))
}

// ViolationYAML returns a YAML (format 2.0) violation witness of run, a replayed run of
// p ending in a violated assertion: one segment per waypoint — an assumption waypoint
// "x == v" at the next statement its thread executes after a nondeterministic
// assignment to a source variable x, a function_enter waypoint at each call of a
// defined function, and the target waypoint at the violated assertion. Branching
// waypoints are not written (see the package doc).
func ViolationYAML(info Info, p *program.Program, run *program.Run) ([]byte, error) {
	if run == nil || run.Violated == "" || len(run.Steps) == 0 {
		return nil, program.Errorf(program.Internal, "witness: the run ends in no violation")
	}
	src, err := os.ReadFile(info.ProgramFile)
	if err != nil {
		return nil, program.Errorf(program.Internal, "witness: reading the program file: %v", err)
	}
	nlines := strings.Count(string(src), "\n")
	if len(src) > 0 && src[len(src)-1] != '\n' {
		nlines++
	}
	ix := program.NewIndex(p)
	inFile := func(pos program.Pos) bool { return pos.Line >= 1 && pos.Line <= nlines }
	loc := func(l program.Label) yLocation {
		in := ix.Instr[l]
		return yLocation{FileName: info.ProgramFile, Line: in.Pos.Line, Column: max(in.Pos.Col, 0), Function: ix.Func[l].Name}
	}
	var content []ySegment
	add := func(w yWaypoint) {
		var s ySegment
		s.Segment = append(s.Segment, struct {
			Waypoint yWaypoint `yaml:"waypoint"`
		}{w})
		content = append(content, s)
	}
	defined := map[string]bool{}
	for _, f := range p.Funcs {
		defined[f.Name] = true
	}
	last := len(run.Steps) - 1
	for i, s := range run.Steps[:last] {
		in := ix.Instr[s.Label]
		if in == nil {
			return nil, program.Errorf(program.Internal, "witness: step %d: label %v is not in the program", i, s.Label)
		}
		if !inFile(in.Pos) {
			continue
		}
		switch in.Op {
		case program.OpCall:
			if f, ok := in.Func.(*program.FuncRef); ok && defined[f.Name] {
				add(yWaypoint{Type: "function_enter", Action: "follow", Location: loc(s.Label)})
			}
		case program.OpAssign:
			a, _ := assumption(p, in, s, ix.Func[s.Label])
			if a == "" {
				continue
			}
			// The constraint holds before the next statement of the same thread in the
			// same function (a statement on a later position of the file).
			for _, n := range run.Steps[i+1:] {
				if n.Thread != s.Thread {
					continue
				}
				nin := ix.Instr[n.Label]
				if ix.Func[n.Label] != ix.Func[s.Label] || !inFile(nin.Pos) {
					break
				}
				if nin.Pos.Line == in.Pos.Line && nin.Pos.Col == in.Pos.Col {
					continue
				}
				add(yWaypoint{Type: "assumption", Action: "follow", Location: loc(n.Label),
					Constraint: &yConstraint{Value: strings.TrimSuffix(a, ";"), Format: "c_expression"}})
				break
			}
		}
	}
	tgt := run.Steps[last]
	if in := ix.Instr[tgt.Label]; in == nil || !inFile(in.Pos) {
		return nil, program.Errorf(program.Internal, "witness: the violated assertion has no line in %s", info.ProgramFile)
	}
	add(yWaypoint{Type: "target", Action: "follow", Location: loc(tgt.Label)})
	m, err := yamlMetadata(info, src)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal([]yEntry{{"violation_sequence", m, content}})
}

// CorrectnessYAML returns a YAML (format 2.0) correctness witness: one
// invariant_set entry with the task's metadata and no invariants (cegpv's
// proofs are bounded and state none; an empty set is what the format
// allows for "no invariant known", as ESBMC writes it too).
func CorrectnessYAML(info Info) ([]byte, error) {
	src, err := os.ReadFile(info.ProgramFile)
	if err != nil {
		return nil, program.Errorf(program.Internal, "witness: reading the program file: %v", err)
	}
	m, err := yamlMetadata(info, src)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal([]yEntry{{"invariant_set", m, []yInvariant{}}})
}

// yInvariant is an element of an invariant_set's content (format 2.0):
// {invariant: {type, location, value, format}}.
type yInvariant struct {
	Invariant struct {
		Type     string    `yaml:"type"` // loop_invariant or location_invariant
		Location yLocation `yaml:"location"`
		Value    string    `yaml:"value"`
		Format   string    `yaml:"format"` // c_expression
	} `yaml:"invariant"`
}

// yEntry is one entry of a format 2.0 witness; Content is a []ySegment
// (violation_sequence) or a []yInvariant (invariant_set).
type yEntry struct {
	EntryType string    `yaml:"entry_type"`
	Metadata  yMetadata `yaml:"metadata"`
	Content   any       `yaml:"content"`
}

type yTask struct {
	InputFiles      []string          `yaml:"input_files"`
	InputFileHashes map[string]string `yaml:"input_file_hashes"`
	Specification   string            `yaml:"specification"`
	DataModel       string            `yaml:"data_model"`
	Language        string            `yaml:"language"`
}

type yProducer struct {
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
}

type yMetadata struct {
	FormatVersion string    `yaml:"format_version"`
	UUID          string    `yaml:"uuid"`
	CreationTime  string    `yaml:"creation_time"`
	Producer      yProducer `yaml:"producer"`
	Task          yTask     `yaml:"task"`
}

// yamlMetadata is the metadata of a format 2.0 entry for info, whose
// program file holds src: a random (version 4) UUID, the creation time,
// the producer split into name and version, the task with the file's
// SHA-256 hash and the property's LTL formula.
func yamlMetadata(info Info, src []byte) (yMetadata, error) {
	now := info.Now
	if now.IsZero() {
		now = time.Now()
	}
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return yMetadata{}, program.Errorf(program.Internal, "witness: uuid: %v", err)
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	name, version, _ := strings.Cut(info.Producer, " ")
	if version == "" {
		version = "unknown"
	}
	sum := sha256.Sum256(src)
	return yMetadata{
		FormatVersion: "2.0",
		UUID:          fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:]),
		CreationTime:  now.UTC().Format(time.RFC3339),
		Producer:      yProducer{name, version},
		Task: yTask{[]string{info.ProgramFile}, map[string]string{info.ProgramFile: hex.EncodeToString(sum[:])},
			formula(info.Specification), string(info.Model), "C"},
	}, nil
}
