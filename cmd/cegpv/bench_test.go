package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		expected, verdict string
		proof             bool
		want              string
	}{
		{"true", "TRUE", false, "correct"},
		{"false", "FALSE", false, "correct"},
		{"false", "TRUE", false, "missed"},
		{"false", "TRUE", true, "wrong"},
		{"true", "FALSE", false, "wrong"},
		{"true", "UNKNOWN", false, "unknown"},
		{"false", "", false, "unknown"},
	} {
		if got := classify(c.expected, c.verdict, c.proof); got != c.want {
			t.Errorf("classify(%s, %s, %v) = %s, want %s", c.expected, c.verdict, c.proof, got, c.want)
		}
	}
}

// TestSummarizeBaseline checks the side-by-side comparison: each mode's
// time is summed over exactly the tasks the first mode solved.
func TestSummarizeBaseline(t *testing.T) {
	rows := []benchRow{
		{File: "a", Category: "c", Mode: "plain", Status: "correct", WallSec: 10},
		{File: "a", Category: "c", Mode: "cegpv", Status: "correct", WallSec: 1},
		{File: "b", Category: "c", Mode: "plain", Status: "unknown", WallSec: 60},
		{File: "b", Category: "c", Mode: "cegpv", Status: "correct", WallSec: 2},
		{File: "d", Category: "c", Mode: "plain", Status: "correct", WallSec: 4},
		{File: "d", Category: "c", Mode: "cegpv", Status: "unknown", WallSec: 60},
	}
	sums := summarize(rows, []string{"plain", "cegpv"})
	if p, c := sums[0], sums[1]; p.BaseSolved != 2 || p.BaseSec != 14 || c.BaseSolved != 2 || c.BaseSec != 61 || c.Correct != 2 || p.TotalSec != 74 {
		t.Fatalf("summaries: plain %+v, cegpv %+v", *p, *c)
	}
	var buf bytes.Buffer
	writeSummaryText(&buf, sums)
	if !strings.Contains(buf.String(), "on the 2 tasks plain solved: plain 14.0s cegpv 61.0s (4.36x of plain)") {
		t.Errorf("summary text:\n%s", buf.String())
	}
}
