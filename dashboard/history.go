package dashboard

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/internal/suggest"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// Input limits of the history filters.
const (
	maxFilterLen = 200
	defaultLimit = 50
	maxLimit     = 200
	// maxScan bounds how many runs one page request reads while looking for
	// runs with a given outcome; the page then offers to continue.
	maxScan = 1000
)

// historyFilter is the history page's query, as typed (for the form) and parsed.
type historyFilter struct {
	// Kind is "" (every run), "suite" or "production" (a models.RunKind).
	Suite, Agent, From, To, Status, Kind string
	Limit                                int
	cursor                               *models.Cursor
	from, to                             time.Time
}

// historyRow is one run in the history table. Its display strings are
// formatted once in Go, which keeps the template of a 200-row page cheap.
type historyRow struct {
	Run      *models.Run
	Stats    runStats
	Link     string
	Started  string
	Quality  string
	PassRate string
	Outcomes []string
	// Revision is the agent revision from the run's metadata ("" when none).
	Revision string
	// Production: the run is a monitor's window of production traces.
	Production bool
	// Cases is the compact count ("2/3 passed") and CasesDetail the
	// non-zero rest ("1 failed, 1 error").
	Cases, CasesDetail string
	// Change compares the run with the previous run of the same suite,
	// agent and definition (see change.go).
	Change runChange
}

// finish fills the display strings from the run and its totals.
func (r *historyRow) finish() {
	r.Started = formatTime(r.Run.StartedAt)
	r.Quality = formatScore(r.Stats.Quality)
	r.PassRate = formatPercent(r.Stats.PassRate)
	r.Outcomes = r.Stats.Outcomes()
	r.Revision = report.Revision(r.Run)
	r.Production = models.IsProduction(r.Run)
	r.Cases, r.CasesDetail = compactCases(r.Stats)
}

// historyPage is the history page's data.
type historyPage struct {
	BasePage
	Filter   historyFilter
	Statuses []string
	Rows     []historyRow
	Charts   []trendChart
	NextLink string
	// Truncated tells that the outcome filter stopped after maxScan runs.
	Truncated bool
	Scanned   int
	Filtered  bool
	// FirstRun is true on an empty database: the page then shows how to
	// make a first run.
	FirstRun bool
	// DidYouMean links to close suite or agent names when the suite or
	// agent filter matched no run (filters ignore case).
	DidYouMean []nameLink
}

// nameLink is a suggested filter value and the history link applying it.
type nameLink struct {
	Field, Name, Link string
}

func parseHistoryFilter(q url.Values) (historyFilter, error) {
	f := historyFilter{Suite: q.Get("suite"), Agent: q.Get("agent"), From: q.Get("from"), To: q.Get("to"),
		Status: q.Get("status"), Kind: q.Get("kind"), Limit: defaultLimit}
	for name, v := range map[string]string{"suite": f.Suite, "agent": f.Agent} {
		if len(v) > maxFilterLen || !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return f, badRequest(fmt.Sprintf("The %s filter must be at most %d characters of text.", name, maxFilterLen))
		}
	}
	var err error
	if f.from, err = parseDate(f.From); err != nil {
		return f, badRequest("The from date must look like 2026-11-30.")
	}
	if f.to, err = parseDate(f.To); err != nil {
		return f, badRequest("The to date must look like 2026-11-30.")
	}
	if !f.to.IsZero() {
		f.to = f.to.AddDate(0, 0, 1) // the to date is inclusive
	}
	if !f.from.IsZero() && !f.to.IsZero() && !f.from.Before(f.to) {
		return f, badRequest("The from date must not be after the to date.")
	}
	switch f.Status {
	case "", outcomePassed, outcomeFailed, outcomeError, outcomeNotEvaluated:
	default:
		return f, badRequest("The status filter must be passed, failed, error or not_evaluated.")
	}
	switch models.RunKind(f.Kind) {
	case "", models.KindSuite, models.KindProduction:
	default:
		return f, badRequest("The kind filter must be suite or production.")
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxLimit {
			return f, badRequest(fmt.Sprintf("The limit must be a whole number from 1 to %d.", maxLimit))
		}
		f.Limit = n
	}
	if c := q.Get("cursor"); c != "" {
		if f.cursor, err = parseCursor(c); err != nil {
			return f, badRequest("The page cursor is not valid; start again from the first page.")
		}
	}
	return f, nil
}

func parseDate(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if len(s) != len("2006-01-02") {
		return time.Time{}, fmt.Errorf("bad date")
	}
	return time.Parse("2006-01-02", s)
}

// formatCursor writes a keyset cursor as "<started_at unix microseconds>.<sequence>".
func formatCursor(c models.Cursor) string {
	return strconv.FormatInt(c.StartedAt.UnixMicro(), 10) + "." + strconv.FormatInt(c.Sequence, 10)
}

func parseCursor(s string) (*models.Cursor, error) {
	if len(s) > 48 {
		return nil, fmt.Errorf("cursor too long")
	}
	ts, seq, ok := strings.Cut(s, ".")
	if !ok {
		return nil, fmt.Errorf("cursor without sequence")
	}
	us, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return nil, err
	}
	n, err := strconv.ParseInt(seq, 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad cursor sequence")
	}
	return &models.Cursor{StartedAt: time.UnixMicro(us).UTC(), Sequence: n}, nil
}

// query writes the filter back as a query string, with a cursor.
func (f historyFilter) query(cursor string) string {
	v := url.Values{}
	for k, s := range map[string]string{"suite": f.Suite, "agent": f.Agent, "from": f.From, "to": f.To,
		"status": f.Status, "kind": f.Kind, "cursor": cursor} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if f.Limit != defaultLimit {
		v.Set("limit", strconv.Itoa(f.Limit))
	}
	return v.Encode()
}

func (s *Server) history(c *gin.Context) error {
	ctx := c.Request.Context()
	if err := s.readable(ctx); err != nil {
		return err
	}
	f, err := parseHistoryFilter(c.Request.URL.Query())
	if err != nil {
		return err
	}
	page := &historyPage{BasePage: s.base(c.Request, "Evaluation history", "history"), Filter: f,
		Statuses: []string{outcomePassed, outcomeFailed, outcomeError, outcomeNotEvaluated},
		Filtered: f.Suite != "" || f.Agent != "" || f.From != "" || f.To != "" || f.Status != "" || f.Kind != ""}
	rf := models.RunFilter{Suite: f.Suite, Agent: f.Agent, From: f.from, To: f.to, Kind: models.RunKind(f.Kind),
		Before: f.cursor, Limit: f.Limit}
	if f.Status != "" {
		rf.Limit = maxLimit
	}
	var next *models.Cursor
	var scanned []historyRow
	for {
		runs, more, err := s.rows.ListRuns(ctx, rf)
		if err != nil {
			return unavailable(err)
		}
		rows, err := s.historyRows(c, runs)
		if err != nil {
			return err
		}
		page.Scanned += len(rows)
		scanned = append(scanned, rows...)
		next = more
		full := false
		for i, r := range rows {
			if f.Status != "" && !r.Stats.Has(f.Status) {
				continue
			}
			page.Rows = append(page.Rows, r)
			if len(page.Rows) == f.Limit {
				if i < len(rows)-1 {
					next = &models.Cursor{StartedAt: r.Run.StartedAt, Sequence: r.Run.Sequence}
				}
				full = true
				break
			}
		}
		if full || more == nil {
			break
		}
		if page.Scanned >= maxScan {
			page.Truncated = true
			break
		}
		rf.Before = more
	}
	if next != nil {
		page.NextLink = page.Home() + "?" + f.query(formatCursor(*next))
	}
	shown := make(map[int64]bool, len(page.Rows))
	for _, r := range page.Rows {
		shown[r.Run.Sequence] = true
	}
	if err := s.linkPrevious(c, scanned, func(seq int64) bool { return shown[seq] }); err != nil {
		return err
	}
	changes := make(map[int64]runChange, len(scanned))
	for _, r := range scanned {
		changes[r.Run.Sequence] = r.Change
	}
	for i := range page.Rows {
		page.Rows[i].Change = changes[page.Rows[i].Run.Sequence]
	}
	if err := s.linkRecorded(ctx, page.Rows); err != nil {
		return err
	}
	page.FirstRun = len(page.Rows) == 0 && !page.Filtered && f.cursor == nil
	page.Charts = historyCharts(page.Rows)
	if len(page.Rows) == 0 && (f.Suite != "" || f.Agent != "") {
		if page.DidYouMean, err = s.didYouMean(ctx, page.Home(), f); err != nil {
			return err
		}
	}
	return s.render(c, "history", page)
}

// didYouMean suggests, for a suite or agent filter that matched nothing,
// up to three close names of saved runs, each with the link that uses it.
func (s *Server) didYouMean(ctx context.Context, home string, f historyFilter) ([]nameLink, error) {
	suites, agents, err := s.db.RunNames(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	var out []nameLink
	for _, field := range []struct {
		name, want string
		names      []string
	}{{"suite", f.Suite, suites}, {"agent", f.Agent, agents}} {
		if field.want == "" {
			continue
		}
		for _, n := range suggest.Closest(field.want, field.names, 3) {
			g := f
			if field.name == "suite" {
				g.Suite = n
			} else {
				g.Agent = n
			}
			out = append(out, nameLink{Field: field.name, Name: n, Link: home + "?" + g.query("")})
		}
	}
	return out, nil
}

// historyRows computes each run's totals from its case and metric rows
// (models.TotalsOf, as every other view does), loading the rows of all
// runs on the page in one batch: a summary, above all one written by
// another implementation, may lack keys or disagree with its rows.
func (s *Server) historyRows(c *gin.Context, runs []*models.Run) ([]historyRow, error) {
	base := s.base(c.Request, "", "")
	ids := runIDs(runs)
	cases, err := s.rows.CaseTotalsOf(c.Request.Context(), ids)
	if err != nil {
		return nil, unavailable(err)
	}
	rows := make([]historyRow, len(runs))
	for i, r := range runs {
		rows[i] = historyRow{Run: r, Stats: statsFromCases(cases[r.ID]), Link: base.Path("runs", r.ID.String())}
		rows[i].finish()
	}
	return rows, nil
}

// historyCharts draws one trend chart per suite/agent on the page, oldest
// run first, in order of each pair's newest run.
func historyCharts(rows []historyRow) []trendChart {
	type key struct{ suite, agent string }
	var order []key
	groups := map[key][]trendInput{}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		k := key{r.Run.Suite, r.Run.Agent}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], trendInput{At: r.Run.StartedAt, Quality: r.Stats.Quality, PassRate: r.Stats.PassRate})
	}
	charts := make([]trendChart, 0, len(order))
	for i := len(order) - 1; i >= 0; i-- {
		k := order[i]
		charts = append(charts, buildTrendChart(fmt.Sprintf("trend-%d", len(charts)+1), k.suite, k.agent, groups[k]))
	}
	return charts
}
