package faults

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// suiteJSON is a suite of n questions for agent (a JSON object).
func suiteJSON(a string, n int) string {
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "question %d", "expected_answer": "ok"}`, i, i))
	}
	return `{"suite": "Faults", "agent": ` + a + `, "evaluators": {"has_ok": {"type": "contains", "params": {"value": "ok"}}},
	  "questions": [` + strings.Join(qs, ",") + `]}`
}

// Row 1: lone surrogates and NUL from an agent no longer lose the run on
// PostgreSQL; a suite holding one is refused by validate (exit 2) rather
// than accepted and then unsaveable.
func TestRow1_LoneSurrogatesAreSaved(t *testing.T) {
	db := postgres(t)
	dir := writeFiles(t, map[string]string{
		"agent.sh":   `cat >/dev/null; printf '{"output":"ok\\ud800","metadata":{"k\\udc00":"v\\u0000"}}'; printf 'bad \355\240\200 bytes' >&2`,
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 2),
	})
	r := evalrun(t, dir, "--database-url", db, "run", "suite.json")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tables := dumpTables(t, db)
	if !strings.Contains(tables, `ok\ufffd`) && !strings.Contains(tables, "ok\uFFFD") {
		t.Errorf("saved output lacks the repaired answer:\n%s", tables)
	}
	if !strings.Contains(tables, `"sanitized"`) {
		t.Errorf("response metadata does not say the case was sanitized:\n%s", tables)
	}

	bad := writeFiles(t, map[string]string{"suite.json": strings.Replace(suiteJSON(`{"name": "A", "command": ["true"]}`, 1), "question 0", `question \ud800`, 1)})
	v := evalrun(t, bad, "validate", "suite.json")
	if v.code != 2 || !strings.Contains(v.stderr, "surrogate") || !strings.Contains(v.stderr, "suite.json:") {
		t.Errorf("validate of a suite with \\ud800: exit %d: %s", v.code, v.stderr)
	}
}

// Row 2: a 200 KB suite nested 100,000 levels deep is refused by the
// depth limit, naming the file, the path and the limit, without the
// quadratic time and memory it once took (50 s, 15 GB).
func TestRow2_DeepSuiteIsRefused(t *testing.T) {
	deep := `{"suite": "Deep", "agent": {"name": "A", "command": ["true"]}, "questions": [{"id": "q", "question": ` +
		strings.Repeat(`{"a":`, 100000) + `1` + strings.Repeat(`}`, 100000) + `}]}`
	deepYAML := "suite: Deep\nquestions:\n- question: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	dir := writeFiles(t, map[string]string{"deep.json": deep, "deep.yaml": deepYAML})
	for _, name := range []string{"deep.json", "deep.yaml"} {
		r := evalrun(t, dir, "validate", name)
		t.Logf("validate %s (%d KB): exit %d in %s, peak RSS %d MB", name, len(deep)/1024, r.code, r.elapsed.Round(time.Millisecond), r.peakRSSKB/1024)
		if r.code != 2 || !strings.Contains(r.stderr, name) || !strings.Contains(r.stderr, "limit: depth 128") {
			t.Errorf("validate %s: exit %d: %s", name, r.code, r.stderr)
		}
		if r.peakRSSKB > 500*1024 { // loose: the quadratic decoder took 15 GB
			t.Errorf("validate %s peaked at %d MB", name, r.peakRSSKB/1024)
		}
	}
}

// Rows 3 and 4: secrets in agent stderr, in an http agent's URL (user
// information and query) and in agent metadata reach neither a table, nor
// any report format, nor the terminal.
func TestRows3And4_SecretsNeverLeak(t *testing.T) {
	secrets := []string{"sk-faultsecret0003abcd", "bearer-fault-0003", "qkey-fault-0003", "pw-fault-0004", "qkey-fault-0004", "ghp_faultsecret0004abcd"}
	db := postgres(t)
	cmdDir := writeFiles(t, map[string]string{
		"agent.sh": `cat >/dev/null
echo "Authorization: Bearer bearer-fault-0003" >&2
echo "GET https://api.example/v1?api_key=qkey-fault-0003 failed" >&2
echo "using key sk-faultsecret0003abcd" >&2
exit 3`,
		"suite.json": suiteJSON(`{"name": "Cmd", "command": ["sh", "agent.sh"]}`, 1),
	})
	r := evalrun(t, cmdDir, "--database-url", db, "run", "suite.json")
	if r.code != 1 {
		t.Fatalf("run: exit %d, want 1 (agent error)\n%s%s", r.code, r.stdout, r.stderr)
	}
	docs := allReports(t, db)
	docs["terminal (command agent)"] = r.stdout + r.stderr

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Error(w, "upstream said: token=ghp_faultsecret0004abcd", http.StatusBadGateway)
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://bob:pw-fault-0004@", 1) + "/ask?api_key=qkey-fault-0004&lang=en"
	httpDir := writeFiles(t, map[string]string{"suite.json": suiteJSON(`{"name": "Http", "url": "`+u+`"}`, 1)})
	r = evalrun(t, httpDir, "--database-url", db, "run", "suite.json")
	if r.code != 1 {
		t.Fatalf("http run: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	docs["terminal (http agent)"] = r.stdout + r.stderr
	for k, v := range allReports(t, db) {
		docs[k+" (http agent)"] = v
	}
	docs["tables"] = dumpTables(t, db)
	if !strings.Contains(docs["tables"], "[REDACTED]") {
		t.Errorf("tables show no redaction at all:\n%s", docs["tables"])
	}
	if !strings.Contains(docs["tables"], `"url": "http://bob:[REDACTED]@`) {
		t.Errorf("details.url is not the redacted URL:\n%s", docs["tables"])
	}
	assertNoSecrets(t, docs, secrets...)
}

// Row 5: free text in replay evidence (an observed request body's "note")
// keeps no secret-looking value.
func TestRow5_ReplayEvidenceFreeText(t *testing.T) {
	db := postgres(t)
	a := `cat >/dev/null
curl -s -o /dev/null -X POST http://api.example/v1/notes -H 'Content-Type: application/json' \
  -d '{"note": "token=sk-faultreplay0005abcd", "text": "call me with Bearer replay-bearer-0005"}'
echo ok`
	s := `{"suite": "Replay", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "evaluators": {"has_ok": {"type": "contains", "params": {"value": "ok"}}},
	  "questions": [{"id": "q", "question": "x", "expected_answer": "ok",
	    "api_interactions": [{"expect_request": {"method": "POST", "url": "http://api.example/v1/notes", "json": {"note": "hello"}},
	                          "respond_with": {"json": {"ok": true}}}]}]}`
	dir := writeFiles(t, map[string]string{"agent.sh": a, "suite.json": s})
	r := evalrun(t, dir, "--database-url", db, "run", "suite.json")
	if r.code != 1 { // the request does not match the declaration: an agent error
		t.Fatalf("run: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	docs := allReports(t, db)
	docs["tables"] = dumpTables(t, db)
	docs["terminal"] = r.stdout + r.stderr
	if !strings.Contains(docs["tables"], "api_replay") {
		t.Fatalf("no replay evidence saved:\n%s", docs["tables"])
	}
	assertNoSecrets(t, docs, "sk-faultreplay0005abcd", "replay-bearer-0005")
}

// Row 6: an agent that answers but leaves children running (one in its
// process group, one escaped with setsid) gets a clear case error, at once,
// and no child outlives the run.
func TestRow6_BackgroundChildrenAreKilled(t *testing.T) {
	db := postgres(t)
	dir := writeFiles(t, map[string]string{
		"agent.sh": `cat >/dev/null
sleep 1000 & echo $! >> pids
setsid sleep 1001 </dev/null >/dev/null 2>&1 & echo $! >> pids
echo ok`,
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 3),
	})
	r := evalrun(t, dir, "--database-url", db, "run", "suite.json")
	if r.code != 1 {
		t.Fatalf("run: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	tables := dumpTables(t, db)
	if !strings.Contains(tables, "agent left background processes running") || strings.Contains(tables, "WaitDelay") {
		t.Errorf("case errors do not name the background processes:\n%s", tables)
	}
	pids := readPids(t, filepath.Join(dir, "pids"))
	if len(pids) != 6 {
		t.Fatalf("agent recorded %d pids, want 6", len(pids))
	}
	assertAllGone(t, pids)
}

// Row 6, continued: when evalrun itself is killed with SIGKILL mid-run, the
// agents, their children and their setsid escapees die too.
func TestRow6_SIGKILLedEvalrunLeavesNothing(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"agent.sh": `cat >/dev/null
sleep 1000 & echo $! >> pids
setsid sleep 1001 </dev/null >/dev/null 2>&1 & echo $! >> pids
echo $$ >> pids
sleep 1002`,
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 2),
	})
	cmd := evalrunCmd(dir, "--database-url", "sqlite:"+filepath.Join(dir, "db.sqlite3"), "run", "-j", "2", "suite.json")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(readPids(t, filepath.Join(dir, "pids"))) < 6 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	pids := readPids(t, filepath.Join(dir, "pids"))
	if len(pids) != 6 {
		t.Fatalf("agents recorded %d pids, want 6", len(pids))
	}
	assertAllGone(t, pids)
}

// Row 7: eight 20 MB answers at -j 4 are cut to the answer cap; evalrun's
// peak RSS no longer grows with the answers (it was 1.14 GB), and the
// evidence and the report say the answer was truncated.
func TestRow7_LargeAnswersAreCapped(t *testing.T) {
	db := postgres(t)
	dir := writeFiles(t, map[string]string{
		"agent.sh":   `cat >/dev/null; printf '{"output":"ok '; head -c 20000000 /dev/zero | tr '\0' a; printf '"}'`,
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 8),
	})
	r := evalrun(t, dir, "--database-url", db, "run", "-j", "4", "suite.json")
	t.Logf("8 × 20 MB answers at -j 4: exit %d in %s, evalrun peak RSS %d MB", r.code, r.elapsed.Round(time.Millisecond), r.peakRSSKB/1024)
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r.peakRSSKB > 400*1024 { // loose: it was 1.14 GB; the goal is 150 MB (see the closing note)
		t.Errorf("peak RSS %d MB", r.peakRSSKB/1024)
	}
	tables := dumpTables(t, db)
	if n := strings.Count(tables, `output_truncated`); n < 8 {
		t.Errorf("%d cases say their output was truncated, want 8", n)
	}
	var sizes []int
	for _, line := range strings.Split(tables, "\n") {
		var row struct {
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal([]byte(line), &row) == nil && row.Output != nil {
			sizes = append(sizes, len(row.Output))
		}
	}
	for _, n := range sizes {
		if n > 2<<20 {
			t.Errorf("a stored output is %d bytes", n)
		}
	}
	rep := evalrun(t, dir, "--database-url", db, "report", "--format", "json")
	if !strings.Contains(rep.stdout, "output_truncated") {
		t.Errorf("the JSON report does not say the output was truncated")
	}
	for _, f := range []string{"text", "markdown"} {
		if rep := evalrun(t, dir, "--database-url", db, "report", "--format", f); strings.Count(rep.stdout, "answer cut to its first") != 8 {
			t.Errorf("the %s report does not say each answer was cut:\n%s", f, rep.stdout)
		}
	}
}

func evalrunCmd(dir string, args ...string) *execCmd {
	c := newExecCmd(evalrunBin, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "NO_COLOR=1")
	return c
}
