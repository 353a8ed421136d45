package faults

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/suite"
)

// TestSuiteAndOperatorTextIsRedacted plants credentials in what the suite
// author wrote (question, expected answer, question metadata and tags,
// which also name GitHub annotations) and in --metadata, runs the suite
// through the real binary, and finds none of them in the tables, in any
// report format or on the terminal. The run's digest is the one
// `evalrun validate` computes from the suite as written.
func TestSuiteAndOperatorTextIsRedacted(t *testing.T) {
	secrets := []string{"sk-suitequestion0001abcd", "suite-token-0002", "ghp_suitetag0003abcdefgh", "meta-key-0004",
		"sk-operatormeta0005abcd", "AKIAABCDEFGHSUITE006"}
	db := postgres(t)
	dir := writeFiles(t, map[string]string{
		"agent.sh": "cat >/dev/null; printf '{\"output\": \"ok\"}'",
		"suite.json": `{"suite": "SuiteText", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
		  "questions": [{"id": "q1", "name": "Deploy with AKIAABCDEFGHSUITE006",
		    "question": "Call the API with key sk-suitequestion0001abcd, then answer ok",
		    "expected_answer": "ok (sent token=suite-token-0002)",
		    "metadata": {"tags": ["ghp_suitetag0003abcdefgh"], "api_key": "meta-key-0004"},
		    "checks": [{"type": "contains", "value": "nope"}]}]}`,
	})
	r := evalrun(t, dir, "--database-url", db, "run", "suite.json", "--metadata", `{"deploy_token": "x1", "note": "key sk-operatormeta0005abcd"}`)
	if r.code != 1 {
		t.Fatalf("run: exit %d, want 1 (the check fails)\n%s%s", r.code, r.stdout, r.stderr)
	}
	docs := allReports(t, db)
	docs["terminal"] = r.stdout + r.stderr
	docs["tables"] = dumpTables(t, db)
	assertNoSecrets(t, docs, secrets...)
	if !strings.Contains(docs["tables"], "[REDACTED]") {
		t.Errorf("the tables show no redaction:\n%s", docs["tables"])
	}
	s, err := suite.Load(filepath.Join(dir, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	digest, err := s.Digest(s.Calculated(false))
	if err != nil || !strings.Contains(docs["tables"], `"suite_digest":"`+digest+`"`) {
		t.Errorf("the saved run's digest is not %q, the digest of the suite as written (%v)", digest, err)
	}
}
