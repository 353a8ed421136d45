package dashboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

func TestFindFolded(t *testing.T) {
	for _, tc := range []struct{ text, q, match string }{
		{"Returns are ACCEPTED within", "accepted", "ACCEPTED"},
		{"aaaaaaaab", "aab", "aab"},
		{"ababac", "abac", "abac"},
		{"Straße und STRASSE", "straße", "Straße"},
		{"İstanbul", "i̇s", ""}, // folding keeps one rune per rune: no false offsets
		{"short", "longer than the text", ""},
	} {
		m, ok := findFolded(tc.text, foldText(tc.q))
		if ok != (tc.match != "") || m.Match != tc.match {
			t.Errorf("findFolded(%q, %q) = %q, %v; want %q", tc.text, tc.q, m.Match, ok, tc.match)
		}
	}
}

func TestFieldText_CutString(t *testing.T) {
	for raw, want := range map[string]string{
		`"whole"`:          "whole",
		`"cut here`:        "cut here",
		`"cut \u00e9 x\u0`: "cut é x",
		`{"text":"x"}`:     `{"text":"x"}`,
	} {
		if got := fieldText(raw); got != want {
			t.Errorf("fieldText(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestSearch_WorkIsBounded stores answers far longer than the search
// reads and checks, on both databases, that the bytes searched per row
// stay within the cut whatever the query, and that a hit beyond the cut
// is not found (the page says how much of each text is read).
func TestSearch_WorkIsBounded(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			long := strings.Repeat("a", 256<<10) + "needle"
			run := &models.Run{Suite: "Long", Agent: "A", Version: "1", SuiteDigest: "d", StartedAt: time.Now().UTC(),
				FinishedAt: time.Now().UTC(), Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
			for i := 0; i < 8; i++ {
				run.Cases = append(run.Cases, &models.CaseResult{Position: i, CaseID: "c", Name: "n", Status: models.StatusPassed,
					Question: models.JSON(`"q"`), Metadata: models.JSON(`{}`), Output: models.JSON(`"` + long + `"`)})
			}
			if err := rw.InsertRun(context.Background(), run); err != nil {
				t.Fatal(err)
			}
			s, err := New(Config{DB: ro})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"needle", strings.Repeat("a", 199) + "b"} {
				scan, err := s.scanCases(context.Background(), []*models.Run{run}, q, searchMaxResults,
					func(*models.Run, *searchCase, textMatch) searchHit { return searchHit{} })
				if err != nil {
					t.Fatal(err)
				}
				perRow := 3*searchFieldChars + 2*searchFieldChars
				if scan.Rows != 8 || scan.Bytes > scan.Rows*perRow || len(scan.Hits) != 0 {
					t.Errorf("q=%.10s…: %d rows, %d bytes (bound %d), %d hits; want 8 rows within the bound and no hit past the cut",
						q, scan.Rows, scan.Bytes, scan.Rows*perRow, len(scan.Hits))
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := s.scanCases(ctx, []*models.Run{run}, "needle", searchMaxResults,
				func(*models.Run, *searchCase, textMatch) searchHit { return searchHit{} }); err == nil {
				t.Error("a search whose request has gone went on")
			}
		})
	}
}
