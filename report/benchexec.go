package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Meta describes a bench run: what ran, where, when and within which
// limits (results.json's "meta", and the attributes of BenchExec's result
// XML).
type Meta struct {
	Tool      string  `json:"tool"`     // cegpv
	Version   string  `json:"version"`  // cegpv --version
	Revision  string  `json:"revision"` // VCS revision of the binary ("" when not built from a checkout)
	Date      string  `json:"date"`     // start, RFC 3339
	End       string  `json:"end"`      // end, RFC 3339
	Host      string  `json:"host"`
	OS        string  `json:"os"`
	CPU       string  `json:"cpu_model"`
	Cores     int     `json:"cores"`
	RAMBytes  int64   `json:"ram_bytes"`
	TimeLimit float64 `json:"time_limit_seconds"` // per run, wall time
	MemLimit  int64   `json:"mem_limit_bytes"`    // per run (0: none)
	Jobs      int     `json:"jobs"`
	Options   string  `json:"options"` // the flags every verify run got besides the mode's
}

// BenchExecStatus is a row's result in BenchExec's words: its status
// (true, false(unreach-call), unknown, TIMEOUT, OUT OF MEMORY, ERROR
// (reason)) and category (correct, wrong, unknown, error). A TRUE on an
// unsafe task is wrong whether bounded or a proof (BenchExec's "incorrect
// true"; cegpv's own summary counts the bounded ones apart as missed). A
// FALSE of an unwinding or overflow property answers nothing of the
// task's unreach-call property: unknown, as the tool-info module reads it.
func BenchExecStatus(r Row) (status, category string) {
	switch r.Verdict {
	case "TRUE":
		status = "true"
	case "FALSE":
		status = "false(unreach-call)"
		if r.Property != "" && Falsified(r.Property) != UnreachCall {
			// a violated overflow check says nothing of unreach-call
			return "unknown", "unknown"
		}
		if program.IsUnwinding(r.Property) {
			// a run reached a bound (--unwinding-assertions): nothing is
			// known of unreach-call, as the tool-info module reads it
			return "unknown", "unknown"
		}
	default:
		switch reason := strings.ToLower(r.Reason); {
		case strings.Contains(reason, "timeout") || strings.Contains(reason, "time limit"):
			return "TIMEOUT", "error"
		case strings.Contains(reason, "out of memory") || strings.Contains(reason, "memory limit"):
			return "OUT OF MEMORY", "error"
		case strings.Contains(reason, "unsupported input"):
			return "ERROR (unsupported input)", "error"
		case strings.HasPrefix(reason, "no result"):
			return "ERROR (no result)", "error"
		}
		return "unknown", "unknown"
	}
	if (r.Expected == "true") == (r.Verdict == "TRUE") {
		return status, "correct"
	}
	return status, "wrong"
}

type bxColumn struct {
	Title string `xml:"title,attr"`
	Value string `xml:"value,attr,omitempty"`
}

type bxRun struct {
	Files           string     `xml:"files,attr"`
	Name            string     `xml:"name,attr"`
	Properties      string     `xml:"properties,attr"`
	PropertyFile    string     `xml:"propertyFile,attr"`
	ExpectedVerdict string     `xml:"expectedVerdict,attr,omitempty"`
	Columns         []bxColumn `xml:"column"`
}

type bxResult struct {
	XMLName       xml.Name   `xml:"result"`
	BenchmarkName string     `xml:"benchmarkname,attr"`
	Name          string     `xml:"name,attr"`
	Date          string     `xml:"date,attr"`
	StartTime     string     `xml:"starttime,attr"`
	EndTime       string     `xml:"endtime,attr"`
	Generator     string     `xml:"generator,attr"`
	Tool          string     `xml:"tool,attr"`
	Version       string     `xml:"version,attr"`
	ToolModule    string     `xml:"toolmodule,attr"`
	Options       string     `xml:"options,attr"`
	TimeLimit     string     `xml:"timelimit,attr"`
	MemLimit      string     `xml:"memlimit,attr,omitempty"`
	CPUCores      string     `xml:"cpuCores,attr"`
	Columns       []bxColumn `xml:"columns>column"`
	SystemInfo    struct {
		Hostname string `xml:"hostname,attr"`
		OS       struct {
			Name string `xml:"name,attr"`
		} `xml:"os"`
		CPU struct {
			Cores string `xml:"cores,attr"`
			Model string `xml:"model,attr"`
		} `xml:"cpu"`
		RAM struct {
			Size string `xml:"size,attr"`
		} `xml:"ram"`
	} `xml:"systeminfo"`
	Runs []bxRun `xml:"run"`
}

// WriteBenchExecXML writes the rows of one mode as a BenchExec result XML
// (result-3.0), which BenchExec's table-generator reads beside other
// tools' results. propertyFile is the unreach-call property file the
// runs name (table-generator scores by it); paths are written as the
// rows have them (File: as in the manifest) resolved by path.
func WriteBenchExecXML(w io.Writer, rows []Row, mode string, meta Meta, propertyFile string, path func(Row) string) error {
	r := bxResult{BenchmarkName: "cegpv-bench", Name: "cegpv-bench." + mode, Date: meta.Date, StartTime: meta.Date, EndTime: meta.End,
		Generator: "cegpv bench", Tool: meta.Tool, Version: meta.Version, ToolModule: "cegpvinfo.cegpv",
		Options:   strings.TrimSpace("--mode " + mode + " " + meta.Options),
		TimeLimit: fmt.Sprintf("%g s", meta.TimeLimit), CPUCores: fmt.Sprint(meta.Cores),
		Columns: []bxColumn{{Title: "status"}, {Title: "cputime"}, {Title: "walltime"}, {Title: "memory"}}}
	if meta.MemLimit > 0 {
		r.MemLimit = fmt.Sprintf("%d B", meta.MemLimit)
	}
	r.SystemInfo.Hostname = meta.Host
	r.SystemInfo.OS.Name = meta.OS
	r.SystemInfo.CPU.Cores = fmt.Sprint(meta.Cores)
	r.SystemInfo.CPU.Model = meta.CPU
	r.SystemInfo.RAM.Size = fmt.Sprintf("%d B", meta.RAMBytes)
	for _, row := range rows {
		if row.Mode != mode {
			continue
		}
		status, category := BenchExecStatus(row)
		p := path(row)
		r.Runs = append(r.Runs, bxRun{Files: "[" + p + "]", Name: p, Properties: "unreach-call", PropertyFile: propertyFile, ExpectedVerdict: row.Expected,
			Columns: []bxColumn{{Title: "status", Value: status}, {Title: "category", Value: category},
				{Title: "cputime", Value: fmt.Sprintf("%.3fs", row.CPUSec)}, {Title: "walltime", Value: fmt.Sprintf("%.3fs", row.WallSec)},
				{Title: "memory", Value: fmt.Sprintf("%.0fB", row.RSSMB*1024*1024)}}})
	}
	if _, err := io.WriteString(w, xml.Header+`<!DOCTYPE result PUBLIC "+//IDN sosy-lab.org//DTD BenchExec result 3.0//EN" "https://www.sosy-lab.org/benchexec/result-3.0.dtd">`+"\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
