package dashboard

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// Bounds of the free-text search. It reads the cases of the newest
// searchRuns runs that match the suite and agent filters (found through the
// (started_at, sequence) index), so its cost does not grow with the
// history; the page states the bound.
const (
	searchRuns       = 500
	searchMaxResults = 100
	searchMinLen     = 2
	snippetRadius    = 60
)

// searchHit is one question whose text matched.
type searchHit struct {
	Run      *models.Run
	Case     *models.CaseResult
	Link     string
	RunLink  string
	Started  string
	Status   string
	Field    string // where the text matched: question, expected answer, answer, name
	Before   string // the snippet around the match
	Match    string
	After    string
	Revision string
}

// searchPage is the search page's data.
type searchPage struct {
	BasePage
	Q, Suite, Agent string
	Hits            []searchHit
	Searched        bool
	// Runs is how many runs were searched (at most RunBound).
	Runs, RunBound int
	Truncated      bool
	MaxResults     int
	// Exhausted: the search's work budget ran out before every run was
	// read; FieldChars is how much of each text is searched.
	Exhausted  bool
	FieldChars int
	// Problem says why the search text was refused (the form stays).
	Problem string
}

func (s *Server) search(c *gin.Context) error {
	ctx := c.Request.Context()
	q := c.Request.URL.Query()
	page := &searchPage{BasePage: s.base(c.Request, "Search questions and answers", "search"),
		Q: strings.TrimSpace(q.Get("q")), Suite: q.Get("suite"), Agent: q.Get("agent"),
		RunBound: searchRuns, MaxResults: searchMaxResults, FieldChars: searchFieldChars}
	for name, v := range map[string]string{"search text": page.Q, "suite": page.Suite, "agent": page.Agent} {
		if len(v) > maxFilterLen || !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return badRequest(fmt.Sprintf("The %s must be at most %d characters of text.", name, maxFilterLen))
		}
	}
	if page.Q == "" {
		return s.render(c, "search", page)
	}
	if utf8.RuneCountInString(page.Q) < searchMinLen {
		// Keep the form, filled in, so the text can be lengthened.
		page.Problem = fmt.Sprintf("Search for at least %d characters.", searchMinLen)
		return s.renderStatus(c, http.StatusBadRequest, "search", page)
	}
	page.Searched = true
	page.Title = "Search: " + page.Q
	runs, _, err := s.rows.ListRuns(ctx, models.RunFilter{Suite: page.Suite, Agent: page.Agent, Limit: searchRuns})
	if err != nil {
		return unavailable(err)
	}
	page.Runs = len(runs)
	if len(runs) == 0 {
		return s.render(c, "search", page)
	}
	b := page.BasePage
	scan, err := s.scanCases(ctx, runs, page.Q, searchMaxResults, func(run *models.Run, sc *searchCase, m textMatch) searchHit {
		cr := &models.CaseResult{ID: sc.ID, RunID: sc.RunID, Position: sc.Position, CaseID: sc.CaseID, Name: sc.Name, Status: sc.Status}
		return searchHit{Run: run, Case: cr, Link: b.caseLink(run.ID.String(), cr.Position), RunLink: b.Path("runs", run.ID.String()),
			Started: formatTime(run.StartedAt), Status: compare.CaseStatus(cr), Revision: report.Revision(run),
			Field: m.Field, Before: m.Before, Match: m.Match, After: m.After}
	})
	if err != nil {
		return err
	}
	page.Hits, page.Exhausted = scan.Hits, scan.Exhausted
	if len(page.Hits) > searchMaxResults {
		page.Hits, page.Truncated = page.Hits[:searchMaxResults], true
	}
	sortHits(page.Hits)
	return s.render(c, "search", page)
}

// sortHits puts the newest runs first and each run's questions in order.
func sortHits(hits []searchHit) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if !a.Run.StartedAt.Equal(b.Run.StartedAt) {
			return a.Run.StartedAt.After(b.Run.StartedAt)
		}
		if a.Run.Sequence != b.Run.Sequence {
			return a.Run.Sequence > b.Run.Sequence
		}
		return a.Case.Position < b.Case.Position
	})
}
