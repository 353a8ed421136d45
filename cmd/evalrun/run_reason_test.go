package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_ReasonShownWhole runs the README's support example at its
// regressed revision: the failing action_group reason names the expected
// call and its arguments, then the observed one. On terminals of 80 and
// 100 columns the reason is wrapped, never cut (every line fits); in a CI
// log it is one whole line. The old table cut its middle at 200 runes or
// at the terminal's width, losing `{"topic":"returns"}`.
func TestRunCmd_ReasonShownWhole(t *testing.T) {
	t.Setenv("AGENT_REVISION", "regressed")
	t.Setenv("NO_COLOR", "1")
	suiteFile := filepath.Join("..", "..", "examples", "support", "suite.json")
	const want = `0 of 1 expected calls matched in order among 1 observed (score 0/1); wrong: expected #1 policies/lookup_policy {"topic":"returns"}, observed #1 policies/lookup_policy {"topic":"shipping"} (arguments differ)`
	// joined reads the reason back from the table: the line after "lookup
	// FAIL: " and its indented continuation lines.
	joined := func(out string) string {
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			_, after, ok := strings.Cut(l, "-> lookup FAIL: ")
			if !ok {
				continue
			}
			parts := []string{after}
			for _, next := range lines[i+1:] {
				if !strings.HasPrefix(next, reasonIndent) || strings.HasPrefix(next, "  -> ") {
					break
				}
				parts = append(parts, strings.TrimSpace(next))
			}
			return strings.Join(parts, " ")
		}
		return ""
	}
	for _, cols := range []uint16{80, 100} {
		code, stdout, stderr := ttyRunCols(t, cols, "--database-url", testdb.SQLiteURL(t), "run", suiteFile)
		if code != exitFailed {
			t.Fatalf("%d columns: exit %d, want 1\n%s%s", cols, code, stdout, stderr)
		}
		if got := joined(stdout); got != want {
			t.Errorf("%d columns: reason reads %q, want it whole:\n%s", cols, got, stdout)
		}
		for _, l := range strings.Split(stdout, "\n") {
			if strings.Contains(l, "…") && strings.Contains(l, "lookup") {
				t.Errorf("%d columns: a reason line was cut: %q", cols, l)
			}
			if w := displayWidth(stripANSI(l)); w > int(cols)-1 && strings.HasPrefix(l, reasonIndent) {
				t.Errorf("%d columns: continuation line of %d columns: %q", cols, w, l)
			}
		}
	}
	t.Setenv("CI", "true")
	code, stdout, stderr := evalrun(t, "--database-url", testdb.SQLiteURL(t), "run", suiteFile)
	if code != exitFailed || !strings.Contains(stdout, "  -> lookup FAIL: "+want+"\n") {
		t.Errorf("CI log: exit %d, want the whole reason on one line:\n%s%s", code, stdout, stderr)
	}
}

// TestWrapWords lays reasons out on a terminal: at spaces, the first line
// after the head, a word wider than a line split, nothing lost.
func TestWrapWords(t *testing.T) {
	tests := []struct {
		text        string
		first, rest int
		want        []string
	}{
		{"short", 20, 20, []string{"short"}},
		{"aaa bbb ccc", 7, 7, []string{"aaa bbb", "ccc"}},
		{"aaa bbb ccc", 3, 7, []string{"aaa", "bbb ccc"}},
		{"abcdefghij k", 4, 4, []string{"abcd", "efgh", "ij k"}},
		{"", 5, 5, []string{""}},
		{"東京都 x", 4, 4, []string{"東京", "都 x"}},
	}
	for _, tt := range tests {
		got := wrapWords(tt.text, tt.first, tt.rest)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrapWords(%q, %d, %d) = %q, want %q", tt.text, tt.first, tt.rest, got, tt.want)
		}
	}
}
