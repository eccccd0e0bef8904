package esbmc

import (
	"bufio"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/backend/external"
)

// Report is what ESBMC's text output says.
type Report struct {
	Verdict string // "FAILED", "SUCCESSFUL" or "" (no verdict line)
	Trace   *external.Trace
	Failed  []string // property ids of the FAILED lines of ** Results
	// Summary is ESBMC's account of its work: its last "Schedule
	// reduction:" line (schedules explored and pruned), "" without one.
	Summary string
}

// Parse reads ESBMC's text output (its stderr with --sv-comp or the
// default output settings): the counterexample states, the violated
// property and the verdict.
func Parse(text string) *Report {
	r := &Report{}
	tr := &external.Trace{}
	var cur *external.State // the header of the state being read
	inViolation := 0        // lines read after "Violated property:"
	inResults := false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "State "):
			st := parseHeader(line)
			cur = &st
			inViolation = 0
			continue
		case line == "Violated property:":
			inViolation = 1
			v := external.State{Thread: -1}
			if cur != nil {
				v.Thread = cur.Thread
			}
			tr.Violation = &v
			continue
		case line == "** Results:":
			inResults = true
			inViolation = 0
			cur = nil
			continue
		case line == "VERIFICATION FAILED":
			r.Verdict = "FAILED"
			continue
		case line == "VERIFICATION SUCCESSFUL":
			r.Verdict = "SUCCESSFUL"
			continue
		case strings.HasPrefix(line, "Schedule reduction: "):
			r.Summary = strings.TrimPrefix(line, "Schedule reduction: ")
			continue
		case line == "[Counterexample]" || line == "Building error trace":
			tr.States, tr.Violation, cur, inViolation = nil, nil, nil, 0
			continue
		}
		if inResults {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "FAILED" {
				id := strings.Trim(f[1], "[]")
				r.Failed = append(r.Failed, id)
				if tr.Property == "" {
					tr.Property = id
				}
			}
			continue
		}
		if inViolation > 0 {
			switch inViolation {
			case 1:
				s := parseHeader("State 0 " + strings.TrimSpace(line) + " thread 0")
				tr.Violation.File, tr.Violation.Line = s.File, s.Line
			case 2:
				tr.Violation.Lhs = "" // the comment
				tr.Comment = strings.TrimSpace(line)
			}
			inViolation++
			continue
		}
		if cur != nil && strings.HasPrefix(line, "  ") {
			lhs, val, ok := strings.Cut(strings.TrimSpace(line), " = ")
			if !ok {
				continue
			}
			s := *cur
			s.Lhs = lhs
			s.Value = stripBinary(val)
			tr.States = append(tr.States, s)
		}
	}
	if tr.Violation != nil || len(tr.States) > 0 {
		r.Trace = tr
	}
	return r
}

// parseHeader reads "State N file F line L column C function FN thread T"
// (file, line, column and function optional).
func parseHeader(line string) external.State {
	f := strings.Fields(line)
	st := external.State{Thread: -1}
	for i := 0; i+1 < len(f); i++ {
		switch f[i] {
		case "file":
			st.File = f[i+1]
		case "line":
			st.Line, _ = strconv.Atoi(f[i+1])
		case "thread":
			st.Thread, _ = strconv.Atoi(f[i+1])
		}
	}
	return st
}

// stripBinary drops the binary part "(0000 0001)" after a scalar value.
func stripBinary(v string) string {
	if i := strings.LastIndex(v, " ("); i >= 0 && strings.HasSuffix(v, ")") {
		if strings.Trim(v[i+2:len(v)-1], "01 ") == "" {
			return v[:i]
		}
	}
	return v
}
