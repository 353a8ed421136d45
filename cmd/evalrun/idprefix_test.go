package main

import (
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
		if code != exitInvalid || !strings.Contains(stderr, "ambiguous, it starts 2 runs' ids") ||
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
