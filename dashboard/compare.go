package dashboard

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// compareRow is one question of run B next to the same question of run A.
type compareRow struct {
	compare.CaseComparison
	Name         string
	LinkA, LinkB string
	// Answers compares A's answer with B's word by word.
	Answers wordDiff
}

// comparePage is the compare page's data.
type comparePage struct {
	BasePage
	A, B       string // the ids as typed, for the form
	RunA, RunB *models.Run
	Cmp        *compare.Comparison
	// AB is the paired A/B comparison of `evalrun compare` (nil when the
	// runs do not share a definition: then only Incompatible is shown).
	AB           *compare.ABComparison
	Regressions  []findingView
	Improvements []findingView
	Rows         []compareRow
	// Incompatible explains, in user words, why the runs do not share a
	// definition; the page then refuses to compare them (422).
	Incompatible string
	LinkA, LinkB string
	SwapLink     string

	// OptionsA and OptionsB fill the run pickers; TitleA and TitleB name
	// the runs by revision and time.
	OptionsA, OptionsB []runOption
	TitleA, TitleB     string
	// Choose names the run still to be chosen ("A" or "B") when only one
	// was given.
	Choose string
	// MetricRegressions counts, per metric, B's questions that regressed
	// on it, next to the test of its mean difference.
	MetricRegressions map[string]int
	// RegressedQuestions counts B's questions with a regression (each
	// once), the number the "Regressions" heading shows.
	RegressedQuestions int
	// Localized is the ci gate's localized findings in one sentence.
	Localized string
}

// compare shows run B against run A (A is the reference, like a baseline).
func (s *Server) compare(c *gin.Context) error {
	ctx := c.Request.Context()
	q := c.Request.URL.Query()
	page := &comparePage{BasePage: s.base(c.Request, "Compare two runs", "compare"), A: q.Get("a"), B: q.Get("b")}
	if len(page.A) > 64 || len(page.B) > 64 {
		return badRequest("Run ids are 36-character UUIDs.")
	}
	if page.A == "" && page.B == "" {
		if err := s.fillPickers(c, page); err != nil {
			return err
		}
		return s.render(c, "compare", page)
	}
	var err error
	for _, side := range []struct {
		name, id string
		run      **models.Run
	}{{"A", page.A, &page.RunA}, {"B", page.B, &page.RunB}} {
		if side.id == "" {
			continue
		}
		if _, err := parseRunID(side.id); err != nil {
			return badRequest("Run " + side.name + " must be a run id (a UUID).")
		}
		if *side.run, err = s.loadRun(ctx, side.id); err != nil {
			return err
		}
	}
	if page.RunA == nil || page.RunB == nil {
		// One run chosen: offer the runs it can be compared with.
		page.Choose = "B"
		if page.RunA == nil {
			page.Choose = "A"
		}
		if err := s.fillPickers(c, page); err != nil {
			return err
		}
		return s.render(c, "compare", page)
	}
	page.TitleA, page.TitleB = runTitle(page.RunA), runTitle(page.RunB)
	page.Title = "Compare " + page.TitleA + " with " + page.TitleB
	if err := s.fillPickers(c, page); err != nil {
		return err
	}
	b := page.BasePage
	ida, idb := page.RunA.ID.String(), page.RunB.ID.String()
	page.LinkA, page.LinkB = b.Path("runs", ida), b.Path("runs", idb)
	page.SwapLink = b.Path("compare") + "?a=" + idb + "&b=" + ida
	ab, err := compare.AB(page.RunA, page.RunB, compare.Options{})
	switch {
	case errors.Is(err, compare.ErrIncompatible):
		// Like `evalrun compare`: runs of different definitions are not
		// compared at all (their findings would be meaningless).
		page.Incompatible = compare.DescribeDifference(page.RunA, page.RunB)
		return s.renderStatus(c, http.StatusUnprocessableEntity, "compare", page)
	case err != nil:
		return err
	}
	page.AB = ab
	page.MetricRegressions = metricQuestionCounts(ab.Findings)
	// The same ci gate as the verdict, so the lists count what it counts.
	cmp := compare.Compare(page.RunB, page.RunA, compare.Options{Gate: compare.GateCI})
	page.Cmp = cmp
	page.RegressedQuestions, _ = cmp.RegressedQuestions()
	page.Localized = ab.LocalizedText()
	page.Regressions, page.Improvements = findingViews(b, page.RunB, cmp.Findings)
	cells := compareDiffCells
	for _, cc := range cmp.Cases {
		if err := budgetLeft(ctx); err != nil {
			return err
		}
		row := compareRow{CaseComparison: cc, Name: cc.Case.Name,
			LinkB: b.caseLink(idb, cc.Case.Position)}
		if cc.Baseline != nil {
			row.LinkA = b.caseLink(ida, cc.Baseline.Position)
			a, _ := shortenedTo(jsonText(cc.Baseline.Output), compareAnswerBytes)
			bb, _ := shortenedTo(jsonText(cc.Case.Output), compareAnswerBytes)
			var used int
			row.Answers, used = diffWordsWithin(a, bb, cells)
			cells -= used
		}
		page.Rows = append(page.Rows, row)
	}
	return s.render(c, "compare", page)
}

// fillPickers offers runs for A (recent runs, or those of A's definition)
// and for B (those of A's definition once A is chosen).
func (s *Server) fillPickers(c *gin.Context, page *comparePage) error {
	ctx := c.Request.Context()
	runsA, err := s.pickerRuns(ctx, page.RunA, page.RunA)
	if err != nil {
		return unavailable(err)
	}
	ref := page.RunA
	if ref == nil {
		ref = page.RunB
	}
	runsB, err := s.pickerRuns(ctx, ref, page.RunB)
	if err != nil {
		return unavailable(err)
	}
	if page.OptionsA, err = s.runOptions(ctx, runsA, page.A); err != nil {
		return err
	}
	page.OptionsB, err = s.runOptions(ctx, runsB, page.B)
	return err
}

// metricQuestionCounts counts, per metric, the distinct questions with a
// regression finding on it (a question failing a metric and dropping on it
// is one question; findings about a whole metric or slice are no question).
func metricQuestionCounts(findings []compare.Finding) map[string]int {
	seen := map[string]bool{}
	out := map[string]int{}
	for _, f := range findings {
		if !f.Kind.Regression() || f.Metric == "" || f.CaseID == "" || seen[f.Metric+"\x00"+f.CaseID] {
			continue
		}
		seen[f.Metric+"\x00"+f.CaseID] = true
		out[f.Metric]++
	}
	return out
}
