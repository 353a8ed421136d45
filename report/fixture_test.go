package report

import (
	"time"

	"github.com/google/uuid"

	"agentevals/compare"
	"agentevals/models"
)

// mdef describes a metric row of a test case: score nil means not
// calculated (or errored when err is set).
type mdef struct {
	name      string
	threshold float64
	score     *float64
	err       string
	reason    string
}

// cdef describes a case row of a test run.
type cdef struct {
	id, name           string
	question, expected string
	output             string
	meta               string // JSON object; "" is {}
	agentErr           string
	metrics            []mdef
}

func sc(v float64) *float64 { return &v }

func metric(name string, threshold float64, score *float64) mdef {
	return mdef{name: name, threshold: threshold, score: score, reason: "checked " + name}
}

// buildRun builds a run record in memory the way the runner does: minimum
// scores from the metrics, statuses derived from the rows.
func buildRun(id string, seq int64, started time.Time, cases ...cdef) *models.Run {
	run := &models.Run{ID: uuid.MustParse(id), Sequence: seq, Suite: "Customer support", Agent: "SupportAgent",
		Version: "1", SuiteDigest: "digest-1", Status: models.RunStatusCompleted,
		StartedAt: started, FinishedAt: started.Add(1500 * time.Millisecond),
		Metadata: models.JSON(`{"revision":"test"}`), Summary: models.JSON(`{}`),
		CreatedAt: started, UpdatedAt: started}
	for i, cd := range cases {
		mins := map[string]float64{}
		for _, m := range cd.metrics {
			mins[m.name] = m.threshold
		}
		meta := cd.meta
		if meta == "" {
			meta = "{}"
		}
		name := cd.name
		if name == "" {
			name = cd.id
		}
		c := &models.CaseResult{ID: int64(i + 1), RunID: run.ID, Position: i, CaseID: cd.id, Name: name,
			DurationMS: 120.5, Question: models.MustJSON(cd.question), ExpectedAnswer: models.MustJSON(cd.expected),
			MinimumScores: models.MustJSON(mins), Metadata: models.JSON(meta), Output: models.MustJSON(cd.output),
			Actions: models.JSON(`[]`), InputTokens: compare.Ptr(int64(100)), OutputTokens: compare.Ptr(int64(20)), Cost: compare.Ptr(models.Decimal("0.0002")),
			CreatedAt: started, UpdatedAt: started}
		if cd.agentErr != "" {
			c.ErrorDetails = models.MustJSON(map[string]string{"class": "AgentError", "message": cd.agentErr})
			c.Output = nil
		}
		for j, md := range cd.metrics {
			m := &models.MetricResult{ID: int64(100*i + j + 1), CaseResultID: c.ID, Position: j, Name: md.name,
				Threshold: md.threshold, Score: md.score, CreatedAt: started, UpdatedAt: started}
			if md.err != "" {
				m.ErrorDetails = models.MustJSON(map[string]string{"message": md.err})
			} else if md.score != nil {
				m.Passed = *md.score >= md.threshold
				r := md.reason
				m.Reason = &r
			}
			c.Metrics = append(c.Metrics, m)
		}
		c.Status = c.DeriveStatus()
		run.Cases = append(run.Cases, c)
	}
	return run
}

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 123456000, time.UTC)

// workedExample is the gem's README example: minimum 0.9, a previous score
// of 0.98 and a later one of 0.92.
func workedExample() (previous, later *models.Run) {
	q := func(score float64) cdef {
		return cdef{id: "returns", question: "How long do I have to return an item?",
			expected: "You can return it within 30 days.", output: "Within 30 days.",
			metrics: []mdef{metric("semantic_accuracy", 0.9, sc(score))}}
	}
	previous = buildRun("01900000-0000-7000-8000-000000000001", 1, t0, q(0.98))
	later = buildRun("01900000-0000-7000-8000-000000000002", 2, t0.Add(time.Hour), q(0.92))
	return previous, later
}

// supportRuns are the offline support example: three questions answered by
// exact match and an action check; the regressed revision answers the
// return question with 7 days and looks up shipping instead of returns.
func supportRuns() (reference, regressed *models.Run) {
	build := func(id string, seq int64, at time.Time, bad bool) *models.Run {
		retAnswer, retAction := "You can return it within 30 days.", 1.0
		if bad {
			retAnswer, retAction = "You can return it within 7 days.", 0.0
		}
		exact := 1.0
		if bad {
			exact = 0
		}
		run := buildRun(id, seq, at,
			cdef{id: "returns", name: "Return window", question: "How long do I have to return an item?",
				expected: "You can return it within 30 days.", output: retAnswer,
				meta:    `{"failure_mode":"policy_lookup","tags":["returns","policy"]}`,
				metrics: []mdef{metric("exact", 1, sc(exact)), metric("action_group", 1, sc(retAction))}},
			cdef{id: "shipping", name: "Shipping time", question: "How long does shipping take?",
				expected: "Shipping takes 3 to 5 business days.", output: "Shipping takes 3 to 5 business days.",
				meta:    `{"failure_mode":"policy_lookup","tags":["shipping"]}`,
				metrics: []mdef{metric("exact", 1, sc(1)), metric("action_group", 1, sc(1))}},
			cdef{id: "hours", name: "Opening hours", question: "When are you open?",
				expected: "We are open 9 to 5, Monday to Friday.", output: "We are open 9 to 5, Monday to Friday.",
				meta:    `{"failure_mode":"smalltalk","tags":["hours"]}`,
				metrics: []mdef{metric("exact", 1, sc(1)), metric("answer_relevancy", 0.9, nil)}},
		)
		run.Metadata = models.MustJSON(map[string]string{"revision": map[bool]string{false: "reference", true: "regressed"}[bad]})
		run.Cases[0].Actions = models.JSON(`[{"group":"orders","name":"lookup_policy","arguments":{"topic":"returns"}}]`)
		if bad {
			run.Cases[0].Metrics[1].Reason = compare.Ptr("expected lookup_policy(topic: returns), observed lookup_policy(topic: shipping)")
			run.Cases[0].Actions = models.JSON(`[{"group":"orders","name":"lookup_policy","arguments":{"topic":"shipping"}}]`)
		}
		run.Summary = models.JSON(`{"quality":null,"unknown_key":[1,2]}`)
		return run
	}
	return build("01900000-0000-7000-8000-0000000000a1", 10, t0, false),
		build("01900000-0000-7000-8000-0000000000a2", 11, t0.Add(2*time.Hour), true)
}
