package faults

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// downloadRSSBudget is the resident memory evaldash may reach while it
// serves the report of a 100 MiB run: a few cases' worth above idle.
const downloadRSSBudget = 150 << 10 // kB

// TestDashboard_ReportDownloadStaysBounded stores a run of 100 answers of
// 1 MiB each and downloads its report.json from the real evaldash while
// sampling its resident memory: the report is whole (every answer in
// full, in position order) and the peak stays under 150 MB, where holding
// the run would take more than its 100 MiB. With EVALDASH_BASELINE_BIN
// (an older build) the same download is measured there too and logged.
func TestDashboard_ReportDownloadStaysBounded(t *testing.T) {
	dbURL := postgres(t)
	seedLongAnswers(t, dbURL, 100)
	db, err := models.Open(context.Background(), dbURL, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var id string
	err = db.QueryRowContext(context.Background(), "SELECT id::text FROM ruby_llm_evaluations_runs").Scan(&id)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	measure := func(bin string) (int64, time.Duration) {
		t.Helper()
		base, proc := startEvaldashBin(t, bin, dbURL)
		peak := sampleRSS(t, proc.Pid)
		start := time.Now()
		res, err := (&http.Client{Timeout: 2 * time.Minute}).Get(base + "/runs/" + id + "/report.json")
		if err != nil {
			peak()
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		took := time.Since(start)
		kb := peak()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("report.json: %d %v", res.StatusCode, err)
		}
		var doc struct {
			Cases []struct {
				ID     string `json:"id"`
				Output string `json:"output"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatalf("report.json (%d bytes) is not JSON: %v", len(body), err)
		}
		if len(doc.Cases) != 100 {
			t.Fatalf("report.json has %d cases, want 100", len(doc.Cases))
		}
		for i, c := range doc.Cases {
			if c.ID != "case-"+strconv.Itoa(i) || len(c.Output) != 1<<20 || strings.Trim(c.Output, "a") != "" {
				t.Fatalf("case %d: id %q, output of %d bytes, want case-%d and its whole 1 MiB answer", i, c.ID, len(c.Output), i)
			}
		}
		t.Logf("report.json of the 100 MiB run: %d bytes in %s, evaldash peak RSS %d MB", len(body), took.Round(time.Millisecond), kb/1024)
		return kb, took
	}
	kb, took := measure(os.Getenv("EVALDASH_BIN"))
	if old := os.Getenv("EVALDASH_BASELINE_BIN"); old != "" {
		oldKB, oldTook := measure(old)
		t.Logf("baseline binary: peak RSS %d MB in %s (baseline/this: memory %.1f, time %.1f)", oldKB/1024,
			oldTook.Round(time.Millisecond), float64(oldKB)/float64(kb), float64(oldTook)/float64(took))
	}
	if kb > downloadRSSBudget {
		t.Errorf("evaldash peak RSS %d MB while serving the report, want under %d MB", kb/1024, downloadRSSBudget>>10)
	}
}
