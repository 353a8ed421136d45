package dashboard

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/agentevals/agentevals/compare"
	"github.com/agentevals/agentevals/models"
	"github.com/agentevals/agentevals/report"
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
	// Problem says why the search text was refused (the form stays).
	Problem string
}

func (s *Server) search(c *gin.Context) error {
	ctx := c.Request.Context()
	q := c.Request.URL.Query()
	page := &searchPage{BasePage: s.base(c.Request, "Search questions and answers", "search"),
		Q: strings.TrimSpace(q.Get("q")), Suite: q.Get("suite"), Agent: q.Get("agent"),
		RunBound: searchRuns, MaxResults: searchMaxResults}
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
	runs, _, err := s.db.ListRuns(ctx, models.RunFilter{Suite: page.Suite, Agent: page.Agent, Limit: searchRuns})
	if err != nil {
		return unavailable(err)
	}
	page.Runs = len(runs)
	if len(runs) == 0 {
		return s.render(c, "search", page)
	}
	byID := make(map[uuid.UUID]*models.Run, len(runs))
	ids := make([]uuid.UUID, len(runs))
	for i, r := range runs {
		byID[r.ID], ids[i] = r, r.ID
	}
	pattern := "%" + likeEscape(strings.ToLower(page.Q)) + "%"
	var cases []*models.CaseResult
	err = s.db.NewSelect().Model(&cases).
		Where("c.run_id IN (?)", bun.In(ids)).
		WhereGroup(" AND ", func(sq *bun.SelectQuery) *bun.SelectQuery {
			for _, col := range []string{"c.question", "c.output", "c.expected_answer", "c.name", "c.case_id"} {
				sq = sq.WhereOr("LOWER(CAST("+col+" AS TEXT)) LIKE ? ESCAPE '\\'", pattern)
			}
			return sq
		}).
		Limit(searchMaxResults + 1).Scan(ctx)
	if err != nil {
		return unavailable(fmt.Errorf("search cases: %w", err))
	}
	if len(cases) > searchMaxResults {
		cases, page.Truncated = cases[:searchMaxResults], true
	}
	b := page.BasePage
	for _, cr := range cases {
		run := byID[cr.RunID]
		h := searchHit{Run: run, Case: cr, Link: b.caseLink(run.ID.String(), cr.Position), RunLink: b.Path("runs", run.ID.String()),
			Started: formatTime(run.StartedAt), Status: compare.CaseStatus(cr), Revision: report.Revision(run)}
		h.snippet(page.Q)
		page.Hits = append(page.Hits, h)
	}
	sortHits(page.Hits)
	return s.render(c, "search", page)
}

// snippet finds the query in the case's texts (question first) and keeps
// the words around it.
func (h *searchHit) snippet(q string) {
	fields := []struct{ name, text string }{
		{"question", jsonText(h.Case.Question)}, {"answer", jsonText(h.Case.Output)},
		{"expected answer", jsonText(h.Case.ExpectedAnswer)}, {"name", h.Case.Name}, {"case id", h.Case.CaseID},
	}
	lq := []rune(strings.ToLower(q))
	for _, f := range fields {
		rs := []rune(f.text)
		i := indexRunes([]rune(strings.ToLower(f.text)), lq)
		if i < 0 || len([]rune(strings.ToLower(f.text))) != len(rs) {
			continue
		}
		from, to := max(0, i-snippetRadius), min(len(rs), i+len(lq)+snippetRadius)
		h.Field, h.Match = f.name, string(rs[i:i+len(lq)])
		h.Before, h.After = string(rs[from:i]), string(rs[i+len(lq):to])
		if from > 0 {
			h.Before = "…" + h.Before
		}
		if to < len(rs) {
			h.After += "…"
		}
		return
	}
	// The match was in the JSON of a structured value (a key, an escape).
	h.Field, h.Before = "question data", shortText(jsonText(h.Case.Question), 2*snippetRadius)
}

func indexRunes(s, sub []rune) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if string(s[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

func shortText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// likeEscape escapes LIKE's wildcards (with the escape character \).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
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
