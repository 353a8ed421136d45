package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunIDPrefixes: report and compare name runs by a unique prefix of
// their id, as git names commits; a prefix two runs share is an error
// listing both, and a prefix too short or not hex is refused (exit 2).
func TestRunIDPrefixes(t *testing.T) {
	db, reference, regressed := supportHistory(t)
	common := 0
	for common < len(reference) && reference[common] == regressed[common] {
		common++
	}
	uniqueRef, uniqueReg := reference[:max(common+1, 4)], regressed[:max(common+1, 4)]
	code, out, stderr := evalrun(t, "--database-url", db, "compare", uniqueRef, uniqueReg)
	if code != exitOK || !strings.Contains(out, "1 question newly fails") {
		t.Fatalf("compare %s %s: exit %d\n%s%s", uniqueRef, uniqueReg, code, out, stderr)
	}
	code, out, stderr = evalrun(t, "--database-url", db, "report", uniqueReg, "--baseline", uniqueRef)
	if code != exitOK || !strings.Contains(out, "Run       "+regressed) || !strings.Contains(out, "Baseline  "+reference) {
		t.Fatalf("report %s --baseline %s: exit %d\n%s%s", uniqueReg, uniqueRef, code, out, stderr)
	}
	if common >= 4 {
		code, _, stderr = evalrun(t, "--database-url", db, "report", reference[:common])
		if code != exitInvalid || !strings.Contains(stderr, "ambiguous, it starts or ends 2 runs' ids") ||
			!strings.Contains(stderr, reference) || !strings.Contains(stderr, regressed) {
			t.Errorf("ambiguous prefix %s: exit %d\n%s", reference[:common], code, stderr)
		}
	} else {
		t.Logf("the two ids share only %d characters: no ambiguous prefix of 4 to try", common)
	}
	for _, bad := range []string{"abc", "zzzz-not-hex", "ffffffff"} {
		code, _, stderr = evalrun(t, "--database-url", db, "compare", bad, uniqueReg)
		if code != exitInvalid || !strings.Contains(stderr, "run A") || !strings.Contains(stderr, bad) {
			t.Errorf("compare %s: exit %d\n%s", bad, code, stderr)
		}
	}
}

// TestRunIDTails: run ids are time-ordered, so two runs made moments
// apart share their first characters while their random last 8 tell them
// apart; label and calibrate take the same short ids as report and compare.
func TestRunIDTails(t *testing.T) {
	db, reference, regressed := supportHistory(t)
	if reference[:8] != regressed[:8] {
		t.Logf("the two ids differ within 8 characters: %s, %s", reference, regressed)
	}
	tail := regressed[len(regressed)-8:]
	code, out, stderr := evalrun(t, "--database-url", db, "report", tail)
	if code != exitOK || !strings.Contains(out, regressed) {
		t.Fatalf("report %s: exit %d\n%s%s", tail, code, out, stderr)
	}
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	for _, id := range []string{tail, regressed[:max(8, commonPrefix(reference, regressed)+1)]} {
		code, out, stderr = evalrun(t, "--database-url", db, "label", id, "--labels", labels, "--export", filepath.Join(t.TempDir(), "queue.jsonl"))
		if code != exitOK || strings.Contains(stderr, "run id") {
			t.Errorf("label %s: exit %d\n%s%s", id, code, out, stderr)
		}
		os.WriteFile(labels, nil, 0o644)
		code, out, stderr = evalrun(t, "--database-url", db, "calibrate", id, "--labels", labels)
		if strings.Contains(stderr, "RUN_ID") || strings.Contains(stderr, "invalid UUID") {
			t.Errorf("calibrate %s: exit %d\n%s%s", id, code, out, stderr)
		}
	}
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
