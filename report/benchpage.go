package report

import (
	"fmt"
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
	p := &page{w: w}
	p.start("cegpv bench", benchCSS)
	p.printf("<h1>cegpv bench</h1>\n")
	for _, c := range cmds {
		p.printf("<p class=\"small\"><code>%s</code></p>\n", esc(c))
	}
	p.printf("<p>%s Results in BenchExec's categories: <span class=\"correct\">correct</span>, <span class=\"wrong\">incorrect true</span> (a proof TRUE on an unsafe task) or <span class=\"missed\">missed</span> (an incorrect true that is a bounded TRUE: the bug lies beyond the bounds), <span class=\"wrong\">incorrect false</span> (FALSE on a safe task), <span class=\"unknown\">unknown</span>, <span class=\"error\">error</span> (TIMEOUT, OUT OF MEMORY, ERROR (...)). CPU time is user plus system time of the task and its children (the solver); memory is the peak resident set of cegpv or its solver.</p>\n", esc(ScoreScheme))
	for _, n := range noCPU {
		p.printf("<p class=\"small\">%s has no CPU times (an earlier run, before they were recorded): the plots use its wall times.</p>\n", esc(n))
	}
	writeSummaryTable(p, sums)
	unit := "CPU s"
	if len(noCPU) > 0 {
		unit = "s (CPU; wall where no CPU times)"
	}
	if len(modes) > 1 {
		p.printf("<h2>Scatter plots (CPU time per task)</h2>\n<p class=\"small\">Each point is a task both modes ran; blue: both correct, orange: one of them correct, grey: neither. Points below the diagonal are faster in the mode on the vertical axis.</p>\n<div class=\"plots\">\n")
		for _, m := range modes[1:] {
			writeScatter(p, rows, modes[0], m, unit)
		}
		p.printf("</div>\n")
	}
	p.printf("<h2>Quantile plot</h2>\n<p class=\"small\">For each mode, its correct answers sorted by CPU time: the n-th point is the time within which it answered n tasks correctly.</p>\n")
	writeQuantile(p, rows, modes, unit)
	writeTaskTable(p, rows, modes)
	p.script(sortJS)
	return p.end()
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

func writeSummaryTable(p *page, sums []*Summary) {
	p.printf("<h2>Results per category and mode</h2>\n<p class=\"small\">In BenchExec's categories; missed counts the incorrect true that are bounded TRUEs (the bug lies beyond the bounds). %s Times are CPU seconds (user and system of the run and its children), wall seconds beside them.</p>\n<table>\n<thead><tr><th>mode</th><th>category</th><th>tasks</th><th>correct</th><th>incorrect true</th><th>(missed)</th><th>incorrect false</th><th>unknown</th><th>error</th><th>score</th><th>CPU s</th><th>wall s</th><th>max memory MB</th></tr></thead>\n<tbody>\n", esc(ScoreScheme))
	row := func(mode, cat string, c *Counts, all bool) {
		cls := ""
		if all {
			cls = " class=\"all\""
		}
		wrong := func(n int) string { return map[bool]string{true: " wrong", false: ""}[n > 0] }
		p.printf("<tr%s><td>%s</td><td>%s</td><td class=\"num\">%d</td><td class=\"num correct\">%d</td><td class=\"num%s\">%d</td><td class=\"num\">%d</td><td class=\"num%s\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%.1f</td><td class=\"num\">%.1f</td><td class=\"num\">%.0f</td></tr>\n",
			cls, esc(mode), esc(cat), c.Tasks, c.Correct, wrong(c.IncorrectTrue), c.IncorrectTrue, c.Missed, wrong(c.IncorrectFalse), c.IncorrectFalse, c.Unknown, c.Error, c.Score, c.CPUSec, c.TotalSec, c.MaxRSSMB)
	}
	for _, s := range sums {
		for _, cat := range sortedKeys(s.ByCategory) {
			row(s.Mode, cat, s.ByCategory[cat], false)
		}
		row(s.Mode, "all", &s.Counts, true)
	}
	p.printf("</tbody>\n</table>\n")
	if len(sums) > 1 {
		base := sums[0]
		p.printf("<p>On the %d tasks %s answered correctly:", base.BaseSolved, esc(base.Mode))
		for _, s := range sums {
			p.printf(" %s %.1f s", esc(s.Mode), s.BaseSec)
			if s != base && base.BaseSec > 0 {
				p.printf(" (%.2fx)", s.BaseSec/base.BaseSec)
			}
			p.printf(";")
		}
		p.printf(" CPU time.</p>\n")
	}
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

var modeColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

func writeScatter(p *page, rows []Row, a, b, unit string) {
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
	p.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", plotSize+margin+20, plotSize+margin+20, plotSize+margin+20, plotSize+margin+20)
	p.printf("<title>%s against %s, CPU seconds per task</title>\n", esc(b), esc(a))
	ox, oy := margin, plotSize+10
	for _, t := range ax.ticks() {
		d := ax.pos(t)
		p.printf("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>\n", ox+d, oy, ox+d, oy-plotSize, ox+d, oy+14, tickLabel(t))
		p.printf("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n", ox, oy-d, ox+plotSize, oy-d, ox-4, oy-d+4, tickLabel(t))
	}
	p.printf("<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", ox, oy-plotSize, plotSize, plotSize)
	p.printf("<line class=\"diag\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ox, oy, ox+plotSize, oy-plotSize)
	for _, q := range pts {
		cls := "none"
		switch {
		case q.ca && q.cb:
			cls = "both"
		case q.ca || q.cb:
			cls = "one"
		}
		p.printf("<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>%s: %s %.2f s, %s %.2f s</title></circle>\n", cls, ox+ax.pos(q.x), oy-ax.pos(q.y), esc(q.file), esc(a), q.x, esc(b), q.y)
	}
	p.printf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\">%s, %s</text>\n", ox+plotSize/2, oy+34, esc(a), esc(unit))
	p.printf("<text x=\"12\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 12 %.1f)\">%s, %s</text>\n", oy-plotSize/2, oy-plotSize/2, esc(b), esc(unit))
	p.printf("</svg>\n")
}

func writeQuantile(p *page, rows []Row, modes []string, unit string) {
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
	h := plotSize + margin + 20
	legend := 0
	for _, m := range modes {
		legend = max(legend, len(m)+6)
	}
	total := width + margin + 40 + 6.5*float64(legend)
	p.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", total, h, total, h)
	p.printf("<title>quantile plot: CPU seconds of the correct answers, sorted</title>\n")
	ox, oy := margin, plotSize+10
	for _, t := range ay.ticks() {
		d := ay.pos(t)
		p.printf("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n", ox, oy-d, ox+width, oy-d, ox-4, oy-d+4, tickLabel(t))
	}
	step := niceStep(most)
	for n := 0; n <= most; n += step {
		x := ox + width*float64(n)/float64(most)
		p.printf("<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%d</text>\n", x, oy+14, n)
	}
	p.printf("<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", ox, oy-plotSize, width, plotSize)
	for i, m := range modes {
		ts := times[m]
		sort.Float64s(ts)
		color := modeColors[i%len(modeColors)]
		var pts []string
		for k, t := range ts {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", ox+width*float64(k+1)/float64(most), oy-ay.pos(t)))
		}
		if len(pts) > 0 {
			p.printf("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", color, strings.Join(pts, " "))
		}
		ly := oy - plotSize + 16 + 18*float64(i)
		p.printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%s (%d)</text>\n", ox+width+10, ly, ox+width+30, ly, color, ox+width+34, ly+4, esc(m), len(ts))
	}
	p.printf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\">correct answers</text>\n", ox+width/2, oy+34)
	p.printf("<text x=\"12\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 12 %.1f)\">%s</text>\n", oy-plotSize/2, oy-plotSize/2, esc(unit))
	p.printf("</svg>\n")
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

func writeTaskTable(p *page, rows []Row, modes []string) {
	type task struct {
		file, cat, exp string
		by             map[string]Row
	}
	tasks := map[string]*task{}
	var files []string
	for _, r := range rows {
		t := tasks[r.File]
		if t == nil {
			t = &task{file: r.File, cat: r.Category, exp: r.Expected, by: map[string]Row{}}
			tasks[r.File] = t
			files = append(files, r.File)
		}
		t.by[r.Mode] = r
	}
	sort.Strings(files)
	p.printf("<h2>Tasks</h2>\n<p class=\"small\">Click a column head to sort by it.</p>\n<table class=\"tasks sortable\">\n<thead><tr><th>task</th><th>category</th><th>expected</th>")
	for _, m := range modes {
		p.printf("<th>%s</th><th>%s CPU s</th><th>%s wall s</th><th>%s MB</th>", esc(m), esc(m), esc(m), esc(m))
	}
	p.printf("</tr></thead>\n<tbody>\n")
	for _, f := range files {
		t := tasks[f]
		p.printf("<tr><td>%s</td><td>%s</td><td>%s</td>", esc(t.file), esc(t.cat), esc(t.exp))
		for _, m := range modes {
			r, ok := t.by[m]
			if !ok {
				p.printf("<td></td><td></td><td></td><td></td>")
				continue
			}
			verdict := r.Verdict
			switch {
			case r.Verdict == "TRUE" && r.Proof:
				verdict = "TRUE (proof)"
			case r.Status == "error":
				verdict = r.Result // TIMEOUT, OUT OF MEMORY, ERROR (...)
			}
			p.printf("<td class=\"%s\"", statusClass(r))
			if r.Reason != "" {
				p.printf(" title=\"%s\"", esc(r.Reason))
			}
			p.printf(">")
			if r.Output != "" {
				p.printf("<a href=\"%s\">%s</a>", esc(r.Output), esc(verdict))
			} else {
				p.printf("%s", esc(verdict))
			}
			if r.Page != "" {
				p.printf(" <a href=\"%s\" class=\"small\">trace</a>", esc(r.Page))
			}
			p.printf("</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f</td><td class=\"num\">%.0f</td>", r.CPUSec, r.WallSec, r.RSSMB)
		}
		p.printf("</tr>\n")
	}
	p.printf("</tbody>\n</table>\n")
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
td.wrong a { color: #fff; }
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
