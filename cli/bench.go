package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/internal/manifest"
	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/svcomp"
)

// benchFlags are the flags of cegpv bench.
type benchFlags struct {
	modes, heuristics string
	jobs              int
	timeout           time.Duration
	memlimit          int // MB, 0: none
	unwind            int
	category, match   string
	limit             int
	outDir            string
	extra             string
	loopOnly          bool
	dump              bool
}

func newBenchCmd(c *cli) *cobra.Command {
	var bf benchFlags
	cmd := command("bench [flags] MANIFEST|TASK.yml|DIR...", "bench",
		"run a task set in one or more modes; write CSV, JSON, BenchExec's XML and an HTML report",
		`Runs 'cegpv verify' on every task of a manifest (TSV: file, category,
expected verdict) or of SV-COMP task definitions (.yml files, or directories
searched for them), once per mode, each in its own process with the time
limit, and writes results.csv, results.json, report.html and each run's
output (out/) into --out (docs/benchmarking.md).`)
	fs := cmd.Flags()
	fs.StringVar(&bf.modes, "modes", "plain", "comma-separated modes to run side by side: MODE[@BACKEND][/HEURISTIC], e.g. plain,cegpv,cegpv/cone")
	fs.StringVar(&bf.heuristics, "heuristics", "", "comma-separated heuristics: each cegpv mode runs once per heuristic (--modes defaults to cegpv then)")
	fs.IntVarP(&bf.jobs, "jobs", "j", 2, "parallel runs")
	secondsVar(fs, &bf.timeout, "timeout", 60*time.Second, "time limit per task and mode, in seconds (60) or a duration (60s)")
	fs.IntVar(&bf.memlimit, "memlimit", 0, "memory limit per task and mode in MB, the run and its solvers and checkers together (summed resident sets); past it the run is killed: OUT OF MEMORY (0: none)")
	fs.IntVar(&bf.unwind, "unwind", 5, "unwinding bound")
	fs.StringVar(&bf.category, "category", "", "only tasks of these categories (comma-separated)")
	fs.StringVar(&bf.match, "match", "", "only tasks whose file contains this string")
	fs.IntVar(&bf.limit, "limit", 0, "at most this many tasks (0: all)")
	fs.StringVar(&bf.outDir, "out", "bench-out", "directory for results.csv, results.json, report.html and each task's output (out/)")
	fs.StringVar(&bf.extra, "verify-flags", "", "extra flags passed to every cegpv verify run")
	fs.BoolVar(&bf.loopOnly, "loop-only", false, "every run is the CEGPV loop alone (verify --loop-only: no probe, no explicit search, no search beyond the bounds; --modes defaults to cegpv then and every mode must be cegpv): how the algorithm itself and its heuristics are measured (docs/benchmarking.md)")
	grouped(fs, groupBench, "modes", "heuristics", "loop-only", "jobs", "verify-flags")
	grouped(fs, groupBounds, "timeout", "memlimit", "unwind")
	grouped(fs, groupInput, "category", "match", "limit")
	fs.BoolVar(&bf.dump, "dump", false, "every run dumps its programs, backend logs, kept sets and labels with their source lines (verify --dump) into a directory of its own, dump/TASK.MODE in --out (never overwritten: a new numbered directory when it exists)")
	grouped(fs, groupOutput, "out", "dump")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		code, err := runBench(c, cmd, &bf, args)
		c.code = code
		return err
	}
	return cmd
}

func runBench(c *cli, cmd *cobra.Command, bf *benchFlags, pos []string) (int, error) {
	ctx, stdout, stderr := c.ctx, c.stdout, c.stderr
	if len(pos) == 0 {
		return exitUsage, usagef("want a manifest, or task definitions (.yml files or directories of them)")
	}
	modes, heuristics, jobs, timeout, unwind := &bf.modes, &bf.heuristics, &bf.jobs, &bf.timeout, &bf.unwind
	category, match, limit, outDir, extra := &bf.category, &bf.match, &bf.limit, &bf.outDir, &bf.extra
	if (*heuristics != "" || bf.loopOnly) && !cmd.Flags().Changed("modes") {
		*modes = cegpv.ModeCEGPV
	}
	modeList, err := benchModes(*modes, *heuristics)
	if err != nil {
		return exitUsage, usageError{err}
	}
	extraFlags := strings.Fields(*extra)
	if bf.loopOnly {
		for _, m := range modeList {
			if base, _, _, _ := splitMode(m); base != cegpv.ModeCEGPV {
				return exitUsage, usagef("--loop-only with mode %q: every mode must be cegpv", m)
			}
		}
		extraFlags = append(extraFlags, "--loop-only")
	}
	tasks, err := benchTasks(pos)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage, nil
	}
	tasks = filterTasks(tasks, *category, *match, *limit)
	if err := checkTaskFiles(tasks); err != nil {
		return exitUsage, usageError{err}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage, nil
	}
	rows := make([]report.Row, len(tasks)*len(modeList))
	loops := make([]json.RawMessage, len(rows))
	// Rows are also appended to results.partial.csv as they finish, so that
	// a run stopped from outside keeps what it measured.
	if err := os.MkdirAll(filepath.Join(*outDir, "out"), 0o755); err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage, nil
	}
	partialPath := filepath.Join(*outDir, "results.partial.csv")
	partial, err := os.Create(partialPath)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage, nil
	}
	defer partial.Close()
	pw := csv.NewWriter(partial)
	pw.Write(report.CSVHeader)
	pw.Flush()
	meta := benchMeta(bf, time.Now())
	paths := map[string]string{}
	for _, t := range tasks {
		paths[t.File] = t.Path
	}
	prog := report.NewBenchProgress(report.NewProgress(stderr, isTerminal(stderr)), len(rows))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(*jobs)
	var mu sync.Mutex
	for i, t := range tasks {
		for j, m := range modeList {
			idx := i*len(modeList) + j
			g.Go(func() error {
				r, loop := benchOne(gctx, self, t, m, *unwind, *timeout, bf.memlimit, extraFlags, *outDir, bf.dump)
				rows[idx], loops[idx] = r, loop
				prog.Finish(r, fmt.Sprintf("%-8s %-20s %-15s %6.2fs %s", m, r.Result, r.Status, r.CPUSec, t.File))
				mu.Lock()
				pw.Write(r.CSV())
				pw.Flush()
				mu.Unlock()
				return gctx.Err()
			})
		}
	}
	err = g.Wait()
	prog.Done()
	if err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUnknown, nil
	}
	meta.End = time.Now().Format(time.RFC3339)
	res := &report.Results{Command: "cegpv " + strings.Join(c.args, " "), Meta: &meta, Manifest: pos[0], Tasks: rows, Dir: *outDir,
		Summary: report.Summarize(rows, modeList)}
	for i, l := range loops {
		if l != nil {
			if res.Loop == nil {
				res.Loop = map[string]map[string]json.RawMessage{}
			}
			if res.Loop[rows[i].File] == nil {
				res.Loop[rows[i].File] = map[string]json.RawMessage{}
			}
			res.Loop[rows[i].File][rows[i].Mode] = l
		}
	}
	if err := writeBench(res, modeList, paths); err != nil {
		fmt.Fprintf(stderr, "cegpv bench: %v\n", err)
		return exitUsage, nil
	}
	partial.Close()
	os.Remove(partialPath)
	report.WriteSummaryText(stdout, res.Summary)
	fmt.Fprintf(stdout, "results: %s, %s, %s; BenchExec's XML: %s\n", filepath.Join(*outDir, "results.csv"), filepath.Join(*outDir, "results.json"),
		filepath.Join(*outDir, "report.html"), filepath.Join(*outDir, "results.MODE.xml"))
	for _, s := range res.Summary {
		if s.Wrong() > 0 {
			return exitUnsafe, nil // a wrong verdict fails the run
		}
	}
	return 0, nil
}

// benchModes expands --modes and --heuristics into the list of modes:
// MODE[@BACKEND][/HEURISTIC], every cegpv mode without a heuristic once
// per heuristic of --heuristics.
func benchModes(modes, heuristics string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(m string) error {
		if _, _, _, err := splitMode(m); err != nil {
			return err
		}
		if seen[m] {
			return fmt.Errorf("mode %s given twice", m)
		}
		seen[m] = true
		out = append(out, m)
		return nil
	}
	for _, m := range strings.Split(modes, ",") {
		base, _, h, err := splitMode(m)
		if err != nil {
			return nil, err
		}
		if base != cegpv.ModeCEGPV || h != "" || heuristics == "" {
			if err := add(m); err != nil {
				return nil, err
			}
			continue
		}
		for _, h := range strings.Split(heuristics, ",") {
			if err := add(m + "/" + h); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// splitMode splits MODE[@BACKEND][/HEURISTIC].
func splitMode(m string) (mode, be, heuristic string, err error) {
	mode, heuristic, _ = strings.Cut(m, "/")
	mode, be, _ = strings.Cut(mode, "@")
	if !slices.Contains(cegpv.Modes, mode) {
		return "", "", "", fmt.Errorf("mode %q: unknown mode %q (%s)", m, mode, strings.Join(cegpv.Modes, ", "))
	}
	if be != "" {
		if _, ok := backends[be]; !ok {
			return "", "", "", fmt.Errorf("mode %q: unknown backend %q", m, be)
		}
	}
	if heuristic != "" {
		if mode != cegpv.ModeCEGPV {
			return "", "", "", fmt.Errorf("mode %q: a heuristic is for cegpv mode only", m)
		}
		if _, err := depgraph.Lookup(heuristic); err != nil {
			return "", "", "", fmt.Errorf("mode %q: %v", m, err)
		}
	}
	return mode, be, heuristic, nil
}

// unreachCallPRP is SV-COMP's unreach-call property file, written beside
// the result XML files, which name it (table-generator scores by it).
const unreachCallPRP = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"

// benchXMLName is the BenchExec result XML file of a mode.
func benchXMLName(mode string) string {
	return "results." + strings.NewReplacer("/", "_", "@", "_").Replace(mode) + ".xml"
}

func writeBench(res *report.Results, modes []string, paths map[string]string) error {
	prp := filepath.Join(res.Dir, "unreach-call.prp")
	if err := os.WriteFile(prp, []byte(unreachCallPRP), 0o644); err != nil {
		return err
	}
	absPrp, _ := filepath.Abs(prp)
	for _, m := range modes {
		var buf bytes.Buffer
		if err := report.WriteBenchExecXML(&buf, res.Tasks, m, *res.Meta, absPrp, func(r report.Row) string { return paths[r.File] }); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(res.Dir, benchXMLName(m)), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(report.CSVHeader)
	for _, r := range res.Tasks {
		w.Write(r.CSV())
	}
	w.Flush()
	if err := os.WriteFile(filepath.Join(res.Dir, "results.csv"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	j, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(res.Dir, "results.json"), j, 0o644); err != nil {
		return err
	}
	buf.Reset()
	if err := report.WriteBench(&buf, []*report.Results{res}, res.Dir); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(res.Dir, "report.html"), buf.Bytes(), 0o644)
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
// and classifies the verdict. The task's output (the command, its standard
// output and its log) is stored in outDir/out/; a FALSE's counterexample
// page (verify --html) beside it. CPU time and peak memory are those of
// the task's process and its children (wait4's rusage covers the children
// it waited for: the solver); the verdict's JSON also reports the
// solver's peak. loop is the CEGPV loop's statistics of the JSON (nil in
// plain mode).
func benchOne(ctx context.Context, self string, t manifest.Task, mode string, unwind int, timeout time.Duration, memMB int, extra []string, outDir string, dump bool) (r report.Row, loop json.RawMessage) {
	r = report.Row{File: t.File, Category: t.Category, Expected: t.Expected, Mode: mode, Verdict: "UNKNOWN"}
	base, be, h, _ := splitMode(mode)
	name := strings.NewReplacer("/", "_", "@", "_").Replace(t.File + "." + mode)
	r.Output = filepath.Join("out", name+".log")
	page := filepath.Join("out", name+".html")
	args := []string{"verify", "--json", "--mode", base, "--data-model", string(t.DataModel), "--unwind", strconv.Itoa(unwind), "--timeout", timeout.String(), "--html", filepath.Join(outDir, page)}
	if be != "" {
		args = append(args, "--backend", be)
	}
	if h != "" {
		args = append(args, "--heuristic", h)
	}
	if dump {
		args = append(args, "--dump", filepath.Join(outDir, "dump", name))
	}
	if memMB > 0 {
		args = append(args, "--memlimit", strconv.Itoa(memMB))
	}
	args = append(append(args, extra...), t.Path)
	cctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second)
	defer cancel()
	cmd := proc.Command(cctx, self, args...)
	proc.TermFirst(cmd, 5*time.Second) // an interrupted run cleans up after itself
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	runErr := cmd.Start()
	var watch *proc.MemoryWatch
	if runErr == nil && memMB > 0 {
		// the run watches itself (verify --memlimit); this kills it
		// from outside if it cannot (a runaway run, as BenchExec's
		// cgroup would)
		watch = proc.WatchMemory(cmd.Process.Pid, int64(memMB)<<20, false, func(int64) {})
	}
	if runErr == nil {
		runErr = cmd.Wait()
	}
	if watch != nil {
		watch.Stop()
	}
	r.WallSec = time.Since(start).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		r.CPUSec = (ps.UserTime() + ps.SystemTime()).Seconds()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.RSSMB = float64(ru.Maxrss) / 1024
		}
	}
	var o struct {
		Verdict  string          `json:"verdict"`
		Property string          `json:"property"`
		Proof    bool            `json:"proof"`
		Reason   string          `json:"reason"`
		RSSKB    float64         `json:"children_peak_rss_kb"`
		CEGPV    json.RawMessage `json:"cegpv"`
		By       string          `json:"decided_by"`
	}
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		r.Reason = fmt.Sprintf("no result (%v): %s", runErr, lastLine(errb.String()))
		if cctx.Err() != nil {
			r.Reason = "timeout"
		}
		if watch != nil && watch.Exceeded() {
			r.Reason = "out of memory: " + watch.Reason()
		}
	} else {
		r.Verdict, r.Proof, r.Reason = o.Verdict, o.Proof, o.Reason
		if o.Verdict == "FALSE" {
			r.Property = o.Property
		}
		if o.RSSKB/1024 > r.RSSMB {
			r.RSSMB = o.RSSKB / 1024
		}
		if len(o.CEGPV) > 0 && string(o.CEGPV) != "null" {
			loop = o.CEGPV
		}
		r.DecidedBy = o.By
		if err := r.FillLoop(o.CEGPV); err != nil {
			r.Reason = fmt.Sprintf("%s (loop statistics: %v)", r.Reason, err)
		}
	}
	report.Classify(&r)
	if r.Verdict == "FALSE" {
		r.Page = page
	} else {
		os.Remove(filepath.Join(outDir, page))
	}
	var log bytes.Buffer
	fmt.Fprintf(&log, "$ cegpv %s\n# exit: %v; wall %.3f s, cpu %.3f s, peak %.1f MB\n\n# standard output\n", strings.Join(args, " "), runErr, r.WallSec, r.CPUSec, r.RSSMB)
	log.Write(out.Bytes())
	log.WriteString("\n# standard error\n")
	log.Write(errb.Bytes())
	if err := os.WriteFile(filepath.Join(outDir, r.Output), log.Bytes(), 0o644); err != nil {
		r.Output = ""
	}
	return r, loop
}

// checkTaskFiles says which task files are missing, before any run: a
// bench that runs them would only count them UNKNOWN.
func checkTaskFiles(tasks []manifest.Task) error {
	var missing []string
	for _, t := range tasks {
		if st, err := os.Stat(t.Path); err != nil || st.IsDir() {
			missing = append(missing, t.Path)
		}
	}
	switch {
	case len(missing) == 0:
		return nil
	case len(missing) > 5:
		return fmt.Errorf("%d task files missing: %s, ...", len(missing), strings.Join(missing[:5], ", "))
	}
	return fmt.Errorf("task file%s missing: %s", map[bool]string{true: "", false: "s"}[len(missing) == 1], strings.Join(missing, ", "))
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// isTerminal says whether w is a terminal (the progress line is then
// redrawn in place).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// benchTasks reads the tasks of bench's arguments: one manifest (TSV), or
// SV-COMP task definitions (format 2.0) given as .yml files or directories
// searched for them, each with the expected verdict of its unreach-call
// property (a task without one is an error naming it) and its directory's
// name as category.
func benchTasks(args []string) ([]manifest.Task, error) {
	if len(args) == 1 && !svcomp.IsTaskFile(args[0]) {
		if fi, err := os.Stat(args[0]); err != nil || !fi.IsDir() {
			return manifest.ReadManifest(args[0])
		}
	}
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && svcomp.IsTaskFile(path) {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	var tasks []manifest.Task
	for _, f := range files {
		t, err := svcomp.ReadTask(f)
		if err != nil {
			return nil, err
		}
		expected := ""
		if tp := t.Checked(); tp != nil {
			expected = tp.Expected
		}
		if expected == "" {
			return nil, fmt.Errorf("%s: no unreach-call property with an expected verdict", f)
		}
		abs, _ := filepath.Abs(f)
		tasks = append(tasks, manifest.Task{File: f, Path: abs, Category: filepath.Base(filepath.Dir(abs)), Expected: expected, DataModel: t.DataModel})
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("no task definitions (.yml) in %s", strings.Join(args, " "))
	}
	return tasks, nil
}
