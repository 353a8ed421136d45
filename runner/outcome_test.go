package runner

import (
	"context"
	"database/sql"
	"encoding/json"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// loadIn writes a suite file (and the given scripts) into dir and loads it.
func loadIn(tb testing.TB, dir, content string, files map[string]string) *suite.Suite {
	tb.Helper()
	for name, body := range files {
		testfile.Write(tb, dir, name, body)
	}
	s, err := suite.Load(testfile.Write(tb, dir, "suite.json", content))
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}

// okAgent answers "done." to every question.
var okAgent = answers(map[string]string{"a": "done.", "b": "done.", "c": "done.", "bad": "done."})

// metricOf returns the case's metric called name.
func metricOf(tb testing.TB, c *models.CaseResult, name string) *models.MetricResult {
	tb.Helper()
	for _, m := range c.Metrics {
		if m.Name == name {
			return m
		}
	}
	tb.Fatalf("case %s has no metric %s", c.CaseID, name)
	return nil
}

func errKind(tb testing.TB, j models.JSON) string {
	tb.Helper()
	var e struct{ Kind, Message string }
	if err := json.Unmarshal(j, &e); err != nil {
		tb.Fatalf("error details %s: %v", j, err)
	}
	return e.Kind + ": " + e.Message
}

// TestOutcome_VerifierFailuresAreErrors: a verifier that crashes, hangs,
// floods stdout, prints nothing or prints no verdict makes a metric error
// naming the program, never a pass.
func TestOutcome_VerifierFailuresAreErrors(t *testing.T) {
	for _, tc := range []struct {
		name, script, want string
	}{
		{"crash", "cat >/dev/null; echo boom >&2; exit 3", "verifier_exit_status"},
		{"hang", "sleep 30", "verifier_timeout"},
		{"flood", "cat >/dev/null; head -c 40000000 /dev/zero | tr '\\0' 'x'", "verifier_bad_response"},
		{"nothing", "cat >/dev/null", "printed nothing"},
		{"text", "cat >/dev/null; echo looks good", "want one JSON object"},
		{"out of range", `cat >/dev/null; echo '{"score": 2, "reason": "r"}'`, "is not in [0,1]"},
		{"no reason", `cat >/dev/null; echo '{"passed": true}'`, `no "reason"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := loadIn(t, dir, `{"suite": "V", "agent": {"name": "A"}, "questions": [
			  {"id": "a", "question": "q", "checks": [{"type": "verifier", "command": ["sh", "verify.sh"], "timeout": "1s"}]}]}`,
				map[string]string{"verify.sh": tc.script})
			run := mustExecute(t, s, okAgent, ExecOptions{})
			m := metricOf(t, run.Cases[0], "verifier")
			if m.Passed || m.Score != nil {
				t.Fatalf("metric passed=%v score=%v, want an error", m.Passed, m.Score)
			}
			if got := errKind(t, m.ErrorDetails); !strings.Contains(got, tc.want) || !strings.Contains(got, "verify.sh") && tc.name != "flood" {
				t.Errorf("error %q, want it to say %q and name the program", got, tc.want)
			}
			if run.Cases[0].Status != models.StatusError {
				t.Errorf("case status %s, want error", run.Cases[0].Status)
			}
		})
	}
}

// TestOutcome_VerifierWorkerBootsOnce: two verifier checks of five
// questions share one worker process that boots once for the run.
func TestOutcome_VerifierWorkerBootsOnce(t *testing.T) {
	dir := t.TempDir()
	boots := filepath.Join(dir, "boots")
	t.Setenv("VERIFIER_BOOTS", boots)
	var qs []string
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		qs = append(qs, `{"id": "`+id+`", "question": "q"}`)
	}
	s := loadIn(t, dir, `{"suite": "W", "agent": {"name": "A"},
	  "evaluators": {
	    "first": {"type": "verifier", "params": {"command": ["sh", "verify.sh"], "worker": true, "env": ["VERIFIER_BOOTS"]}},
	    "second": {"type": "verifier", "params": {"command": ["sh", "verify.sh"], "worker": true, "env": ["VERIFIER_BOOTS"]}}},
	  "questions": [`+strings.Join(qs, ",")+`]}`,
		map[string]string{"verify.sh": `echo boot >> "$VERIFIER_BOOTS"
while read -r line; do
  case "$line" in *'"check":"first"'*) echo '{"score": 1, "reason": "first ok"}' ;; *) echo '{"passed": false, "reason": "second says no"}' ;; esac
done`})
	run := mustExecute(t, s, agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		return agent.Response{Output: json.RawMessage(`"done."`)}, nil
	}), ExecOptions{Concurrency: 1})
	for _, c := range run.Cases {
		if m := metricOf(t, c, "first"); !m.Passed || *m.Reason != "first ok (verifier sh verify.sh)" {
			t.Errorf("%s first: passed=%v reason=%v", c.CaseID, m.Passed, *m.Reason)
		}
		if m := metricOf(t, c, "second"); m.Passed || m.Score == nil || *m.Score != 0 {
			t.Errorf("%s second: passed=%v score=%v, want a scored failure", c.CaseID, m.Passed, m.Score)
		}
	}
	b, err := os.ReadFile(boots)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "boot"); n != 1 {
		t.Errorf("the verifier booted %d times, want once for the run", n)
	}
}

// stateSuite is a suite whose one question is scored by a state check
// running query against the database in DESK_DB.
func stateSuite(query string) string {
	q, _ := json.Marshal(query)
	return `{"suite": "S", "agent": {"name": "A"}, "databases": {"desk": {"url_env": "DESK_DB"}},
	  "questions": [{"id": "a", "question": "q", "metadata": {"n": 7},
	    "checks": [{"type": "db_state", "database": "desk", "query": ` + string(q) + `, "args": [], "expect": {"rows": 0}}]}]}`
}

// TestOutcome_StateCheckCannotWrite: a state check whose query writes
// (INSERT, UPDATE, DELETE, DDL) fails with a clear error and leaves the
// database unchanged, on SQLite and PostgreSQL.
func TestOutcome_StateCheckCannotWrite(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			var url, driver, dsn string
			if dialect == "sqlite" {
				url = testdb.SQLiteURL(t)
				driver, dsn = "sqlite", "file:"+strings.TrimPrefix(url, "sqlite:")
			} else {
				url = testdb.PostgresURL(t)
				driver, dsn = "pgx", url
			}
			db, err := sql.Open(driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("CREATE TABLE orders (ref TEXT, n INTEGER)"); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("INSERT INTO orders VALUES ('a', 1)"); err != nil {
				t.Fatal(err)
			}
			t.Setenv("DESK_DB", url)
			for _, q := range []string{
				"INSERT INTO orders VALUES ('b', 2)",
				"UPDATE orders SET n = 9",
				"DELETE FROM orders",
				"DROP TABLE orders",
				"CREATE TABLE extra (x INTEGER)",
				"ALTER TABLE orders ADD COLUMN y INTEGER",
				"SELECT 1 WHERE false; DELETE FROM orders",
			} {
				s := loadIn(t, t.TempDir(), stateSuite(q), nil)
				run, err := Execute(context.Background(), s, okAgent, ExecOptions{})
				switch {
				case err != nil && strings.Contains(err.Error(), "suite.json: $.questions[0].checks[0].query: the query does not prepare"):
					// refused before any question (PostgreSQL prepares one statement only)
				case err != nil:
					t.Fatalf("%s: %v", q, err)
				default:
					checkRefused(t, q, metricOf(t, run.Cases[0], "db_state"))
				}
				var count, sum int
				if err := db.QueryRow("SELECT count(*), coalesce(sum(n), 0) FROM orders").Scan(&count, &sum); err != nil {
					t.Fatalf("after %s: %v", q, err)
				}
				if count != 1 || sum != 1 {
					t.Fatalf("after %s: %d rows summing %d, want the one row unchanged", q, count, sum)
				}
			}
			if _, err := db.Exec("SELECT y FROM orders"); err == nil {
				t.Error("ALTER TABLE added a column")
			}
		})
	}
}

// checkRefused: the state check's metric is a read-only error.
func checkRefused(t *testing.T, q string, m *models.MetricResult) {
	t.Helper()
	if m.Passed || m.Score != nil {
		t.Errorf("%s: passed=%v score=%v, want an error", q, m.Passed, m.Score)
	} else if got := errKind(t, m.ErrorDetails); !strings.Contains(got, "state_query") || !strings.Contains(got, "read-only") {
		t.Errorf("%s: error %q, want a state_query error saying the check is read-only", q, got)
	}
}
