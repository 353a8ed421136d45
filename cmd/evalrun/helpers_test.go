package main

// Helpers shared by evalrun's tests.

import (
	"bytes"
	"context"
	"testing"

	"agentevals/models"
)

// evalrun runs the command line with args and returns its exit code and output.
func evalrun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// countRuns opens url and counts the saved runs.
func countRuns(t *testing.T, url string) int {
	t.Helper()
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n, err := db.NewSelect().Model((*models.Run)(nil)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// latestRunID returns the id of the newest run in dbURL, read directly
// (the report command would exit 1 when that run has failed checks).
func latestRunID(t *testing.T, dbURL string) string {
	t.Helper()
	db, err := (&Globals{DatabaseURL: dbURL}).open(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Limit: 1})
	if err != nil || len(runs) == 0 {
		t.Fatalf("newest run: %v (%d runs)", err, len(runs))
	}
	return runs[0].ID.String()
}
