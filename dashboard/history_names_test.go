package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestHistory_FiltersIgnoreCaseAndSuggest: the suite filter matches
// ignoring case on both databases, and a filter that matches nothing
// links to close names.
func TestHistory_FiltersIgnoreCaseAndSuggest(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
			if err := rw.InsertRun(context.Background(), supportRun(at, 0.95, models.JSON(lookupTrace), false, nil)); err != nil {
				t.Fatal(err)
			}
			ts := MustServe(t, ro, "/evaluations")
			r := mustGet(t, ts.URL+"/evaluations/?suite=customer+SUPPORT", http.StatusOK)
			if rows := selectAll(r.Doc, "tbody tr"); len(rows) != 1 {
				t.Errorf("suite=customer SUPPORT: %d rows, want the Customer support run", len(rows))
			}
			r = mustGet(t, ts.URL+"/evaluations/?suite=custmer+support", http.StatusOK)
			hints := selectAll(r.Doc, "p.hint a")
			if len(hints) != 1 || text(hints[0]) != "Customer support" {
				t.Fatalf("no link to the close suite name:\n%s", r.Body)
			}
			href, _ := attr(hints[0], "href")
			if !strings.HasPrefix(href, "/evaluations/?") || !strings.Contains(href, "suite=Customer+support") {
				t.Errorf("suggestion links to %q", href)
			}
		})
	}
}
