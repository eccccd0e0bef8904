package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"cegpv.dev/cegpv/internal/manifest"
)

func init() {
	commands = append(commands, command{"bench", "bench [flags] MANIFEST: run every task of a manifest in one or more modes, write CSV and JSON", runBench})
}

// benchRow is one (task, mode) run.
type benchRow struct {
	File     string  `json:"file"`
	Category string  `json:"category"`
	Expected string  `json:"expected"`
	Mode     string  `json:"mode"`
	Verdict  string  `json:"verdict"`
	Proof    bool    `json:"proof"`
	Status   string  `json:"status"` // correct, wrong, missed, unknown
	WallSec  float64 `json:"wall_seconds"`
	RSSMB    float64 `json:"peak_rss_mb"` // max of cegpv's and its solver's peak resident set
	Reason   string  `json:"reason,omitempty"`
}

type benchSummary struct {
	Mode     string  `json:"mode"`
	Tasks    int     `json:"tasks"`
	Correct  int     `json:"correct"`
	Wrong    int     `json:"wrong"`
	Missed   int     `json:"missed"`
	Unknown  int     `json:"unknown"`
	TotalSec float64 `json:"total_seconds"`
	// BaseSolved and BaseSec compare against the first mode (the baseline):
	// the tasks the baseline answered correctly, and this mode's total time
	// on exactly those tasks (a timeout counts as its wall time).
	BaseSolved int                `json:"baseline_solved_tasks"`
	BaseSec    float64            `json:"seconds_on_baseline_solved"`
	MaxRSSMB   float64            `json:"max_peak_rss_mb"`
	ByCategory map[string]*catSum `json:"by_category"`
}

type catSum struct {
	Tasks    int     `json:"tasks"`
	Correct  int     `json:"correct"`
	Wrong    int     `json:"wrong"`
	Missed   int     `json:"missed"`
	Unknown  int     `json:"unknown"`
	TotalSec float64 `json:"total_seconds"`
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench", stderr)
	var (
		modes    = fs.String("modes", "plain", "comma-separated modes to run side by side")
		jobs     = fs.Int("j", 2, "parallel jobs")
		timeout  = fs.Duration("timeout", 60*time.Second, "time limit per task and mode")
		unwind   = fs.Int("unwind", 5, "unwinding bound")
		category = fs.String("category", "", "only tasks of these categories (comma-separated)")
		match    = fs.String("match", "", "only tasks whose file contains this string")
		limit    = fs.Int("limit", 0, "at most this many tasks (0: all)")
		outDir   = fs.String("out", "bench-out", "directory for results.csv and results.json")
		extra    = fs.String("verify-flags", "", "extra flags passed to every cegpv verify run")
	)
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil || len(pos) != 1 {
		if err == nil {
			fmt.Fprintln(stderr, "cegpv bench: want one manifest")
		}
		return exitUsage
	}
	tasks, err := manifest.ReadManifest(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage
	}
	tasks = filterTasks(tasks, *category, *match, *limit)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage
	}
	modeList := strings.Split(*modes, ",")
	rows := make([]benchRow, len(tasks)*len(modeList))
	// Rows are also appended to results.partial.csv as they finish, so that
	// a run stopped from outside keeps what it measured.
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage
	}
	partialPath := filepath.Join(*outDir, "results.partial.csv")
	partial, err := os.Create(partialPath)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage
	}
	defer partial.Close()
	pw := csv.NewWriter(partial)
	pw.Write(csvHeader)
	pw.Flush()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(*jobs)
	var mu sync.Mutex
	done := 0
	for i, t := range tasks {
		for j, m := range modeList {
			idx := i*len(modeList) + j
			g.Go(func() error {
				r := benchOne(gctx, self, t, m, *unwind, *timeout, strings.Fields(*extra))
				rows[idx] = r
				mu.Lock()
				done++
				fmt.Fprintf(stderr, "[%d/%d] %-6s %-8s %-7s %6.2fs %s\n", done, len(rows), m, r.Verdict, r.Status, r.WallSec, t.File)
				pw.Write(r.csv())
				pw.Flush()
				mu.Unlock()
				return gctx.Err()
			})
		}
	}
	if err := g.Wait(); err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUnknown
	}
	sums := summarize(rows, modeList)
	if err := writeBench(*outDir, rows, sums, pos[0], args); err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage
	}
	partial.Close()
	os.Remove(partialPath)
	writeSummaryText(stdout, sums)
	fmt.Fprintf(stdout, "results: %s, %s\n", filepath.Join(*outDir, "results.csv"), filepath.Join(*outDir, "results.json"))
	for _, s := range sums {
		if s.Wrong > 0 {
			return exitUnsafe // a wrong verdict fails the run
		}
	}
	return 0
}

func filterTasks(tasks []manifest.Task, category, match string, limit int) []manifest.Task {
	var out []manifest.Task
	cats := map[string]bool{}
	for _, c := range strings.Split(category, ",") {
		if c != "" {
			cats[c] = true
		}
	}
	for _, t := range tasks {
		if len(cats) > 0 && !cats[t.Category] {
			continue
		}
		if match != "" && !strings.Contains(t.File, match) {
			continue
		}
		out = append(out, t)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out
}

// benchOne runs `cegpv verify --json` on one task in its own process group
// and classifies the verdict.
func benchOne(ctx context.Context, self string, t manifest.Task, mode string, unwind int, timeout time.Duration, extra []string) benchRow {
	r := benchRow{File: t.File, Category: t.Category, Expected: t.Expected, Mode: mode, Verdict: "UNKNOWN"}
	args := append([]string{"verify", "--json", "--mode", mode, "--unwind", strconv.Itoa(unwind), "--timeout", timeout.String()}, extra...)
	args = append(args, t.Path)
	cctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(cctx, self, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	runErr := cmd.Run()
	r.WallSec = time.Since(start).Seconds()
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.RSSMB = float64(ru.Maxrss) / 1024
		}
	}
	var o struct {
		Verdict string  `json:"verdict"`
		Proof   bool    `json:"proof"`
		Reason  string  `json:"reason"`
		RSSKB   float64 `json:"children_peak_rss_kb"`
	}
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		r.Reason = fmt.Sprintf("no result (%v): %s", runErr, lastLine(errb.String()))
		if cctx.Err() != nil {
			r.Reason = "timeout"
		}
	} else {
		r.Verdict, r.Proof, r.Reason = o.Verdict, o.Proof, o.Reason
		if o.RSSKB/1024 > r.RSSMB {
			r.RSSMB = o.RSSKB / 1024
		}
	}
	r.Status = classify(t.Expected, r.Verdict, r.Proof)
	return r
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// classify scores a verdict against the expected one (design.md §5 rule 2):
// FALSE on a safe task or a proof TRUE on an unsafe task is wrong; a bounded
// TRUE on an unsafe task is missed.
func classify(expected, verdict string, proof bool) string {
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

func summarize(rows []benchRow, modes []string) []*benchSummary {
	var out []*benchSummary
	baseSolved := map[string]bool{}
	for _, r := range rows {
		if r.Mode == modes[0] && r.Status == "correct" {
			baseSolved[r.File] = true
		}
	}
	for _, m := range modes {
		s := &benchSummary{Mode: m, ByCategory: map[string]*catSum{}}
		for _, r := range rows {
			if r.Mode != m {
				continue
			}
			c := s.ByCategory[r.Category]
			if c == nil {
				c = &catSum{}
				s.ByCategory[r.Category] = c
			}
			s.Tasks++
			c.Tasks++
			s.TotalSec += r.WallSec
			c.TotalSec += r.WallSec
			if baseSolved[r.File] {
				s.BaseSolved++
				s.BaseSec += r.WallSec
			}
			if r.RSSMB > s.MaxRSSMB {
				s.MaxRSSMB = r.RSSMB
			}
			switch r.Status {
			case "correct":
				s.Correct++
				c.Correct++
			case "wrong":
				s.Wrong++
				c.Wrong++
			case "missed":
				s.Missed++
				c.Missed++
			default:
				s.Unknown++
				c.Unknown++
			}
		}
		out = append(out, s)
	}
	return out
}

func writeBench(dir string, rows []benchRow, sums []*benchSummary, manifest string, args []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(csvHeader)
	for _, r := range rows {
		w.Write(r.csv())
	}
	w.Flush()
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	j, err := json.MarshalIndent(map[string]any{
		"command":  "cegpv bench " + strings.Join(args, " "),
		"manifest": manifest,
		"summary":  sums,
		"tasks":    rows,
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.json"), j, 0o644)
}

var csvHeader = []string{"file", "category", "expected", "mode", "verdict", "proof", "status", "wall_seconds", "peak_rss_mb", "reason"}

func (r benchRow) csv() []string {
	return []string{r.File, r.Category, r.Expected, r.Mode, r.Verdict, strconv.FormatBool(r.Proof), r.Status,
		strconv.FormatFloat(r.WallSec, 'f', 3, 64), strconv.FormatFloat(r.RSSMB, 'f', 1, 64), r.Reason}
}

func writeSummaryText(w io.Writer, sums []*benchSummary) {
	fmt.Fprintf(w, "%-8s %-14s %6s %8s %6s %7s %8s %10s %9s\n", "mode", "category", "tasks", "correct", "wrong", "missed", "unknown", "time(s)", "maxRSS(MB)")
	for _, s := range sums {
		var cats []string
		for c := range s.ByCategory {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		for _, c := range cats {
			x := s.ByCategory[c]
			fmt.Fprintf(w, "%-8s %-14s %6d %8d %6d %7d %8d %10.1f\n", s.Mode, c, x.Tasks, x.Correct, x.Wrong, x.Missed, x.Unknown, x.TotalSec)
		}
		fmt.Fprintf(w, "%-8s %-14s %6d %8d %6d %7d %8d %10.1f %9.0f\n", s.Mode, "ALL", s.Tasks, s.Correct, s.Wrong, s.Missed, s.Unknown, s.TotalSec, s.MaxRSSMB)
	}
	if len(sums) > 1 {
		base := sums[0]
		fmt.Fprintf(w, "on the %d tasks %s solved:", base.BaseSolved, base.Mode)
		for _, s := range sums {
			fmt.Fprintf(w, " %s %.1fs", s.Mode, s.BaseSec)
			if s != base && s.BaseSec > 0 {
				fmt.Fprintf(w, " (%.2fx of %s)", s.BaseSec/base.BaseSec, base.Mode)
			}
		}
		fmt.Fprintln(w)
	}
}
