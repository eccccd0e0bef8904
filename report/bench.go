package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Row is one (task, mode) run of `cegpv bench`.
type Row struct {
	File     string  `json:"file"`
	Category string  `json:"category"`
	Expected string  `json:"expected"`
	Mode     string  `json:"mode"`
	Verdict  string  `json:"verdict"`
	Proof    bool    `json:"proof"`
	Status   string  `json:"status"` // correct, wrong, missed, unknown (Classify)
	WallSec  float64 `json:"wall_seconds"`
	// CPUSec is the user and system time of the task's process and its
	// children (the solver).
	CPUSec float64 `json:"cpu_seconds"`
	RSSMB  float64 `json:"peak_rss_mb"` // max of cegpv's and its solver's peak resident set
	Reason string  `json:"reason,omitempty"`
	// Output is the file holding the task's output, relative to the
	// directory of the results.
	Output string `json:"output,omitempty"`
	// Page is the counterexample page of a FALSE (verify --html), relative
	// to the directory of the results.
	Page string `json:"page,omitempty"`
	// plotSec is the time the plots show: CPUSec, or WallSec for runs
	// that have no CPU times.
	plotSec float64
}

// Classify scores a verdict against the expected one (design.md §5 rule
// 2): FALSE on a safe task or a proof TRUE on an unsafe task is wrong; a
// bounded TRUE on an unsafe task is missed.
func Classify(expected, verdict string, proof bool) string {
	switch {
	case verdict == "UNKNOWN" || verdict == "":
		return "unknown"
	case expected == "true" && verdict == "TRUE", expected == "false" && verdict == "FALSE":
		return "correct"
	case expected == "false" && verdict == "TRUE" && !proof:
		return "missed"
	}
	return "wrong"
}

// ScoreScheme states the SV-COMP scoring used by Score.
const ScoreScheme = "SV-COMP scoring: +2 correct TRUE, +1 correct FALSE, -32 wrong TRUE, -16 wrong FALSE, 0 UNKNOWN. A bounded TRUE counts as TRUE (so a bounded TRUE on an unsafe task scores -32), and is also counted apart as missed."

// Score is the SV-COMP score of a row (ScoreScheme).
func Score(r Row) int {
	switch {
	case r.Verdict == "TRUE" && r.Expected == "true":
		return 2
	case r.Verdict == "FALSE" && r.Expected == "false":
		return 1
	case r.Verdict == "TRUE" && r.Expected == "false":
		return -32
	case r.Verdict == "FALSE" && r.Expected == "true":
		return -16
	}
	return 0
}

// Counts are the results of a set of rows.
type Counts struct {
	Tasks    int     `json:"tasks"`
	Correct  int     `json:"correct"`
	Wrong    int     `json:"wrong"`
	Missed   int     `json:"missed"`
	Unknown  int     `json:"unknown"`
	Score    int     `json:"score"`
	TotalSec float64 `json:"total_seconds"` // wall time
	CPUSec   float64 `json:"cpu_seconds"`
	MaxRSSMB float64 `json:"max_peak_rss_mb"`
}

func (c *Counts) add(r Row) {
	c.Tasks++
	c.TotalSec += r.WallSec
	c.CPUSec += r.CPUSec
	c.Score += Score(r)
	c.MaxRSSMB = max(c.MaxRSSMB, r.RSSMB)
	switch r.Status {
	case "correct":
		c.Correct++
	case "wrong":
		c.Wrong++
	case "missed":
		c.Missed++
	default:
		c.Unknown++
	}
}

// Summary sums the rows of one mode.
type Summary struct {
	Mode string `json:"mode"`
	Counts
	// BaseSolved and BaseSec compare against the first mode (the baseline):
	// the tasks the baseline answered correctly, and this mode's total time
	// on exactly those tasks (a timeout counts as its wall time).
	BaseSolved int                `json:"baseline_solved_tasks"`
	BaseSec    float64            `json:"seconds_on_baseline_solved"`
	ByCategory map[string]*Counts `json:"by_category"`
}

// Summarize sums rows per mode, in the order of modes (the first is the
// baseline).
func Summarize(rows []Row, modes []string) []*Summary {
	var out []*Summary
	baseSolved := map[string]bool{}
	for _, r := range rows {
		if r.Mode == modes[0] && r.Status == "correct" {
			baseSolved[r.File] = true
		}
	}
	for _, m := range modes {
		s := &Summary{Mode: m, ByCategory: map[string]*Counts{}}
		for _, r := range rows {
			if r.Mode != m {
				continue
			}
			c := s.ByCategory[r.Category]
			if c == nil {
				c = &Counts{}
				s.ByCategory[r.Category] = c
			}
			s.add(r)
			c.add(r)
			if baseSolved[r.File] {
				s.BaseSolved++
				s.BaseSec += r.WallSec
			}
		}
		out = append(out, s)
	}
	return out
}

// Results are the results of one `cegpv bench` run (results.json).
type Results struct {
	Command  string     `json:"command"`
	Meta     *Meta      `json:"meta,omitempty"` // the tool, machine, date and limits (earlier runs have none)
	Manifest string     `json:"manifest"`
	Summary  []*Summary `json:"summary"`
	Tasks    []Row      `json:"tasks"`
	// Loop holds, per task (file) and cegpv mode, the loop's statistics
	// as `verify --json` reports them (its "cegpv" object: levels,
	// backend checks, every iteration, the kept set of every level).
	Loop map[string]map[string]json.RawMessage `json:"loop,omitempty"`
	// Dir is the directory the results were read from (Row.Output is
	// relative to it); not stored.
	Dir string `json:"-"`
}

// Modes returns the modes of r's rows in the order of their first row.
func (r *Results) Modes() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range r.Tasks {
		if !seen[t.Mode] {
			seen[t.Mode] = true
			out = append(out, t.Mode)
		}
	}
	return out
}

// CSVHeader is the header line of results.csv.
var CSVHeader = []string{"file", "category", "expected", "mode", "verdict", "proof", "status", "wall_seconds", "cpu_seconds", "peak_rss_mb", "reason", "output", "page"}

// CSV returns r as a line of results.csv.
func (r Row) CSV() []string {
	return []string{r.File, r.Category, r.Expected, r.Mode, r.Verdict, strconv.FormatBool(r.Proof), r.Status,
		strconv.FormatFloat(r.WallSec, 'f', 3, 64), strconv.FormatFloat(r.CPUSec, 'f', 3, 64),
		strconv.FormatFloat(r.RSSMB, 'f', 1, 64), r.Reason, r.Output, r.Page}
}

// Read reads the results of a bench run: results.json, or a results.csv
// (earlier runs wrote fewer columns: missing ones are zero). The status
// is classified anew from the verdict (the policy is Classify's).
func Read(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res := &Results{Dir: filepath.Dir(path)}
	if strings.HasSuffix(path, ".json") {
		if err := json.Unmarshal(b, res); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	} else {
		recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if len(recs) == 0 {
			return nil, fmt.Errorf("%s: empty", path)
		}
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		for _, need := range []string{"file", "expected", "mode", "verdict"} {
			if _, ok := col[need]; !ok {
				return nil, fmt.Errorf("%s: no column %q", path, need)
			}
		}
		get := func(rec []string, name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		num := func(rec []string, name string) float64 {
			f, _ := strconv.ParseFloat(get(rec, name), 64)
			return f
		}
		for _, rec := range recs[1:] {
			res.Tasks = append(res.Tasks, Row{File: get(rec, "file"), Category: get(rec, "category"), Expected: get(rec, "expected"),
				Mode: get(rec, "mode"), Verdict: get(rec, "verdict"), Proof: get(rec, "proof") == "true",
				WallSec: num(rec, "wall_seconds"), CPUSec: num(rec, "cpu_seconds"), RSSMB: num(rec, "peak_rss_mb"),
				Reason: get(rec, "reason"), Output: get(rec, "output"), Page: get(rec, "page")})
		}
	}
	for i := range res.Tasks {
		t := &res.Tasks[i]
		t.Status = Classify(t.Expected, t.Verdict, t.Proof)
	}
	return res, nil
}

// WriteSummaryText prints the per-category table of sums (the text output
// of `cegpv bench`), aligned by text/tabwriter; times are named by what
// they measure: wall(s) elapsed, cpu(s) user+system of the run and its
// children.
func WriteSummaryText(w io.Writer, sums []*Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tcategory\ttasks\tcorrect\twrong\tmissed\tunknown\tscore\twall(s)\tcpu(s)\tmaxRSS(MB)\t")
	for _, s := range sums {
		for _, c := range sortedKeys(s.ByCategory) {
			x := s.ByCategory[c]
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t\t\n", s.Mode, c, x.Tasks, x.Correct, x.Wrong, x.Missed, x.Unknown, x.Score, x.TotalSec, x.CPUSec)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%.0f\t\n", s.Mode, "ALL", s.Tasks, s.Correct, s.Wrong, s.Missed, s.Unknown, s.Score, s.TotalSec, s.CPUSec, s.MaxRSSMB)
	}
	tw.Flush()
	if len(sums) > 1 {
		base := sums[0]
		fmt.Fprintf(w, "wall time on the %d tasks %s solved:", base.BaseSolved, base.Mode)
		for _, s := range sums {
			fmt.Fprintf(w, " %s %.1fs", s.Mode, s.BaseSec)
			if s != base && s.BaseSec > 0 {
				fmt.Fprintf(w, " (%.2fx of %s)", s.BaseSec/base.BaseSec, base.Mode)
			}
		}
		fmt.Fprintln(w)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
