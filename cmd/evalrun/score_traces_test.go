package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreTraces_Refuses: bad monitors, bad flags and unreadable trace
// files exit 2 naming what is wrong, and nothing is saved.
func TestScoreTraces_Refuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("monitor.json", `{"monitor": "m", "agent": "a", "checks": [{"type": "error_spans"}]}`)
	unknown := write("unknown.json", `{"monitor": "m", "agent": "a", "sampel": 0.1, "checks": [{"type": "error_spans"}]}`)
	referenced := write("referenced.json", `{"monitor": "m", "agent": "a", "checks": [{"type": "correctness"}]}`)
	notTraces := write("metrics.jsonl", `{"resourceMetrics": []}`+"\n")
	db := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown key", []string{"score-traces", unknown, "--traces", notTraces}, []string{unknown, "$.sampel: unknown key"}},
		{"needs a reference", []string{"score-traces", referenced, "--traces", notTraces}, []string{`check "correctness" needs the question's expected_answer`, "reference-free"}},
		{"missing file", []string{"score-traces", good, "--traces", filepath.Join(dir, "none.jsonl")}, []string{"none.jsonl", "nothing was saved"}},
		{"not traces", []string{"score-traces", good, "--traces", notTraces}, []string{"metrics.jsonl", "nothing was saved"}},
		{"alpha", []string{"score-traces", good, "--traces", notTraces, "--alpha", "1"}, []string{"--alpha"}},
		{"validate", []string{"validate", unknown}, []string{"load monitor", "$.sampel: unknown key"}},
		{"no window", []string{"score-traces", good}, []string{"--traces FILE... or as --listen ADDR"}},
		{"two windows", []string{"score-traces", good, "--traces", notTraces, "--listen", "127.0.0.1:0", "--window", "1s"}, []string{"--traces FILE... or as --listen ADDR"}},
		{"listen without a window", []string{"score-traces", good, "--listen", "127.0.0.1:0"}, []string{"needs --window"}},
		{"a window without listen", []string{"score-traces", good, "--traces", notTraces, "--window", "1m"}, []string{"--window is the length of a live window"}},
		{"a shard of a live window", []string{"score-traces", good, "--listen", "127.0.0.1:0", "--window", "1s", "--shard", "1/2", "--save-to", filepath.Join(dir, "s.json")}, []string{"score it whole"}},
		{"a shard without --save-to", []string{"score-traces", good, "--traces", notTraces, "--shard", "1/2"}, []string{"--save-to"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := evalrun(t, append([]string{"--database-url", db}, tc.args...)...)
			if code != exitInvalid {
				t.Fatalf("exit %d, want 2\n%s%s", code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "db.sqlite3")); err == nil && countRuns(t, db) != 0 {
		t.Error("a refused window was saved")
	}
	code, out, errOut := evalrun(t, "validate", good)
	if code != 0 || !strings.Contains(out, `ok: monitor "m"`) {
		t.Errorf("validate a good monitor: exit %d\n%s%s", code, out, errOut)
	}
}
