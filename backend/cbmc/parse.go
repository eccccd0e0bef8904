package cbmc

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/backend/external"
)

// Report is what CBMC's --xml-ui output says.
type Report struct {
	Status  string // "SUCCESS", "FAILURE" or "" (none)
	Trace   *external.Trace
	Program string   // <program>, e.g. "CBMC 5.1"
	Errors  []string // <message type="ERROR"> texts
}

type xLocation struct {
	File string `xml:"file,attr"`
	Line string `xml:"line,attr"`
}

type xStep struct {
	XMLName  xml.Name
	Hidden   string    `xml:"hidden,attr"`
	Thread   string    `xml:"thread,attr"`
	Property string    `xml:"property,attr"`
	Reason   string    `xml:"reason,attr"`
	Loc      xLocation `xml:"location"`
	FullLhs  string    `xml:"full_lhs"`
	LhsValue string    `xml:"full_lhs_value"`
	Value    string    `xml:"value"`
}

// ParseXML reads CBMC's --xml-ui output. A malformed document gives an
// error.
func ParseXML(r io.Reader) (*Report, error) {
	rep := &Report{}
	dec := xml.NewDecoder(r)
	dec.Strict = false
	var tr *external.Trace
	inTrace := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "program":
				var s string
				if err := dec.DecodeElement(&s, &t); err != nil {
					return rep, err
				}
				rep.Program = strings.TrimSpace(s)
			case t.Name.Local == "cprover-status":
				var s string
				if err := dec.DecodeElement(&s, &t); err != nil {
					return rep, err
				}
				rep.Status = strings.TrimSpace(s)
			case t.Name.Local == "message" && !inTrace:
				var m struct {
					Type string `xml:"type,attr"`
					Text string `xml:"text"`
				}
				if err := dec.DecodeElement(&m, &t); err != nil {
					return rep, err
				}
				if m.Type == "ERROR" {
					rep.Errors = append(rep.Errors, strings.TrimSpace(m.Text))
				}
			case t.Name.Local == "goto_trace":
				inTrace = true
				tr = &external.Trace{}
			case inTrace:
				var s xStep
				if err := dec.DecodeElement(&s, &t); err != nil {
					return rep, err
				}
				th, err := strconv.Atoi(s.Thread)
				if err != nil {
					th = -1
				}
				line, _ := strconv.Atoi(s.Loc.Line)
				st := external.State{Thread: th, File: s.Loc.File, Line: line}
				switch s.XMLName.Local {
				case "assignment":
					if s.Hidden == "true" {
						continue
					}
					st.Lhs = s.FullLhs
					st.Value = s.LhsValue
					if st.Value == "" {
						st.Value = s.Value
					}
					tr.States = append(tr.States, st)
				case "failure":
					if tr.Violation == nil {
						tr.Violation = &st
						tr.Property = s.Property
						tr.Comment = s.Reason
					}
				}
			}
		case xml.EndElement:
			if t.Name.Local == "goto_trace" {
				inTrace = false
				rep.Trace = tr
			}
		}
	}
	return rep, nil
}
