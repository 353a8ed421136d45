package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// buildBinary builds evalrun into a temp dir, for tests that run the real
// program with its own process and exit code.
func buildBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build evalrun (put Go on PATH): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "evalrun")
	out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -o %s ./cmd/evalrun: %v\n%s", bin, err, out)
	}
	return bin
}

// TestBinary_StrayLineBeforeJSONReply runs the real evalrun on a command
// agent that prints a debug line before its JSON reply. The raw stdout
// holds "Tokyo" (in the action's arguments) while the answer is "Kyoto":
// read as plain text, contains "Tokyo" passed on the protocol JSON and
// action_group saw no actions. Now the last line is the reply, the debug
// line is kept in response_metadata.reply_note and said on screen; with
// agent.reply "json" the same agent is a case error; a last line that is
// JSON but no Response is scored as text and said so.
func TestBinary_StrayLineBeforeJSONReply(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null
echo "debug: got japan"
if [ "$BAD" = 1 ]; then echo '{"outputs": "Tokyo"}'; exit 0; fi
echo '{"output": "The capital is Kyoto", "actions": [{"group": "geo", "name": "lookup", "arguments": {"city": "Tokyo"}}]}'
`)
	suiteFile := func(name, reply string) string {
		p := filepath.Join(dir, name+".json")
		writeTestFile(t, p, `{"suite": "Stray `+name+`", "agent": {"name": "A", "command": ["sh", "agent.sh"], "env": ["BAD"]`+reply+`},
		  "questions": [{"id": "capital", "question": "Capital of Japan?",
		    "expected_actions": [{"group": "geo", "name": "lookup", "arguments": {"city": "Tokyo"}}],
		    "checks": [{"type": "contains", "value": "Tokyo"}, {"type": "action_group"}]}]}`)
		return p
	}
	url := testdb.SQLiteURL(t)
	run := func(env string, args ...string) (int, string, string) {
		cmd := exec.Command(bin, append([]string{"--database-url", url, "run"}, args...)...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "NO_COLOR=1", "CI=true", env}
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errOut.String()
	}
	caseOf := func() *models.CaseResult {
		r := newestRun(t, url)
		if len(r.Cases) != 1 {
			t.Fatalf("newest run has %d cases, want 1", len(r.Cases))
		}
		return r.Cases[0]
	}

	code, out, stderr := run("BAD=0", suiteFile("auto", ""))
	if code != exitFailed {
		t.Fatalf("auto: exit %d, want %d (contains Tokyo fails on the answer Kyoto)\n%s%s", code, exitFailed, out, stderr)
	}
	c := caseOf()
	var answer string
	if err := json.Unmarshal(c.Output, &answer); err != nil || answer != "The capital is Kyoto" {
		t.Fatalf("output = %s, want the Response's output string", c.Output)
	}
	for _, m := range c.Metrics {
		want := m.Name == "action_group"
		if m.Passed != want {
			t.Errorf("%s passed = %v, want %v (reason %v)", m.Name, m.Passed, want, deref(m.Reason))
		}
	}
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || meta.ReplyNote == nil || meta.ReplyNote.ReadAs != "json" || meta.ReplyNote.TextBefore != "debug: got japan" {
		t.Fatalf("reply_note = %+v (%v), want read_as json with the debug line", meta.ReplyNote, err)
	}
	if !strings.Contains(out, "note: reply read from the last line of stdout; 1 line of text before it kept as a note") ||
		!strings.Contains(stderr, `warning: the agent printed text before its JSON reply on 1 question (capital)`) {
		t.Errorf("the screen does not say the reply was not one JSON object:\n%s%s", out, stderr)
	}

	code, out, stderr = run("BAD=0", suiteFile("json", `, "reply": "json"`))
	if code != exitFailed {
		t.Fatalf("reply json: exit %d, want %d\n%s%s", code, exitFailed, out, stderr)
	}
	if c := caseOf(); c.Status != models.StatusError || !strings.Contains(string(c.ErrorDetails), `agent.reply is \"json\": got text \"debug: got japan`) {
		t.Fatalf("reply json: status %s, error %s; want an agent error naming the text", c.Status, c.ErrorDetails)
	}

	code, out, stderr = run("BAD=1", suiteFile("bad", ""))
	if code != exitFailed {
		t.Fatalf("bad: exit %d, want %d\n%s%s", code, exitFailed, out, stderr)
	}
	meta, _ = models.DecodeCaseMetadata(caseOf().ResponseMetadata)
	if meta.ReplyNote == nil || meta.ReplyNote.ReadAs != "text" || !strings.Contains(meta.ReplyNote.ObjectError, `unknown key "outputs"`) {
		t.Fatalf("reply_note = %+v, want read_as text naming the bad key", meta.ReplyNote)
	}
	if !strings.Contains(out, "reply read and scored as PLAIN TEXT although it holds a JSON object") ||
		!strings.Contains(stderr, "the reply holds a JSON object but was read and scored as plain text") {
		t.Errorf("the screen does not say the reply was scored as text:\n%s%s", out, stderr)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
