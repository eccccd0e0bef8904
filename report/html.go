// Package report turns results into pages and listings people and tools
// read. The result of one check is an Outcome (the library's cegpv.Report,
// by Fill); every format of it is a Writer, selected by `cegpv verify`'s
// flags: Text (the counterexample of a FALSE as source-line rows, the
// statistics, the verdict last), JSON, HTML (a self-contained page with one
// column per thread, WriteCex) and Witness (SV-COMP's GraphML 1.0 and YAML
// 2.0 witnesses, package witness). The results of `cegpv bench` are CSV/JSON
// and a self-contained HTML report with per-category scores, a scatter
// plot, a quantile plot and a sortable per-task table (WriteBench).
//
// Every page is built with html/template (its escaping is contextual:
// text, attributes, URLs). Every page is XHTML (it parses as XML), with
// inline CSS and SVG and
// nothing loaded from the network, and deterministic: the same input gives
// the same bytes (maps are walked in sorted order, numbers printed with a
// fixed number of decimals).
package report

import "html/template"

// head is what the shell of every page shows: the title and the page's
// CSS, after baseCSS.
type head struct {
	Title string
	CSS   template.CSS
}

func newHead(title, css string) head {
	return head{Title: title, CSS: template.CSS(baseCSS + css)}
}

// shell holds the templates every page shares: "start" (taking a head)
// writes up to the body's first line, "end" closes the page.
var shell = template.Must(template.New("shell").Parse(`{{define "start"}}<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>{{.Title}}</title>
<style>
{{.CSS}}</style>
</head>
<body>
{{end}}{{define "end"}}</body>
</html>
{{end}}`))

// pageTemplate parses the template text of a page, which may call
// "start" and "end" and funcs; it panics on a bad template (a bug).
func pageTemplate(name, text string, funcs template.FuncMap) *template.Template {
	return template.Must(template.Must(shell.Clone()).New(name).Funcs(funcs).Parse(text))
}

const baseCSS = `body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.45em; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-family: monospace; white-space: pre-wrap; }
.small { font-size: 0.85em; color: #555; }
`
