package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/show"
)

// metricView is one metric row of a case, with its state spelled out:
// calculated (a score), errored (error details) or not calculated (neither).
type metricView struct {
	*models.MetricResult
	State  string
	Reason string
	Error  string
	// Judge is what the metric's judge left (nil for checks without one).
	Judge *judgeEvidence
	// Path is a decision graph metric's walk, node by node (nil otherwise).
	Path []score.DAGStep
	// Outcome is what an outcome check ran and saw (nil for other metrics).
	Outcome *outcomeView
}

// actionRow puts the expected and the observed call at the same position
// side by side.
type actionRow struct {
	Index    int
	Expected string
	Observed string
	State    string // "match", "differs", "missing", "extra"
}

// casePage is the case page's data.
type casePage struct {
	BasePage
	Run     *models.Run
	Case    *models.CaseResult
	Status  string
	Quality *float64
	Metrics []metricView

	Question, ExpectedAnswer, Output string
	// OutputLink is the whole output's download when Output was shortened.
	OutputLink string
	// The other long values are shortened the same way (…Cut says so);
	// WholeLink, the run's JSON download, holds them whole.
	QuestionCut, ExpectedCut, CaseMetadataCut, ResponseMetadataCut bool
	WholeLink                                                      string
	MinimumScores, CaseMetadata                                    string
	// Instrumented is false when actions is SQL NULL or JSON null.
	Instrumented    bool
	ExpectedActions bool
	Actions         []actionRow
	// Replay is the readable strict API replay evidence, as the reports
	// show it (nil without evidence); ReplayRaw is the same evidence as
	// indented JSON, for completeness.
	Replay    *report.ReplayView
	ReplayRaw string
	// Transcript is the conversation as a chat (nil for a single question).
	Transcript       *report.TranscriptView
	ResponseMetadata string
	AgentError       string
	AgentErrorText   string

	// OutputDiff compares the expected answer with the output word by word
	// (nil when either is missing); Baseline is the same question in the
	// run's automatic baseline, with its answer compared with this one.
	OutputDiff *wordDiff
	Baseline   *baselineAnswer
	// JudgeUsage is response_metadata.judge_usage, one row per metric.
	JudgeUsage []judgeUsageRow
	// Trace is the agent's spans as a waterfall (nil without tracing).
	Trace *traceView

	RunLink, PrevLink, NextLink string
	// TranscriptCut is set when the stored conversation was too long to
	// read whole: the page shows its first turns (Transcript) and says so,
	// with its stored size and its number of turns.
	TranscriptCut   *models.Cut
	TranscriptBytes string
	TranscriptTurns int
}

// cutBy reports whether the capped read of cr cut column or one of its
// members.
func cutBy(cr *models.CaseResult, column string) bool { return cutIn(cr.Cuts, column) }

// cutIn reports whether cuts name column or one of its members.
func cutIn(cuts []models.Cut, column string) bool {
	for _, c := range cuts {
		if c.Column == column || strings.HasPrefix(c.Column, column+".") {
			return true
		}
	}
	return false
}

func (s *Server) casePage(c *gin.Context) error {
	run, err := s.loadRun(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	raw := c.Param("pos")
	pos, err := strconv.Atoi(raw)
	if err != nil || pos < 0 || len(raw) > 9 {
		return notFound("There is no such case in this run.")
	}
	idx := -1
	for i, cr := range run.Cases {
		if cr.Position == pos {
			idx = i
			break
		}
	}
	if idx < 0 {
		return notFound("There is no such case in this run.")
	}
	// The run was read with small caps; the case shown is read again with
	// the page's own, each value its first 64 KiB.
	cr, err := s.detail.CaseAt(c.Request.Context(), run.ID, pos)
	if errors.Is(err, models.ErrNotFound) {
		return notFound("There is no such case in this run.")
	}
	if err != nil {
		return unavailable(err)
	}
	b := s.base(c.Request, cr.Name+" · case", "history")
	id := run.ID.String()
	page := &casePage{BasePage: b, Run: run, Case: cr, Status: compare.CaseStatus(cr), Quality: cr.Quality(),
		Question: jsonText(cr.Question), ExpectedAnswer: jsonText(cr.ExpectedAnswer), Output: jsonText(cr.Output),
		MinimumScores: prettyJSON(cr.MinimumScores), CaseMetadata: prettyJSON(cr.Metadata),
		Instrumented: !cr.Actions.IsNull(), ExpectedActions: !cr.ExpectedActions.IsNull(),
		RunLink: b.Path("runs", id)}
	out, cut := shortened(page.Output)
	cut = cut || cutBy(cr, "output")
	if cut {
		page.Output, page.OutputLink = out, b.Path("runs", id, "cases", strconv.Itoa(pos), "output.json")
	}
	page.WholeLink = b.Path("runs", id, "report.json")
	page.Question, page.QuestionCut = shortened(page.Question)
	page.ExpectedAnswer, page.ExpectedCut = shortened(page.ExpectedAnswer)
	page.CaseMetadata, page.CaseMetadataCut = shortened(page.CaseMetadata)
	page.QuestionCut = page.QuestionCut || cutBy(cr, "question")
	page.ExpectedCut = page.ExpectedCut || cutBy(cr, "expected_answer")
	page.CaseMetadataCut = page.CaseMetadataCut || cutBy(cr, "metadata")
	if idx > 0 {
		page.PrevLink = b.caseLink(id, run.Cases[idx-1].Position)
	}
	if idx < len(run.Cases)-1 {
		page.NextLink = b.caseLink(id, run.Cases[idx+1].Position)
	}
	meta := splitCaseMetadata(cr.ResponseMetadata)
	page.ReplayRaw, page.ResponseMetadata, page.JudgeUsage, page.Trace = meta.Replay, meta.Rest, meta.JudgeUsage, newTraceView(meta.Trace)
	page.ResponseMetadata, page.ResponseMetadataCut = shortened(page.ResponseMetadata)
	page.ResponseMetadataCut = page.ResponseMetadataCut || cutBy(cr, "response_metadata")
	page.TranscriptCut = models.CutOf(cr.Cuts, "response_metadata.transcript")
	for _, m := range cr.Metrics {
		mv := metricView{MetricResult: m, State: "not_calculated", Judge: newJudgeEvidence(meta.MetricDetails[m.Name], m.ErrorDetails)}
		mv.Judge.rebuildPrompts(m.Name, cr)
		mv.Path = score.DAGPathOf(meta.MetricDetails[m.Name], json.RawMessage(m.ErrorDetails))
		mv.Outcome = newOutcomeView(meta.MetricDetails[m.Name], m.ErrorDetails)
		switch {
		case m.Errored():
			mv.State, mv.Error = "errored", prettyJSON(m.ErrorDetails)
		case m.Score != nil:
			mv.State = "calculated"
		}
		if m.Reason != nil {
			mv.Reason = *m.Reason
		}
		page.Metrics = append(page.Metrics, mv)
	}
	page.Actions = sideBySide(cr.ExpectedActions, cr.Actions, partialArguments(meta.MetricDetails["action_group"]))
	page.Replay = report.NewReplayView(cr.ResponseMetadata)
	page.Transcript = report.NewTranscriptView(cr.ResponseMetadata)
	if page.TranscriptCut != nil {
		if err := s.transcriptHead(c.Request.Context(), page, cr); err != nil {
			return err
		}
	}
	// A shortened output is not diffed: a diff of its first bytes would
	// mislead, and a diff of the whole would put it back on the page.
	if page.ExpectedAnswer != "" && page.Output != "" && !cut {
		d := diffWords(page.ExpectedAnswer, page.Output)
		page.OutputDiff = &d
	}
	if !cut {
		if page.Baseline, err = s.findBaselineAnswer(c.Request.Context(), b, run, cr, page.Output); err != nil {
			return unavailable(err)
		}
	}
	if !cr.ErrorDetails.IsNull() {
		page.AgentError = prettyJSON(cr.ErrorDetails)
		page.AgentErrorText = compare.ErrorSummary(cr.ErrorDetails)
	}
	return s.render(c, "case", page)
}

// sideBySide aligns expected and observed calls by position. The action
// metric's reason explains the scoring; this view only shows the evidence,
// matching calls by the metric's rule (partial: its arguments mode).
func sideBySide(expected, observed models.JSON, partial bool) []actionRow {
	exp, obs := jsonItems(expected), jsonItems(observed)
	n := max(len(exp), len(obs))
	rows := make([]actionRow, n)
	for i := range rows {
		r := actionRow{Index: i + 1}
		switch {
		case i >= len(exp):
			r.Observed, r.State = describeCall(obs[i]), "extra"
		case i >= len(obs):
			r.Expected, r.State = describeCall(exp[i]), "missing"
		default:
			r.Expected, r.Observed = describeCall(exp[i]), describeCall(obs[i])
			r.State = "differs"
			if score.CallsMatch(exp[i], obs[i], partial) {
				r.State = "match"
			}
		}
		rows[i] = r
	}
	return rows
}

// jsonItems returns the elements of a JSON array (nothing for anything else).
func jsonItems(j models.JSON) []json.RawMessage {
	var items []json.RawMessage
	if j.IsNull() || json.Unmarshal(j, &items) != nil {
		return nil
	}
	return items
}

type call struct {
	Group     any             `json:"group"`
	Name      any             `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// Status and DurationMS are set on calls read from the agent's spans.
	Status     string   `json:"status"`
	DurationMS *float64 `json:"duration_ms"`
}

// describeCall shows "group · name" and the arguments as JSON; anything
// that is not a call object is shown as its JSON.
func describeCall(raw json.RawMessage) string {
	var c call
	if json.Unmarshal(raw, &c) != nil || c.Name == nil {
		return prettyJSON(models.JSON(raw))
	}
	head := ""
	if c.Group != nil {
		head = toText(c.Group) + " · "
	}
	head += toText(c.Name)
	if len(c.Arguments) == 0 || string(c.Arguments) == "null" {
		head += "()"
	} else {
		head += " " + show.JSON(c.Arguments, "")
	}
	if c.Status != "" {
		head += " — " + c.Status
		if c.DurationMS != nil {
			head += fmt.Sprintf(", %.1f ms", *c.DurationMS)
		}
	}
	return head
}

func toText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return show.JSON(b, "")
}

// partialArguments reports whether the action metric compared arguments
// partially (its details say "arguments": "partial").
func partialArguments(details map[string]json.RawMessage) bool {
	var mode string
	return json.Unmarshal(details["arguments"], &mode) == nil && mode == "partial"
}
