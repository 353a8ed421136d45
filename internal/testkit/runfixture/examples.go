package runfixture

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// T0 is the start of the first fixture run, with microseconds so that a
// report shows the stored precision.
var T0 = time.Date(2026, 11, 30, 9, 0, 0, 123456000, time.UTC)

// WorkedExample is the gem's README example: minimum 0.9, a previous score
// of 0.98 and a later one of 0.92.
func WorkedExample() (previous, later *models.Run) {
	q := func(score float64) Case {
		return Case{ID: "returns", Question: "How long do I have to return an item?",
			Expected: "You can return it within 30 days.", Output: "Within 30 days.",
			Metrics: []Metric{NewMetric("semantic_accuracy", 0.9, Score(score))}}
	}
	previous = Build("01900000-0000-7000-8000-000000000001", 1, T0, q(0.98))
	later = Build("01900000-0000-7000-8000-000000000002", 2, T0.Add(time.Hour), q(0.92))
	return previous, later
}

// SupportRuns are the offline support example: three questions answered by
// exact match and an action check; the regressed revision answers the
// return question with 7 days and looks up shipping instead of returns.
func SupportRuns() (reference, regressed *models.Run) {
	build := func(id string, seq int64, at time.Time, bad bool) *models.Run {
		retAnswer, retAction := "You can return it within 30 days.", 1.0
		if bad {
			retAnswer, retAction = "You can return it within 7 days.", 0.0
		}
		exact := 1.0
		if bad {
			exact = 0
		}
		run := Build(id, seq, at,
			Case{ID: "returns", Name: "Return window", Question: "How long do I have to return an item?",
				Expected: "You can return it within 30 days.", Output: retAnswer,
				Meta:    `{"failure_mode":"policy_lookup","tags":["returns","policy"]}`,
				Metrics: []Metric{NewMetric("exact", 1, Score(exact)), NewMetric("action_group", 1, Score(retAction))}},
			Case{ID: "shipping", Name: "Shipping time", Question: "How long does shipping take?",
				Expected: "Shipping takes 3 to 5 business days.", Output: "Shipping takes 3 to 5 business days.",
				Meta:    `{"failure_mode":"policy_lookup","tags":["shipping"]}`,
				Metrics: []Metric{NewMetric("exact", 1, Score(1)), NewMetric("action_group", 1, Score(1))}},
			Case{ID: "hours", Name: "Opening hours", Question: "When are you open?",
				Expected: "We are open 9 to 5, Monday to Friday.", Output: "We are open 9 to 5, Monday to Friday.",
				Meta:    `{"failure_mode":"smalltalk","tags":["hours"]}`,
				Metrics: []Metric{NewMetric("exact", 1, Score(1)), NewMetric("answer_relevancy", 0.9, nil)}},
		)
		run.Metadata = models.MustJSON(map[string]string{"revision": map[bool]string{false: "reference", true: "regressed"}[bad]})
		run.Cases[0].Actions = models.JSON(`[{"group":"orders","name":"lookup_policy","arguments":{"topic":"returns"}}]`)
		if bad {
			run.Cases[0].Metrics[1].Reason = ptr("expected lookup_policy(topic: returns), observed lookup_policy(topic: shipping)")
			run.Cases[0].Actions = models.JSON(`[{"group":"orders","name":"lookup_policy","arguments":{"topic":"shipping"}}]`)
		}
		run.Summary = models.JSON(`{"quality":null,"unknown_key":[1,2]}`)
		return run
	}
	return build("01900000-0000-7000-8000-0000000000a1", 10, T0, false),
		build("01900000-0000-7000-8000-0000000000a2", 11, T0.Add(2*time.Hour), true)
}

// ABRuns are runs A and B of two agents of one definition: 20 questions
// scored by a judge metric (minimum 0.5) from 0.6 to 0.8, B shifted by
// shift (capped at 1).
func ABRuns(shift float64) (a, b *models.Run) {
	var ca, cb []Case
	for i := range 20 {
		s := 0.6 + float64(i%5)*0.05
		ca = append(ca, Case{ID: fmt.Sprintf("q%02d", i), Metrics: []Metric{NewMetric("judge", 0.5, Score(s))}})
		cb = append(cb, Case{ID: fmt.Sprintf("q%02d", i), Metrics: []Metric{NewMetric("judge", 0.5, Score(min(1, s+shift)))}})
	}
	a = Build("01900000-0000-7000-8000-000000000301", 1, T0, ca...)
	b = Build("01900000-0000-7000-8000-000000000302", 2, T0.Add(time.Hour), cb...)
	b.Agent = "SupportAgentB" // an A/B of two agents of the same definition
	return a, b
}

// JudgedRuns builds a baseline and a candidate of n questions scored by
// semantic_accuracy (minimum 0.7) around 0.72, the candidate shifted by
// drop plus seeded noise of sd 0.05, and an exact check on every question.
func JudgedRuns(n int, drop float64, seed uint64) (base, cand *models.Run) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var bc, cc []Case
	for i := range n {
		id := fmt.Sprintf("q%03d", i)
		truth := 0.6 + 0.25*float64(i%5)/4
		clip := func(v float64) float64 { return math.Max(0, math.Min(1, v)) }
		b := clip(truth + 0.05*rng.NormFloat64())
		c := clip(truth - drop + 0.05*rng.NormFloat64())
		bc = append(bc, Case{ID: id, Metrics: []Metric{NewMetric("semantic_accuracy", 0.7, Score(b)), NewMetric("exact", 1, Score(1))}})
		cc = append(cc, Case{ID: id, Metrics: []Metric{NewMetric("semantic_accuracy", 0.7, Score(c)), NewMetric("exact", 1, Score(1))}})
	}
	return Build("01900000-0000-7000-8000-000000000030", 1, T0, bc...),
		Build("01900000-0000-7000-8000-000000000031", 2, T0.Add(time.Minute), cc...)
}
