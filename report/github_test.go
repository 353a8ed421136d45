package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// TestRenderGitHub_Locations puts file= and line= on the annotations of a
// located question (its failure and its regressions), escapes the file as a
// property, and leaves unlocated questions and the notices without one.
func TestRenderGitHub_Locations(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	bad.Cases[1].Status = "not_evaluated" // shipping: an unlocated warning
	cmp := compare.Compare(bad, ref, compare.Options{})
	var buf bytes.Buffer
	opts := GitHubOptions{Locations: map[string]Location{"returns": {File: "evals/a,b:c.json", Line: 4}}}
	if err := mustRenderer(t).RenderGitHub(&buf, cmp, opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	const at = "file=evals/a%2Cb%3Ac.json,line=4,title=Customer support / SupportAgent%3A "
	var located int
	for _, l := range lines {
		switch {
		case strings.Contains(l, "%3A returns ") || strings.Contains(l, ") returns::"):
			located++
			if !strings.HasPrefix(l, "::error "+at) {
				t.Errorf("returns annotation without its location: %s", l)
			}
		case strings.Contains(l, "file="):
			t.Errorf("unlocated annotation has a file: %s", l)
		}
	}
	if located != 1 { // failed, with its 2 new failures and 2 score drops merged in
		t.Errorf("located annotations = %d, want 1:\n%s", located, buf.String())
	}
	if want := "returns failed%2C regressed (exact new_failure%2C exact score_drop%2C action_group new_failure%2C action_group score_drop)"; !strings.Contains(buf.String(), want) {
		t.Errorf("the returns annotation does not list its regressions %q:\n%s", want, buf.String())
	}
	if !strings.Contains(buf.String(), "::warning title=Customer support / SupportAgent%3A shipping not evaluated::") {
		t.Errorf("no unlocated warning for shipping:\n%s", buf.String())
	}
	plain, err := mustRenderer(t).Bytes(FormatGitHub, cmp)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("file=")) {
		t.Errorf("Render without locations wrote a file:\n%s", plain)
	}
}
