// Package llmjudge holds the test of the judged support example run
// offline against the scripted judge.
package llmjudge

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOffline runs offline.sh as a newcomer would: the scripted judge
// stands in for the model, the reference revision passes, --repeat 3 shows
// the judge's spread, the regressed revision fails semantic_accuracy under
// --gate ci (exit 1, which the script expects) and calibrate agrees with
// the labels on every pair.
func TestOffline(t *testing.T) {
	for _, p := range []string{"sh", "awk", "go", "sed"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("offline.sh needs %s on PATH (apt-get install -y coreutils gawk sed; Go for go)", p)
		}
	}
	cmd := exec.Command("sh", "offline.sh")
	cmd.Env = append(cmd.Environ(), "DATABASE_URL=", "CI=true", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("offline.sh: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Passing questions: 3 of 3",
		"Within-question sd over the repeats: ",
		"ci gate",
		"-> semantic_accuracy FAIL: The answer gives a 14-day deadline; the reference says 30 days.",
		"(exit 1: the regressed returns answer fails semantic_accuracy)",
		"semantic_accuracy  3       3      1.000          1.000",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("offline.sh output lacks %q:\n%s", want, out)
		}
	}
}
