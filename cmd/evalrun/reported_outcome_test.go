package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestBinary_ReportedCallOutcomes: an agent that reports its own calls
// with status, result and duration_ms satisfies tool_success like calls
// read from spans, and expected actions without a group match on name and
// arguments; a bad status is an agent error naming the field.
func TestBinary_ReportedCallOutcomes(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null
if [ "$BAD" = 1 ]; then echo '{"output": "x", "actions": [{"name": "lookup", "status": "fine"}]}'; exit 0; fi
echo '{"output": "Tokyo", "actions": [{"group": "geo", "name": "lookup", "arguments": {"city": "Tokyo"}, "status": "ok", "result": {"capital": true}, "duration_ms": 12.5}, {"name": "log", "status": "error", "result": "disk full"}]}'
`)
	suiteFile := filepath.Join(dir, "suite.json")
	writeTestFile(t, suiteFile, `{"suite": "Outcomes", "agent": {"name": "A", "command": ["sh", "agent.sh"], "env": ["BAD"]},
	  "questions": [{"id": "capital", "question": "Capital of Japan?",
	    "expected_actions": [{"name": "lookup", "arguments": {"city": "Tokyo"}}, {"name": "log"}],
	    "checks": [{"type": "action_group"}, {"type": "tool_success"}]}]}`)
	url := testdb.SQLiteURL(t)
	run := func(env string) (string, error) {
		cmd := exec.Command(bin, "--database-url", url, "run", suiteFile)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "NO_COLOR=1", "CI=true", env}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, _ := run("BAD=0")
	c := newestRun(t, url).Cases[0]
	got := map[string]string{}
	for _, m := range c.Metrics {
		got[m.Name] = deref(m.Reason)
		if want := m.Name == "action_group"; m.Passed != want {
			t.Errorf("%s passed = %v, want %v (reason %q)\n%s", m.Name, m.Passed, want, deref(m.Reason), out)
		}
	}
	if !strings.Contains(got["tool_success"], "log") {
		t.Errorf("tool_success reason %q does not name the failed call", got["tool_success"])
	}
	for _, want := range []string{`"status":"ok"`, `"result":{"capital":true}`, `"duration_ms":12.5`, `"result":"disk full"`} {
		if !strings.Contains(string(c.Actions), want) {
			t.Errorf("stored actions %s lack %s", c.Actions, want)
		}
	}
	run("BAD=1")
	if c := newestRun(t, url).Cases[0]; !strings.Contains(string(c.ErrorDetails), `actions[0].status: want \"ok\" or \"error\"`) {
		t.Errorf("bad status: error %s", c.ErrorDetails)
	}
}
