package witness

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"cegpv.dev/cegpv/program"
)

// Guide is what a violation witness says about the violation, read from
// GraphML 1.0 or YAML 2.0 (Read): the program it is for and its waypoints
// in order, the last one the target.
type Guide struct {
	Format      string // "graphml" or "yaml"
	Producer    string
	ProgramHash string // SHA-256 of the program, hex, "" if the witness has none
	// Model is the data model the witness states (GraphML architecture,
	// YAML data_model), "" when it states none.
	Model     program.DataModel
	Waypoints []Waypoint
}

// Waypoint is one constraint of a witness on the runs it describes.
type Waypoint struct {
	// Kind is "assumption", "branching", "function_enter",
	// "function_return" or "target" (a GraphML edge with none of these
	// data is "edge": only its line).
	Kind     string
	Line     int
	Function string // "" when the witness does not name it
	Thread   int    // -1 when the witness does not name it
	// Constraint is a C expression: the assumption ("x == 5"), or for a
	// branching waypoint "true" or "false" (the branch taken).
	Constraint string
	// After: the constraint holds after the statement at Line (GraphML
	// edges), not when it is reached (YAML waypoints).
	After bool
	Avoid bool // YAML action "avoid"
}

// Read parses a violation witness, GraphML or YAML by its first
// non-blank character.
func Read(data []byte) (*Guide, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return nil, fmt.Errorf("empty witness")
	}
	if t[0] == '<' {
		return readGraphML(t)
	}
	return readYAML(t)
}

type xGraphML struct {
	Keys  []struct{ ID, For, Name string } `xml:"key"`
	Graph struct {
		Data  []xData `xml:"data"`
		Nodes []struct {
			ID   string  `xml:"id,attr"`
			Data []xData `xml:"data"`
		} `xml:"node"`
		Edges []struct {
			Source string  `xml:"source,attr"`
			Target string  `xml:"target,attr"`
			Data   []xData `xml:"data"`
		} `xml:"edge"`
	} `xml:"graph"`
}

type xData struct {
	Key   string `xml:"key,attr"`
	Value string `xml:",chardata"`
}

func dataMap(ds []xData) map[string]string {
	m := map[string]string{}
	for _, d := range ds {
		m[d.Key] = strings.TrimSpace(d.Value)
	}
	return m
}

func readGraphML(data []byte) (*Guide, error) {
	var g xGraphML
	if err := xml.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("GraphML: %v", err)
	}
	gd := dataMap(g.Graph.Data)
	if wt := gd["witness-type"]; wt != "" && wt != "violation_witness" {
		return nil, fmt.Errorf("GraphML: a %s, not a violation witness", wt)
	}
	out := &Guide{Format: "graphml", Producer: gd["producer"], ProgramHash: strings.ToLower(gd["programhash"])}
	switch gd["architecture"] {
	case "32bit":
		out.Model = program.ILP32
	case "64bit":
		out.Model = program.LP64
	}
	entry, violation := "", map[string]bool{}
	for _, n := range g.Graph.Nodes {
		d := dataMap(n.Data)
		if d["entry"] == "true" {
			entry = n.ID
		}
		if d["violation"] == "true" {
			violation[n.ID] = true
		}
	}
	if entry == "" && len(g.Graph.Nodes) > 0 {
		entry = g.Graph.Nodes[0].ID
	}
	if len(violation) == 0 {
		return nil, fmt.Errorf("GraphML: no violation node")
	}
	// the path from the entry to a violation node, edges in order (a
	// breadth-first search: witnesses are paths, or trees of them)
	type step struct {
		prev string
		edge int
	}
	seen := map[string]step{entry: {"", -1}}
	queue, end := []string{entry}, ""
	for len(queue) > 0 && end == "" {
		n := queue[0]
		queue = queue[1:]
		for i, e := range g.Graph.Edges {
			if e.Source != n {
				continue
			}
			if _, ok := seen[e.Target]; ok {
				continue
			}
			seen[e.Target] = step{n, i}
			if violation[e.Target] {
				end = e.Target
				break
			}
			queue = append(queue, e.Target)
		}
	}
	if end == "" {
		return nil, fmt.Errorf("GraphML: no path from the entry node to a violation node")
	}
	var path []int
	for n := end; seen[n].edge >= 0; n = seen[n].prev {
		path = append([]int{seen[n].edge}, path...)
	}
	for k, i := range path {
		d := dataMap(g.Graph.Edges[i].Data)
		line, _ := strconv.Atoi(d["startline"])
		th := -1
		if v, err := strconv.Atoi(d["threadId"]); err == nil {
			th = v
		}
		w := Waypoint{Kind: "edge", Line: line, Thread: th, Function: d["assumption.scope"], After: true}
		switch {
		case d["assumption"] != "":
			w.Kind, w.Constraint = "assumption", d["assumption"]
		case d["control"] != "":
			w.Kind, w.Constraint = "branching", map[bool]string{true: "true", false: "false"}[d["control"] == "condition-true"]
		case d["enterFunction"] != "":
			w.Kind, w.Function = "function_enter", d["enterFunction"]
		case d["returnFrom"] != "":
			w.Kind, w.Function = "function_return", d["returnFrom"]
		}
		if k == len(path)-1 {
			w.Kind, w.After = "target", false
		}
		out.Waypoints = append(out.Waypoints, w)
	}
	return out, nil
}

func readYAML(data []byte) (*Guide, error) {
	var entries []struct {
		EntryType string `yaml:"entry_type"`
		Metadata  struct {
			FormatVersion string `yaml:"format_version"`
			Producer      struct {
				Name, Version string
			} `yaml:"producer"`
			Task struct {
				InputFileHashes map[string]string `yaml:"input_file_hashes"`
				DataModel       string            `yaml:"data_model"`
			} `yaml:"task"`
		} `yaml:"metadata"`
		Content []ySegment `yaml:"content"`
	}
	if err := yaml.Unmarshal(data, &entries); err != nil {
		if te, ok := err.(*yaml.TypeError); ok {
			// "line 1: cannot unmarshal !!str `x` into []struct {…}":
			// the Go type says nothing to a user
			msgs := make([]string, len(te.Errors))
			for i, m := range te.Errors {
				msgs[i], _, _ = strings.Cut(m, " into ")
			}
			return nil, fmt.Errorf("YAML: not a witness of format 2.0 (a list of entries): %s", strings.Join(msgs, "; "))
		}
		return nil, fmt.Errorf("YAML: %v", err)
	}
	for _, e := range entries {
		if e.EntryType != "violation_sequence" {
			continue
		}
		out := &Guide{Format: "yaml", Producer: strings.TrimSpace(e.Metadata.Producer.Name + " " + e.Metadata.Producer.Version)}
		for _, h := range e.Metadata.Task.InputFileHashes {
			out.ProgramHash = strings.ToLower(h)
		}
		if m := program.DataModel(e.Metadata.Task.DataModel); m == program.ILP32 || m == program.LP64 {
			out.Model = m
		}
		for _, seg := range e.Content {
			for _, s := range seg.Segment {
				y := s.Waypoint
				w := Waypoint{Kind: y.Type, Line: y.Location.Line, Function: y.Location.Function, Thread: -1, Avoid: y.Action == "avoid"}
				if y.Constraint != nil {
					w.Constraint = y.Constraint.Value
				}
				out.Waypoints = append(out.Waypoints, w)
			}
		}
		if len(out.Waypoints) == 0 || out.Waypoints[len(out.Waypoints)-1].Kind != "target" {
			return nil, fmt.Errorf("YAML: the violation sequence does not end in a target waypoint")
		}
		return out, nil
	}
	return nil, fmt.Errorf("YAML: no violation_sequence entry (format 2.0)")
}
