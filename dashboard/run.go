package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// caseRow is one question in the run page's case table.
type caseRow struct {
	compare.CaseComparison
	Position    int
	Name        string
	Link        string
	Regressions int
}

// runPage is the run page's data.
type runPage struct {
	BasePage
	Run         *models.Run
	Totals      compare.Totals
	Baseline    *models.Run
	BaseTotals  *compare.Totals
	Metrics     []compare.MetricComparison
	Regressions []findingView
	// RegressedQuestions counts the questions with a regression, each once.
	RegressedQuestions int
	Improvements       []findingView
	Cases              []caseRow
	Slices             []compare.Slice
	Missing            []string
	Metadata           string
	// MetadataCut: Metadata was shortened (the JSON download has it whole).
	MetadataCut bool
	// JudgeUsage is the judge usage line (report.JudgeUsage.String), shown
	// next to the agent's tokens and cost.
	JudgeUsage   string
	JSONLink     string
	BaselineLink string
	CompareLink  string
	// Experiment names the experiment the run is a variant of (nil when
	// none) and ExperimentLink is its grid page.
	Experiment     *report.ExperimentInfo
	ExperimentLink string
	// Monitor is a production window's monitor across its windows (nil
	// for a suite run).
	Monitor *monitorTrend

	// Verdict leads the page; Revision, BaselineRevision and KeyMeta
	// follow it (the whole metadata stays at the bottom).
	Verdict          verdictBanner
	Revision         string
	BaselineRevision string
	KeyMeta          []metaItem
	Duration         string
	// Source says where the run was made (report.ProvenanceLine);
	// Elsewhere that its baseline was made in another project.
	Source, Elsewhere string

	// Recorded is the gate decision the run recorded when it was made
	// (nil for a run without one): the verdict follows it.
	Recorded *recordedView

	// Gem is set for a run written by another implementation (the Ruby
	// gem): the baseline the gem's own Run#previous picks (same digest
	// only), which its CI gated on.
	Gem *gemBaseline
}

// gemBaseline is the run the gem's Run#previous picks for a Ruby-written
// run; Run is nil when it picks none.
type gemBaseline struct {
	Run  *models.Run
	Link string
	// Same is true when it is also the baseline shown on the page.
	Same bool
}

// parseRunID reads a run id from the path; anything but a UUID is a 404.
func parseRunID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 {
		return uuid.Nil, notFound("There is no run with this id.")
	}
	return id, nil
}

// loadRun reads a run with its cases, each value cut to rowCaps: unknown
// ids are 404s, database failures 503s.
func (s *Server) loadRun(ctx context.Context, raw string) (*models.Run, error) {
	return readRun(ctx, s.rows, raw)
}

// readRun is loadRun through db.
func readRun(ctx context.Context, db *models.DB, raw string) (*models.Run, error) {
	id, err := parseRunID(raw)
	if err != nil {
		return nil, err
	}
	run, err := db.GetRun(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, notFound("There is no run with this id.")
	}
	if err != nil {
		return nil, unavailable(err)
	}
	return run, nil
}

// loadComparison reads a run through db (as loadRun) and compares it
// exactly as `evalrun report` does: as its recorded decision did, else with
// its automatic baseline (looked for among the HistoryWindow newest earlier
// runs), flaky questions (compare.FlakyQuestions) marked.
func (s *Server) loadComparison(ctx context.Context, db *models.DB, raw string) (*models.Run, *compare.Comparison, error) {
	run, err := readRun(ctx, db, raw)
	if err != nil {
		return nil, nil, err
	}
	cmp, err := compareRun(ctx, db, run)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	return run, cmp, nil
}

func (s *Server) runPage(c *gin.Context) error {
	run, cmp, err := s.loadComparison(c.Request.Context(), s.runs, c.Param("id"))
	if err != nil {
		return err
	}
	b := s.base(c.Request, "Run of "+run.Suite, "history")
	id := run.ID.String()
	page := &runPage{BasePage: b, Run: run, Totals: cmp.Totals, Baseline: cmp.Baseline, BaseTotals: cmp.BaselineTotals,
		Metrics: cmp.Metrics, Slices: cmp.Slices, Missing: cmp.Missing,
		Metadata: prettyJSON(run.Metadata), JudgeUsage: report.JudgeUsageOf(run.Cases).String(),
		JSONLink: b.Path("runs", id, "report.json")}
	page.Metadata, page.MetadataCut = shortened(page.Metadata)
	page.MetadataCut = page.MetadataCut || cutIn(run.Cuts, "metadata")
	page.Regressions, page.Improvements = findingViews(b, run, cmp.Findings)
	page.RegressedQuestions, _ = cmp.RegressedQuestions()
	page.Verdict = newVerdictBanner(cmp)
	page.Recorded = newRecordedView(cmp.Decision)
	page.Revision, page.KeyMeta = report.Revision(run), keyMetadata(run)
	page.Source = report.ProvenanceLine(report.ProvenanceOf(run))
	if d := run.FinishedAt.Sub(run.StartedAt); d >= 0 {
		page.Duration = formatDuration(float64(d.Milliseconds()))
	}
	if cmp.Baseline != nil {
		page.BaselineRevision = report.Revision(cmp.Baseline)
		page.Elsewhere = report.BaselineElsewhere(run, cmp.Baseline)
		bid := cmp.Baseline.ID.String()
		page.BaselineLink = b.Path("runs", bid)
		page.CompareLink = b.Path("compare") + "?a=" + bid + "&b=" + id
	}
	page.Cases = caseRows(b, run, cmp)
	if info := report.ExperimentOf(run); info != nil {
		page.Experiment, page.ExperimentLink = info, b.experimentLink(info)
	}
	if page.Monitor, err = s.newMonitorTrend(c.Request.Context(), b, run); err != nil {
		return err
	}
	if compare.WriterOf(run) == "" {
		prev, err := compare.GemPrevious(c.Request.Context(), s.runs, run)
		if err != nil {
			return unavailable(err)
		}
		page.Gem = &gemBaseline{Run: prev}
		if prev != nil {
			page.Gem.Link = b.Path("runs", prev.ID.String())
			page.Gem.Same = cmp.Baseline != nil && cmp.Baseline.ID == prev.ID
		}
	}
	return s.render(c, "run", page)
}

// findingView is a comparison finding with a link to its case.
type findingView struct {
	compare.Finding
	Link string
}

// findingViews splits findings into regressions and other findings (both in
// the comparison's order) and links each to its case in run.
func findingViews(b BasePage, run *models.Run, findings []compare.Finding) (regs, others []findingView) {
	pos := make(map[string]int, len(run.Cases))
	for _, c := range run.Cases {
		pos[c.CaseID] = c.Position
	}
	for _, f := range findings {
		v := findingView{Finding: f}
		if p, ok := pos[f.CaseID]; ok && f.CaseID != "" {
			v.Link = b.caseLink(run.ID.String(), p)
		}
		if f.Kind.Regression() {
			regs = append(regs, v)
		} else {
			others = append(others, v)
		}
	}
	return regs, others
}

// caseRows puts the cases with regressions first, then the rest in
// position order.
func caseRows(b BasePage, run *models.Run, cmp *compare.Comparison) []caseRow {
	var regressed, rest []caseRow
	for i, cc := range cmp.Cases {
		cr := run.Cases[i]
		row := caseRow{CaseComparison: cc, Position: cr.Position, Name: cr.Name,
			Link: b.caseLink(run.ID.String(), cr.Position)}
		for _, f := range cc.Findings {
			if f.Kind.Regression() {
				row.Regressions++
			}
		}
		if row.Regressions > 0 {
			regressed = append(regressed, row)
		} else {
			rest = append(rest, row)
		}
	}
	return append(regressed, rest...)
}

// runJSON downloads the same snapshot and comparison document as
// `evalrun report --format json`. The comparison is made from the run as
// the run page reads it (each value cut to rowCaps: it compares statuses,
// scores and definitions); the run's metadata and each case are then read
// whole from the database one at a time and written as they are read, so
// a download holds one case, never the run.
func (s *Server) runJSON(c *gin.Context) error {
	ctx := c.Request.Context()
	release, err := s.holdWhole(ctx)
	if err != nil {
		return err
	}
	defer release()
	run, cmp, err := s.loadComparison(ctx, s.runs, c.Param("id"))
	if err != nil {
		return err
	}
	head, err := s.db.RunHeader(ctx, run.ID)
	if err != nil {
		return unavailable(err)
	}
	doc := report.NewDocument(cmp)
	whole := report.Snapshot(head)
	doc.Metadata, doc.Summary = whole.Metadata, whole.Summary
	caseAt := func(i int) (report.CaseSnapshot, error) {
		if err := budgetLeft(ctx); err != nil {
			return report.CaseSnapshot{}, err
		}
		cr, err := s.db.CaseAt(ctx, run.ID, run.Cases[i].Position)
		if err != nil {
			return report.CaseSnapshot{}, err
		}
		return report.Snapshot(&models.Run{Cases: []*models.CaseResult{cr}}).Cases[0], nil
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="run-%s.json"`, run.ID))
	c.Header("Cache-Control", "no-store")
	c.Header("Content-Type", "application/json; charset=utf-8")
	c.Status(http.StatusOK)
	if err := writeReportJSON(c.Writer, doc, caseAt); err != nil {
		// the status is sent: cut the response short rather than finish it as if whole
		s.log.Error("run json", "run", run.ID, "error", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}
