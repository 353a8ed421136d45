package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/dashboard"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestRunCmd_DeepMetadataRendersLinearly runs a suite with --metadata
// nested 120 levels deep (under the depth limit) around 6,000 numbers:
// every line of a plainly indented rendering would carry 240 spaces, so
// the HTML and JSON reports and the dashboard's run page and JSON download
// grew past 1 MB from 12 KB of metadata. Each must stay under 1 MB.
func TestRunCmd_DeepMetadataRendersLinearly(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null; printf '{"output": "ok"}'`)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "Deep", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "q", "question": "x", "checks": [{"type": "contains", "value": "ok"}]}]}`)
	const depth = 120
	meta := strings.Repeat(`{"a":`, depth) + "[" + strings.TrimSuffix(strings.Repeat("1,", 6000), ",") + "]" + strings.Repeat("}", depth)
	url := testdb.SQLiteURL(t)
	htmlPath, jsonPath := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.json")
	code, stdout, stderr := evalrun(t, "--database-url", url, "run", s, "--metadata", meta, "--report", htmlPath, "--report", jsonPath)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	sizes := map[string]int{}
	for _, p := range []string{htmlPath, jsonPath} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sizes[filepath.Base(p)] = len(b)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Limit: 1})
	if err != nil || len(runs) != 1 {
		t.Fatalf("list runs: %v (%d)", err, len(runs))
	}
	gin.SetMode(gin.ReleaseMode)
	srv, err := dashboard.New(dashboard.Config{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, page := range []string{"/runs/" + runs[0].ID.String(), "/runs/" + runs[0].ID.String() + "/report.json"} {
		res, err := http.Get(ts.URL + page)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", page, res.StatusCode)
		}
		sizes["dashboard "+page[strings.LastIndexByte(page, '/'):]] = len(b)
	}
	t.Logf("%d bytes of metadata: %v", len(meta), sizes)
	for name, n := range sizes {
		if n >= 1<<20 {
			t.Errorf("%s is %d bytes from %d bytes of metadata, want under 1 MB", name, n, len(meta))
		}
	}
}
