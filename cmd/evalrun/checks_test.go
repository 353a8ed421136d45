package main

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/score"
)

func TestChecksCmd(t *testing.T) {
	code, stdout, stderr := evalrun(t, "checks")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range score.Builtins().Names() {
		if !strings.Contains(stdout, "\n"+name+"\n") && !strings.HasPrefix(stdout, name+"\n") {
			t.Errorf("type %s is not listed", name)
		}
		if !strings.Contains(stdout, `Example check: {"type": "`+name+`"`) {
			t.Errorf("type %s has no example", name)
		}
	}
	if want := `  values          array of strings  one of value|values  Several substrings; the score is the fraction found.`; !strings.Contains(stdout, want) {
		t.Errorf("contains' values param is not listed as %q", want)
	}
	code, _, stderr = evalrun(t, "checks", "contians")
	if code != 2 || !strings.Contains(stderr, `unknown type "contians" (did you mean "contains"?)`) {
		t.Errorf("unknown type: exit %d, stderr %q; want 2 naming the type", code, stderr)
	}
}
