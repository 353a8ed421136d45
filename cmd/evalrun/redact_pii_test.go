package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// TestRunCmd_RedactPII: with --redact-pii the answer's and the question's
// personal data are replaced by typed markers in the stored rows, the
// report and the output, and the case lists the columns under
// sanitized.pii; without the flag they are kept.
func TestRunCmd_RedactPII(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null; echo 'Mail jane.doe@example.com or call +49 151 23456789; card 4111 1111 1111 1111, order 4711 on 2026-12-04.'`)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "PII", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "q", "question": "I am ann@example.org, IBAN DE89 3704 0044 0532 0130 00", "checks": [{"type": "contains", "value": "nothing"}]}]}`)
	personal := []string{"jane.doe@example.com", "+49 151 23456789", "4111 1111 1111 1111", "ann@example.org", "DE89 3704 0044 0532 0130 00"}
	for _, pii := range []bool{false, true} {
		dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
		report := filepath.Join(dir, "r.md")
		args := []string{"--database-url", dbURL, "run", s, "--report", report}
		if pii {
			args = append(args, "--redact-pii")
		}
		code, stdout, stderr := evalrun(t, args...)
		if code != exitFailed {
			t.Fatalf("run (pii %v): exit %d, want 1\n%s%s", pii, code, stdout, stderr)
		}
		md, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		db, err := models.Open(context.Background(), dbURL, models.OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		run, err := db.GetRun(context.Background(), uuid.MustParse(latestRunID(t, dbURL)))
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		c := run.Cases[0]
		stored := string(c.Question) + string(c.Output) + *c.Metrics[0].Reason
		shown := stdout + stderr + string(md)
		for _, p := range personal {
			if kept := strings.Contains(stored, p); kept == pii {
				t.Errorf("pii %v: %q stored: %v", pii, p, kept)
			}
			if pii && strings.Contains(shown, p) {
				t.Errorf("%q shown with --redact-pii:\n%s", p, shown)
			}
		}
		meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
		if err != nil {
			t.Fatal(err)
		}
		listed := meta.Sanitized != nil && strings.Join(meta.Sanitized.PII, ",") == "name,question,output,metrics[0].reason" // a question without a name is named by its text
		if listed != pii || (pii && !strings.Contains(string(c.Output), "[EMAIL] or call [PHONE]; card [CARD], order 4711 on 2026-12-04.")) {
			t.Errorf("pii %v: sanitized %+v, output %s", pii, meta.Sanitized, c.Output)
		}
	}
}
