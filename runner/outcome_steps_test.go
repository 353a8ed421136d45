package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// deskDB creates a SQLite database with an orders table and a log of
// steps, and points DESK_DB at it.
func deskDB(t *testing.T) *sql.DB {
	t.Helper()
	url := testdb.SQLiteURL(t)
	db, err := sql.Open("sqlite", "file:"+strings.TrimPrefix(url, "sqlite:"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, stmt := range []string{"CREATE TABLE orders (ref TEXT, item TEXT, n INTEGER)", "CREATE TABLE steps (phase TEXT, ref TEXT, run TEXT)"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("DESK_DB", url)
	return db
}

// TestOutcome_SetupAndTeardown: setup runs before every question with its
// data, a failed setup is a case error whose agent is never asked, and
// teardown runs for every question, even when the agent failed.
func TestOutcome_SetupAndTeardown(t *testing.T) {
	db := deskDB(t)
	s := loadIn(t, t.TempDir(), `{"suite": "Steps", "agent": {"name": "A"},
	  "databases": {"desk": {"url_env": "DESK_DB"}},
	  "setup": [
	    {"database": "desk", "sql": "INSERT INTO steps VALUES ('setup', ?, ?)", "args": ["case_id", "run_id"]},
	    {"command": ["sh", "-c", "if grep -q '\"case_id\":\"bad\"'; then echo no fixture >&2; exit 1; fi"]}],
	  "teardown": [{"database": "desk", "sql": "INSERT INTO steps VALUES ('teardown', ?, ?)", "args": ["case_id", "run_id"]}],
	  "questions": [
	    {"id": "a", "question": "q", "checks": [{"type": "contains", "value": "done"}]},
	    {"id": "b", "question": "q", "checks": [{"type": "contains", "value": "done"}]},
	    {"id": "bad", "question": "q", "checks": [{"type": "contains", "value": "done"}]}]}`, nil)
	asked := map[string]bool{}
	run := mustExecute(t, s, agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		asked[q.ID] = true
		if q.ID == "b" {
			return agent.Response{}, errors.New("agent down")
		}
		return agent.Response{Output: []byte(`"done."`)}, nil
	}), ExecOptions{Concurrency: 1})
	if asked["bad"] {
		t.Error("the agent was asked a question whose setup failed")
	}
	status := map[string]string{}
	for _, c := range run.Cases {
		status[c.CaseID] = c.Status
	}
	if status["a"] != models.StatusPassed || status["b"] != models.StatusError || status["bad"] != models.StatusError {
		t.Errorf("statuses %v, want a passed, b and bad errors", status)
	}
	bad := run.Cases[2]
	if got := errKind(t, bad.ErrorDetails); !strings.Contains(got, "setup") || !strings.Contains(got, `"bad"`) || !strings.Contains(got, "$.setup[1]") {
		t.Errorf("setup error %q, want it to name the phase, the question and the step", got)
	}
	if m := bad.Metrics[0]; m.Passed || m.Score != nil {
		t.Errorf("metric of a failed setup: passed=%v score=%v, want not calculated", m.Passed, m.Score)
	}
	rows, err := db.Query("SELECT phase, ref, run FROM steps ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var phase, ref, runID string
		if err := rows.Scan(&phase, &ref, &runID); err != nil {
			t.Fatal(err)
		}
		if runID != run.ID.String() {
			t.Errorf("step %s %s got run id %q, want %s", phase, ref, runID, run.ID)
		}
		got = append(got, phase+" "+ref)
	}
	want := "setup a,teardown a,setup b,teardown b,setup bad,teardown bad"
	if strings.Join(got, ",") != want {
		t.Errorf("steps %v, want %s", got, want)
	}
}

// TestOutcome_StateExpectations: value, rows and row_set, with arguments
// from the case id and the metadata, and the observed value kept in the
// metric's details.
func TestOutcome_StateExpectations(t *testing.T) {
	db := deskDB(t)
	if _, err := db.Exec("INSERT INTO orders VALUES ('a', 'pens', 12), ('a', 'paper', 5), ('b', 'stapler', 1)"); err != nil {
		t.Fatal(err)
	}
	check := func(name, query, args, expect string) string {
		return fmt.Sprintf(`{"type": "db_state", "name": %q, "database": "desk", "query": %q, "args": %s, "expect": %s}`, name, query, args, expect)
	}
	s := loadIn(t, t.TempDir(), `{"suite": "State", "agent": {"name": "A"},
	  "databases": {"desk": {"url_env": "DESK_DB"}},
	  "questions": [{"id": "a", "question": "q", "metadata": {"item": "pens"}, "checks": [`+strings.Join([]string{
		check("qty", "SELECT n FROM orders WHERE ref = ? AND item = ?", `["case_id", "metadata.item"]`, `{"value": 12}`),
		check("count", "SELECT * FROM orders WHERE ref = ?", `["case_id"]`, `{"rows": 2}`),
		check("set", "SELECT item, n FROM orders WHERE ref = ?", `["case_id"]`, `{"row_set": [["paper", 5], ["pens", 12]]}`),
		check("wrong", "SELECT n FROM orders WHERE ref = ? AND item = ?", `["case_id", "metadata.item"]`, `{"value": 13}`),
		check("missing", "SELECT n FROM orders WHERE item = ?", `["metadata.colour"]`, `{"value": 1}`),
	}, ",")+`]}]}`, nil)
	run := mustExecute(t, s, okAgent, ExecOptions{})
	c := run.Cases[0]
	for name, pass := range map[string]bool{"qty": true, "count": true, "set": true, "wrong": false} {
		m := metricOf(t, c, name)
		if m.Score == nil || m.Passed != pass {
			t.Errorf("%s: passed=%v score=%v (%v), want passed=%v", name, m.Passed, m.Score, m.ErrorDetails, pass)
		}
	}
	if m := metricOf(t, c, "missing"); m.Score != nil || !strings.Contains(errKind(t, m.ErrorDetails), "colour") {
		t.Errorf("missing metadata: %s, want a missing_input error naming the key", m.ErrorDetails)
	}
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil {
		t.Fatal(err)
	}
	if d := meta.MetricDetails["wrong"]; string(d["observed"]) != "12" || !strings.Contains(string(d["query"]), "SELECT n FROM orders") {
		t.Errorf("details of wrong: %v, want the query and the observed 12", d)
	}
}

// TestOutcome_BadInputRefused: an unknown database is refused at load, a
// query that does not parse or an unset URL variable before any question
// is asked, each naming the file and the field.
func TestOutcome_BadInputRefused(t *testing.T) {
	deskDB(t)
	dir := t.TempDir()
	_, err := suite.Load(testfile.Write(t, dir, "suite.json", `{"suite": "X", "agent": {"name": "A"}, "databases": {"desk": {"url_env": "DESK_DB"}},
	  "questions": [{"id": "a", "question": "q", "checks": [{"type": "db_state", "database": "shop", "query": "SELECT 1", "expect": {"rows": 1}}]}]}`))
	if err == nil || !strings.Contains(err.Error(), "suite.json: $.questions[0].checks[0].database: unknown database \"shop\" (declared: desk)") {
		t.Errorf("unknown database: %v", err)
	}
	for name, tc := range map[string]struct{ suite, want string }{
		"syntax": {`{"suite": "X", "agent": {"name": "A"}, "databases": {"desk": {"url_env": "DESK_DB"}},
		  "questions": [{"id": "a", "question": "q", "checks": [{"type": "db_state", "database": "desk", "query": "SELEKT 1", "expect": {"rows": 1}}]}]}`,
			"suite.json: $.questions[0].checks[0].query: the query does not prepare"},
		"missing verifier": {`{"suite": "X", "agent": {"name": "A"},
		  "questions": [{"id": "a", "question": "q", "checks": [{"type": "verifier", "command": ["./no-such-verifier"]}]}]}`,
			"suite.json: $.questions[0].checks[0].command: program"},
		"missing setup": {`{"suite": "X", "agent": {"name": "A"}, "setup": [{"command": ["no-such-setup-program"]}],
		  "questions": [{"id": "a", "question": "q", "checks": [{"type": "contains", "value": "x"}]}]}`,
			"suite.json: $.setup[0].command: program \"no-such-setup-program\" is not on PATH"},
		"unset": {`{"suite": "X", "agent": {"name": "A"}, "databases": {"desk": {"url_env": "NO_SUCH_DESK_DB"}},
		  "questions": [{"id": "a", "question": "q", "checks": [{"type": "contains", "value": "x"}]}]}`,
			"suite.json: $.databases.desk.url_env: environment variable NO_SUCH_DESK_DB is not set"},
	} {
		t.Run(name, func(t *testing.T) {
			s := loadIn(t, t.TempDir(), tc.suite, nil)
			asked := false
			_, err := Execute(context.Background(), s, agent.Func(func(context.Context, agent.Question) (agent.Response, error) {
				asked = true
				return agent.Response{}, nil
			}), ExecOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
			if asked {
				t.Error("the agent was asked before the suite was refused")
			}
		})
	}
}

// TestOutcome_GateOnTheirOwn: outcome checks are deterministic for the
// gates: not judged, so a new failure gates by itself.
func TestOutcome_GateOnTheirOwn(t *testing.T) {
	deskDB(t)
	dir := t.TempDir()
	s := loadIn(t, dir, `{"suite": "G", "agent": {"name": "A"}, "databases": {"desk": {"url_env": "DESK_DB"}},
	  "questions": [{"id": "a", "question": "q", "checks": [
	    {"type": "db_state", "database": "desk", "query": "SELECT 1", "expect": {"rows": 1}},
	    {"type": "verifier", "command": ["sh", "-c", "cat >/dev/null; echo '{\"score\": 1, \"reason\": \"ok\"}'"]}]}]}`, nil)
	run := mustExecute(t, s, okAgent, ExecOptions{})
	judged := compare.JudgedMetrics(run, nil, compare.Options{})
	for _, name := range []string{"db_state", "verifier"} {
		if judged(name) {
			t.Errorf("%s counts as a judge metric; outcome checks are deterministic", name)
		}
		if m := metricOf(t, run.Cases[0], name); !m.Passed {
			t.Errorf("%s did not pass: %v", name, m.ErrorDetails)
		}
	}
}

// TestOutcome_SecretsStayOut: a database URL's password never reaches an
// error, and a verifier's reason is sanitized like every stored string.
func TestOutcome_SecretsStayOut(t *testing.T) {
	t.Setenv("DESK_DB", "postgres://agent:s3cret-Passw0rd@127.0.0.1:1/desk?connect_timeout=2")
	s := loadIn(t, t.TempDir(), `{"suite": "X", "agent": {"name": "A"}, "databases": {"desk": {"url_env": "DESK_DB"}},
	  "questions": [{"id": "a", "question": "q", "checks": [{"type": "db_state", "database": "desk", "query": "SELECT 1", "expect": {"rows": 1}}]}]}`, nil)
	_, err := Execute(context.Background(), s, okAgent, ExecOptions{})
	if err == nil || strings.Contains(err.Error(), "s3cret-Passw0rd") || !strings.Contains(err.Error(), "DESK_DB") {
		t.Errorf("unreachable database: %v, want an error naming DESK_DB without the password", err)
	}
	secret := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)
	s = loadIn(t, t.TempDir(), `{"suite": "V", "agent": {"name": "A"}, "questions": [{"id": "a", "question": "q",
	  "checks": [{"type": "verifier", "command": ["sh", "-c", "cat >/dev/null; echo '{\"score\": 1, \"reason\": \"token `+secret+` works\"}'"]}]}]}`, nil)
	run := mustExecute(t, s, okAgent, ExecOptions{})
	m := metricOf(t, run.Cases[0], "verifier")
	if m.Reason == nil || strings.Contains(*m.Reason, secret) || strings.Contains(string(run.Cases[0].ResponseMetadata), secret) {
		t.Errorf("the secret was stored: reason %v, metadata %s", m.Reason, run.Cases[0].ResponseMetadata)
	}
}
