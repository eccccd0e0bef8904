package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
)

// WriteBench writes the HTML report of one or more bench runs: per
// category and mode the correct, wrong, missed and unknown answers, the
// SV-COMP score, CPU and wall time and peak memory; a scatter plot of the
// first mode against each other one (CPU time per task, log axes); a
// quantile plot (the CPU time of each mode's correct answers, sorted);
// and a per-task table, sortable by clicking a column head (a few lines of
// inline JavaScript; without it the table is in file order), linking to
// each task's output. When two runs have a mode of the same name, the
// modes are named run:mode, run being the name of the run's directory.
// Links are written relative to pageDir.
func WriteBench(w io.Writer, runs []*Results, pageDir string) error {
	rows, modes, cmds, noCPU := merge(runs, pageDir)
	sums := Summarize(rows, modes)
	unit := "CPU s"
	if len(noCPU) > 0 {
		unit = "s (CPU; wall where no CPU times)"
	}
	v := benchView{
		Head: newHead("cegpv bench", benchCSS), Cmds: cmds, Scheme: ScoreScheme, NoCPU: noCPU,
		Quantile: quantilePlot(rows, modes, unit),
		JS:       template.JS("//<![CDATA[\n" + strings.ReplaceAll(sortJS, "]]>", "]] >") + "//]]>"),
	}
	v.Summary, v.Speed = summaryView(sums)
	if len(modes) > 1 {
		for _, m := range modes[1:] {
			v.Scatters = append(v.Scatters, scatterPlot(rows, modes[0], m, unit))
		}
	}
	v.Loop = newLoopSection(rows, modes, sums, unit)
	v.Modes, v.Tasks = taskView(rows, modes)
	return benchPage.Execute(w, v)
}

// benchView is what the bench report's template shows.
type benchView struct {
	Head     head
	Cmds     []string
	Scheme   string
	NoCPU    []string
	Summary  []summaryRow
	Speed    *speedView
	Scatters []*plot
	Quantile *plot
	Loop     *loopSection
	Modes    []string
	Tasks    []taskRow
	// JS is the inline script in a CDATA section, which keeps the page
	// well-formed XML whatever the script holds; the page works without it.
	JS template.JS
}

type summaryRow struct {
	Mode, Cat string
	All       bool
	*Counts
}

// speedView compares the CPU time of each mode on the tasks the first
// mode solved.
type speedView struct {
	Solved int
	Mode   string
	Modes  []speedMode
}

type speedMode struct {
	Mode  string
	Sec   float64
	Ratio float64 // 0: none shown
}

func summaryView(sums []*Summary) ([]summaryRow, *speedView) {
	var rows []summaryRow
	for _, s := range sums {
		for _, cat := range sortedKeys(s.ByCategory) {
			rows = append(rows, summaryRow{Mode: s.Mode, Cat: cat, Counts: s.ByCategory[cat]})
		}
		rows = append(rows, summaryRow{Mode: s.Mode, Cat: "all", All: true, Counts: &s.Counts})
	}
	if len(sums) <= 1 {
		return rows, nil
	}
	base := sums[0]
	sp := &speedView{Solved: base.BaseSolved, Mode: base.Mode}
	for _, s := range sums {
		m := speedMode{Mode: s.Mode, Sec: s.BaseSec}
		if s != base && base.BaseSec > 0 {
			m.Ratio = s.BaseSec / base.BaseSec
		}
		sp.Modes = append(sp.Modes, m)
	}
	return rows, sp
}

// plot is an SVG plot: its size, title, grid lines with their tick
// labels, frame, points, polylines with their legend, and axis labels.
type plot struct {
	W, H   float64
	Title  string
	Grid   []tick
	Ticks  []tick // labels without a grid line
	Frame  [4]float64
	Diag   *[4]float64
	Points []point
	Lines  []series
	XLabel label
	YLabel label
}

type tick struct {
	X1, Y1, X2, Y2 float64
	TX, TY         float64
	Anchor, Label  string
}

type point struct {
	Class, File, A, B string
	CX, CY, X, Y      float64
	// Color, when set, fills the point (a mode's colour); Tip, when
	// set, is its title instead of the times of File in A and B.
	Color, Tip string
}

type series struct {
	Color, Points, Name string
	N                   int
	LX1, LX2, LY, TX    float64
}

type label struct {
	X, Y float64
	Text string
}

// merge flattens runs into rows with unique mode names, links relative to
// pageDir; noCPU names the runs without CPU times, whose rows get their
// wall time as plotted time (plotSec).
func merge(runs []*Results, pageDir string) (rows []Row, modes, cmds, noCPU []string) {
	count := map[string]int{}
	for _, r := range runs {
		for _, m := range r.Modes() {
			count[m]++
		}
	}
	for i, r := range runs {
		name := filepath.Base(r.Dir)
		if name == "." || name == "/" || name == "" {
			name = fmt.Sprintf("run%d", i+1)
		}
		label := func(m string) string {
			if count[m] > 1 {
				return name + ":" + m
			}
			return m
		}
		for _, m := range r.Modes() {
			modes = append(modes, label(m))
		}
		if r.Command != "" {
			cmds = append(cmds, r.Command)
		}
		cpu := false
		for _, t := range r.Tasks {
			cpu = cpu || t.CPUSec > 0
		}
		if !cpu && len(r.Tasks) > 0 {
			noCPU = append(noCPU, name)
		}
		for _, t := range r.Tasks {
			t.Mode = label(t.Mode)
			t.plotSec = t.CPUSec
			if !cpu {
				t.plotSec = t.WallSec
			}
			t.Output, t.Page = relLink(pageDir, r.Dir, t.Output), relLink(pageDir, r.Dir, t.Page)
			rows = append(rows, t)
		}
	}
	return rows, modes, cmds, noCPU
}

// relLink turns link, relative to dir, into a link relative to pageDir.
func relLink(pageDir, dir, link string) string {
	if link == "" {
		return ""
	}
	if rel, err := filepath.Rel(pageDir, filepath.Join(dir, link)); err == nil {
		return filepath.ToSlash(rel)
	}
	return link
}

// logAxis maps seconds to [0, size] on a log scale from lo to hi (powers
// of ten).
type logAxis struct{ lo, hi, size float64 }

func newLogAxis(vals []float64, size float64) logAxis {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		v = max(v, 0.01)
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi == 0 {
		lo, hi = 0.01, 1
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	return logAxis{lo, hi, size}
}

func (a logAxis) pos(v float64) float64 {
	v = max(v, a.lo)
	return a.size * (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
}

// ticks returns the powers of ten of the axis.
func (a logAxis) ticks() []float64 {
	var out []float64
	for v := a.lo; v <= a.hi*1.0001; v *= 10 {
		out = append(out, v)
	}
	return out
}

func tickLabel(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%.0f", v)
	}
	return strings.TrimRight(fmt.Sprintf("%.3f", v), "0")
}

const (
	plotSize = 320.0
	margin   = 50.0
)

// modeColors: one colour per mode, up to 12 (two backends by six heuristics) before they repeat
var modeColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#843c39"}

func scatterPlot(rows []Row, a, b, unit string) *plot {
	type pair struct {
		x, y   float64
		ca, cb bool
		file   string
	}
	byFile := map[string]*pair{}
	var files []string
	for _, r := range rows {
		if r.Mode != a && r.Mode != b {
			continue
		}
		q := byFile[r.File]
		if q == nil {
			q = &pair{x: -1, y: -1, file: r.File}
			byFile[r.File] = q
			files = append(files, r.File)
		}
		if r.Mode == a {
			q.x, q.ca = r.plotSec, r.Status == "correct"
		} else {
			q.y, q.cb = r.plotSec, r.Status == "correct"
		}
	}
	sort.Strings(files)
	var vals []float64
	var pts []*pair
	for _, f := range files {
		if q := byFile[f]; q.x >= 0 && q.y >= 0 {
			pts = append(pts, q)
			vals = append(vals, q.x, q.y)
		}
	}
	ax := newLogAxis(vals, plotSize)
	size := plotSize + margin + 20
	ox, oy := margin, plotSize+10
	pl := &plot{W: size, H: size, Title: b + " against " + a + ", CPU seconds per task",
		Frame:  [4]float64{ox, oy - plotSize, plotSize, plotSize},
		Diag:   &[4]float64{ox, oy, ox + plotSize, oy - plotSize},
		XLabel: label{ox + plotSize/2, oy + 34, a + ", " + unit},
		YLabel: label{oy - plotSize/2, oy - plotSize/2, b + ", " + unit},
	}
	for _, t := range ax.ticks() {
		d := ax.pos(t)
		pl.Grid = append(pl.Grid,
			tick{ox + d, oy, ox + d, oy - plotSize, ox + d, oy + 14, "middle", tickLabel(t)},
			tick{ox, oy - d, ox + plotSize, oy - d, ox - 4, oy - d + 4, "end", tickLabel(t)})
	}
	for _, q := range pts {
		cls := "none"
		switch {
		case q.ca && q.cb:
			cls = "both"
		case q.ca || q.cb:
			cls = "one"
		}
		pl.Points = append(pl.Points, point{Class: cls, File: q.file, A: a, B: b, CX: ox + ax.pos(q.x), CY: oy - ax.pos(q.y), X: q.x, Y: q.y})
	}
	return pl
}

func quantilePlot(rows []Row, modes []string, unit string) *plot {
	times := map[string][]float64{}
	var all []float64
	most := 1
	for _, r := range rows {
		if r.Status == "correct" {
			times[r.Mode] = append(times[r.Mode], r.plotSec)
			all = append(all, r.plotSec)
			most = max(most, len(times[r.Mode]))
		}
	}
	ay := newLogAxis(all, plotSize)
	width := plotSize * 1.6
	legend := 0
	for _, m := range modes {
		legend = max(legend, len(m)+6)
	}
	ox, oy := margin, plotSize+10
	pl := &plot{W: width + margin + 40 + 6.5*float64(legend), H: plotSize + margin + 20,
		Title:  "quantile plot: CPU seconds of the correct answers, sorted",
		Frame:  [4]float64{ox, oy - plotSize, width, plotSize},
		XLabel: label{ox + width/2, oy + 34, "correct answers"},
		YLabel: label{oy - plotSize/2, oy - plotSize/2, unit},
	}
	for _, t := range ay.ticks() {
		d := ay.pos(t)
		pl.Grid = append(pl.Grid, tick{ox, oy - d, ox + width, oy - d, ox - 4, oy - d + 4, "end", tickLabel(t)})
	}
	step := niceStep(most)
	for n := 0; n <= most; n += step {
		x := ox + width*float64(n)/float64(most)
		pl.Ticks = append(pl.Ticks, tick{TX: x, TY: oy + 14, Anchor: "middle", Label: fmt.Sprint(n)})
	}
	pl.Lines = cactusLines(modes, times, ox, oy, width, most, ay.pos)
	return pl
}

// cactusLines draws one line per mode of a cactus (quantile) plot: the
// mode's values sorted, the k-th at x = k of most, at height pos(value).
func cactusLines(modes []string, vals map[string][]float64, ox, oy, width float64, most int, pos func(float64) float64) []series {
	var out []series
	for i, m := range modes {
		ts := vals[m]
		sort.Float64s(ts)
		var pts []string
		for k, t := range ts {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", ox+width*float64(k+1)/float64(most), oy-pos(t)))
		}
		out = append(out, series{Color: modeColors[i%len(modeColors)], Points: strings.Join(pts, " "), Name: m, N: len(ts),
			LX1: ox + width + 10, LX2: ox + width + 30, LY: oy - plotSize + 16 + 18*float64(i), TX: ox + width + 34})
	}
	return out
}

// niceStep is a tick distance of 1, 2 or 5 times a power of ten giving at
// most ten ticks up to n.
func niceStep(n int) int {
	for s := 1; ; s *= 10 {
		for _, k := range []int{1, 2, 5} {
			if n/(s*k) <= 10 {
				return s * k
			}
		}
	}
}

// taskRow is a row of the per-task table: the task and, per mode, its
// result (nil where the mode did not run it).
type taskRow struct {
	File, Cat, Exp string
	Results        []*taskResult
}

type taskResult struct {
	Row
	Class, Shown string // statusClass; the verdict as shown
}

func taskView(rows []Row, modes []string) ([]string, []taskRow) {
	byFile := map[string]*taskRow{}
	by := map[string]map[string]Row{}
	var files []string
	for _, r := range rows {
		t := byFile[r.File]
		if t == nil {
			t = &taskRow{File: r.File, Cat: r.Category, Exp: r.Expected}
			byFile[r.File] = t
			by[r.File] = map[string]Row{}
			files = append(files, r.File)
		}
		by[r.File][r.Mode] = r
	}
	sort.Strings(files)
	var out []taskRow
	for _, f := range files {
		t := byFile[f]
		for _, m := range modes {
			r, ok := by[f][m]
			if !ok {
				t.Results = append(t.Results, nil)
				continue
			}
			shown := r.Verdict
			switch {
			case r.Verdict == "TRUE" && r.Proof:
				shown = "TRUE (proof)"
			case r.Status == "error":
				shown = r.Result // TIMEOUT, OUT OF MEMORY, ERROR (...)
			}
			t.Results = append(t.Results, &taskResult{Row: r, Class: statusClass(r), Shown: shown})
		}
		out = append(out, *t)
	}
	return modes, out
}

// statusClass is the style of a row's result: correct, wrong (incorrect
// true or false), missed (a bounded incorrect true), unknown, error.
func statusClass(r Row) string {
	switch {
	case r.Missed:
		return "missed"
	case strings.HasPrefix(r.Status, "incorrect"):
		return "wrong"
	}
	return r.Status
}

const benchCSS = `.correct { color: #070; } .wrong { color: #fff; background: #b00; } .missed { color: #a60; } .unknown { color: #777; } .error { color: #a0a; }
td.correct a, td.wrong a, td.missed a, td.unknown a, td.error a { color: inherit; } /* a link in a status cell keeps the status colour */
tr.all td { font-weight: bold; border-bottom: 2px solid #999; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
svg.plot { font-family: sans-serif; }
svg .grid { stroke: #ddd; stroke-width: 1; }
svg .frame { fill: none; stroke: #888; }
svg .diag { stroke: #888; stroke-dasharray: 4 3; }
svg .tick { font-size: 10px; fill: #444; }
svg .label { font-size: 12px; fill: #222; }
svg circle.both { fill: #1f77b4; fill-opacity: 0.6; }
svg circle.one { fill: #ff7f0e; fill-opacity: 0.8; }
svg circle.none { fill: #999; fill-opacity: 0.5; }
table.sortable th { cursor: pointer; }
`

// sortJS sorts a table.sortable by the clicked column: numerically when
// every cell of the column parses as a number, else as text; a second
// click reverses. A page opened as report.html#sort=N (or #sort=N-desc)
// starts sorted by column N (from 0).
const sortJS = `function sortBy(th, dir) {
  var table = th.closest('table'), body = table.tBodies[0];
  var i = Array.prototype.indexOf.call(th.parentNode.children, th);
  var rows = Array.prototype.slice.call(body.rows);
  var num = rows.every(function (r) { var t = r.cells[i].textContent; return t === '' || !isNaN(parseFloat(t)); });
  th.dataset.dir = dir === 1 ? 'asc' : 'desc';
  rows.sort(function (a, b) {
    var x = a.cells[i].textContent, y = b.cells[i].textContent;
    if (num) { return dir * ((parseFloat(x) || 0) - (parseFloat(y) || 0)); }
    return dir * x.localeCompare(y);
  });
  rows.forEach(function (r) { body.appendChild(r); });
}
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () { sortBy(th, th.dataset.dir === 'asc' ? -1 : 1); });
});
var m = /^#sort=(\d+)(-desc)?$/.exec(location.hash);
var ths = document.querySelectorAll('table.sortable th');
if (m && ths[+m[1]]) { sortBy(ths[+m[1]], m[2] ? -1 : 1); }
`

// benchPage is the bench report's template; a line's actions end with
// "-}}" where the line break is only the template's layout.
var benchPage = pageTemplate("bench", `{{template "start" .Head -}}
<h1>cegpv bench</h1>
{{range .Cmds}}<p class="small"><code>{{.}}</code></p>
{{end -}}
<p>{{.Scheme}} Results in BenchExec's categories: <span class="correct">correct</span>, <span class="wrong">incorrect true</span> (a proof TRUE on an unsafe task) or <span class="missed">missed</span> (an incorrect true that is a bounded TRUE: the bug lies beyond the bounds), <span class="wrong">incorrect false</span> (FALSE on a safe task), <span class="unknown">unknown</span>, <span class="error">error</span> (TIMEOUT, OUT OF MEMORY, ERROR (...)). CPU time is user plus system time of the task and its children (the solver); memory is the peak resident set of cegpv or its solver.</p>
{{range .NoCPU}}<p class="small">{{.}} has no CPU times (an earlier run, before they were recorded): the plots use its wall times.</p>
{{end -}}
<h2>Results per category and mode</h2>
<p class="small">In BenchExec's categories; missed counts the incorrect true that are bounded TRUEs (the bug lies beyond the bounds). {{.Scheme}} Times are CPU seconds (user and system of the run and its children), wall seconds beside them.</p>
<table>
<thead><tr><th>mode</th><th>category</th><th>tasks</th><th>correct</th><th>incorrect true</th><th>(missed)</th><th>incorrect false</th><th>unknown</th><th>error</th><th>score</th><th>CPU s</th><th>wall s</th><th>max memory MB</th></tr></thead>
<tbody>
{{range .Summary}}<tr{{if .All}} class="all"{{end}}><td>{{.Mode}}</td><td>{{.Cat}}</td><td class="num">{{.Tasks}}</td><td class="num correct">{{.Correct}}</td><td class="num{{if .IncorrectTrue}} wrong{{end}}">{{.IncorrectTrue}}</td><td class="num">{{.Missed}}</td><td class="num{{if .IncorrectFalse}} wrong{{end}}">{{.IncorrectFalse}}</td><td class="num">{{.Unknown}}</td><td class="num">{{.Error}}</td><td class="num">{{.Score}}</td><td class="num">{{f1 .CPUSec}}</td><td class="num">{{f1 .TotalSec}}</td><td class="num">{{f0 .MaxRSSMB}}</td></tr>
{{end -}}
</tbody>
</table>
{{with .Speed}}<p>On the {{.Solved}} tasks {{.Mode}} answered correctly:{{range .Modes}} {{.Mode}} {{f1 .Sec}} s{{with .Ratio}} ({{printf "%.2fx" .}}){{end}};{{end}} CPU time.</p>
{{end -}}
{{if .Scatters -}}
<h2>Scatter plots (CPU time per task)</h2>
<p class="small">Each point is a task both modes ran; blue: both correct, orange: one of them correct, grey: neither. Points below the diagonal are faster in the mode on the vertical axis.</p>
<div class="plots">
{{range .Scatters}}{{template "plot" .}}{{end -}}
</div>
{{end -}}
<h2>Quantile plot</h2>
<p class="small">For each mode, its correct answers sorted by CPU time: the n-th point is the time within which it answered n tasks correctly.</p>
{{template "plot" .Quantile -}}
{{with .Loop -}}
<h2>The CEGPV loop per mode</h2>
<p class="small">The runs that entered the loop. By loop: the TRUEs and FALSEs the loop decided; by other: those another engine decided (the probe, the explicit-state search; none with --loop-only). Levels, iterations, spurious counterexamples and generalised patterns are sums over the runs, the deepening's shallow runs included; the kept share is the share of the program's variables the last level kept, its mean over the runs; abstract and reconstruct are the time in the checks of the abstractions and of the reconstructions of their counterexamples.</p>
<table>
<thead><tr><th>mode</th><th>loop runs</th><th>by loop</th><th>by other</th><th>levels</th><th>iterations</th><th>spurious</th><th>mean kept share</th><th>abstract s</th><th>reconstruct s</th><th>patterns</th><th>pattern labels</th></tr></thead>
<tbody>
{{range .Sums}}<tr><td>{{.Mode}}</td>{{with .Loop}}<td class="num">{{.Runs}}</td><td class="num">{{.ByLoop}}</td><td class="num">{{.ByOther}}</td><td class="num">{{.Levels}}</td><td class="num">{{.Iterations}}</td><td class="num">{{.Spurious}}</td><td class="num">{{f2 .MeanKeptShare}}</td><td class="num">{{f1 .AbstractSec}}</td><td class="num">{{f1 .ReconstructSec}}</td><td class="num">{{.Patterns}}</td><td class="num">{{.PatternLabels}}</td>{{end}}</tr>
{{end -}}
</tbody>
</table>
<div class="plots">
{{template "plot" .KeptTime}}{{template "plot" .Cactus}}{{range .Scatters}}{{template "plot" .}}{{end -}}
</div>
{{end -}}
<h2>Tasks</h2>
<p class="small">Click a column head to sort by it.</p>
<table class="tasks sortable">
<thead><tr><th>task</th><th>category</th><th>expected</th>{{range .Modes}}<th>{{.}}</th><th>{{.}} CPU s</th><th>{{.}} wall s</th><th>{{.}} MB</th>{{end}}</tr></thead>
<tbody>
{{range .Tasks}}<tr><td>{{.File}}</td><td>{{.Cat}}</td><td>{{.Exp}}</td>
{{- range .Results}}{{if .}}<td class="{{.Class}}"{{with .Reason}} title="{{.}}"{{end}}>
{{- if .Output}}<a href="{{.Output}}">{{.Shown}}</a>{{else}}{{.Shown}}{{end}}
{{- with .Page}} <a href="{{.}}" class="small">trace</a>{{end -}}
</td><td class="num">{{f2 .CPUSec}}</td><td class="num">{{f2 .WallSec}}</td><td class="num">{{f0 .RSSMB}}</td>
{{- else}}<td></td><td></td><td></td><td></td>{{end}}{{end}}</tr>
{{end -}}
</tbody>
</table>
<script>{{.JS}}</script>
{{template "end"}}
{{- define "plot" -}}
<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{{f0 .W}}" height="{{f0 .H}}" viewBox="0 0 {{f0 .W}} {{f0 .H}}">
<title>{{.Title}}</title>
{{range .Grid}}<line class="grid" x1="{{f1 .X1}}" y1="{{f1 .Y1}}" x2="{{f1 .X2}}" y2="{{f1 .Y2}}"/><text x="{{f1 .TX}}" y="{{f1 .TY}}" class="tick" text-anchor="{{.Anchor}}">{{.Label}}</text>
{{end -}}
{{range .Ticks}}<text x="{{f1 .TX}}" y="{{f1 .TY}}" class="tick" text-anchor="{{.Anchor}}">{{.Label}}</text>
{{end -}}
{{with .Frame}}<rect class="frame" x="{{f1 (index . 0)}}" y="{{f1 (index . 1)}}" width="{{f1 (index . 2)}}" height="{{f1 (index . 3)}}"/>
{{end -}}
{{with .Diag}}<line class="diag" x1="{{f1 (index . 0)}}" y1="{{f1 (index . 1)}}" x2="{{f1 (index . 2)}}" y2="{{f1 (index . 3)}}"/>
{{end -}}
{{range .Points}}<circle class="{{.Class}}"{{with .Color}} style="fill: {{.}}"{{end}} cx="{{f1 .CX}}" cy="{{f1 .CY}}" r="3"><title>{{if .Tip}}{{.Tip}}{{else}}{{.File}}: {{.A}} {{f2 .X}} s, {{.B}} {{f2 .Y}} s{{end}}</title></circle>
{{end -}}
{{range .Lines}}{{if .Points}}<polyline fill="none" stroke="{{.Color}}" stroke-width="2" points="{{.Points}}"/>
{{end}}<line x1="{{f1 .LX1}}" y1="{{f1 .LY}}" x2="{{f1 .LX2}}" y2="{{f1 .LY}}" stroke="{{.Color}}" stroke-width="2"/><text x="{{f1 .TX}}" y="{{f1 (add .LY 4)}}" class="tick">{{.Name}} ({{.N}})</text>
{{end -}}
{{with .XLabel}}<text x="{{f1 .X}}" y="{{f1 .Y}}" text-anchor="middle" class="label">{{.Text}}</text>
{{end -}}
{{with .YLabel}}<text x="12" y="{{f1 .X}}" text-anchor="middle" class="label" transform="rotate(-90 12 {{f1 .Y}})">{{.Text}}</text>
{{end -}}
</svg>
{{end}}`, template.FuncMap{
	"f0":  func(v float64) string { return fmt.Sprintf("%.0f", v) },
	"f1":  func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"f2":  func(v float64) string { return fmt.Sprintf("%.2f", v) },
	"add": func(a, b float64) float64 { return a + b },
})
